import CalendarBridge
import Foundation
import GoogleCalendar
import HTTP
import TestSupport
import Testing

@Suite("Google provider: event mapping both ways")
struct GoogleMappingTests {
    static let base = URL(string: "http://127.0.0.1:8080")!

    func listed() async throws -> [Event] {
        let transport = RecordingTransport { request in
            request.queryValue("pageToken") == nil
                ? Fixture.response("google/events-page1.json") : Fixture.response("google/events-page2.json")
        }
        let p = GoogleCalendarProvider(account: "work", transport: transport, baseURL: Self.base)
        return try await p.listEvents(
            calendarID: "primary",
            range: TimeRange(start: Date(timeIntervalSince1970: 1_772_409_600), end: Date(timeIntervalSince1970: 1_773_014_400)),
            expand: true)
    }

    static func instant(_ text: String) -> Date {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = f.date(from: text) { return d }
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: text)!
    }

    @Test("an update naming fields patches only their members; every field when none are named")
    func updateNamedFields() async throws {
        let transport = RecordingTransport { _ in Fixture.response("google/event-series.json") }
        let p = GoogleCalendarProvider(account: "work", transport: transport, baseURL: Self.base)
        var series = Event(
            title: "Planning", body: .text("Notes"), location: "HQ",
            start: .timed(instant: Self.instant("2026-03-09T17:00:00Z"), zone: "Europe/Berlin"),
            end: .timed(instant: Self.instant("2026-03-09T18:00:00Z"), zone: "Europe/Berlin"),
            recurrence: Recurrence(lines: ["RRULE:FREQ=DAILY;COUNT=10"]), attendees: [Attendee(name: "Bob", email: "bob@example.com")])
        series.id = "abc123"
        series.calendarID = "primary"
        let cases: [(EventFields, Set<String>)] = [
            ([.title], ["summary"]), ([.times, .location], ["start", "end", "location"]), ([.recurrence], ["recurrence"]), ([], []),
        ]
        for (fields, members) in cases {
            _ = try await p.updateEvent(series, fields: fields)
            let request = try #require(transport.requests.last)
            #expect(request.method == .patch && request.url.query?.contains("sendUpdates=none") == true)
            #expect(Set(try #require(request.jsonBody).keys) == members, "\(fields)")
        }
        _ = try await p.updateEvent(series)
        let all = try #require(transport.requests.last?.jsonBody)
        #expect(Set(["summary", "description", "attendees", "reminders", "recurrence", "start"]).isSubset(of: Set(all.keys)))
    }

    @Test("a timed event with zone, HTML body, attendees, reminders, visibility and Meet link")
    func timedEvent() async throws {
        let e = try await listed()[0]
        #expect(e.id == "4m5l6m7j8k9l0p1q2r3s4t5u6v")
        #expect(e.title == "Design review")
        #expect(e.body == .html("Agenda:<br><ul><li>API</li><li>Sandbox</li></ul>"))
        #expect(e.location == "Room 4.12, Friedrichstraße 10, Berlin")
        #expect(e.start == .timed(instant: Self.instant("2026-03-02T09:00:00Z"), zone: "Europe/Berlin"))
        #expect(e.end == .timed(instant: Self.instant("2026-03-02T10:30:00Z"), zone: "Europe/Berlin"))
        #expect(e.status == .confirmed)
        #expect(e.organizer == Attendee(name: "Ann Lee", email: "ann.lee@example.com", response: .organizer))
        #expect(e.attendees == [
            Attendee(name: "Ann Lee", email: "ann.lee@example.com", role: .required, response: .accepted),
            Attendee(name: "Bob Ray", email: "bob.ray@example.com", role: .required, response: .tentative),
            Attendee(name: nil, email: "cy@example.org", role: .optional, response: .needsAction),
            Attendee(name: "Room 4.12", email: "c_1889room@resource.calendar.google.com", role: .resource, response: .declined),
        ])
        #expect(e.reminders == [Reminder(minutesBefore: 1440, method: .email), Reminder(minutesBefore: 15, method: .popup)])
        #expect(e.showAs == .busy)
        #expect(e.sensitivity == .confidential)
        #expect(e.onlineMeetingURL == URL(string: "https://meet.google.com/abc-defg-hij"))
        #expect(e.webURL?.absoluteString.hasPrefix("https://www.google.com/calendar/event?eid=") == true)
        #expect(e.iCalUID == "4m5l6m7j8k9l0p1q2r3s4t5u6v@google.com")
        #expect(e.created == Self.instant("2026-02-20T10:00:00.000Z"))
        #expect(e.updated == Self.instant("2026-03-01T12:30:45.678Z"))
        #expect(e.extendedProperties == ["projectCode": "PX-7"])
        #expect(e.origin == nil)
        #expect(e.recurrence == nil && e.seriesID == nil)
    }

    @Test("an all-day multi-day event: dates, end exclusive, free, private, default reminders")
    func allDayEvent() async throws {
        let e = try await listed()[1]
        #expect(e.start == .allDay(date: LocalDate(year: 2026, month: 3, day: 3)!))
        #expect(e.end == .allDay(date: LocalDate(year: 2026, month: 3, day: 6)!))
        #expect(e.isAllDay)
        #expect(e.showAs == .free)
        #expect(e.sensitivity == .private)
        #expect(e.reminders == nil)
        #expect(e.body == nil && e.location == nil)
    }

    @Test("an occurrence: series id, original start, calendar zone for offset-only times, no reminders, out of office")
    func occurrence() async throws {
        let e = try await listed()[2]
        #expect(e.seriesID == "r7s8t9u0v1a2b3c4d5e6f7g8h9")
        #expect(e.originalStart == .timed(instant: Self.instant("2026-03-04T08:00:00Z"), zone: "Europe/Berlin"))
        #expect(e.start == .timed(instant: Self.instant("2026-03-04T09:30:00Z"), zone: "Europe/Berlin"))
        #expect(e.reminders == [])
        #expect(e.showAs == .oof)
        #expect(e.isOccurrence)
    }

    @Test("a series master: RRULE and EXDATE lines, parsed rule, origin marker split from the bag")
    func series() async throws {
        let transport = RecordingTransport { _ in Fixture.response("google/event-series.json") }
        let p = GoogleCalendarProvider(account: "work", transport: transport, baseURL: Self.base)
        let e = try await p.getEvent(id: "r7s8t9u0v1a2b3c4d5e6f7g8h9", calendarID: "primary")
        #expect(e.recurrence?.lines.count == 2)
        let rule = try #require(e.recurrence?.rules.first)
        #expect(rule.frequency == .weekly)
        #expect(rule.byDay.map(\.weekday) == [.monday, .tuesday, .wednesday, .thursday, .friday])
        #expect(rule.until == .instant(Self.instant("2026-06-30T21:59:59Z")))
        #expect(rule.weekStart == .monday)
        #expect(e.recurrence?.otherLines == ["EXDATE;TZID=Europe/Berlin:20260406T090000"])
        #expect(e.origin == OriginMarker(
            provider: .microsoft, account: "work", calendarID: "AAMkAGI2TG93AAA=", eventID: "AAMkAGI2THVSAAA=",
            contentHash: "5e1f"))
        #expect(e.extendedProperties.isEmpty)
        #expect(e.isSeriesMaster)
    }

    @Test("writing: every model field becomes the matching Google field")
    func writeBody() async throws {
        let transport = RecordingTransport { request in HTTPResponse(status: 200, body: request.body!) }
        let p = GoogleCalendarProvider(account: "work", transport: transport, baseURL: Self.base)
        let la = "America/Los_Angeles"
        let marker = OriginMarker(provider: .microsoft, account: "o365", calendarID: "CAL", eventID: "EV", contentHash: "abc")
        let event = Event(
            title: "Planning", body: .text("Bring notes"), location: "HQ",
            start: .timed(instant: Self.instant("2026-03-09T17:00:00Z"), zone: la),
            end: .timed(instant: Self.instant("2026-03-09T18:00:00Z"), zone: la),
            recurrence: Recurrence(rule: RecurrenceRule(frequency: .weekly, count: 5, byDay: [.init(.monday)])),
            status: .tentative,
            attendees: [Attendee(name: "Bob", email: "bob@example.com", role: .optional, response: .accepted)],
            reminders: [Reminder(minutesBefore: 30, method: .email)], showAs: .free, sensitivity: .personal,
            onlineMeetingURL: URL(string: "https://teams.example/join"), origin: marker,
            extendedProperties: ["projectCode": "PX-7"])
        let created = try await p.createEvent(event, in: "primary", idempotencyKey: IdempotencyKey("k"))
        let json = try #require(transport.requests[0].jsonBody)
        #expect(json["summary"] as? String == "Planning")
        #expect(json["description"] as? String == "Bring notes")
        #expect(json["location"] as? String == "HQ")
        // 17:00Z on 9 March 2026 is 10:00 PDT (DST began on 8 March).
        #expect((json["start"] as? [String: String]) == ["dateTime": "2026-03-09T10:00:00-07:00", "timeZone": la])
        #expect((json["end"] as? [String: String]) == ["dateTime": "2026-03-09T11:00:00-07:00", "timeZone": la])
        #expect(json["recurrence"] as? [String] == ["RRULE:FREQ=WEEKLY;COUNT=5;BYDAY=MO"])
        #expect(json["status"] as? String == "tentative")
        #expect(json["transparency"] as? String == "transparent")
        #expect(json["visibility"] as? String == "private")
        let attendees = try #require(json["attendees"] as? [[String: Any]])
        #expect(attendees.count == 1)
        #expect(attendees[0]["email"] as? String == "bob@example.com")
        #expect(attendees[0]["optional"] as? Bool == true)
        let reminders = try #require(json["reminders"] as? [String: Any])
        #expect(reminders["useDefault"] as? Bool == false)
        #expect((reminders["overrides"] as? [[String: Any]])?.first?["minutes"] as? Int == 30)
        let privateProps = try #require((json["extendedProperties"] as? [String: Any])?["private"] as? [String: String])
        #expect(privateProps["projectCode"] == "PX-7")
        #expect(privateProps["calbridge.originKey"] == marker.eventKey)
        #expect(privateProps["calbridge.originCalendar"] == marker.calendarKey)
        #expect(json["hangoutLink"] == nil && json["conferenceData"] == nil, "meeting links are read-only")

        // Reading the echoed body back gives the same event (modulo read-only fields).
        #expect(created.start == event.start && created.end == event.end)
        #expect(created.recurrence == event.recurrence)
        #expect(created.origin == marker)
        #expect(created.extendedProperties == ["projectCode": "PX-7"])
        #expect(created.reminders == event.reminders)
        #expect(created.showAs == .free)
        #expect(created.sensitivity == .private, "Google has no 'personal': it becomes private")
        #expect(created.attendees == event.attendees)
    }

    @Test("reminders Google cannot store are written as it can: at most four weeks ahead, the five nearest the start")
    func storableReminders() async throws {
        let transport = RecordingTransport { request in
            var json = request.jsonBody!
            json["id"] = "new1"
            return HTTPResponse(status: 200, body: try JSONSerialization.data(withJSONObject: json))
        }
        let p = GoogleCalendarProvider(account: "work", transport: transport, baseURL: Self.base)
        // Outlook allows a reminder five weeks ahead (50,400 minutes); Google refuses more than 40,320.
        let reminders = [50_400, 10, 60, 60, 5, 1440, 120, 30].map { Reminder(minutesBefore: $0) }
        let event = Event(title: "Far ahead", start: .timed(instant: Self.instant("2026-03-09T17:00:00Z"), zone: "UTC"),
                          end: .timed(instant: Self.instant("2026-03-09T18:00:00Z"), zone: "UTC"), reminders: reminders)
        _ = try await p.createEvent(event, in: "primary")
        let written = try #require((transport.requests[0].jsonBody?["reminders"] as? [String: Any])?["overrides"] as? [[String: Any]])
        #expect(written.compactMap { $0["minutes"] as? Int } == [5, 10, 30, 60, 120])
        _ = try await p.createEvent(Event(title: "Far", start: event.start, end: event.end, reminders: [Reminder(minutesBefore: 50_400)]), in: "primary")
        let far = (transport.requests[1].jsonBody?["reminders"] as? [String: Any])?["overrides"] as? [[String: Any]]
        #expect(far?.compactMap { $0["minutes"] as? Int } == [40_320])
    }

    @Test("an all-day event is written with date fields; default reminders as useDefault")
    func writeAllDay() async throws {
        let transport = RecordingTransport { request in
            var json = request.jsonBody!
            json["id"] = "new1"
            return HTTPResponse(status: 200, body: try JSONSerialization.data(withJSONObject: json))
        }
        let p = GoogleCalendarProvider(account: "work", transport: transport, baseURL: Self.base)
        let event = Event(title: "Holiday", start: .allDay(date: LocalDate("2026-12-24")!), end: .allDay(date: LocalDate("2026-12-27")!))
        _ = try await p.createEvent(event, in: "primary")
        let json = try #require(transport.requests[0].jsonBody)
        #expect((json["start"] as? [String: String]) == ["date": "2026-12-24"])
        #expect((json["end"] as? [String: String]) == ["date": "2026-12-27"])
        #expect((json["reminders"] as? [String: Bool]) == ["useDefault": true])
        #expect(json["extendedProperties"] == nil)
        #expect(json["visibility"] as? String == "default")
        #expect(json["transparency"] as? String == "opaque")
    }

    @Test("an unknown zone is refused before anything is sent")
    func unknownZone() async throws {
        let transport = RecordingTransport(json: "{}")
        let p = GoogleCalendarProvider(account: "work", transport: transport, baseURL: Self.base)
        let event = Event(
            title: "X", start: .timed(instant: Date(), zone: "Pacific Standard Time"),
            end: .timed(instant: Date(), zone: "Pacific Standard Time"))
        await #expect(throws: CalendarError.self) { try await p.createEvent(event, in: "primary") }
        #expect(transport.requests.isEmpty)
    }
}
