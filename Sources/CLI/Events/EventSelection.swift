import CalendarBridge
import Foundation

/// The EVENT of `show`, `edit` and `delete`: an event id (as `events` and `agenda` print it in json and
/// tsv), or `--query TEXT [--on DATE]` matched against the calendar's events (`EventQuery`).
enum EventSelection {
    enum Options {
        static let event = OptionalArgument("EVENT", "an event id (events --format json|tsv prints them); or use --query")
        static let query = Option<String>("query", "TEXT", "Pick the event by words in its title, location or description.")
        static let on = Option<String>("on", "DATE", "With --query: only events on this day (default: 30 days back to 180 ahead).")
        static let all = Flag("all", "Act on every event that matches (otherwise several matches are listed, exit 2).")
    }

    /// The options every event command declares, in help order.
    static let declarations: [any OptionDeclaration] = [Options.query, Options.on, Options.all]

    /// How far back and ahead `--query` looks without `--on`.
    static let queryDaysBack = 30
    static let queryDaysAhead = 180

    /// What the selection found.
    enum Outcome {
        /// The events to act on (one, or every match with `--all`).
        case events([Event])
        /// Several matched and `--all` was not given: `table` lists them (`matches`, in its order). `pick` asks
        /// which one on a terminal; elsewhere the command exits 2.
        case ambiguous([Event], Table, message: String)
    }

    /// The events a command acts on: those found, or when several matched, on a terminal (stdin and stderr) the
    /// one the user picks from a numbered list (one line read); nil (the command exits 2) when the user cancels
    /// (an empty line, end of input, Ctrl-C) or answers with no number of the list, and off a terminal, after
    /// listing the matches and saying how to pick one.
    static func pick(_ outcome: Outcome, context: CommandContext) -> [Event]? {
        guard case .ambiguous(let matches, let table, let message) = outcome else {
            if case .events(let found) = outcome { return found }
            return nil
        }
        guard context.secretInput.isTerminal, context.stderrIsTerminal else {
            context.printTable(table, format: .table)
            context.printError(message)
            return nil
        }
        var numbered = table
        numbered.columns.insert(Table.Column("n", "#", shrinkable: false), at: 0)
        for index in numbered.rows.indices { numbered.rows[index].insert(String(index + 1), at: 0) }
        context.stderr.write(numbered.aligned(Table.Layout(width: context.tableWidth, header: true, colour: false)) + "\n")
        context.stderr.write("\(matches.count) events match. Which one? (1-\(matches.count), Enter cancels): ")
        guard let answer = context.secretInput.readAnswerLine()?.trimmingCharacters(in: .whitespaces), !answer.isEmpty else {
            context.printError("cancelled; nothing done")
            return nil
        }
        guard let number = Int(answer), matches.indices.contains(number - 1) else {
            context.printError("'\(answer)' is not a number from 1 to \(matches.count); nothing done")
            return nil
        }
        return [matches[number - 1]]
    }

    /// Resolves the selection in `target`, reading times in `zone`.
    /// - Throws: `UsageError` for missing or conflicting input and for no match; whatever the provider
    ///   throws (`.notFound` for an unknown id).
    static func resolve(
        _ arguments: ParsedArguments, target: CalendarTarget, zone: TimeZone, now: Date, command: String
    ) async throws -> Outcome {
        let id = arguments[Options.event]?.trimmingCharacters(in: .whitespaces)
        let queryText = arguments[Options.query]
        switch (id, queryText) {
        case (let id?, nil):
            guard !id.isEmpty else { throw UsageError("EVENT is empty; give an event id or --query TEXT", command: command) }
            if arguments[Options.on] != nil { throw UsageError("--on goes with --query, not with an event id", command: command) }
            do {
                return .events([try await target.provider.getEvent(id: id, calendarID: target.calendar.id)])
            } catch let error as CalendarError where error.code == .notFound {
                throw UsageError(
                    "\(target.label) has no event with the id '\(id)' (events --format tsv lists the ids)", command: command)
            }
        case (nil, let text?):
            guard let query = EventQuery(text) else {
                throw UsageError("--query is empty; give a word of the event's title, e.g. --query standup", command: command)
            }
            let range = try window(arguments[Options.on], zone: zone, now: now, command: command)
            let matches = try await target.provider.listEvents(calendarID: target.calendar.id, range: range, expand: true)
                .filter { $0.status != .cancelled && query.matches($0) }
                .sorted { ($0.start.instant(allDayZone: zone), $0.id) < ($1.start.instant(allDayZone: zone), $1.id) }
            let span = describe(range, zone: zone)
            guard !matches.isEmpty else {
                throw UsageError("no event of \(target.label) matches '\(text)' \(span)", command: command)
            }
            if matches.count == 1 || arguments[Options.all] { return .events(matches) }
            return .ambiguous(
                matches, table(matches, zone: zone),
                message: "\(matches.count) events of \(target.label) match '\(text)' \(span): give one's id (ID above), "
                    + "narrow with --on DATE, or add --all to act on all of them")
        case (nil, nil):
            throw UsageError("which event? give its id (events --format tsv prints ids) or --query TEXT", command: command)
        case (_?, _?):
            throw UsageError("give an event id or --query TEXT, not both", command: command)
        }
    }

