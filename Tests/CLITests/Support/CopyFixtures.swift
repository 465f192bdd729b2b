import Foundation
import HTTP
import Sandbox
import LoopbackServer

/// Source events for the copy tests, each written in both providers' own JSON (RRULE for Google,
/// `patternedRecurrence` for Graph), so one set of expectations covers both directions.
enum CopyFixtures {
    /// The window every copy test uses (`--from`/`--to`, in UTC): it holds both US and both Australian
    /// DST changes of 2027 (LA: Mar 14, Nov 7; Sydney: Apr 4, Oct 3).
    static let from = "2027-03-01"
    static let to = "2027-11-30"
    static let windowStart = "2027-03-01T00:00:00Z"
    static let windowEnd = "2027-12-01T00:00:00Z"
    /// The window as `calbridge copy` options.
    static let windowOptions = ["--from", from, "--to", to]

    /// A recurring series: start wall clock in its zone, length, and the rule in both notations.
    struct Series: Sendable {
        var title: String
        var zone: String
        var windowsZone: String
        /// `YYYY-MM-DDTHH:MM:SS` in `zone`.
        var start: String
        var minutes: Int
        var rrule: String
        /// Graph `recurrence.pattern` and `recurrence.range` as JSON text.
        var pattern: String
        var range: String

