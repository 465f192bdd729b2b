import CalendarBridge
import Foundation

/// What `calbridge week` and `calbridge month` share: the options, reading every selected calendar over
/// the grid's days, and drawing the grid (or its JSON).
enum CalendarGridCommand {
    /// Which grid.
    enum View: String {
        case week, month
    }

    static let format = OutputFormat.option("table|json", "Output format: table (the grid, default) or json.", allowed: [.table, .json])

    /// The options both commands take, in the order help lists them.
    static let options: [any OptionDeclaration] = AgendaOptions.selection + [WeekStart.option, format]

    /// The shared part of the help text.
    static let discussion = """
        Reads every calendar of every account at once (or those of --account; --calendar narrows its account
        to the calendars named), with --query as in 'calbridge agenda'. Each day lists its all-day events,
        then its timed ones as "09:00 Title" (an event that goes on from the day before as "..10:00 Title",
        its end); an event over several days is shown on each. The grid fills the terminal's width (piped:
        COLUMNS, else 80) and cuts what does not fit with "…"; today is marked \(CalendarGrid.todayMarker). Weeks start on
        --week-start, else on the locale's first day (LC_ALL, LC_TIME, LANG: sunday for en_US), else monday.
        --format json gives the days and their events for scripts. A failing account is named on stderr and
        the others are shown (exit 4).
        """

    /// Runs `view` for the day `dateText` names (today when nil).
    static func run(_ view: View, dateText: String?, arguments: ParsedArguments, command: String, context: CommandContext) async throws
        -> ExitCode
    {
        let zone = try ZoneOptions.displayZone(arguments[AgendaOptions.tz], environment: context.environment, command: command)
        let weekStart = WeekStart.resolve(arguments[WeekStart.option], environment: context.environment)
        let now = context.now()
        let today = LocalDate(instant: now, in: zone)
        let anchor = try date(dateText, view: view, zone: zone, today: today, now: now, command: command)

        // The days read (a month's, or a week's) and the days drawn (whole weeks).
        let first: LocalDate, end: LocalDate
        switch view {
        case .week:
            first = weekStart.first(ofWeekContaining: anchor)
            end = first.adding(days: 7)
        case .month:
            first = LocalDate(unchecked: anchor.year, month: anchor.month, day: 1)
            end =
                anchor.month == 12
                ? LocalDate(unchecked: anchor.year + 1, month: 1, day: 1)
                : LocalDate(unchecked: anchor.year, month: anchor.month + 1, day: 1)
        }
        let range = TimeRange(start: first.startInstant(in: zone), end: end.startInstant(in: zone))
        let result = try await AgendaOptions.read(arguments, range: range, zone: zone, command: command, context: context)
        guard result.printsListing else { return result.reportFailures(context: context) }

        let days = (0..<first.days(to: end)).map { first.adding(days: $0) }
        let placed = place(result.rows, on: days, zone: zone)
        if arguments[format] == .json {
            let formatting = EventFormatting(zone: zone)
            var document: [String: Any] = [
                "view": view.rawValue,
                "from": RFC3339.format(range.start, in: zone),
                "to": RFC3339.format(range.end, in: zone),
                "timeZone": ZoneOptions.name(of: zone),
                "weekStart": weekStart.rawValue,
                "today": today.description,
                "calendars": result.agenda.readCalendars.map(result.reference),
                "failures": result.failuresJSON(environment: context.environment),
                "days": zip(days, placed).map { day, rows -> [String: Any] in
                    [
                        "date": day.description, "weekday": EventFormatting.weekdayName(day), "today": day == today,
                        "events": rows.map { formatting.agendaJSON($0.row) },
                    ]
                },
            ]
            if view == .month { document["month"] = String(first.description.prefix(7)) }
            if let query = arguments[AgendaOptions.query] { document["query"] = query }
            context.print(try JSONText.render(document))
        } else {
            let grid = self.grid(view, days: days, placed: placed, weekStart: weekStart, today: today, zone: zone)
            // The grid sanitises the servers' text itself; its colour escapes must survive.
            context.stdout.write(grid.lines(width: context.gridWidth, colour: context.usesColour).joined(separator: "\n") + "\n")
        }
        return result.reportFailures(context: context)
    }

    /// The day DATE names (YYYY-MM-DD or anything `--from` takes; for a month also YYYY-MM), else today.
    private static func date(
        _ text: String?, view: View, zone: TimeZone, today: LocalDate, now: Date, command: String
    ) throws -> LocalDate {
        guard let text else { return today }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if view == .month, trimmed.count == 7, let first = LocalDate(trimmed + "-01") {
            return try date(first.description, view: view, zone: zone, today: today, now: now, command: command)
        }
        do {
            return LocalDate(instant: try DateOptions.instant(trimmed, option: "date", zone: zone, command: command, now: now), in: zone)
        } catch var error as UsageError {
            // DateOptions names options; this is the DATE argument.
            error.message = error.message.replacingOccurrences(of: "--date", with: "DATE")
            throw error
        }
    }

