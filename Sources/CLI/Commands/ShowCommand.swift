import CalendarBridge
import Foundation

/// `calbridge show`: everything about one event.
package enum ShowCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let tz = ZoneOptions.option("Also show the times in this zone (default: $TZ, else the system zone).")
        package static let format = OutputFormat.option("table|json", "Output format (default table).", allowed: [.table, .json])
        package static let calendarRef = Argument("CALENDAR_REF", "account:calendar (calendar = name, id, primary or default)")
    }

    package static let path = ["show"]

    package static let spec = CommandSpec(
        path,
        abstract: "Show everything about one event.",
        discussion: """
            Prints the event's title, times in its own zone and in --tz, location, description as plain text,
            organizer, attendees with their responses, reminders, free/busy, privacy, the repeat rule (RRULE and
            in words; for an occurrence, its series' rule), the online-meeting link, and whether it is a copy
            made by calbridge (and of which event).
            EVENT is an event id, as `events --format json` or `--format tsv` prints it, or --query TEXT: the
            event whose title, location or description holds every word (--on DATE narrows it to one day).
            When several match they are listed with their ids and the command exits 2; --all shows each.
            Examples:
              calbridge show work:Calendar --query "design review" --on 2026-12-01 --tz Europe/Berlin
            """,
        options: [Options.tz, Options.format] + EventSelection.declarations,
        positionals: [Options.calendarRef, EventSelection.Options.event]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let format = arguments[Options.format] ?? .table
        let zone = try ZoneOptions.displayZone(arguments[Options.tz], environment: context.environment, command: spec.name)
        let accounts = AccountProviders(context: context, verbose: arguments[CommonOptions.verbose])
        let target = try await CalendarTarget.open(arguments[Options.calendarRef], accounts: accounts)
        let found = try await EventSelection.resolve(arguments, target: target, zone: zone, now: context.now(), command: spec.name)
        guard let events = EventSelection.pick(found, context: context) else { return .usage }
        var details: [EventDetails] = []
        for event in events {
            // An occurrence's rule and marker are its series'; a series that cannot be read is left out.
            var series: Event?
            if let seriesID = event.seriesID { series = try? await target.provider.getEvent(id: seriesID, calendarID: target.calendar.id) }
            details.append(EventDetails(event: event, series: series, calendar: target.label, displayZone: zone))
        }
        switch format {
        case .json:
            let objects = details.map { $0.json() }
            context.print(try JSONText.render(objects.count == 1 ? objects[0] : objects as Any))
        default:
            for (index, detail) in details.enumerated() {
                if index > 0 { context.print() }
                for line in detail.lines() { context.print(line) }
            }
        }
        return .success
    }
}
