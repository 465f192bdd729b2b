import CalendarBridge
import Foundation

/// `calbridge agenda`: the events of every calendar of every account (or the chosen ones) in one list,
/// in time order, accounts read at once.
package enum AgendaCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let from = Option<String>("from", "DATE", "Start of the window (default: today).")
        package static let to = Option<String>("to", "DATE", "End of the window, exclusive (default: 7 days after the start).")
        package static let ids = Flag("ids", "Add the event ids to the table (JSON and TSV always have them).")
        package static let format = OutputFormat.standardOption
        package static let noHeader = OutputFormat.noHeader
    }

    package static let path = ["agenda"]

    package static let spec = CommandSpec(
        path,
        abstract: "List the events of every calendar of every account, in time order (default: 7 days from today).",
        discussion: """
            Reads every calendar of every account at once (read-only ones such as holidays included), or those of
            the --account accounts; --calendar narrows its account to the calendars named. Rows are in time
            order, all-day events first within a day; each names its calendar by the reference other commands
            take. Repeating events are marked \(EventFormatting.repeatMarker) in the table. Times and days are in --tz, else $TZ,
            else the system zone. The window is today and the 6 days after it unless --from/--to say otherwise
            (DATE as in 'calbridge events'; --to alone: from today). A calendar or account that fails is named on
            stderr, one line each, and the others still list (exit 4); a --calendar that names no calendar is
            exit 2.
            Examples:
              calbridge agenda
              calbridge agenda --account work --from 2026-12-01 --to 2026-12-15 --query standup --ids
            """,
        options: [Options.from, Options.to] + AgendaOptions.selection + [Options.ids, Options.format, Options.noHeader]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let format = arguments[Options.format] ?? .table
        let zone = try ZoneOptions.displayZone(arguments[AgendaOptions.tz], environment: context.environment, command: spec.name)
        let range = try window(arguments, zone: zone, now: context.now())
        let result = try await AgendaOptions.read(arguments, range: range, zone: zone, command: spec.name, context: context)

        if result.printsListing {
            let rows = result.rows
            let formatting = EventFormatting(zone: zone)
            switch format {
            case .json:
                var document: [String: Any] = [
                    "from": RFC3339.format(range.start, in: zone),
                    "to": RFC3339.format(range.end, in: zone),
                    "timeZone": ZoneOptions.name(of: zone),
                    "calendars": result.agenda.readCalendars.map(result.reference),
                    "events": rows.map(formatting.agendaJSON),
                    "failures": result.failuresJSON(environment: context.environment),
                ]
                if let query = arguments[AgendaOptions.query] { document["query"] = query }
                context.print(try JSONText.render(document))
            case .tsv:
                context.printTable(formatting.agendaTSV(rows), format: .tsv, header: !arguments[Options.noHeader])
            case .table:
                if !arguments[Options.noHeader] {
                    context.print(heading(result, query: arguments[AgendaOptions.query], width: context.tableWidth))
                }
                if rows.isEmpty {
                    if !arguments[Options.noHeader] { context.print("No events.") }
                } else {
                    let table = formatting.agendaTable(rows, ids: arguments[Options.ids])
                    context.printTable(table, format: .table, header: !arguments[Options.noHeader])
                }
            }
        }
        return result.reportFailures(context: context)
    }

    /// The window: --from/--to, else today and the 6 days after it, in `zone`.
    static func window(_ arguments: ParsedArguments, zone: TimeZone, now: Date) throws -> TimeRange {
        let fromText = arguments[Options.from], toText = arguments[Options.to]
        let from =
            try fromText.map { try DateOptions.instant($0, option: "from", zone: zone, command: spec.name, now: now) }
            ?? LocalDate(instant: now, in: zone).startInstant(in: zone)
        // Seven days later at the same wall-clock time (a day across a DST change is not 86,400 s).
        let start = LocalDateTime(instant: from, in: zone)
        let to =
            try toText.map { try DateOptions.instant($0, option: "to", zone: zone, command: spec.name, now: now) }
            ?? LocalDateTime(date: start.date.adding(days: 7), hour: start.hour, minute: start.minute, second: start.second)
            .instant(in: zone)
        guard to > from else {
            let after = fromText.map { "--from (\($0))" } ?? "today"
            throw UsageError("--to (\(toText ?? "")) must be after \(after)", command: spec.name)
        }
        return TimeRange(start: from, end: to)
    }

    /// `Agenda: 2026-12-03 to 2026-12-09 (Europe/Berlin), 6 calendars of 2 accounts`: days when the window
    /// runs from midnight to midnight (the last one shown is the last day in it), else times; cut to `width`.
    static func heading(_ result: AgendaResult, query: String?, width: Int?) -> String {
        let zone = result.zone
        let start = LocalDateTime(instant: result.range.start, in: zone), end = LocalDateTime(instant: result.range.end, in: zone)
        func midnight(_ time: LocalDateTime) -> Bool { time.hour == 0 && time.minute == 0 && time.second == 0 && time.nanosecond == 0 }
        let window: String
        if midnight(start), midnight(end) {
            let last = end.date.adding(days: -1)
            window = start.date == last ? "\(last)" : "\(start.date) to \(last)"
        } else {
            func short(_ time: LocalDateTime) -> String { "\(time.date) " + EventFormatting.clock(time) }
            window = "\(short(start)) to \(short(end))"
        }
        let calendars = result.agenda.readCalendars
        let accounts = Set(calendars.map(\.account)).count
        var text = "Agenda: \(window) (\(ZoneOptions.name(of: zone))), \(calendars.count) calendar\(calendars.count == 1 ? "" : "s")"
        text += " of \(accounts) account\(accounts == 1 ? "" : "s")"
        if let query { text += ", matching \"\(query)\"" }
        guard let width, text.count > width else { return text }
        return String(text.prefix(max(0, width - 1))) + "\u{2026}"
    }
}
