import CalendarBridge
import Foundation

/// An iCalendar file as a read-only calendar service with one calendar: the source `import` copies from,
/// so that an import is a `copy` (origin markers, batching, series handling, exit codes) and a second
/// import of the same file writes nothing.
///
/// Ids are the file's (`ICalendarFile`): a `UID`, or `UID_<original start>` for an occurrence, so the copy
/// engine's origin keys are the file's UIDs and RECURRENCE-IDs, the same at every import. Series are
/// expanded by libical (`RecurrenceExpansion`) with the file's overrides in place of their occurrences.
public struct ICalendarFileProvider: ReadOnlyCalendarProvider {
    /// The provider kind of iCalendar files (origin markers name it).
    public static let kind = ProviderKind(rawValue: "ics")
    /// The id of the file's one calendar.
    public static let calendarID = "file"

    public let provider: ProviderKind
    public let account: String
    /// The id of the file's one calendar (`calendarID` for a file; a subscribed feed has its own).
    public let calendarID: String
    public let capabilities = ProviderCapabilities(
        serverQuickAdd: false, recurrence: .rfc5545, personalSensitivity: false, richShowAs: false, categories: true, htmlBody: false,
        invitations: .notSent(how: "an iCalendar file sends nothing"))
    let file: ICalendarFile
    let calendarName: String
    let byID: [String: Event]
    /// Overrides by master id, then by occurrence id.
    let overrides: [String: [String: Event]]

