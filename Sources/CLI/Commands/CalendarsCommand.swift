import CalendarBridge
import Foundation
import OAuth

/// `calbridge calendars`: every calendar of every (or the named) account, fetched concurrently.
package enum CalendarsCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let account = RepeatedOption("account", "NAME", "Only this account.")
        package static let format = OutputFormat.standardOption
        package static let noHeader = OutputFormat.noHeader
    }

    package static let path = ["calendars"]

    package static let spec = CommandSpec(
        path,
        abstract: "List the calendars of all accounts (or the named ones).",
        discussion: """
        All accounts are asked at once, so the wait is the slowest account, not the sum. An account that
        fails is reported on stderr (one line each) and the others still print; the exit code is then 4.
        The CALENDAR column is the reference other commands take (account:name, or account:id when the
        name is not unique). PRIMARY marks Google's primary and Outlook's default calendar.
        Examples:
          calbridge calendars
          calbridge calendars --account work --format json
        """,
        options: [Options.account, Options.format, Options.noHeader]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let format = (arguments[Options.format] ?? .table)
        let accounts = AccountProviders(context: context, verbose: arguments[CommonOptions.verbose])
        let records = try accounts.records(named: arguments[Options.account])

        // An account whose session cannot even be opened (no tokens) fails like one whose request fails.
        var providers: [any CalendarProvider] = []
        var openFailures: [(account: String, error: any Error)] = []
        for record in records {
            do { providers.append(try accounts.provider(for: record)) } catch { openFailures.append((record.name, error)) }
        }
        let listing = await CalendarDirectory(providers: providers).listCalendars()
        let failures = openFailures + listing.failures.map { ($0.account, $0.error) }

        if !(failures.count == records.count && listing.calendars.isEmpty) {
            let calendars = sorted(listing.calendars)
            if format == .json {
                context.print(try json(calendars))
            } else {
                context.printTable(table(calendars, format: format), format: format, header: !arguments[Options.noHeader])
            }
        }
        for failure in failures {
            let message = ErrorReporting.message(for: failure.error, environment: context.environment)
            // Most messages name the account already; the others get it in front.
            let named = message.contains("'\(failure.account)'") ? message : "account '\(failure.account)': \(message)"
            context.printError("calbridge: error: \(named)")
        }
        guard !failures.isEmpty else { return .success }
        guard failures.count == records.count else { return .partial }
        // Nothing listed: the exit code of the failures when they agree (e.g. 3 when every grant is gone).
        let codes = Set(failures.map { ErrorReporting.exitCode(for: $0.error) })
        return codes.count == 1 ? codes.first! : .failure
    }

    /// The listing's order, the same every run: by account, then by calendar name (case folded), then id.
    static func sorted(_ calendars: [CalendarInfo]) -> [CalendarInfo] {
        calendars.sorted { a, b in
            if a.account != b.account { return a.account < b.account }
            let nameA = a.name.lowercased(), nameB = b.name.lowercased()
            if nameA != nameB { return nameA < nameB }
            return a.id < b.id
        }
    }

    static func json(_ calendars: [CalendarInfo]) throws -> String {
        let rows = calendars.map { (reference: $0.reference(among: calendars), calendar: $0) }
        let objects: [[String: Any]] = rows.map { row in
                var object: [String: Any] = [
                    "ref": row.reference, "id": row.calendar.id, "name": row.calendar.name,
                    "account": row.calendar.account, "provider": row.calendar.provider.rawValue,
                    "accessRole": row.calendar.accessRole.rawValue, "primary": row.calendar.isPrimary,
                ]
                if let zone = row.calendar.timeZone { object["timeZone"] = zone }
                if let colour = row.calendar.colour { object["colour"] = colour }
                return object
            }
        return try JSONText.render(objects)
    }

    /// The table (or TSV): the CALENDAR reference and the zone are never cut, the name gives way.
    static func table(_ calendars: [CalendarInfo], format: OutputFormat) -> Table {
        let rows = calendars.map { (reference: $0.reference(among: calendars), calendar: $0) }
        return Table(
            columns: [
                Table.Column("ref", "CALENDAR", shrinkable: false),
                // The name is in the reference too: left out when even cut down it does not fit.
                Table.Column("name", "NAME", droppable: true),
                Table.Column("provider", "PROVIDER", shrinkable: false),
                Table.Column("access", "ACCESS", shrinkable: false),
                Table.Column("primary", "PRIMARY", shrinkable: false), Table.Column("time_zone", "TIME ZONE", shrinkable: false),
            ],
            rows: rows.map { row in
                [
                    row.reference, row.calendar.name, row.calendar.provider.rawValue,
                    row.calendar.accessRole.rawValue,
                    format == .tsv ? String(row.calendar.isPrimary) : (row.calendar.isPrimary ? "*" : ""),
                    row.calendar.timeZone ?? "",
                ]
            })
    }
}
