import CalendarBridge
import Foundation
import HTTP
import OAuth
import ProviderSeam

/// The open accounts of one process: one session (one token manager, so one single-flight refresh)
/// and one provider (so one per-mailbox concurrency limit) per account, however many calendars of it
/// a command touches.
///
/// Every account shares the one network transport (one connection cache); each gets its own
/// authorization with its provider's middleware (throttling retries) inside it.
public final class AccountSessions: @unchecked Sendable {
    private struct Open {
        var session: AccountSession
        var provider: any CalendarProvider
    }

    public let home: CalbridgeHome
    public let registry: AccountRegistry
    public let providers: ProviderRegistry
    private let store: any TokenStore
    private let passwords: FilePasswordStore
    private let secretURLs: FileSecretURLStore
    private let transport: any HTTPTransport
    private let now: @Sendable () -> Date
    /// Request budgets by provider id, replacing the registrations' own (`ProviderRegistration.requestQuota`).
    private let requestQuotas: [String: RequestQuota.Limit]
    /// Guards `open`; held while an account is opened so two callers cannot open it twice.
    private let lock = NSLock()
    private var open: [String: Open] = [:]

    /// - Parameters:
    ///   - transport: the network transport every account shares.
    ///   - store: where tokens are kept (default: the home's token files); passwords are in the home's password files.
    public init(
        home: CalbridgeHome, providers: ProviderRegistry, transport: any HTTPTransport,
        store: (any TokenStore)? = nil, requestQuotas: [String: RequestQuota.Limit] = [:],
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.requestQuotas = requestQuotas
        self.home = home
        self.registry = AccountRegistry(home: home)
        self.providers = providers
        self.store = store ?? FileTokenStore(home: home)
        self.passwords = FilePasswordStore(home: home)
        self.secretURLs = FileSecretURLStore(home: home)
        self.transport = transport
        self.now = now
    }

    /// The account's provider, opened on first use and shared afterwards.
    /// - Throws: `ProviderRegistryError`, `ReauthenticationRequired` when no tokens or password are stored,
    ///   `StorageError`, or what the provider's factory throws.
    public func provider(for record: AccountRecord) throws -> any CalendarProvider {
        try opened(record).provider
    }

    /// The account's session, opened on first use and shared afterwards.
    public func session(for record: AccountRecord) throws -> AccountSession {
        try opened(record).session
    }

    private func opened(_ record: AccountRecord) throws -> Open {
        try lock.withLock {
            if let existing = open[record.name], existing.session.record == record { return existing }
            let registration = try providers.registration(for: record)
            // One budget per account, inside the retries so that each attempt counts.
            let quota = (requestQuotas[registration.id] ?? registration.requestQuota).map { QuotaMiddleware(RequestQuota($0)) }
            let middlewares = registration.middlewares + (quota.map { [$0] } ?? [])
            let session: AccountSession
            if let descriptor = try providers.descriptor(for: record) {
                session = try AccountSession.open(
                    record, descriptor: descriptor, store: store, base: transport, middlewares: middlewares,
                    invalidGrantAdvice: registration.invalidGrantAdvice, now: now
                )
            } else if case .secretURL = record.credential {
                session = try AccountSession.open(
                    record, providerName: registration.displayName, urls: secretURLs, base: transport, middlewares: middlewares)
            } else {
                session = try AccountSession.open(
                    record, providerName: registration.displayName, passwords: passwords, base: transport, middlewares: middlewares)
            }
            let provider = try registration.makeProvider(
                account: ProviderAccount(
                    name: record.name, apiBaseURL: session.apiBaseURL, state: FileProviderState(home: home, account: record.name)),
                transport: session.transport
            )
            let entry = Open(session: session, provider: provider)
            open[record.name] = entry
            return entry
        }
    }
}
