import CalendarBridge
import Foundation
import HTTP
import OAuth

/// Everything calbridge needs to know about one calendar provider, in one value that the provider's
/// module exports (`GoogleCalendarRegistration.registration`, ...). The CLI, `whoami`, sign-in and the
/// sandbox seeder only iterate registrations; no other place names a provider.
public struct ProviderRegistration: Sendable {
    /// The id users type (`calbridge accounts add google`) and accounts store as `provider`.
    public var id: String
    /// The provider's name in messages ("Google Calendar").
    public var displayName: String
    /// The API this provider speaks. A descriptor's `api` must name a registered one.
    public var api: ProviderAPI
    /// The credential an account of this provider signs in with (OAuth tokens, a user name and app password).
    public var credential: CredentialRequirement
    /// Middleware inside authentication for every call of this provider (throttling retries that know
    /// the provider's own rate-limit answers).
    public var middlewares: [any HTTPMiddleware]
    /// The service's request budget per account (`RequestQuota`), nil for none; `AccountSessions` gives
    /// each account its own, shared by everything the process does with that account. The provider
    /// declares it from its service's documentation (HTTP knows no service's limits).
    public var requestQuota: RequestQuota.Limit?
    /// What the zone in `UserInfo` belongs to ("mailbox", "primary calendar"), for `whoami`.
    public var userTimeZoneSource: String
    /// The loopback host the browser sign-in redirects to, as this provider's server matches it (OAuth only).
    public var redirectHost: AuthorizationCodeFlow.RedirectHost
    /// What to tell the user, besides signing in again, when a refresh gets `invalid_grant` (a cause
    /// the provider documents, such as Google's 7-day tokens for apps in "Testing"), or nil.
    public var invalidGrantAdvice: String?
    private let factory: @Sendable (ProviderAccount, any HTTPTransport) throws -> any CalendarProvider

    /// - Parameters:
    ///   - credential: what an account signs in with (`.oauth(builtInDescriptor:)`, `.password(_:)`).
    ///   - makeProvider: builds the provider for one account on an authenticated transport (which adds the
    ///     credential and runs `middlewares`); called once per account per process. The provider never
    ///     sees the secret.
    public init(
        id: String, displayName: String, api: ProviderAPI, credential: CredentialRequirement,
        middlewares: [any HTTPMiddleware] = [], requestQuota: RequestQuota.Limit? = nil, userTimeZoneSource: String = "account",
        invalidGrantAdvice: String? = nil,
        redirectHost: AuthorizationCodeFlow.RedirectHost = .ipLiteral,
        makeProvider: @escaping @Sendable (_ account: ProviderAccount, _ transport: any HTTPTransport) throws -> any CalendarProvider
    ) {
        self.id = id
        self.displayName = displayName
        self.api = api
        self.credential = credential
        self.middlewares = middlewares
        self.requestQuota = requestQuota
        self.userTimeZoneSource = userTimeZoneSource
        self.invalidGrantAdvice = invalidGrantAdvice
        self.redirectHost = redirectHost
        self.factory = makeProvider
    }

    /// The provider for one account, speaking over `transport`.
    public func makeProvider(account: ProviderAccount, transport: any HTTPTransport) throws -> any CalendarProvider {
        try factory(account, transport)
    }

    /// The built-in descriptor for `tenant`, or nil for a provider that does not sign in with OAuth.
    /// - Throws: `DescriptorError` when the built-in document is broken.
    public func builtInDescriptor(tenant: String = ProviderDescriptor.defaultTenant) throws -> ProviderDescriptor? {
        guard case .oauth(let data) = credential else { return nil }
        return try ProviderDescriptor.parse(data, source: "built-in \(id)", tenant: tenant, apis: [api])
    }
}

/// What a provider factory is told about the account it serves.
public struct ProviderAccount: Sendable, Equatable {
    /// The calbridge account name (stamped on calendars and errors).
    public var name: String
    /// Where the account's API lives (an OAuth descriptor's `apiBaseURL`, a password account's server:
    /// the real service or a sandbox; a secret-URL account's URL, which the provider must never print).
    public var apiBaseURL: URL
    /// Where the provider may keep state of its own for this account (a feed's last good body), kept as
    /// privately as the account's secret; nil where there is no home (a sign-in's first request, tests).
    public var state: (any ProviderStateStore)?

    public init(name: String, apiBaseURL: URL, state: (any ProviderStateStore)? = nil) {
        self.name = name
        self.apiBaseURL = apiBaseURL
        self.state = state
    }

    public static func == (a: ProviderAccount, b: ProviderAccount) -> Bool {
        a.name == b.name && a.apiBaseURL == b.apiBaseURL && (a.state == nil) == (b.state == nil)
    }
}

/// A provider's own state for one account, by item name: files in calbridge's home, 0600 in the 0700
/// directory, replaced atomically under the account's lock (`Accounts.FileProviderState`). Items are small
/// names (`feed.ics`); the store decides where they live.
///
/// Writing a test double: a dictionary in an actor or behind a lock.
public protocol ProviderStateStore: Sendable {
    /// The item's bytes, or nil when it was never saved (or was removed).
    func load(_ item: String) throws -> Data?
    /// Replaces the item's bytes.
    func save(_ data: Data, as item: String) async throws
    /// Removes every item of the account.
    func removeAll() async throws
}
