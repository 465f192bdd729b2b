import CalendarBridge
import Foundation

/// `calbridge add`: creates one event from options.
package enum AddCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let title = Option<String>("title", "TEXT", "The event's title (required).")
        package static let start = Option<String>("start", "DATETIME", "Start (default: the next half hour).")
        package static let end = Option<String>("end", "DATETIME", "End (default: start + 30 minutes).")
        package static let allDay = Flag("all-day", "An all-day event: --start/--end are dates.")
        package static let tz = ZoneOptions.option(
            "The zone --start/--end are read in and the event's zone (default: the calendar's zone, as quick-add).")
        package static let location = Option<String>("location", "TEXT", "Where.")
        package static let body = Option<String>("body", "TEXT", "Description (the same as --description).")
        package static let description = Option<String>("description", "TEXT", "Description.")
        package static let reminder = Option<Int>.int("reminder", "MINUTES", "One reminder this many minutes before.", in: 0...40_320)
        package static let showAs = Option<String>.choice(
            "show-as", "free|busy", "Show the time as free or busy.", among: ["free", "busy"])
        package static let isPrivate = Flag("private", "A private event.")
        package static let dryRun = Flag("dry-run", "Print the event that would be added; add nothing.")
        package static let attendees = Option<String>(
            "attendees", "LIST", "E-mail addresses separated by ',' or ';' (Outlook mails them invitations).")
        package static let noInvitations = Flag("no-invitations", "Write the attendees into the description instead of inviting them.")
        package static let format = OutputFormat.option("table|json|tsv", "Output format (default table).")
        package static let noHeader = OutputFormat.noHeader
        package static let calendarRef = Argument("CALENDAR_REF", "account:calendar to add the event to")
    }

    package static let path = ["add"]

    package static let spec = CommandSpec(
        path,
        abstract: "Add an event to a calendar.",
        discussion: """
            Times without an offset are read in --tz (an IANA zone or a Windows name such as "Pacific
            Standard Time"), else in the calendar's zone as quick-add reads its text (Outlook: the mailbox's
            zone; Google: the calendar's own), else $TZ, else the system zone; the event keeps that zone, and
            the result (and --dry-run, which prints exactly the event the run writes) says which. --start defaults to
            the next half hour, --end to 30 minutes after the start. With --all-day, --start and --end are
            dates (YYYY-MM-DD; --end is the last day, default the start day).
            --attendees is a list separated by ',' or ';' ("ann@example.com, bob@example.com"). On an Outlook
            calendar the attendees are invited: Outlook sends each of them an invitation mail, as it does when
            you add attendees in Outlook, and Microsoft Graph has no way to create the event without sending
            them. On a Google calendar they are added as guests and no mail is sent (sendUpdates=none).
            --no-invitations invites nobody: the attendees are written into the description instead (as
            `copy` does). Who was invited is printed after the event.
            --repeat takes quick add's repeat words ("every weekday", "every 2 weeks on Tuesday until
            2027-06-30") or an RRULE (FREQ=WEEKLY;BYDAY=MO); Outlook stores only the rules its patterns can say.
            --format tsv prints one header line and one row: calendar id title start end all_day time_zone
            location recurrence repeat read_in link (id and link empty in a dry run).
            Examples:
              calbridge add work:Calendar --title "Design review" --start "2026-12-01 14:00" --end "2026-12-01 15:00"
              calbridge add me@gmail.com:Family --title Holiday --all-day --start 2026-12-24 --end 2026-12-26
            """,
        options: [
            Options.title, Options.start, Options.end, Options.allDay, Options.tz, Options.location, Options.body,
            Options.description, Options.attendees, Options.noInvitations, RepeatOption.option, Options.reminder, Options.showAs,
            Options.isPrivate, Options.dryRun, Options.format, Options.noHeader,
        ],
        positionals: [Options.calendarRef]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let format = (arguments[Options.format] ?? .table)
        guard let given = arguments[Options.title] else {
            throw UsageError("missing --title TEXT (the event's title)", command: spec.name)
        }
        let title = given.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else {
            throw UsageError("--title is empty; give the event's title, e.g. --title \"Design review\"", command: spec.name)
        }
        let chosenZone = try arguments[Options.tz].map { try ZoneOptions.eventZone($0, option: "tz", command: spec.name) }
        let attendees = try parseAttendees(arguments[Options.attendees])
        let noInvitations = arguments[Options.noInvitations]
        if noInvitations, attendees.isEmpty {
            throw UsageError("--no-invitations needs --attendees LIST (the people to list in the description)", command: spec.name)
        }
        if arguments[Options.body] != nil, arguments[Options.description] != nil {
            throw UsageError("give --description or --body (the same), not both", command: spec.name)
        }
        // Bad times are refused before anything is read: each value alone in any zone (its grammar and range do
        // not depend on the zone); the span once its zone is known.
        let now = context.now()
        let anyZone = chosenZone?.zone ?? ZoneOptions.localZone(context.environment)
        for (option, name) in [(Options.start, "start"), (Options.end, "end")] {
            guard let text = arguments[option] else { continue }
            _ = try time(text, option: name, allDay: arguments[Options.allDay], zone: anyZone, now: now)
        }

        let accounts = AccountProviders(context: context, verbose: arguments[CommonOptions.verbose])
        let target = try await CalendarTarget.open(arguments[Options.calendarRef], accounts: accounts)
        try target.requireWritable()
        let reading = try await readingZone(chosenZone, target: target, environment: context.environment)
        let (zoneID, zone) = (reading.name, reading.zone)
        let readIn = "\(reading.name) (\(reading.source))"
        let (start, end) = try times(arguments, zone: zone, zoneID: zoneID, now: now)
        var event = Event(title: title, start: start, end: end, attendees: attendees)
        if let location = arguments[Options.location], !location.isEmpty { event.location = location }
        if let body = arguments[Options.description] ?? arguments[Options.body], !body.isEmpty { event.body = .text(body) }
        if let minutes = arguments[Options.reminder] { event.reminders = [Reminder(minutesBefore: minutes)] }
        if let showAs = arguments[Options.showAs].flatMap(ShowAs.init(rawValue:)) { event.showAs = showAs }
        if arguments[Options.isPrivate] { event.sensitivity = .private }
        if let rule = arguments[RepeatOption.option] {
            event.recurrence = try RepeatOption.recurrence(
                rule, start: event.start, fallbackZone: zoneID, support: target.provider.capabilities.recurrence, command: spec.name)
        }
        if noInvitations {
            // The same lines `copy` writes, so that nobody is invited and everybody is named.
            let projection = CopyProjection(fields: .basic, target: target.provider.capabilities)
            event.body = projection.body(event.body, appending: projection.attendeeLines(event))
            event.attendees = []
        }
        if arguments[Options.dryRun] {
            event.calendarID = target.calendar.id
            if format == .tsv {
                context.printTable(
                    tsv(event, calendar: target.label, zone: zone, readIn: readIn), format: .tsv, header: !arguments[Options.noHeader])
            } else if format == .json {
                var object = EventDetails(event: event, series: nil, calendar: target.label, displayZone: zone).json()
                object["readIn"] = readIn
                context.print(try JSONText.render(object))
            } else {
                context.print("Would add to \(target.label) (nothing was written):")
                for line in EventDetails(event: event, series: nil, calendar: target.label, displayZone: zone).lines()
                where !line.hasPrefix("id:") && !line.hasPrefix("link:") && !line.hasPrefix("calendar:") {
                    context.print("  " + line)
                }
                context.print("  read in:   \(readIn)")
            }
            return .success
        }
        let created = try await target.provider.createEvent(event, in: target.calendar.id)
        try printCreated(
            created, target: target, format: format, zone: zone, readIn: readIn, header: !arguments[Options.noHeader], context: context)
        if let recurrence = created.recurrence, format == .table {
            let words = EventDetails(event: created, series: nil, calendar: target.label, displayZone: zone).repeatWords
            context.print("repeats:  \(words ?? recurrence.lines.joined(separator: " "))")
        }
        if let notice = invitationNotice(attendees, invitations: target.provider.capabilities.invitations, written: noInvitations) {
            // Beside a table on stdout; on stderr when stdout is JSON or TSV for a program.
            if format == .table { context.print(notice) } else { context.printError(notice) }
        }
        return .success
    }

    /// One line saying who was invited and how, or nil without attendees.
    static func invitationNotice(
        _ attendees: [Attendee], invitations: ProviderCapabilities.AttendeeInvitations, written: Bool
    ) -> String? {
        guard !attendees.isEmpty else { return nil }
        let list = attendees.map(\.email).joined(separator: ", ")
        if written { return "Nobody was invited; the attendees are listed in the description: \(list)" }
        switch invitations {
        case .sentByService: return "Invitations sent (by Outlook, as it does for every new event with attendees) to: \(list)"
        case .notSent(let how): return "Added as guests without an invitation mail (\(how)): \(list)"
        }
    }

    /// Prints an event that was just created, and the zone its times were read in.
    static func printCreated(
        _ event: Event, target: CalendarTarget, format: OutputFormat, zone: TimeZone, readIn: String, header: Bool,
        context: CommandContext
    ) throws {
        let formatting = EventFormatting(zone: zone)
        if format == .tsv {
            context.printTable(tsv(event, calendar: target.label, zone: zone, readIn: readIn), format: .tsv, header: header)
        } else if format == .json {
            var object = formatting.json(event, calendar: target.label)
            object["readIn"] = readIn
            context.print(try JSONText.render(object))
        } else {
            for line in formatting.summary(event, calendar: target.label) { context.print(line) }
            context.print("read in:  \(readIn)")
        }
    }

    /// The TSV of one event, preview or created, under stable column keys (docs/editing.md): times in `zone`.
    static func tsv(_ event: Event, calendar: String, zone: TimeZone, readIn: String) -> Table {
        let formatting = EventFormatting(zone: zone)
        let words = EventDetails(event: event, series: nil, calendar: calendar, displayZone: zone).repeatWords
        let columns = [
            "calendar", "id", "title", "start", "end", "all_day", "time_zone", "location", "recurrence", "repeat", "read_in", "link",
        ]
        let row = [
            calendar, event.id, event.title, formatting.text(event.start), formatting.text(event.end), event.isAllDay ? "true" : "false",
            event.start.zone ?? "", event.location ?? "", event.recurrence?.lines.joined(separator: " ") ?? "", words ?? "", readIn,
            event.webURL?.absoluteString ?? "",
        ]
        return Table(columns: columns.map { Table.Column($0, $0.uppercased()) }, rows: [row])
    }

    /// The zone `--start`/`--end` are read in and the event keeps, and where it came from: `--tz`, else the
    /// calendar's (as quick-add reads its text), else the user's (`$TZ`, else the system zone).
    static func readingZone(
        _ given: (id: String, zone: TimeZone)?, target: CalendarTarget, environment: [String: String]
    ) async throws -> (name: String, zone: TimeZone, source: String) {
        if let given { return (given.id, given.zone, "--tz") }
        if let own = try await target.readingZone() { return own }
        let user = try ZoneOptions.userZone(nil, environment: environment, command: spec.name)
        return (user.name, user.zone, "your zone: the calendar states none")
    }

    /// One `--start`/`--end` value: a date of an all-day event, else an instant.
    static func time(_ text: String, option: String, allDay: Bool, zone: TimeZone, now: Date) throws -> EventTime {
        if allDay { return .allDay(date: try DateOptions.date(text, option: option, command: spec.name, zone: zone, now: now)) }
        let instant = try DateOptions.dateTime(text, option: option, zone: zone, command: spec.name, now: now)
        return .timed(instant: instant, zone: zone.identifier)
    }

    /// Start and end from the options, checked before anything is sent.
    static func times(_ arguments: ParsedArguments, zone: TimeZone, zoneID: String, now: Date) throws -> (EventTime, EventTime) {
        if arguments[Options.allDay] {
            let first =
                try arguments[Options.start].map { try DateOptions.date($0, option: "start", command: spec.name, zone: zone, now: now) }
                ?? LocalDate(instant: now, in: zone)
            let last =
                try arguments[Options.end].map { try DateOptions.date($0, option: "end", command: spec.name, zone: zone, now: now) }
                ?? first
            guard last >= first else {
                throw UsageError("--end (\(last)) is before --start (\(first))", command: spec.name)
            }
            return (.allDay(date: first), .allDay(date: last.adding(days: 1)))
        }
        let start =
            try arguments[Options.start].map { try DateOptions.dateTime($0, option: "start", zone: zone, command: spec.name, now: now) }
            ?? nextHalfHour(after: now, in: zone)
        let end =
            try arguments[Options.end].map { try DateOptions.dateTime($0, option: "end", zone: zone, command: spec.name, now: now) }
            ?? start.addingTimeInterval(30 * 60)
        guard end > start else {
            throw UsageError("--end must be after --start", command: spec.name)
        }
        return (.timed(instant: start, zone: zoneID), .timed(instant: end, zone: zoneID))
    }

    /// The first :00 or :30 of the zone's wall clock strictly after `now`.
    static func nextHalfHour(after now: Date, in zone: TimeZone) -> Date {
        let local = LocalDateTime(instant: now, in: zone)
        var next = LocalDateTime(date: local.date, hour: local.hour, minute: local.minute < 30 ? 30 : 0)
        if local.minute >= 30 {
            if local.hour == 23 {
                next = LocalDateTime(date: local.date.adding(days: 1))
            } else {
                next.hour += 1
            }
        }
        // Half hours are the same instants in every whole-hour zone; in a DST gap the reading moves forward.
        let instant = next.instant(in: zone)
        return instant > now ? instant : instant.addingTimeInterval(30 * 60)
    }

    /// `"a@x; b@y"` → attendees: split on ';', trimmed, empties dropped, each address checked.
    static func parseAttendees(_ text: String?) throws -> [Attendee] {
        guard let text else { return [] }
        var seen: Set<String> = []
        var attendees: [Attendee] = []
        // Commas (gcalcli, most mail clients) or semicolons (Outlook): neither can be in a plain address.
        for part in text.split(whereSeparator: { $0 == ";" || $0 == "," }) {
            let address = part.trimmingCharacters(in: .whitespaces)
            if address.isEmpty { continue }
            guard isValidAddress(address) else {
                throw UsageError(
                    "--attendees: '\(address)' is not an e-mail address (separate addresses with ',' or ';')", command: spec.name)
            }
            if seen.insert(address.lowercased()).inserted { attendees.append(Attendee(email: address)) }
        }
        return attendees
    }

    /// A plain `local@domain` address: one '@', no spaces or list punctuation, a domain of dot-separated labels.
    static func isValidAddress(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, parts[0].count <= 64 else { return false }
        let forbidden = Set(" \t\"(),:;<>[]\\")
        guard !address.contains(where: { forbidden.contains($0) || $0.isNewline }) else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            !label.isEmpty && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
    }
}
