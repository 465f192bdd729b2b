import Foundation
import HTTP
import OAuth

/// One stored account, ready for API calls: its record and a transport that authenticates every request
/// with the account's credential (OAuth: a bearer token refreshed by `tokens`; password: HTTP Basic).
/// Providers are built on `transport`; they never see a secret.
public struct AccountSession: Sendable {
    public let record: AccountRecord
    /// The provider's name in messages (the descriptor's, for OAuth accounts).
    public let providerName: String
    /// Where the account's API lives.
    public let apiBaseURL: URL
    /// The OAuth descriptor; nil for accounts of other credentials.
    public let descriptor: ProviderDescriptor?
    /// The OAuth token manager (single-flight refresh); nil for accounts of other credentials.
    public let tokens: TokenManager?
    public let transport: any HTTPTransport

    /// Opens an OAuth account's stored tokens.
    ///
    /// - Parameters:
    ///   - record: the account (from `AccountRegistry`).
    ///   - descriptor: its provider descriptor (`record.descriptor`, or the built-in one for `record.provider`).
    ///   - store: where its tokens are kept (normally `FileTokenStore`).
    ///   - base: the network transport.
    ///   - middlewares: more middleware inside authentication (retry, `--verbose` logging).
    ///   - invalidGrantAdvice: the provider's explanation of a refused refresh (its registration's).
    /// - Throws: `ReauthenticationRequired` when no tokens are stored; `StorageError` for unreadable files.
    public static func open(
        _ record: AccountRecord,
        descriptor: ProviderDescriptor,
        store: any TokenStore,
        base: any HTTPTransport,
        middlewares: [any HTTPMiddleware] = [],
        invalidGrantAdvice: String? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws -> AccountSession {
        var identity = TokenManager.Identity(record, providerName: descriptor.displayName)
        identity.invalidGrantAdvice = invalidGrantAdvice
        guard let oauth = record.oauth else {
            throw ReauthenticationRequired(
                account: record.name, provider: descriptor.displayName, command: record.signInCommand,
                reason: "the account does not sign in with OAuth"
            )
        }
        guard let stored = try store.load(account: record.name) else {
            throw ReauthenticationRequired(
                account: record.name, provider: descriptor.displayName, command: record.signInCommand,
                reason: "no stored tokens"
            )
        }
        let client = OAuthClient(
            descriptor: descriptor, credentials: oauth.clientCredentials(descriptor: descriptor), transport: base, now: now)
        let manager = TokenManager(tokens: stored, client: client, store: store, identity: identity, now: now)
        return AccountSession(
            record: record, providerName: descriptor.displayName, apiBaseURL: descriptor.apiBaseURL, descriptor: descriptor,
            tokens: manager, transport: AuthorizedTransport(base: base, tokens: manager, middlewares: middlewares)
        )
    }

    /// Opens a password account with its stored password.
    /// - Throws: `ReauthenticationRequired` when no password is stored; `StorageError` for unreadable files.
    public static func open(
        _ record: AccountRecord,
        providerName: String,
        passwords: FilePasswordStore,
        base: any HTTPTransport,
        middlewares: [any HTTPMiddleware] = []
    ) throws -> AccountSession {
        guard case .password(let credential) = record.credential else {
            throw ReauthenticationRequired(
                account: record.name, provider: providerName, command: record.signInCommand,
                reason: "the account does not sign in with a password"
            )
        }
        guard let password = try passwords.load(account: record.name) else {
            throw ReauthenticationRequired(
                account: record.name, provider: providerName, command: record.signInCommand, reason: "no stored password")
        }
        // Authentication outermost, as `AuthorizedTransport` puts it: retries and logging see the header.
        let authentication = BasicAuthentication(userName: credential.userName, password: password)
        return AccountSession(
            record: record, providerName: providerName, apiBaseURL: credential.server, descriptor: nil, tokens: nil,
            transport: MiddlewareTransport(base: base, middlewares: [authentication] + middlewares)
        )
    }

    /// Opens a secret-URL account (a subscribed feed): its stored URL is the API's address; requests carry no
    /// authentication of their own.
    /// - Throws: `ReauthenticationRequired` when no URL is stored; `StorageError` for unreadable files.
    public static func open(
        _ record: AccountRecord,
        providerName: String,
        urls: FileSecretURLStore,
        base: any HTTPTransport,
        middlewares: [any HTTPMiddleware] = []
    ) throws -> AccountSession {
        guard case .secretURL = record.credential, let url = try urls.load(account: record.name) else {
            throw ReauthenticationRequired(
                account: record.name, provider: providerName, command: record.signInCommand, reason: "no stored feed URL")
        }
        return AccountSession(
            record: record, providerName: providerName, apiBaseURL: url, descriptor: nil, tokens: nil,
            transport: middlewares.isEmpty ? base : MiddlewareTransport(base: base, middlewares: middlewares))
    }

    /// Makes sure the credential can be used now, without an API request: an OAuth access token is
    /// refreshed when it is about to expire (a grant that must be renewed throws `ReauthenticationRequired`);
    /// a stored password needs nothing.
    public func requireCredential() async throws {
        if let tokens { _ = try await tokens.accessToken() }
    }
}

extension TokenManager.Identity {
    /// The identity of a stored account.
    public init(_ record: AccountRecord, providerName: String) {
        self.init(account: record.name, providerName: providerName, signInCommand: record.signInCommand)
    }
}