    /// `--on DATE` as that day in `zone`, else the default search window around `now`.
    static func window(_ on: String?, zone: TimeZone, now: Date, command: String) throws -> TimeRange {
        if let on {
            let day = try DateOptions.date(on, option: "on", command: command, zone: zone, now: now)
            return TimeRange(start: day.startInstant(in: zone), end: day.adding(days: 1).startInstant(in: zone))
        }
        let today = LocalDate(instant: now, in: zone)
        return TimeRange(
            start: today.adding(days: -queryDaysBack).startInstant(in: zone),
            end: today.adding(days: queryDaysAhead + 1).startInstant(in: zone))
    }

    /// "on 2026-12-01" or "from 2026-11-01 to 2027-05-31".
    static func describe(_ range: TimeRange, zone: TimeZone) -> String {
        let first = LocalDate(instant: range.start, in: zone)
        let last = LocalDate(instant: range.end.addingTimeInterval(-1), in: zone)
        return first == last ? "on \(first)" : "from \(first) to \(last)"
    }

    /// The matches as a table: day, time, title, id (never cut: it is what the user copies).
    static func table(_ events: [Event], zone: TimeZone) -> Table {
        let formatting = EventFormatting(zone: zone)
        var table = Table(columns: [
            Table.Column("date", "DATE", shrinkable: false),
            Table.Column("time", "TIME", shrinkable: false),
            Table.Column("title", "TITLE", shrinkOrder: 1),
            Table.Column("id", "ID", shrinkable: false),
        ])
        for event in events {
            table.rows.append([formatting.dateCell(event), formatting.timeCell(event), event.title, event.id])
        }
        return table
    }
}

extension EventSelection {
    static let occurrenceFlag = Flag("occurrence", "Act on the one occurrence named (the default for an occurrence id).")
    static let seriesFlag = Flag("series", "Act on the whole series the occurrence belongs to (the default for a series id).")

    /// Refuses `--occurrence` with `--series`, before anything is read.
    static func checkScope(_ arguments: ParsedArguments, command: String) throws {
        if arguments[occurrenceFlag] && arguments[seriesFlag] {
            throw UsageError("give --occurrence or --series, not both", command: command)
        }
    }

    /// The event a write addresses: the one named, or with `--series` the series it belongs to.
    static func scope(_ event: Event, occurrence: Bool, series: Bool, target: CalendarTarget, command: String) async throws -> Event {
        if occurrence && series { throw UsageError("give --occurrence or --series, not both", command: command) }
        if let seriesID = event.seriesID {
            guard series else { return event }
            return try await target.provider.getEvent(id: seriesID, calendarID: target.calendar.id)
        }
        if event.isSeriesMaster {
            if occurrence {
                throw UsageError(
                    "'\(event.title)' is a whole series; give one occurrence's id (events lists them) to act on one occurrence",
                    command: command)
            }
            return event
        }
        if occurrence || series {
            throw UsageError("'\(event.title)' does not repeat; drop --\(series ? "series" : "occurrence")", command: command)
        }
        return event
    }

    /// The origin marker of `event`, or of its series (an occurrence may not carry its master's properties).
    static func origin(of event: Event, target: CalendarTarget) async -> OriginMarker? {
        if let origin = event.origin { return origin }
        guard let seriesID = event.seriesID else { return nil }
        return try? await target.provider.getEvent(id: seriesID, calendarID: target.calendar.id).origin
    }
}
