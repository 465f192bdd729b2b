import Foundation
import HTTP
import OAuth

/// One stored account, ready for API calls: its record, descriptor, token manager and an
/// `AuthorizedTransport`. Providers are built on `transport`; they never see a token.
public struct AccountSession: Sendable {
    public let record: AccountRecord
    public let descriptor: ProviderDescriptor
    public let tokens: TokenManager
    public let transport: AuthorizedTransport

    /// Opens the account's stored tokens.
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
        guard let stored = try store.load(account: record.name) else {
            throw ReauthenticationRequired(
                account: record.name, provider: descriptor.displayName, command: record.signInCommand,
                reason: "no stored tokens"
            )
        }
        let credentials: ClientCredentials
        switch record.credential {
        case .oauth(let oauth): credentials = oauth.clientCredentials(descriptor: descriptor)
        }
        let client = OAuthClient(descriptor: descriptor, credentials: credentials, transport: base, now: now)
        let manager = TokenManager(tokens: stored, client: client, store: store, identity: identity, now: now)
        return AccountSession(
            record: record, descriptor: descriptor, tokens: manager,
            transport: AuthorizedTransport(base: base, tokens: manager, middlewares: middlewares)
        )
    }
}

extension TokenManager.Identity {
    /// The identity of a stored account.
    public init(_ record: AccountRecord, providerName: String) {
        self.init(account: record.name, providerName: providerName, signInCommand: record.signInCommand)
    }
}
