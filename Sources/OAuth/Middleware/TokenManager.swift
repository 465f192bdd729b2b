import Foundation

/// Hands out a valid access token for one account and refreshes it, at most once at a time.
///
/// States: valid (until its expiry), refreshing (one shared `Task` every caller awaits), and
/// signed out (the grant is gone; every caller gets `ReauthenticationRequired`). A refresh starts a
/// minute before expiry (`refreshMargin`), or when an API rejected the current token. Every new
/// token set is written to the `TokenStore` before anyone uses it (retried when the write fails; kept
/// in memory if it still fails). A refresh runs under the store's exclusive access for the account and
/// re-reads it first, so processes sharing a token file refresh once between them and never use a
/// refresh token another one rotated away.
public actor TokenManager {
    /// Who the tokens belong to, for the re-authentication message.
    public struct Identity: Sendable, Equatable {
        public var account: String
        public var providerName: String
        public var signInCommand: String
        /// What else to tell the user when a refresh gets `invalid_grant` (the provider's own
        /// explanation: Google's 7-day tokens for apps in "Testing"), or nil.
        public var invalidGrantAdvice: String?
        public init(account: String, providerName: String, signInCommand: String, invalidGrantAdvice: String? = nil) {
            self.account = account
            self.providerName = providerName
            self.signInCommand = signInCommand
            self.invalidGrantAdvice = invalidGrantAdvice
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
            case .refreshing(let task, _): return try await joined(task)
            case .signedOut(let error): throw error
            }
        }
    }

    /// An access token that is valid for at least `refreshMargin` (refreshing first if needed).
    public func accessToken() async throws -> String {
        if unsaved != nil { await retryUnsavedSave() }
        switch state {
        case .valid(let tokens):
            guard tokens.needsRefresh(at: now(), margin: refreshMargin) else { return tokens.accessToken }
            return try await refresh(from: tokens).accessToken
        case .refreshing(let task, _):
            return try await joined(task).accessToken
        case .signedOut(let error):
            throw error
        }
    }

    /// After an API answered 401 to `rejected`: a newer token, refreshing unless someone already has.
    public func accessToken(replacingRejected rejected: String) async throws -> String {
        if unsaved != nil { await retryUnsavedSave() }
        switch state {
        case .valid(let tokens):
            if tokens.accessToken != rejected { return tokens.accessToken }
            return try await refresh(from: tokens).accessToken
        case .refreshing(let task, _):
            return try await joined(task).accessToken
        case .signedOut(let error):
            throw error
        }
    }

    /// Waits for the refresh another caller started. A refused grant reaches every waiter as the same
    /// `ReauthenticationRequired` the starter gets (the task itself throws the provider's `OAuthError`):
    /// two requests of one account waiting on one refused refresh both say "sign in again".
    private func joined(_ task: Task<TokenSet, any Error>) async throws -> TokenSet {
        do {
            return try await task.value
        } catch let error as OAuthError where error.requiresSignIn {
            throw ReauthenticationRequired(
                refreshError: error, account: identity.account, provider: identity.providerName,
                command: identity.signInCommand, invalidGrantAdvice: identity.invalidGrantAdvice
            )
        }
    }

    /// Starts the one refresh (the caller is on the actor, so no other can start meanwhile) and waits.
    ///
    /// Across processes: the refresh runs under the store's exclusive access for the account, and first
    /// re-reads the stored tokens. When another process has already replaced the expired token, its
    /// tokens are used and nothing is sent; otherwise the refresh uses the *stored* refresh token (the
    /// newest, if another process rotated it). A new token set is saved with retries; if it still cannot
    /// be saved it is kept in memory (never swapped back for the old, possibly rotated-away, one) and the
    /// save is tried again on the next call.
    private func refresh(from tokens: TokenSet) async throws -> TokenSet {
        guard tokens.refreshToken != nil else {
            let error = reauthentication("no refresh token was issued")
            state = .signedOut(error)
            throw error
        }
        refreshCount += 1
        let client = self.client, store = self.store, account = identity.account, now = self.now, margin = refreshMargin
        // Tokens this process could not save are newer than the file: the file's must not replace them.
        let holdsUnsaved = unsaved != nil
        let task = Task<TokenSet, any Error> {
            try await store.withExclusiveAccess(account: account) {
                let stored = holdsUnsaved ? nil : try store.load(account: account)
                if let stored, stored.accessToken != tokens.accessToken, !stored.needsRefresh(at: now(), margin: margin) {
                    return RefreshOutcome(tokens: stored, adopted: true)
                }
                guard let refreshToken = stored?.refreshToken ?? tokens.refreshToken else {
                    throw OAuthError(code: .invalidGrant, errorDescription: "no refresh token is stored", endpoint: "token store")
                }
                let fresh = try await client.refresh(refreshToken)
                return RefreshOutcome(tokens: fresh, saveError: await Self.persist(fresh, in: store, account: account))
            }.tokensRecordingSave(into: self)
        }
        state = .refreshing(task, previous: tokens)
        do {
            let fresh = try await task.value
            finish(task, with: .valid(fresh))
            return fresh
        } catch let error as OAuthError where error.requiresSignIn {
            let reauth = ReauthenticationRequired(
                refreshError: error, account: identity.account, provider: identity.providerName,
                command: identity.signInCommand, invalidGrantAdvice: identity.invalidGrantAdvice
            )
            finish(task, with: .signedOut(reauth))
            throw reauth
        } catch {
            // A network, server or lock failure before any new token existed: the old tokens still hold.
            finish(task, with: .valid(tokens))
            throw error
        }
    }

    /// What one refresh produced: the tokens to use, whether another process had made them, and why
    /// they could not be saved (nil: saved, or adopted from the store).
    struct RefreshOutcome: Sendable {
        var tokens: TokenSet
        var adopted = false
        var saveError: (any Error)?

        /// Notes an unsaved token set on the manager, then hands the tokens on.
        func tokensRecordingSave(into manager: TokenManager) async -> TokenSet {
            await manager.recordSave(of: tokens, error: saveError, adopted: adopted)
            return tokens
        }
    }

    /// Saves `tokens`, retrying a failed save a few times (a full disk, a transient I/O error).
    /// - Returns: nil when saved, else the last error.
    static func persist(_ tokens: TokenSet, in store: any TokenStore, account: String, attempts: Int = 4) async -> (any Error)? {
        var last: (any Error)?
        for attempt in 0..<attempts {
            do {
                try store.save(tokens, account: account)
                return nil
            } catch {
                last = error
                if attempt + 1 < attempts { try? await Task.sleep(for: .milliseconds(50 << attempt)) }
            }
        }
        return last
    }

    /// Tokens that could not be saved yet (kept in memory; saved again before the next use).
    private var unsaved: TokenSet?
    /// Why the newest tokens are not saved (nil when they are): a caller may warn that they live only
    /// in this process.
    public private(set) var unsavedError: (any Error)?
    /// Refreshes that found another process's new tokens in the store and sent nothing (tests, `--verbose`).
    public private(set) var adoptedCount = 0

    fileprivate func recordSave(of tokens: TokenSet, error: (any Error)?, adopted: Bool) {
        if adopted { adoptedCount += 1 }
        unsaved = error == nil ? nil : tokens
        unsavedError = error
    }

    /// Tries again to save tokens an earlier save could not write; a success clears `unsavedError`.
    private func retryUnsavedSave() async {
        guard let pending = unsaved else { return }
        let store = self.store, account = identity.account
        let error: (any Error)?
        do {
            error = try await store.withExclusiveAccess(account: account) {
                await Self.persist(pending, in: store, account: account, attempts: 1)
            }
        } catch {
            return
        }
        if unsaved?.accessToken == pending.accessToken {
            unsaved = error == nil ? nil : pending
            unsavedError = error
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

