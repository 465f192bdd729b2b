import Accounts
import CalendarBridge
import Foundation

/// What `agenda`, `week` and `month` share: which accounts and calendars they read, `--query`, `--tz`,
/// and the one way they read them and report what failed.
enum AgendaOptions {
    static let account = RepeatedOption("account", "NAME", "Every calendar of this account (default: every account).")
    static let calendar = RepeatedOption("calendar", "REF", "Only this calendar of its account (account:calendar).")
    static let query = Option<String>(
        "query", "TEXT", "Only events with every word of TEXT in the title, location or description (case and accents ignored).")
    static let tz = ZoneOptions.option("Show times and days in this zone (default: $TZ, else the system zone).")

    /// The selection options, in the order help lists them.
    static let selection: [any OptionDeclaration] = [account, calendar, query, tz]

    /// `--query`, or nil when not given. An empty one is refused (it would name every event).
    static func eventQuery(_ arguments: ParsedArguments, command: String) throws -> EventQuery? {
        guard let text = arguments[query] else { return nil }
        guard let query = EventQuery(text) else {
            throw UsageError("--query needs at least one word (it names the events with every word)", command: command)
        }
        return query
    }

    /// Reads the window from every account and calendar the arguments select, accounts at once.
    /// - Throws: `UsageError`/`CalendarError` for a malformed `--calendar`, `StorageError` for an unknown
    ///   account (before anything is read), `InputError` when there are no accounts.
    static func read(
        _ arguments: ParsedArguments, range: TimeRange, zone: TimeZone, command: String, context: CommandContext
    ) async throws -> AgendaResult {
        let query = try eventQuery(arguments, command: command)
        // Every calendar of every account is listed at once, four per account: over HTTP/1.1 (the sandbox,
        // a proxy without HTTP/2) the default 8 connections to a host that serves several accounts would
        // queue a second round of listings behind the first. Over HTTP/2 they share one connection anyway.
        let accounts = AccountProviders(context: context, verbose: arguments[CommonOptions.verbose], connectionsPerHost: 32)
        let references = try arguments[calendar].map { try CalendarRef(parsing: $0) }
        let named = arguments[account]
        // Every account unless some are named; an account a --calendar names is narrowed to the calendars named.
        var wanted: [(record: AccountRecord, calendars: [CalendarRef]?)] = []
        let records = try named.isEmpty && !references.isEmpty ? [] : accounts.records(named: named)
        for record in records where !wanted.contains(where: { $0.record.name == record.name }) { wanted.append((record, nil)) }
        for reference in references {
            if let index = wanted.firstIndex(where: { $0.record.name == reference.account }) {
                wanted[index].calendars = (wanted[index].calendars ?? []) + [reference]
            } else {
                wanted.append((try accounts.registry.require(reference.account), [reference]))
            }
        }

        // An account whose session cannot even be opened (no tokens) fails like one whose request fails.
        var selections: [AgendaReader.Selection] = []
        var openFailures: [AgendaResult.OpenFailure] = []
        for want in wanted {
            do {
                selections.append(AgendaReader.Selection(provider: try accounts.provider(for: want.record), calendars: want.calendars))
            } catch {
                openFailures.append(AgendaResult.OpenFailure(account: want.record.name, error: error))
            }
        }
        let agenda = await AgendaReader(selections).read(range, zone: zone, query: query)
        return AgendaResult(agenda: agenda, openFailures: openFailures, range: range, zone: zone)
    }
}

/// One read of the selected calendars: what was found, what failed, and the exit code that follows.
struct AgendaResult {
    /// An account that could not be opened at all.
    struct OpenFailure {
        var account: String
        var error: any Error
    }

    var agenda: Agenda
    var openFailures: [OpenFailure]
    var range: TimeRange
    var zone: TimeZone

    /// Every failure as (account, calendar or nil, error), accounts that could not be opened first.
    var failures: [(account: String, calendar: String?, error: any Error)] {
        openFailures.map { ($0.account, nil, $0.error) } + agenda.failures.map { ($0.account, $0.calendar, $0.error) }
    }

    /// References that name no calendar (or several): the request's mistake, exit 2 with nothing listed.
    var unresolved: [Agenda.Failure] {
        agenda.failures.filter { if case .resolving = $0.stage { return true } else { return false } }
    }

    /// Whether there is anything to list: some calendar was read.
    var readAnything: Bool { !agenda.readCalendars.isEmpty }

    /// How each calendar is named in the output: the reference `calendars` prints, which the next command takes.
    func reference(_ calendar: CalendarInfo) -> String { calendar.reference(among: agenda.calendars) }

    /// The failures as JSON objects (`account`, `calendar` when one, `error`), for the listing's document.
    func failuresJSON(environment: [String: String]) -> [[String: Any]] {
        failures.map { failure in
            var object: [String: Any] = [
                "account": failure.account, "error": ErrorReporting.message(for: failure.error, environment: environment),
            ]
            if let calendar = failure.calendar { object["calendar"] = calendar }
            return object
        }
    }

    /// Prints one stderr line per failure and returns the exit code: 0, 4 when something failed but
    /// something was read, the failures' own code when nothing was (3 when every grant is gone), 2 for a
    /// reference that names no calendar.
    func reportFailures(context: CommandContext) -> ExitCode {
        let failures = unresolved.isEmpty ? failures : unresolved.map { ($0.account, $0.calendar, $0.error) }
        for failure in failures {
            let message = ErrorReporting.message(for: failure.error, environment: context.environment)
            // Most messages name the account already; the others get it (and the calendar) in front.
            var named = message
            if !message.contains("'\(failure.account)'") {
                named = "account '\(failure.account)'" + (failure.calendar.map { ", calendar '\($0)'" } ?? "") + ": " + message
            }
            context.printError("calbridge: error: \(named)")
        }
        if !unresolved.isEmpty { return .usage }
        guard !failures.isEmpty else { return .success }
        if readAnything { return .partial }
        let codes = Set(failures.map { ErrorReporting.exitCode(for: $0.error) })
        return codes.count == 1 ? codes.first! : .failure
    }

    /// Whether the listing is printed: not for a request naming an unknown calendar, nor when nothing was read.
    var printsListing: Bool { unresolved.isEmpty && (readAnything || failures.isEmpty) }
}

extension AgendaResult {
    /// The entries in agenda order (`Agenda.ordered(in:)`), each with its calendar's reference.
    var rows: [EventFormatting.AgendaRow] {
        agenda.ordered(in: zone).map {
            EventFormatting.AgendaRow(event: $0.event, calendar: $0.calendar, reference: reference($0.calendar))
        }
    }
}
