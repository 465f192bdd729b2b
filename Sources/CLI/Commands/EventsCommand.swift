import CalendarBridge
import Foundation

/// `calbridge events`: one calendar's events in a time window (this week by default), occurrences expanded.
package enum EventsCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let from = Option<String>(
            "from", "DATE", "Start of the window: 2026-12-10, today, friday, next monday, +3d, in 2 weeks, or a date-time.")
        package static let to = Option<String>(
            "to", "DATE", "End of the window: a date includes that day (--to 2026-12-10 ends at 12-11 00:00); a date-time is the end.")
        package static let week = Flag("week", "This week in the calendar owner's zone (the default).")
        package static let tz = ZoneOptions.option("Show times in this zone (default: $TZ, else the system zone).")
        package static let query = AgendaOptions.query
        package static let format = OutputFormat.standardOption
        package static let noHeader = OutputFormat.noHeader
        package static let calendarRef = Argument("CALENDAR_REF", "account:calendar (calendar = name, id, primary or default)")
    }

    package static let path = ["events"]

    package static let spec = CommandSpec(
        path,
        abstract: "List a calendar's events (default: this week).",
        discussion: """
            Without --from/--to, shows this week (Monday to Sunday) in the calendar owner's time zone (the
            Outlook mailbox zone, or the Google primary calendar's zone). Recurring events are shown as their
            occurrences. Times are shown in --tz, else $TZ, else the system zone; all-day events as dates (in
            JSON and TSV an all-day end is the day after the last day).
            DATE is a date (2026-12-01, today, friday, next monday, +3d, in 2 weeks; read in the shown zone) or a
            date-time (2026-12-01T09:00, RFC 3339 2026-12-01T09:00:00+01:00). --to a date includes that day;
            a date-time is the end. --from alone shows 7 days from it; --to alone the 7 days before it.
            A repeating event (an occurrence of a series) is marked \(EventFormatting.repeatMarker) in the table; JSON and TSV
            give its series id. --query keeps the events with every word of TEXT in the title, location or
            description ("stand" finds "Stand-up"); 'calbridge agenda' reads every calendar at once.
            Examples:
              calbridge events work:Calendar
              calbridge events work:Calendar --query "design review" --from 2026-12-01 --to 2026-12-31
              calbridge events me@gmail.com:primary --from 2026-12-01 --to 2026-12-07 --tz Europe/Berlin
            """,
        options: [Options.from, Options.to, Options.week, Options.tz, Options.query, Options.format, Options.noHeader],
        positionals: [Options.calendarRef]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let format = (arguments[Options.format] ?? .table)
        let zone = try ZoneOptions.displayZone(arguments[Options.tz], environment: context.environment, command: spec.name)
        let now = context.now()
        let from = try arguments[Options.from].map { try DateOptions.instant($0, option: "from", zone: zone, command: spec.name, now: now) }
        let to = try arguments[Options.to].map { try DateOptions.instant($0, option: "to", zone: zone, command: spec.name, now: now) }
        let query = try AgendaOptions.eventQuery(arguments, command: spec.name)
        if arguments[Options.week], from != nil || to != nil {
            throw UsageError("--week cannot be combined with --from or --to", command: spec.name)
        }
        if let from, let to, to <= from {
            throw UsageError("--to (\(arguments[Options.to]!)) must be after --from (\(arguments[Options.from]!))", command: spec.name)
        }

        let accounts = AccountProviders(context: context, verbose: arguments[CommonOptions.verbose])
        let target = try await CalendarTarget.open(arguments[Options.calendarRef], accounts: accounts)
        let week: TimeInterval = 7 * 86_400
        let range: TimeRange
        switch (from, to) {
        case let (from?, to?): range = TimeRange(start: from, end: to)
        case let (from?, nil): range = TimeRange(start: from, end: from.addingTimeInterval(week))
        case let (nil, to?): range = TimeRange(start: to.addingTimeInterval(-week), end: to)
        case (nil, nil):
            let owner = try await target.ownerZone() ?? zone
            range = DateOptions.week(containing: context.now(), in: owner)
        }
        let events = try await target.provider.listEvents(calendarID: target.calendar.id, range: range, expand: true)
            .filter { $0.status != .cancelled && query?.matches($0) != false }
            .sorted { a, b in
                // By start; events starting together by end, then title, then id, so the order never varies.
                let startA = a.start.instant(allDayZone: zone), startB = b.start.instant(allDayZone: zone)
                if startA != startB { return startA < startB }
                let endA = a.end.instant(allDayZone: zone), endB = b.end.instant(allDayZone: zone)
                if endA != endB { return endA < endB }
                return (a.title, a.id) < (b.title, b.id)
            }

        let formatting = EventFormatting(zone: zone)
        switch format {
        case .json:
            let document: [String: Any] = [
                "calendar": target.label,
                "calendarId": target.calendar.id,
                "from": RFC3339.format(range.start, in: zone),
                "to": RFC3339.format(range.end, in: zone),
                "timeZone": ZoneOptions.name(of: zone),
                "events": events.map { formatting.json($0, calendar: target.label) },
            ]
            context.print(try JSONText.render(document))
        case .tsv:
            context.printTable(formatting.tsv(events), format: .tsv, header: !arguments[Options.noHeader])
        case .table:
            func short(_ instant: Date) -> String {
                RFC3339.format(instant, in: zone).prefix(16).replacingOccurrences(of: "T", with: " ")
            }
            context.print("\(target.label): \(short(range.start)) to \(short(range.end)) (\(ZoneOptions.name(of: zone)))")
            if events.isEmpty {
                context.print("No events.")
            } else {
                context.printTable(formatting.table(events), format: .table, header: !arguments[Options.noHeader])
            }
        }
        return .success
    }
}
