import CalendarBridge
import Foundation
import HTTP
import MicrosoftGraph
import TestSupport
import Testing

@Suite("Graph provider: event mapping both ways")
struct GraphMappingTests {
    static let base = URL(string: "http://127.0.0.1:8080")!

    static func utc(_ text: String) -> Date {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: text)!
    }

    func listed() async throws -> [Event] {
        let transport = RecordingTransport { request in
            request.queryValue("$skip") == nil
                ? Fixture.response("graph/calendarView-page1.json") : Fixture.response("graph/calendarView-page2.json")
        }
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: Self.base, responseZone: "Pacific Standard Time")
        let start = Self.utc("2026-03-02T08:00:00Z")
        return try await p.listEvents(calendarID: "AAMkAGI2TGuLAAA=", range: TimeRange(start: start, end: start + 14 * 86_400), expand: true)
    }

    @Test("Pacific Standard Time across the DST change: the same wall clock is a different UTC offset")
    func dstAcrossChange() async throws {
        let events = try await listed()
        // 7 March 2026 09:00 is PST (UTC-8); 9 March 09:00 is PDT (UTC-7): DST began on 8 March.
        #expect(events[0].start == .timed(instant: Self.utc("2026-03-07T17:00:00Z"), zone: "America/Los_Angeles"))
        #expect(events[0].end == .timed(instant: Self.utc("2026-03-07T18:00:00Z"), zone: "America/Los_Angeles"))
        #expect(events[1].start.instant(allDayZone: .gmt) == Self.utc("2026-03-09T16:00:00Z"))
        #expect(events[3].start == .timed(instant: Self.utc("2026-03-11T16:00:00Z"), zone: "America/Los_Angeles"))
        // Read back in Los Angeles, both show 09:00 local.
        #expect(events[0].start.localText == "2026-03-07T09:00:00")
        #expect(
            LocalDateTime(instant: Self.utc("2026-03-09T16:00:00Z"), in: TimeZone(identifier: "America/Los_Angeles")!)
                .description == "2026-03-09T09:00:00")
    }

    @Test("an event shown in Pacific time but created in Berlin keeps Europe/Berlin as its zone")
    func originalZone() async throws {
        let e = try await listed()[1]
        #expect(e.start == .timed(instant: Self.utc("2026-03-09T16:00:00Z"), zone: "Europe/Berlin"))
        #expect(e.start.localText == "2026-03-09T17:00:00")
        #expect(e.reminders == [], "isReminderOn false = no reminder")
        #expect(e.body == nil && e.location == nil)
        #expect(e.showAs == .busy && e.sensitivity == .normal)
    }

    @Test("every field of a full event: body, location, attendees, reminder, showAs, sensitivity, Teams link, categories, marker")
    func fullEvent() async throws {
        let e = try await listed()[0]
        #expect(e.id == "AAMkAGI2TG93AAA=")
        #expect(e.calendarID == "AAMkAGI2TGuLAAA=")
        #expect(e.title == "Quarterly planning")
        #expect(e.body == .html("<html><body><p>Agenda: goals</p></body></html>"))
        #expect(e.location == "Conf Room Rainier")
        #expect(e.attendees == [
            Attendee(name: "Adele Vance", email: "AdeleV@contoso.example", role: .required, response: .accepted),
            Attendee(name: "Alex Wilber", email: "AlexW@contoso.example", role: .optional, response: .tentative),
            Attendee(name: "Lee Gu", email: "LeeG@contoso.example", role: .required, response: .needsAction),
            Attendee(name: "Conf Room Rainier", email: "Rainier@contoso.example", role: .resource, response: .declined),
        ])
        #expect(e.organizer == Attendee(name: "Megan Bowen", email: "MeganB@contoso.example", response: .organizer))
        #expect(e.reminders == [Reminder(minutesBefore: 15, method: .popup)])
        #expect(e.showAs == .tentative)
        #expect(e.sensitivity == .personal)
        #expect(e.onlineMeetingURL?.absoluteString == "https://teams.microsoft.com/l/meetup-join/19%3ameeting_abc%40thread.v2/0")
        #expect(e.webURL != nil)
        #expect(e.categories == ["Red category", "Project X"])
        #expect(e.iCalUID?.hasPrefix("040000008200E000") == true)
        #expect(e.created == Self.utc("2026-02-20T18:00:00Z").addingTimeInterval(0.1234567))
        #expect(e.origin == OriginMarker(provider: .google, account: "personal", calendarID: "primary", eventID: "g123", contentHash: "9a8b"))
        #expect(e.extendedProperties.isEmpty)
        #expect(e.status == .confirmed)
    }

    @Test("an all-day event: dates from the local midnights, end exclusive, oof, private, 18 h reminder")
    func allDay() async throws {
        let e = try await listed()[2]
        #expect(e.start == .allDay(date: LocalDate("2026-03-08")!))
        #expect(e.end == .allDay(date: LocalDate("2026-03-10")!))
        #expect(e.showAs == .oof)
        #expect(e.sensitivity == .private)
        #expect(e.reminders == [Reminder(minutesBefore: 1080)])
        #expect(e.body == .text("Two days away."))
    }

    @Test("occurrences and exceptions carry the series id and their original start")
    func instances() async throws {
        let events = try await listed()
        #expect(events[3].seriesID == "AAMkAGI2TG96AAA=")
        #expect(events[3].originalStart == .timed(instant: Self.utc("2026-03-11T16:00:00Z"), zone: "America/Los_Angeles"))
        #expect(events[4].seriesID == "AAMkAGI2TG96AAA=")
        #expect(events[4].originalStart == .timed(instant: Self.utc("2026-03-04T17:00:00Z"), zone: "America/Los_Angeles"))
        #expect(events[4].start == .timed(instant: Self.utc("2026-03-05T19:00:00Z"), zone: "America/Los_Angeles"))
    }

    @Test("a weekly series becomes an RRULE ending at the last second of its end date in its zone")
    func seriesMaster() async throws {
        let transport = RecordingTransport { _ in Fixture.response("graph/event-seriesMaster.json") }
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: Self.base)
        let e = try await p.getEvent(id: "AAMkAGI2TG96AAA=", calendarID: "AAMkAGI2TGuLAAA=")
        // 30 June 2026 23:59:59 PDT = 1 July 06:59:59 UTC. The fixture's week starts on Sunday: kept, as WKST.
        #expect(e.recurrence?.lines == ["RRULE:FREQ=WEEKLY;UNTIL=20260701T065959Z;BYDAY=MO,WE;WKST=SU"])
        #expect(transport.requests[0].headers["Prefer"] == #"outlook.timezone="UTC""#)
    }

    @Test("writing: Windows zone name, wall-clock time in that zone, every mapped field")
    func writeTimed() async throws {
        let transport = RecordingTransport { _ in Fixture.response("graph/event-seriesMaster.json", status: 201) }
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: Self.base)
        let marker = OriginMarker(provider: .google, account: "me", calendarID: "primary", eventID: "g1", contentHash: "h1")
        let event = Event(
            title: "Planning", body: .html("<p>Hi</p>"), location: "HQ",
            start: .timed(instant: Self.utc("2026-03-09T17:00:00Z"), zone: "America/Los_Angeles"),
            end: .timed(instant: Self.utc("2026-03-09T18:00:00Z"), zone: "America/Los_Angeles"),
            recurrence: Recurrence(rule: RecurrenceRule(frequency: .weekly, count: 10, byDay: [.init(.monday)])),
            attendees: [Attendee(name: "Bob", email: "bob@example.com", role: .optional)],
            reminders: [Reminder(minutesBefore: 30), Reminder(minutesBefore: 10)], showAs: .workingElsewhere,
            sensitivity: .confidential, categories: ["Blue"], origin: marker, extendedProperties: ["x": "y"])
        _ = try await p.createEvent(event, in: "AAMkAGI2TGuLAAA=")
        let json = try #require(transport.requests[0].jsonBody)
        #expect((json["start"] as? [String: String]) == ["dateTime": "2026-03-09T10:00:00", "timeZone": "Pacific Standard Time"])
        #expect((json["end"] as? [String: String]) == ["dateTime": "2026-03-09T11:00:00", "timeZone": "Pacific Standard Time"])
        #expect(json["isAllDay"] as? Bool == false)
        #expect(json["subject"] as? String == "Planning")
        #expect((json["body"] as? [String: String]) == ["contentType": "html", "content": "<p>Hi</p>"])
        #expect((json["location"] as? [String: String]) == ["displayName": "HQ"])
        #expect(json["showAs"] as? String == "workingElsewhere")
        #expect(json["sensitivity"] as? String == "confidential")
        #expect(json["categories"] as? [String] == ["Blue"])
        #expect(json["isReminderOn"] as? Bool == true)
        #expect(json["reminderMinutesBeforeStart"] as? Int == 10)
        let attendees = try #require(json["attendees"] as? [[String: Any]])
        #expect(attendees[0]["type"] as? String == "optional")
        #expect((attendees[0]["emailAddress"] as? [String: String]) == ["address": "bob@example.com", "name": "Bob"])
        let recurrence = try #require(json["recurrence"] as? [String: [String: Any]])
        #expect(recurrence["pattern"]?["type"] as? String == "weekly")
        #expect(recurrence["pattern"]?["daysOfWeek"] as? [String] == ["monday"])
        #expect(recurrence["range"]?["type"] as? String == "numbered")
        #expect(recurrence["range"]?["numberOfOccurrences"] as? Int == 10)
        #expect(recurrence["range"]?["startDate"] as? String == "2026-03-09")
        #expect(recurrence["range"]?["recurrenceTimeZone"] as? String == "Pacific Standard Time")
        let props = try #require(json["singleValueExtendedProperties"] as? [[String: String]])
        let byID = Dictionary(uniqueKeysWithValues: props.map { ($0["id"]!, $0["value"]!) })
        let set = "{4b1f3c2e-9d7a-4c55-b0e8-6a2d91f7c3e4}"
        #expect(byID["String \(set) Name calbridge.originKey"] == marker.eventKey)
        #expect(byID["String \(set) Name calbridge.originCalendar"] == marker.calendarKey)
        #expect(byID["String \(set) Name x"] == "y")
        #expect(byID.count == 4)
    }

    @Test("an update naming fields writes only their members; a series' new times bring its pattern (its startDate follows)")
    func updateNamedFields() async throws {
        let transport = RecordingTransport { _ in Fixture.response("graph/event-seriesMaster.json", status: 200) }
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: Self.base)
        var series = Event(
            title: "Planning", body: .html("<p>Hi</p>"), location: "HQ",
            start: .timed(instant: Self.utc("2026-03-09T17:00:00Z"), zone: "America/Los_Angeles"),
            end: .timed(instant: Self.utc("2026-03-09T18:00:00Z"), zone: "America/Los_Angeles"),
            recurrence: Recurrence(rule: RecurrenceRule(frequency: .daily, count: 10)),
            attendees: [Attendee(name: "Bob", email: "bob@example.com")], reminders: [Reminder(minutesBefore: 10)])
        series.id = "AAMkAGI2TG96AAA="
        series.calendarID = "c"
        let cases: [(EventFields, Set<String>)] = [
            ([.title], ["subject"]),
            ([.title, .location], ["subject", "location"]),
            ([.recurrence], ["recurrence"]),
            ([.times], ["start", "end", "isAllDay", "recurrence"]),
            ([], []),
        ]
        for (fields, members) in cases {
            _ = try await p.updateEvent(series, fields: fields)
            let request = try #require(transport.requests.last)
            #expect(request.method == .patch)
            #expect(Set(try #require(request.jsonBody).keys) == members, "\(fields)")
        }
        _ = try await p.updateEvent(series)
        let all = try #require(transport.requests.last?.jsonBody)
        #expect(Set(["subject", "body", "attendees", "reminderMinutesBeforeStart", "recurrence"]).isSubset(of: Set(all.keys)))
        var single = series
        single.recurrence = nil
        _ = try await p.updateEvent(single, fields: .times)
        #expect(Set(try #require(transport.requests.last?.jsonBody).keys) == ["start", "end", "isAllDay"])
    }

    @Test("writing an all-day event: midnights, isAllDay, no reminders = reminder off")
    func writeAllDay() async throws {
        let transport = RecordingTransport { _ in Fixture.response("graph/event-seriesMaster.json", status: 201) }
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: Self.base)
        let event = Event(
            title: "Holiday", start: .allDay(date: LocalDate("2026-12-24")!), end: .allDay(date: LocalDate("2026-12-27")!),
            reminders: [])
        _ = try await p.createEvent(event, in: "c")
        let json = try #require(transport.requests[0].jsonBody)
        #expect((json["start"] as? [String: String]) == ["dateTime": "2026-12-24T00:00:00", "timeZone": "UTC"])
        #expect((json["end"] as? [String: String]) == ["dateTime": "2026-12-27T00:00:00", "timeZone": "UTC"])
        #expect(json["isAllDay"] as? Bool == true)
        #expect(json["isReminderOn"] as? Bool == false)
        #expect(json["singleValueExtendedProperties"] == nil)
    }

    @Test("an IANA zone with a Windows name keeps its wall clock; Asia/Kolkata (a link) becomes India Standard Time")
    func zoneAliases() async throws {
        let transport = RecordingTransport { _ in Fixture.response("graph/event-seriesMaster.json", status: 201) }
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: Self.base)
        let event = Event(
            title: "Standup", start: .timed(instant: Self.utc("2026-03-09T04:00:00Z"), zone: "Asia/Kolkata"),
            end: .timed(instant: Self.utc("2026-03-09T04:30:00Z"), zone: "Asia/Kolkata"))
        _ = try await p.createEvent(event, in: "c")
        let json = try #require(transport.requests[0].jsonBody)
        #expect((json["start"] as? [String: String]) == ["dateTime": "2026-03-09T09:30:00", "timeZone": "India Standard Time"])
    }

    @Test("a recurrence Graph cannot store is refused before sending")
    func unsupportedRecurrence() async throws {
        let transport = RecordingTransport(json: "{}")
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: Self.base)
        let event = Event(
            title: "X", start: .allDay(date: LocalDate("2026-03-10")!), end: .allDay(date: LocalDate("2026-03-11")!),
            recurrence: Recurrence(lines: ["RRULE:FREQ=DAILY", "EXDATE;VALUE=DATE:20260312"]))
        let error = try await #require(throws: CalendarError.self) { try await p.createEvent(event, in: "c") }
        #expect(error.code == .unsupported)
        #expect(error.account == "o365" && error.calendar == "c")
        #expect(transport.requests.isEmpty)
    }
}
