import Foundation

/// Hands out a valid access token for one account and refreshes it, at most once at a time.
///
/// States: valid (until its expiry), refreshing (one shared `Task` every caller awaits), and
/// signed out (the grant is gone; every caller gets `ReauthenticationRequired`). A refresh starts a
/// minute before expiry (`refreshMargin`), or when an API rejected the current token. Every new
/// token set is written to the `TokenStore` before anyone uses it.
public actor TokenManager {
    /// Who the tokens belong to, for the re-authentication message.
    public struct Identity: Sendable, Equatable {
        public var account: String
        public var providerName: String
        public var signInCommand: String
        public init(account: String, providerName: String, signInCommand: String) {
            self.account = account
            self.providerName = providerName
            self.signInCommand = signInCommand
        }
    }

    private enum State {
        case valid(TokenSet)
        case refreshing(Task<TokenSet, any Error>, previous: TokenSet)
        case signedOut(ReauthenticationRequired)
    }

    private var state: State
    private let client: OAuthClient
    private let store: any TokenStore
    private let identity: Identity
    private let now: @Sendable () -> Date
    private let refreshMargin: TimeInterval
    /// Refreshes started (tests and `--verbose` read it).
    public private(set) var refreshCount = 0

    /// - Parameters:
    ///   - tokens: the current tokens (from the store, or fresh from a sign-in).
    ///   - client: the authorization server to refresh at.
    ///   - store: where new tokens are persisted.
    ///   - identity: the account, for the re-authentication error.
    ///   - now: the clock deciding expiry (tests inject one).
    ///   - refreshMargin: refresh this long before expiry (default one minute).
    public init(
        tokens: TokenSet,
        client: OAuthClient,
        store: any TokenStore,
        identity: Identity,
        now: @escaping @Sendable () -> Date = { Date() },
        refreshMargin: TimeInterval = 60
    ) {
        self.state = .valid(tokens)
        self.client = client
        self.store = store
        self.identity = identity
        self.now = now
        self.refreshMargin = refreshMargin
    }

    /// The current tokens (after any refresh in progress).
    public var tokens: TokenSet {
        get async throws {
            switch state {
            case .valid(let tokens): return tokens
            case .refreshing(let task, _): return try await task.value
            case .signedOut(let error): throw error
            }
        }
    }

    /// An access token that is valid for at least `refreshMargin` (refreshing first if needed).
    public func accessToken() async throws -> String {
        switch state {
        case .valid(let tokens):
            guard tokens.needsRefresh(at: now(), margin: refreshMargin) else { return tokens.accessToken }
            return try await refresh(from: tokens).accessToken
        case .refreshing(let task, _):
            return try await task.value.accessToken
        case .signedOut(let error):
            throw error
        }
    }

    /// After an API answered 401 to `rejected`: a newer token, refreshing unless someone already has.
    public func accessToken(replacingRejected rejected: String) async throws -> String {
        switch state {
        case .valid(let tokens):
            if tokens.accessToken != rejected { return tokens.accessToken }
            return try await refresh(from: tokens).accessToken
        case .refreshing(let task, _):
            return try await task.value.accessToken
        case .signedOut(let error):
            throw error
        }
    }

    /// Starts the one refresh (the caller is on the actor, so no other can start meanwhile) and waits.
    private func refresh(from tokens: TokenSet) async throws -> TokenSet {
        guard let refreshToken = tokens.refreshToken else {
            let error = reauthentication("no refresh token was issued")
            state = .signedOut(error)
            throw error
        }
        refreshCount += 1
        let client = self.client, store = self.store, account = identity.account
        let task = Task<TokenSet, any Error> {
            let fresh = try await client.refresh(refreshToken)
            try store.save(fresh, account: account)
            return fresh
        }
        state = .refreshing(task, previous: tokens)
        do {
            let fresh = try await task.value
            finish(task, with: .valid(fresh))
            return fresh
        } catch let error as OAuthError where error.code == .invalidGrant {
            let reauth = reauthentication(error.errorDescription.map { "invalid_grant: \($0)" } ?? "invalid_grant")
            finish(task, with: .signedOut(reauth))
            throw reauth
        } catch {
            // A network or server failure: keep the old tokens so a later call can try again.
            finish(task, with: .valid(tokens))
            throw error
        }
    }

    /// Leaves the refreshing state, unless another refresh has already replaced it.
    private func finish(_ task: Task<TokenSet, any Error>, with next: State) {
        if case .refreshing(let current, _) = state, current == task { state = next }
    }

    private func reauthentication(_ reason: String) -> ReauthenticationRequired {
        ReauthenticationRequired(
            account: identity.account, provider: identity.providerName, command: identity.signInCommand, reason: reason
        )
    }
}
