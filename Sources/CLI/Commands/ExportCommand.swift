import Accounts
import CalendarBridge
import Foundation
import ICalendar

/// `calbridge export REF`: a calendar's events as one iCalendar file.
package enum ExportCommand: Command {
    package enum Options {
        package static let from = Option<String>(
            "from", "DATE", "Start of the window: YYYY-MM-DD or an RFC 3339 time (default a year ago).")
        package static let to = Option<String>(
            "to", "DATE", "End of the window: YYYY-MM-DD (through that day) or an RFC 3339 time (default a year ahead).")
        package static let tz = ZoneOptions.option("The zone the window's dates are read in (default $TZ, else the system zone).")
        package static let output = Option<String>("output", "FILE", "Write the file here (atomically, mode 0600) instead of stdout.")
        package static let calendarRef = Argument(
            "CALENDAR_REF", "The calendar to export: ACCOUNT:CALENDAR (id, name, primary or default).")
    }

    package static let path = ["export"]

    package static let spec = CommandSpec(
        path,
        abstract: "Write a calendar's events as an iCalendar (.ics) file.",
        discussion: """
            Writes one VCALENDAR with the events that overlap the window (default: a year back to a year \
            ahead). A series is one VEVENT with its rule, its changed occurrences as VEVENTs with a \
            RECURRENCE-ID and its cancelled ones as EXDATEs; every zone used gets a VTIMEZONE; UIDs are the \
            service's iCalendar UIDs. Attendees are written as text in the description, never as ATTENDEE \
            lines, so that no program reading the file invites anybody. See docs/icalendar.md.
            Examples:
              calbridge export work:Calendar --output work.ics
              calbridge export me@gmail.com:primary --from 2026-01-01 --to 2026-12-31 > 2026.ics
            """,
        options: [Options.from, Options.to, Options.tz, Options.output],
        positionals: [Options.calendarRef]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let zone = try ZoneOptions.displayZone(arguments[Options.tz], environment: context.environment, command: spec.name)
        let now = context.now()
        let today = LocalDate(instant: now, in: zone)
        let start =
            try arguments[Options.from].map { try DateOptions.instant($0, option: "from", zone: zone, command: spec.name, now: now) }
            ?? today.adding(days: -365).startInstant(in: zone)
        let end =
            try arguments[Options.to].map {
                try DateOptions.instant($0, option: "to", zone: zone, command: spec.name, endOfDay: true, now: now)
            }
            ?? today.adding(days: 366).startInstant(in: zone)
        guard end > start else { throw UsageError("--to must be after --from", command: spec.name) }
        let output = arguments[Options.output].map { URL(fileURLWithPath: $0) }
        if let output {
            var isDirectory: ObjCBool = false
            let parent = output.deletingLastPathComponent().path
            guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw InputError("--output: the directory \(parent) does not exist")
            }
        }

        let accounts = AccountProviders(context: context, verbose: arguments[CommonOptions.verbose])
        let target = try await CalendarTarget.open(arguments[Options.calendarRef], accounts: accounts)
        let range = TimeRange(start: start, end: end)
        let views = try await target.provider.listEventViews(calendarID: target.calendar.id, range: range)
        let events = exportedEvents(views, range: range)
        let text: String
        do {
            text = try ICalendarWriter.write(events, name: target.calendar.name, stamp: context.now())
        } catch {
            throw InputError("export: \(error.message)", exitCode: .failure)
        }
        guard let output else {
            context.stdout.write(text)
            return .success
        }
        try SecureFile().write(Data(text.utf8), to: output, privateDirectory: false)
        let count = events.filter { $0.seriesID == nil }.count
        context.printError("Exported \(count) events and series of \(target.label) to \(output.path)")
        return .success
    }

    /// What the file holds: single events, series masters, and each series' exceptions: those the
    /// series listing gives (Google lists changed and cancelled ones), occurrences of the expanded listing
    /// that differ from their series, and occurrences libical's expansion of the rule has in the window
    /// but the service does not list (Outlook lists no cancelled occurrence), as cancelled ones.
    static func exportedEvents(_ views: EventViews, range: TimeRange) -> [Event] {
        var events = views.series.filter { $0.status != .cancelled || $0.seriesID != nil }
        let masters = events.filter { $0.recurrence != nil && $0.seriesID == nil }
        var known = Set(
            events.compactMap { e in e.seriesID.flatMap { s in e.originalStart.map { s + "_" + ICalendarReader.occurrenceKey($0) } } })
        let occurrences = views.occurrences.groupedBySeries()
        let utc = TimeZone(secondsFromGMT: 0)!
        for master in masters {
            let listed = occurrences[master.id] ?? []
            for occurrence in listed {
                guard let original = occurrence.originalStart else { continue }
                let key = master.id + "_" + ICalendarReader.occurrenceKey(original)
                // Compared as instants: a service may give the original start in another zone than the start.
                let moved = occurrence.start.instant(allDayZone: utc) != original.instant(allDayZone: utc)
                let duration = { (e: Event) in e.end.instant(allDayZone: utc).timeIntervalSince(e.start.instant(allDayZone: utc)) }
                let changed =
                    moved || duration(occurrence) != duration(master) || occurrence.title != master.title
                    || occurrence.location != master.location || occurrence.status != master.status
                if changed, known.insert(key).inserted { events.append(occurrence) }
            }
            let listedKeys = Set(listed.compactMap { $0.originalStart.map(ICalendarReader.occurrenceKey) })
            guard let recurrence = master.recurrence,
                let starts = try? RecurrenceExpansion.starts(
                    of: recurrence, from: master.start, through: LocalDate(instant: range.end, in: utc).adding(days: 1))
            else { continue }
            for start in starts {
                let instant = start.instant(allDayZone: utc)
                guard instant >= range.start, instant < range.end else { continue }
                let key = ICalendarReader.occurrenceKey(start)
                guard !listedKeys.contains(key), known.insert(master.id + "_" + key).inserted else { continue }
                var cancelled = Event(
                    title: master.title, start: start, end: start, seriesID: master.id, originalStart: start, status: .cancelled)
                cancelled.id = master.id + "_" + key
                events.append(cancelled)
            }
        }
        return events
    }
}
