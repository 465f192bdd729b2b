import Accounts
import CalendarBridge
import Foundation
import GoogleCalendar
import HTTP
import MicrosoftGraph
import OAuth

/// Opens stored accounts as `CalendarProvider`s: the one place that knows which provider speaks which API.
///
/// Every account shares one network transport (one connection cache), and each gets its own
/// authorization (refresh, 401 retry) with retries for throttling inside it: 429/503/504, and Google's
/// 403 `rateLimitExceeded` / `userRateLimitExceeded`, honouring `Retry-After`.
struct AccountProviders {
    let context: CommandContext
    let home: CalbridgeHome
    let registry: AccountRegistry
    private let transport: any HTTPTransport

    init(context: CommandContext, verbose: Bool) {
        self.context = context
        home = CalbridgeHome(environment: context.environment)
        registry = AccountRegistry(home: home)
        transport = context.makeTransport(verbose: verbose)
    }

    /// The named accounts, or every account when `names` is empty.
    /// - Throws: `StorageError` for an unknown name; `InputError` when there are no accounts at all.
    func records(named names: [String]) throws -> [AccountRecord] {
        if !names.isEmpty { return try names.map { try registry.require($0) } }
        let all = try registry.accounts()
        if all.isEmpty {
            throw InputError("there are no accounts yet; add one with 'calbridge accounts add google|microsoft' (see README: Using real accounts)")
        }
        return all
    }

    /// A provider for one stored account.
    func provider(for record: AccountRecord) throws -> any CalendarProvider {
        let descriptor = try ProviderCatalog.descriptor(for: record)
        let session = try AccountSession.open(
            record, descriptor: descriptor, store: FileTokenStore(home: home), base: transport,
            middlewares: [Self.retry], now: context.now
        )
        switch descriptor.api {
        case .googleCalendarV3:
            return GoogleCalendarProvider(account: record.name, transport: session.transport, baseURL: descriptor.apiBaseURL)
        case .microsoftGraphV1:
            return GraphCalendarProvider(account: record.name, transport: session.transport, baseURL: descriptor.apiBaseURL)
        default:
            throw InputError("account '\(record.name)' uses API '\(descriptor.api)', which this calbridge cannot talk to", exitCode: .failure)
        }
    }

    /// Providers for the named accounts (every account when `names` is empty).
    func providers(named names: [String]) throws -> [any CalendarProvider] {
        try records(named: names).map(provider(for:))
    }

    /// The provider of the account a `CalendarRef` names.
    func provider(for reference: CalendarRef) throws -> any CalendarProvider {
        try provider(for: registry.require(reference.account))
    }

    /// Throttling retries shared by every account.
    static let retry = RetryMiddleware(isRetryable: { response in
        guard response.status == 403 else { return false }
        let text = response.bodyText
        return text.contains("\"rateLimitExceeded\"") || text.contains("\"userRateLimitExceeded\"")
    })
}
