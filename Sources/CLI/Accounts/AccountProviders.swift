import Accounts
import CalendarBridge
import Foundation

/// Opens stored accounts as `CalendarProvider`s for one command, through the context's provider
/// registrations: each account once (one session, one provider), however many calendars of it the
/// command names.
package struct AccountProviders {
    let context: CommandContext
    let sessions: AccountSessions

    /// - Parameter connectionsPerHost: the transport's most connections to one host (`makeTransport`).
    package init(context: CommandContext, verbose: Bool, connectionsPerHost: Int = 8) {
        self.context = context
        sessions = AccountSessions(
            home: CalbridgeHome(environment: context.environment), providers: context.providers,
            transport: context.makeTransport(verbose: verbose, connectionsPerHost: connectionsPerHost), now: context.now
        )
    }

    var registry: AccountRegistry { sessions.registry }

    /// The named accounts, or every account when `names` is empty.
    /// - Throws: `StorageError` for an unknown name; `InputError` when there are no accounts at all.
    func records(named names: [String]) throws -> [AccountRecord] {
        let all = try registry.accounts()
        if !names.isEmpty { return try names.map { try registry.require($0, in: all) } }
        if all.isEmpty {
            throw InputError("there are no accounts yet; add one with 'calbridge accounts add \(context.providers.ids.joined(separator: "|"))' (see README: Using real accounts)")
        }
        return all
    }

    /// The provider of one stored account (the same value on every call for that account).
    func provider(for record: AccountRecord) throws -> any CalendarProvider {
        try sessions.provider(for: record)
    }

    /// Providers for the named accounts (every account when `names` is empty).
    func providers(named names: [String]) throws -> [any CalendarProvider] {
        try records(named: names).map(provider(for:))
    }

    /// The provider of the account a `CalendarRef` names.
    package func provider(for reference: CalendarRef) throws -> any CalendarProvider {
        try provider(for: registry.require(reference.account))
    }
}