        func json(_ text: String) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        }
    }

    static let series: [Series] = [
        Series(
            title: "Daily standup LA", zone: "America/Los_Angeles", windowsZone: "Pacific Standard Time",
            start: "2027-03-10T09:00:00", minutes: 30, rrule: "RRULE:FREQ=DAILY;COUNT=10",
            pattern: #"{"type": "daily", "interval": 1}"#,
            range: #"{"type": "numbered", "startDate": "2027-03-10", "numberOfOccurrences": 10}"#),
        Series(
            title: "Fortnightly Sydney", zone: "Australia/Sydney", windowsZone: "AUS Eastern Standard Time",
            start: "2027-03-01T08:00:00", minutes: 60, rrule: "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;UNTIL=20270531T235959Z",
            pattern: #"{"type": "weekly", "interval": 2, "daysOfWeek": ["monday", "wednesday"], "firstDayOfWeek": "monday"}"#,
            range: #"{"type": "endDate", "startDate": "2027-03-01", "endDate": "2027-05-31"}"#),
        Series(
            title: "Monthly on the 15th", zone: "America/Los_Angeles", windowsZone: "Pacific Standard Time",
            start: "2027-03-15T10:00:00", minutes: 60, rrule: "RRULE:FREQ=MONTHLY;BYMONTHDAY=15",
            pattern: #"{"type": "absoluteMonthly", "interval": 1, "dayOfMonth": 15}"#,
            range: #"{"type": "noEnd", "startDate": "2027-03-15"}"#),
        Series(
            title: "Last Friday Sydney", zone: "Australia/Sydney", windowsZone: "AUS Eastern Standard Time",
            start: "2027-06-25T17:00:00", minutes: 60, rrule: "RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=6",
            pattern: #"{"type": "relativeMonthly", "interval": 1, "daysOfWeek": ["friday"], "index": "last"}"#,
            range: #"{"type": "numbered", "startDate": "2027-06-25", "numberOfOccurrences": 6}"#),
        Series(
            title: "Yearly on April 20", zone: "America/Los_Angeles", windowsZone: "Pacific Standard Time",
            start: "2027-04-20T12:00:00", minutes: 60, rrule: "RRULE:FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=20",
            pattern: #"{"type": "absoluteYearly", "interval": 1, "month": 4, "dayOfMonth": 20}"#,
            range: #"{"type": "noEnd", "startDate": "2027-04-20"}"#),
        Series(
            title: "Second Tuesday of November", zone: "America/Los_Angeles", windowsZone: "Pacific Standard Time",
            start: "2027-11-09T15:00:00", minutes: 45, rrule: "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=2TU",
            pattern: #"{"type": "relativeYearly", "interval": 1, "month": 11, "daysOfWeek": ["tuesday"], "index": "second"}"#,
            range: #"{"type": "noEnd", "startDate": "2027-11-09"}"#),
        Series(
            title: "Tue Thu across November", zone: "America/Los_Angeles", windowsZone: "Pacific Standard Time",
            start: "2027-10-26T09:00:00", minutes: 30, rrule: "RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=8",
            pattern: #"{"type": "weekly", "interval": 1, "daysOfWeek": ["tuesday", "thursday"], "firstDayOfWeek": "sunday"}"#,
            range: #"{"type": "numbered", "startDate": "2027-10-26", "numberOfOccurrences": 8}"#),
        Series(
            title: "Every third day Sydney", zone: "Australia/Sydney", windowsZone: "AUS Eastern Standard Time",
            start: "2027-09-28T07:30:00", minutes: 30, rrule: "RRULE:FREQ=DAILY;INTERVAL=3;UNTIL=20271015T235959Z",
            pattern: #"{"type": "daily", "interval": 3}"#,
            range: #"{"type": "endDate", "startDate": "2027-09-28", "endDate": "2027-10-15"}"#),
    ]

    /// The occurrence of "Daily standup LA" cancelled in the source (the third), and the one moved two
    /// hours later and retitled (the fifth, on the DST day).
    static let cancelledIndex = 2
    static let movedIndex = 4
    static let movedTitle = "Daily standup LA (moved)"

    /// Six Tuesdays at 09:00 in Los Angeles across the March DST change (PST, then PDT), for copies of
    /// single occurrences; the third is cancelled in the source.
    static let weekly = Series(
        title: "Weekly sync LA", zone: "America/Los_Angeles", windowsZone: "Pacific Standard Time",
        start: "2027-03-09T09:00:00", minutes: 45, rrule: "RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6",
        pattern: #"{"type": "weekly", "interval": 1, "daysOfWeek": ["tuesday"], "firstDayOfWeek": "sunday"}"#,
        range: #"{"type": "numbered", "startDate": "2027-03-09", "numberOfOccurrences": 6}"#)
    static let weeklyCancelledIndex = 2

    static func end(_ start: String, plus minutes: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: formatter.date(from: start)!.addingTimeInterval(TimeInterval(minutes * 60)))
    }

    // MARK: seeding

    /// Writes every series, the all-day trip and the meeting with HTML body and attendees into ann's
    /// Google calendar `calendarID`, then cancels and moves one occurrence.
    static func seedGoogle(_ api: SandboxAPI, calendarID: String) async throws {
        for s in series {
            let id = try await insertGoogle(api, s, calendarID: calendarID)
            guard s.title == "Daily standup LA" else { continue }
            let instances = try await cancelGoogleOccurrence(api, calendarID: calendarID, seriesID: id, index: cancelledIndex)
            let moved = instances[movedIndex]["id"] as! String
            try await api.ok(.google, "PATCH", SandboxAPI.googlePath(calendarID, "/\(moved)"), json: [
                "summary": movedTitle,
                "start": ["dateTime": "2027-03-14T11:00:00", "timeZone": s.zone],
                "end": ["dateTime": "2027-03-14T11:30:00", "timeZone": s.zone],
            ])
        }
        _ = try await api.googleInsert(calendarID, [
            "summary": "Conference trip", "start": ["date": "2027-04-01"], "end": ["date": "2027-04-04"],
        ])
        _ = try await api.googleInsert(calendarID, [
            "summary": "Review with partners", "location": "Room Spree",
            "description": "<p>Agenda: <b>budget</b> &amp; plans</p>",
            "start": ["dateTime": "2027-05-05T14:00:00", "timeZone": "Europe/Berlin"],
            "end": ["dateTime": "2027-05-05T15:00:00", "timeZone": "Europe/Berlin"],
            "attendees": [
                ["email": "bob@example.com", "displayName": "Bob Kim"], ["email": "eve@example.org", "optional": true],
            ],
        ])
    }

    /// The same events in carol's Outlook calendar (the default one unless `calendarID` is given).
    static func seedGraph(_ api: SandboxAPI, calendarID: String? = nil) async throws {
        for s in series {
            let id = try await createGraph(api, s, calendarID: calendarID)
            guard s.title == "Daily standup LA" else { continue }
            let instances = try await cancelGraphOccurrence(api, seriesID: id, index: cancelledIndex)
            let moved = instances[movedIndex]["id"] as! String
            try await api.ok(.microsoft, "PATCH", "/v1.0/me/events/\(FormEncoding.percentEncode(moved))", json: [
                "subject": movedTitle,
                "start": ["dateTime": "2027-03-14T11:00:00", "timeZone": s.windowsZone],
                "end": ["dateTime": "2027-03-14T11:30:00", "timeZone": s.windowsZone],
            ])
        }
        _ = try await api.graphCreate([
            "subject": "Conference trip", "isAllDay": true,
            "start": ["dateTime": "2027-04-01T00:00:00", "timeZone": "Pacific Standard Time"],
            "end": ["dateTime": "2027-04-04T00:00:00", "timeZone": "Pacific Standard Time"],
        ], calendarID: calendarID)
        _ = try await api.graphCreate([
            "subject": "Review with partners", "location": ["displayName": "Room Spree"],
            "body": ["contentType": "html", "content": "<html><body><p>Agenda: <b>budget</b> &amp; plans</p></body></html>"],
            "start": ["dateTime": "2027-05-05T14:00:00", "timeZone": "W. Europe Standard Time"],
            "end": ["dateTime": "2027-05-05T15:00:00", "timeZone": "W. Europe Standard Time"],
            "categories": ["Red category"],
            "attendees": [
                ["emailAddress": ["address": "bob@example.com", "name": "Bob Kim"], "type": "required"],
                ["emailAddress": ["address": "eve@example.org"], "type": "optional"],
            ],
        ], calendarID: calendarID)
    }

    /// Writes one series into ann's Google calendar `calendarID` (an RRULE); returns its id.
    static func insertGoogle(_ api: SandboxAPI, _ s: Series, calendarID: String) async throws -> String {
        let created = try await api.googleInsert(calendarID, [
            "summary": s.title,
            "start": ["dateTime": s.start, "timeZone": s.zone],
            "end": ["dateTime": end(s.start, plus: s.minutes), "timeZone": s.zone],
            "recurrence": [s.rrule],
        ])
        return created["id"] as! String
    }

    /// Deletes occurrence `index` (0-based) of a Google series; returns the occurrences as they were before.
    static func cancelGoogleOccurrence(_ api: SandboxAPI, calendarID: String, seriesID: String, index: Int) async throws
        -> [[String: Any]]
    {
        let instances = try await api.googleInstances(calendarID, seriesID)
        let cancelled = instances[index]["id"] as! String
        try await api.ok(.google, "DELETE", SandboxAPI.googlePath(calendarID, "/\(cancelled)"))
        return instances
    }

    /// Writes one series into carol's Outlook calendar (a patternedRecurrence); returns its id.
    static func createGraph(_ api: SandboxAPI, _ s: Series, calendarID: String? = nil) async throws -> String {
        let created = try await api.graphCreate([
            "subject": s.title,
            "start": ["dateTime": s.start, "timeZone": s.windowsZone],
            "end": ["dateTime": end(s.start, plus: s.minutes), "timeZone": s.windowsZone],
            "recurrence": [
                "pattern": s.json(s.pattern),
                "range": s.json(s.range).merging(["recurrenceTimeZone": s.windowsZone]) { a, _ in a },
            ],
        ], calendarID: calendarID)
        return created["id"] as! String
    }

    /// Deletes occurrence `index` (0-based, in the window) of an Outlook series; returns the occurrences
    /// as they were before.
    static func cancelGraphOccurrence(_ api: SandboxAPI, seriesID: String, index: Int) async throws -> [[String: Any]] {
        let instances = try await api.graphInstances(seriesID, from: windowStart, to: windowEnd)
        let cancelled = instances[index]["id"] as! String
        try await api.ok(.microsoft, "DELETE", "/v1.0/me/events/\(FormEncoding.percentEncode(cancelled))")
        return instances
    }
}