    /// One event on one day of the grid, and the line that shows it.
    struct Placed {
        var row: EventFormatting.AgendaRow
        var line: String
        /// All-day, or covering the whole day: listed before the timed ones.
        var wholeDay: Bool
    }

    /// The events of each day, in agenda order with the whole-day ones first: an all-day event on each of
    /// its days, a timed one on each day it overlaps.
    static func place(_ rows: [EventFormatting.AgendaRow], on days: [LocalDate], zone: TimeZone) -> [[Placed]] {
        var placed = [[Placed]](repeating: [], count: days.count)
        guard let first = days.first else { return placed }
        for row in rows {
            let event = row.event
            switch (event.start, event.end) {
            case (.allDay(let start), let end):
                var stop = start.adding(days: 1)
                if case .allDay(let date) = end, date > start { stop = date }
                // The reader keeps only all-day events with a day in the window; checked again, not trusted.
                let from = max(0, first.days(to: start)), to = min(days.count, first.days(to: stop))
                guard from < to else { continue }
                for offset in from..<to {
                    placed[offset].append(Placed(row: row, line: event.title, wholeDay: true))
                }
            default:
                let start = event.start.instant(allDayZone: zone), end = event.end.instant(allDayZone: zone)
                for (offset, day) in days.enumerated() {
                    let dayStart = day.startInstant(in: zone), dayEnd = day.adding(days: 1).startInstant(in: zone)
                    let overlaps = start < dayEnd && (end > dayStart || (start == end && start >= dayStart))
                    guard overlaps else { continue }
                    if start >= dayStart {
                        placed[offset].append(Placed(row: row, line: clock(start, zone) + " " + event.title, wholeDay: false))
                    } else if end < dayEnd {
                        placed[offset].append(Placed(row: row, line: ".." + clock(end, zone) + " " + event.title, wholeDay: false))
                    } else {
                        placed[offset].append(Placed(row: row, line: event.title, wholeDay: true))
                    }
                }
            }
        }
        // Stable: within each group the agenda's order stays.
        return placed.map { day in day.filter(\.wholeDay) + day.filter { !$0.wholeDay } }
    }

    /// The grid of `days` (whole weeks around them; in a month's grid the other months' days are empty).
    private static func grid(
        _ view: View, days: [LocalDate], placed: [[Placed]], weekStart: WeekStart, today: LocalDate, zone: TimeZone
    ) -> CalendarGrid {
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
        ]
        let first = days[0], last = days[days.count - 1]
        let gridStart = weekStart.first(ofWeekContaining: first)
        let gridEnd = weekStart.first(ofWeekContaining: last).adding(days: 7)
        var cells: [CalendarGrid.Day] = []
        var day = gridStart
        while day < gridEnd {
            let index = first.days(to: day)
            let shown = index >= 0 && index < days.count
            let month = String(months[day.month - 1].prefix(3)), weekday = EventFormatting.weekdayName(day)
            let labels =
                view == .week
                ? ["\(weekday) \(day.day) \(month)", "\(weekday) \(day.day)", "\(day.day)"]
                : (day.day == 1 ? ["\(day.day) \(month)", "\(day.day)"] : ["\(day.day)"])
            cells.append(
                CalendarGrid.Day(labels: labels, lines: shown ? placed[index].map(\.line) : [], isToday: day == today, isShown: shown))
            day = day.adding(days: 1)
        }
        let weeks = stride(from: 0, to: cells.count, by: 7).map { Array(cells[$0..<min($0 + 7, cells.count)]) }
        // The legend of the today marker, when today is drawn.
        let zoneName = ZoneOptions.name(of: zone) + (today >= gridStart && today < gridEnd ? "; \(CalendarGrid.todayMarker) today" : "")
        let title: String
        switch view {
        case .week:
            let lastMonth = months[last.month - 1].prefix(3)
            title = "Week of \(first.day) \(months[first.month - 1].prefix(3)) to \(last.day) \(lastMonth) \(last.year) (\(zoneName))"
        case .month:
            title = "\(months[first.month - 1]) \(first.year) (\(zoneName))"
        }
        // A week has room for whole titles; a month's cells stay short enough to show the month on a screen.
        return CalendarGrid(
            title: title, weekdayRow: view == .month ? weekStart.weekdayNames : nil, weeks: weeks, linesPerEvent: view == .week ? 3 : 2)
    }

    /// `09:00` in `zone`.
    private static func clock(_ instant: Date, _ zone: TimeZone) -> String {
        EventFormatting.clock(LocalDateTime(instant: instant, in: zone))
    }
}