    /// - Parameters:
    ///   - account: the name origin markers record as the source account (a stable name: the same for every
    ///     import of the same file, so its copies are found again).
    ///   - name: the calendar's name in reports (default the file's `X-WR-CALNAME`, else "file").
    ///   - kind, calendarID: what the calendar is (a subscribed feed gives its own).
    public init(
        file: ICalendarFile, account: String, name: String? = nil, kind: ProviderKind = Self.kind, calendarID: String = Self.calendarID
    ) {
        self.file = file
        self.account = account
        self.provider = kind
        self.calendarID = calendarID
        calendarName = name ?? file.name ?? Self.calendarID
        byID = Dictionary(file.events.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var overrides: [String: [String: Event]] = [:]
        for event in file.events { if let series = event.seriesID { overrides[series, default: [:]][event.id] = event } }
        self.overrides = overrides
    }

    /// The calendar as `listCalendars` gives it.
    public var calendar: CalendarInfo {
        CalendarInfo(id: calendarID, name: calendarName, account: account, provider: provider, isPrimary: true, accessRole: .reader)
    }

    public func userInfo() async throws -> UserInfo { UserInfo(displayName: calendarName, accountIdentity: account) }

    public func listCalendars() async throws -> [CalendarInfo] { [calendar] }

    public func listEvents(calendarID: String, range: TimeRange, expand: Bool) async throws -> [Event] {
        try check(calendarID)
        var result: [Event] = []
        for event in file.events {
            if event.seriesID != nil {
                // Overrides: with the series as Google lists them (cancelled ones too); expanded, in place of
                // their occurrences (below).
                if !expand, Self.overlaps(event, range) || event.originalStart.map({ Self.overlaps($0, $0, range) }) == true {
                    result.append(event)
                }
                continue
            }
            guard event.recurrence != nil else {
                if Self.overlaps(event, range) { result.append(event) }
                continue
            }
            let occurrences = try occurrences(of: event, since: range.start, through: range.end)
            if expand {
                result += occurrences.filter { $0.status != .cancelled && Self.overlaps($0, range) }
            } else if occurrences.contains(where: { Self.overlaps($0, range) }) {
                result.append(event)
            }
        }
        return result
    }

    public func getEvent(id: String, calendarID: String) async throws -> Event {
        try check(calendarID)
        if let event = byID[id] { return event }
        // An occurrence: `<master>_<original start>`.
        if let underscore = id.lastIndex(of: "_"), let master = byID[String(id[..<underscore])], master.recurrence != nil {
            let key = id[id.index(after: underscore)...]
            var horizon = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01
            var since: Date?
            if key.count >= 8, let y = Int(key.prefix(4)), let m = Int(key.dropFirst(4).prefix(2)), let d = Int(key.dropFirst(6).prefix(2)),
                let date = LocalDate(year: y, month: m, day: d)
            {
                horizon = date.adding(days: 2).startInstant(in: TimeZone(secondsFromGMT: 0)!)
                since = date.adding(days: -2).startInstant(in: TimeZone(secondsFromGMT: 0)!)
            }
            if let found = try occurrences(of: master, since: since, through: horizon).first(where: { $0.id == id }) { return found }
        }
        throw CalendarError(.notFound, "no event \(id) in the file", provider: provider, account: account, calendar: calendarName)
    }

    /// A series' occurrences starting before `end` (and from about `since` on), overrides in place of theirs.
    /// - Throws: `ICalendarError` naming the event's line when the series cannot be expanded or has more than
    ///   `RecurrenceExpansion.defaultLimit` occurrences in the span (an import's input error, exit 2).
    func occurrences(of master: Event, since: Date? = nil, through end: Date) throws -> [Event] {
        guard let recurrence = master.recurrence else { return [] }
        let utc = TimeZone(secondsFromGMT: 0)!
        let last = LocalDate(instant: end, in: utc).adding(days: 1)
        let first = since.map { LocalDate(instant: $0, in: utc).adding(days: -1) }
        let line = file.eventLines[master.id].map { ", line \($0)" } ?? ""
        let subject = "series '\(master.title.prefix(60))' (UID \(master.id.prefix(60))\(line))"
        let starts: [RecurrenceExpansion.Occurrence]
        do {
            starts = try RecurrenceExpansion.occurrences(of: recurrence, from: master.start, since: first, through: last)
        } catch {
            throw ICalendarError("\(subject): \(error.message)")
        }
        if starts.count >= RecurrenceExpansion.defaultLimit, let lastStart = starts.last, lastStart.start.instant(allDayZone: utc) < end {
            throw ICalendarError(
                "\(subject) has more than \(RecurrenceExpansion.defaultLimit) occurrences between \(first.map(\.description) ?? "its start") and \(last): calbridge copies at most \(RecurrenceExpansion.defaultLimit) occurrences of a series; end the rule earlier (COUNT or UNTIL) or repeat less often"
            )
        }
        let overrides = overrides[master.id] ?? [:]
        let duration = master.end.instant(allDayZone: utc).timeIntervalSince(master.start.instant(allDayZone: utc))
        return starts.map { found in
            let start = found.start
            let id = master.id + "_" + ICalendarReader.occurrenceKey(start)
            if let override = overrides[id] { return override }
            var occurrence = master
            occurrence.id = id
            occurrence.recurrence = nil
            occurrence.seriesID = master.id
            occurrence.originalStart = start
            occurrence.start = start
            switch (start, master.start, master.end) {
            case (.allDay(let date), .allDay(let first), .allDay(let lastDay)):
                occurrence.end = .allDay(date: date.adding(days: first.days(to: lastDay)))
            case (.timed(let instant, _), _, _):
                // An RDATE period's occurrence lasts as long as its period says.
                occurrence.end = .timed(
                    instant: instant.addingTimeInterval(found.duration ?? duration), zone: master.end.zone ?? master.start.zone ?? "UTC")
            default:
                occurrence.end = start
            }
            return occurrence
        }
    }

    public func readOnlyError() -> CalendarError {
        CalendarError(.readOnly, "an iCalendar file is read-only", provider: provider, account: account, calendar: calendarName)
    }

    func check(_ calendarID: String) throws {
        guard calendarID == self.calendarID else {
            throw CalendarError(.notFound, "an iCalendar file has one calendar, '\(self.calendarID)'", provider: provider, account: account)
        }
    }

    static func overlaps(_ event: Event, _ range: TimeRange) -> Bool { overlaps(event.start, event.end, range) }

    /// Whether the times overlap the range; all-day dates are taken a day wide on either side (the copy
    /// window cuts them exactly, in its own zone).
    static func overlaps(_ start: EventTime, _ end: EventTime, _ range: TimeRange) -> Bool {
        let utc = TimeZone(secondsFromGMT: 0)!
        var from = start.instant(allDayZone: utc)
        var to = end.instant(allDayZone: utc)
        if start.isAllDay {
            from -= 86_400
            to += 86_400
        }
        return from < range.end && (to > range.start || (to == from && from >= range.start))
    }
}
