import CalendarBridge
import Foundation
import GoogleCalendar
import HTTP
import MicrosoftGraph
import OAuth
import Org

/// The worker's providers: a mailbox's domain picks its credential; Graph is addressed as
/// `/users/{address}` with the tenant's app token, Google acts as the calendar's owner (a token per `sub`),
/// so Google's per-user limits count against whoever writes. One token cache per credential, shared by every
/// mailbox it serves; the service's throttling answers are retried by the providers' own retry middleware.
/// Every request, each retry too, first takes its cost from the credential's shared quota (its tenant's or
/// its Google project's, `OrgRequestQuota`), waiting while that is spent.
struct OrgMailboxProviders: MailboxProviderOpener {
    private let credentials: [OrgCredential]
    private let tokens: [String: AppTokenCache]
    /// By credential name; credentials of one tenant or project share one.
    private let quotas: [String: OrgRequestQuota]
    private let network: any HTTPTransport
    private let userAgent: String

    /// - Parameter worker: the worker's name, sent in each request's `User-Agent` (Microsoft asks ISVs to
    ///   decorate their traffic so; a service's logs then tell which worker sent what).
    ///   - quotaConnection: the connection the shared quotas are taken through (one for the worker).
    init(
        credentials: [OrgCredential], network: any HTTPTransport, environment: [String: String], worker: String,
        quotaConnection: PostgresConnection
    ) {
        self.credentials = credentials
        self.network = network
        self.userAgent = "calbridge-worker (\(worker.filter { $0.isASCII && !$0.isNewline && $0 != ")" }))"
        var tokens: [String: AppTokenCache] = [:]
        for credential in credentials {
            tokens[credential.name] = AppTokenCache(grant: credential.grant(environment: environment), transport: network)
        }
        self.tokens = tokens
        var byName: [String: OrgRequestQuota] = [:]
        var quotas: [String: OrgRequestQuota] = [:]
        for credential in credentials {
            let name = OrgQuota.name(for: credential)
            let quota = byName[name] ?? OrgRequestQuota(name: name, connection: quotaConnection)
            byName[name] = quota
            quotas[credential.name] = quota
        }
        self.quotas = quotas
    }

    func open(_ address: String) async throws -> any ChangeReadingProvider {
        let domain = PairsCSV.domain(of: address)
        guard let credential = credentials.first(where: { $0.domains.contains(domain) }), let tokens = tokens[credential.name],
            let quota = quotas[credential.name]
        else {
            throw OrgError.usage(
                "no credential serves the domain of \(address) (calbridge org credential add ... --domain \(domain))")
        }
        let transport = MiddlewareTransport(
            base: network,
            middlewares: [
                UserAgent(value: userAgent), RetryMiddleware(), QuotaMiddleware(quota),
                AppOnlyAuthentication(tokens: tokens, subject: address),
            ])
        switch credential.provider {
        case .microsoft:
            return GraphCalendarProvider(
                account: address, transport: transport, baseURL: credential.apiBaseURL, mailbox: .user(address))
        case .google:
            return GoogleCalendarProvider(account: address, transport: transport, baseURL: credential.apiBaseURL)
        }
    }
}

/// Sets `User-Agent` on each request.
private struct UserAgent: HTTPMiddleware {
    let value: String

    func intercept(_ request: HTTPRequest, next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        var request = request
        request.headers["User-Agent"] = value
        return try await next(request)
    }
}
