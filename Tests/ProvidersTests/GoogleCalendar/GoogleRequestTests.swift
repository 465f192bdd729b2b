import CalendarBridge
import Foundation
import GoogleCalendar
import Sandbox
import HTTP
import TestSupport
import Testing

@Suite("Google provider: outgoing requests")
struct GoogleRequestTests {
    static let base = URL(string: "http://127.0.0.1:8080")!

    func provider(_ transport: RecordingTransport) -> GoogleCalendarProvider {
        GoogleCalendarProvider(account: "work", transport: transport, baseURL: Self.base)
    }

    @Test("calendarList follows nextPageToken with maxResults=250 and maps every calendar")
    func calendarListPaging() async throws {
        let transport = RecordingTransport { request in
            request.queryValue("pageToken") == nil
                ? Fixture.response("google/calendarList-page1.json") : Fixture.response("google/calendarList-page2.json")
        }
        let calendars = try await provider(transport).listCalendars()
        let requests = transport.requests
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.method == .get && $0.rawPath == "/calendar/v3/users/me/calendarList" })
        #expect(requests[0].rawQuery == "maxResults=250")
        #expect(
            requests[1].rawQuery
                == "maxResults=250&pageToken=EjQKMmVuLnVzYSNob2xpZGF5QGdyb3VwLnYuY2FsZW5kYXIuZ29vZ2xlLmNvbQ%2B%3D")
        #expect(requests.allSatisfy { $0.headers["Authorization"] == nil })

        #expect(calendars.map(\.id) == [
            "ann.lee@example.com", "c_8f3k2l1m0n9b8v7c6x5z4a3s2d@group.calendar.google.com",
            "en.usa#holiday@group.v.calendar.google.com", "bob.ray@example.com",
        ])
        #expect(calendars.map(\.name) == [
            "ann.lee@example.com", "Offsite (team)", "Holidays in United States", "bob.ray@example.com",
        ])
        #expect(calendars.map(\.accessRole) == [.owner, .writer, .reader, .freeBusy])
        #expect(calendars.map(\.isPrimary) == [true, false, false, false])
        #expect(calendars[1].timeZone == "America/Los_Angeles")
        #expect(calendars[0].colour == "#9fe1e7")
        #expect(calendars.allSatisfy { $0.account == "work" && $0.provider == .google })
    }

    @Test("events.list encodes the calendar id as one path segment and the offsets as %2B, and pages")
    func eventsListEncoding() async throws {
        let transport = RecordingTransport { request in
            request.queryValue("pageToken") == nil
                ? Fixture.response("google/events-page1.json") : Fixture.response("google/events-page2.json")
        }
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let p = GoogleCalendarProvider(account: "work", transport: transport, baseURL: Self.base, queryZone: berlin)
        let start = LocalDateTime(date: LocalDate(year: 2026, month: 3, day: 2)!).instant(in: berlin)
        let range = TimeRange(start: start, end: start.addingTimeInterval(7 * 86_400))
        let events = try await p.listEvents(
            calendarID: "en.usa#holiday@group.v.calendar.google.com", range: range, expand: true)

        let requests = transport.requests
        #expect(requests.count == 2)
        #expect(requests[0].rawPath == "/calendar/v3/calendars/en.usa%23holiday%40group.v.calendar.google.com/events")
        #expect(requests[0].rawQueryItems == [
            "timeMin=2026-03-02T00%3A00%3A00%2B01%3A00", "timeMax=2026-03-09T00%3A00%3A00%2B01%3A00",
            "singleEvents=true", "maxResults=2500", "orderBy=startTime",
        ])
        #expect(requests[1].rawQueryItems.last == "pageToken=CigKGjRtNWw2bTdqOGs5bDBwMXEycjNzNHQ1dTZ2GAEggIDA%2B%2F%3D%3D")
        #expect(requests[1].queryValue("timeMin") == "2026-03-02T00:00:00+01:00")
        #expect(events.count == 3)
        #expect(events.allSatisfy { $0.calendarID == "en.usa#holiday@group.v.calendar.google.com" })
    }

    @Test("series listing asks for singleEvents=false without orderBy; UTC bounds are written +00:00")
    func seriesListing() async throws {
        let transport = RecordingTransport(json: #"{"items": []}"#)
        let range = TimeRange(start: Date(timeIntervalSince1970: 1_772_409_600), end: Date(timeIntervalSince1970: 1_773_014_400))
        _ = try await provider(transport).listEvents(calendarID: "primary", range: range, expand: false)
        #expect(transport.requests[0].rawQueryItems == [
            "timeMin=2026-03-02T00%3A00%3A00%2B00%3A00", "timeMax=2026-03-09T00%3A00%3A00%2B00%3A00",
            "singleEvents=false", "maxResults=2500",
        ])
    }

    @Test("quickAdd posts text as a query parameter with sendUpdates=none and no body")
    func quickAdd() async throws {
        let transport = RecordingTransport { _ in Fixture.response("google/quickAdd.json") }
        let event = try await provider(transport).quickAdd(
            text: "Lunch with Ann tomorrow 1pm & dessert +1", in: "c_8f3k2l1m0n9b8v7c6x5z4a3s2d@group.calendar.google.com")
        let request = transport.requests[0]
        #expect(request.method == .post)
        #expect(request.rawPath == "/calendar/v3/calendars/c_8f3k2l1m0n9b8v7c6x5z4a3s2d%40group.calendar.google.com/events/quickAdd")
        #expect(request.rawQuery == "text=Lunch%20with%20Ann%20tomorrow%201pm%20%26%20dessert%20%2B1&sendUpdates=none")
        #expect(request.body == nil)
        #expect(request.isRetrySafe == false)
        #expect(event.id == "q1w2e3r4t5y6u7i8o9p0a1s2d3")
        #expect(event.title == "Lunch with Ann")
        #expect(event.calendarID == "c_8f3k2l1m0n9b8v7c6x5z4a3s2d@group.calendar.google.com")
    }

    @Test("insert with an idempotency key sends the deterministic id, sendUpdates=none, and is retry-safe")
    func insertWithKey() async throws {
        let transport = RecordingTransport { request in
            // Echo the body back as the created event.
            HTTPResponse(status: 200, body: request.body!)
        }
        let key = IdempotencyKey("copy-1")
        let event = Event(
            title: "Copied", start: .allDay(date: LocalDate("2026-03-10")!), end: .allDay(date: LocalDate("2026-03-11")!))
        let created = try await provider(transport).createEvent(event, in: "primary", idempotencyKey: key)
        let request = transport.requests[0]
        #expect(request.method == .post)
        #expect(request.rawPath == "/calendar/v3/calendars/primary/events")
        #expect(request.rawQuery == "sendUpdates=none")
        #expect(request.isRetrySafe)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["Authorization"] == nil)
        #expect(request.jsonBody?["id"] as? String == key.googleEventID)
        #expect(created.id == key.googleEventID)
        #expect(created.start == .allDay(date: LocalDate("2026-03-10")!))
    }

    @Test("insert without a key carries no id and is not retry-safe")
    func insertWithoutKey() async throws {
        let transport = RecordingTransport { request in
            var json = request.jsonBody!
            json["id"] = "server1"
            return HTTPResponse(status: 200, body: try JSONSerialization.data(withJSONObject: json))
        }
        let event = Event(
            title: "T", start: .timed(instant: Date(timeIntervalSince1970: 0), zone: "UTC"),
            end: .timed(instant: Date(timeIntervalSince1970: 1800), zone: "UTC"))
        let created = try await provider(transport).createEvent(event, in: "primary")
        #expect(transport.requests[0].jsonBody?["id"] == nil)
        #expect(transport.requests[0].isRetrySafe == false)
        #expect(created.id == "server1")
    }

    @Test("a retried insert that gets 409 returns the event the first attempt created")
    func insertConflictAdoptsExisting() async throws {
        let key = IdempotencyKey("copy-2")
        let transport = RecordingTransport { request in
            if request.method == .post { return Fixture.response("google/error-duplicate.json", status: 409) }
            var json = try JSONSerialization.jsonObject(with: Fixture.data("google/quickAdd.json")) as! [String: Any]
            json["id"] = key.googleEventID
            return HTTPResponse(status: 200, body: try JSONSerialization.data(withJSONObject: json))
        }
        let event = Event(
            title: "Lunch with Ann", start: .allDay(date: LocalDate("2026-03-10")!), end: .allDay(date: LocalDate("2026-03-11")!))
        let created = try await provider(transport).createEvent(event, in: "primary", idempotencyKey: key)
        #expect(created.id == key.googleEventID)
        #expect(transport.requests.map(\.method) == [.post, .get])
        #expect(transport.requests[1].rawPath == "/calendar/v3/calendars/primary/events/\(key.googleEventID)")
    }

    @Test("a 409 for an id whose event was deleted revives it with a patch")
    func insertConflictRevivesDeleted() async throws {
        let key = IdempotencyKey("copy-3")
        let transport = RecordingTransport { request in
            switch request.method {
            case .post: return Fixture.response("google/error-duplicate.json", status: 409)
            case .get:
                return HTTPResponse(status: 200, body: Data(#"""
                    {"id": "\#(key.googleEventID)", "status": "cancelled",
                     "start": {"date": "2026-03-10"}, "end": {"date": "2026-03-11"}}
                    """#.utf8))
            default:
                var json = request.jsonBody!
                json["id"] = key.googleEventID
                return HTTPResponse(status: 200, body: try JSONSerialization.data(withJSONObject: json))
            }
        }
        let event = Event(
            title: "Back", start: .allDay(date: LocalDate("2026-03-10")!), end: .allDay(date: LocalDate("2026-03-11")!))
        let created = try await provider(transport).createEvent(event, in: "primary", idempotencyKey: key)
        #expect(transport.requests.map(\.method) == [.post, .get, .patch])
        #expect(transport.requests[2].jsonBody?["status"] as? String == "confirmed")
        #expect(transport.requests[2].rawQuery == "sendUpdates=none")
        #expect(created.status == .confirmed)
        #expect(created.title == "Back")
    }

    @Test("patch and delete target the event by encoded ids with sendUpdates=none; a gone event deletes fine")
    func patchAndDelete() async throws {
        let transport = RecordingTransport { request in
            if request.method == .delete { return HTTPResponse(status: 410, body: Data()) }
            return HTTPResponse(status: 200, body: request.body!.isEmpty ? Data("{}".utf8) : { () -> Data in
                var json = request.jsonBody!
                json["id"] = "ev/1"
                return try! JSONSerialization.data(withJSONObject: json)
            }())
        }
        var event = Event(
            id: "ev/1", calendarID: "team#x@group.calendar.google.com", title: "Renamed",
            start: .allDay(date: LocalDate("2026-03-10")!), end: .allDay(date: LocalDate("2026-03-11")!))
        event.location = nil
        let updated = try await provider(transport).updateEvent(event)
        try await provider(transport).deleteEvent(id: "ev/1", calendarID: "team#x@group.calendar.google.com")
        let patch = transport.requests[0]
        #expect(patch.method == .patch)
        #expect(patch.rawPath == "/calendar/v3/calendars/team%23x%40group.calendar.google.com/events/ev%2F1")
        #expect(patch.rawQuery == "sendUpdates=none")
        #expect(patch.isRetrySafe)
        #expect(patch.jsonBody?["location"] as? String == "", "a patch clears a removed location")
        #expect(patch.jsonBody?["id"] == nil)
        #expect(updated.title == "Renamed")
        let delete = transport.requests[1]
        #expect(delete.method == .delete)
        #expect(delete.rawPath == patch.rawPath)
        #expect(delete.rawQuery == "sendUpdates=none")
    }

    @Test("origin lookups use privateExtendedProperty=name=value, encoded")
    func originLookup() async throws {
        let transport = RecordingTransport { _ in Fixture.response("google/events-page2.json") }
        let marker = OriginMarker(provider: .microsoft, account: "work", calendarID: "AAMk=", eventID: "AAMkEv=", contentHash: "h")
        let found = try await provider(transport).findEvents(originatingFrom: marker, in: "primary")
        let request = transport.requests[0]
        #expect(request.rawQueryItems == [
            "privateExtendedProperty=calbridge.originKey%3D\(marker.eventKey)", "maxResults=2500",
        ])
        #expect(request.queryValue("privateExtendedProperty") == "calbridge.originKey=\(marker.eventKey)")
        #expect(found.count == 1)
    }

    /// The `fields` of a listing read as copy records (`findCopies`, `listOccurrences`).
    static let copyRecordFields =
        "items(id,status,created,summary,start,end,recurrence,recurringEventId,originalStartTime,extendedProperties),nextPageToken,timeZone"

    /// A transport answering every request with `page`, as Google answers a partial response: cut to the
    /// request's `fields`, if any (the sandbox's cutter).
    static func answering(_ page: Data) -> RecordingTransport {
        RecordingTransport { request in
            guard let fields = request.queryValue("fields"),
                let selection = try? GoogleFieldSelection(parsing: fields),
                let json = try? JSONDecoder().decode(GoogleJSON.self, from: page)
            else { return HTTPResponse(status: 200, body: page) }
            return HTTPResponse(status: 200, body: selection.project(json).serialized())
        }
    }

    /// Two requests: the second is the first with `fields=copyRecordFields` added, nothing else changed.
    static func expectSameRequestWithCopyRecordFields(_ requests: [HTTPRequest], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(requests.count == 2, sourceLocation: sourceLocation)
        guard requests.count == 2 else { return }
        #expect(requests[0].rawPath == requests[1].rawPath, sourceLocation: sourceLocation)
        #expect(requests[0].queryValue("fields") == nil && requests[1].queryValue("fields") == copyRecordFields, sourceLocation: sourceLocation)
        #expect(requests[0].rawQueryItems == requests[1].rawQueryItems.filter { !$0.hasPrefix("fields=") }, sourceLocation: sourceLocation)
    }

    @Test("findCopies sends findEvents' request with `fields` of its bookkeeping members, and reads them alike from the page Google cuts to it")
    func findCopiesReadsBookkeeping() async throws {
        let marker = OriginMarker(provider: .microsoft, account: "work", calendarID: "AAMk=", eventID: "AAMkEv=", contentHash: "h")
        var properties: [String: Any] = marker.properties
        properties["team.note"] = "kept"
        let copy: [String: Any] = [
            "id": "c1", "status": "confirmed", "summary": "Review", "description": "<p>Agenda</p>", "location": "Room 2",
            "htmlLink": "https://www.google.com/calendar/event?eid=YzE", "created": "2026-03-01T10:00:00.000Z",
            "updated": "2026-03-02T10:00:00.000Z", "iCalUID": "c1@google.com",
            "start": ["dateTime": "2026-03-10T09:00:00+01:00", "timeZone": "Europe/Berlin"],
            "end": ["dateTime": "2026-03-10T10:00:00+01:00", "timeZone": "Europe/Berlin"],
            "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=4"], "transparency": "transparent", "visibility": "private",
            "organizer": ["email": "ann@example.com", "displayName": "Ann"],
            "attendees": [["email": "bob@example.com", "responseStatus": "accepted"]],
            "reminders": ["useDefault": false, "overrides": [["method": "popup", "minutes": 5]]],
            "extendedProperties": ["private": properties, "shared": ["x": "y"]], "eventType": "default",
        ]
        let exception: [String: Any] = [
            "id": "c1_20260317T080000Z", "status": "cancelled", "recurringEventId": "c1",
            "originalStartTime": ["dateTime": "2026-03-17T09:00:00+01:00", "timeZone": "Europe/Berlin"],
            "extendedProperties": ["private": marker.properties],
        ]
        let page = try JSONSerialization.data(withJSONObject: ["timeZone": "Europe/Berlin", "items": [copy, exception]])
        let transport = Self.answering(page)
        let lookup = OriginLookup.event(marker)
        let whole = try await provider(transport).findEvents(origin: lookup, in: "primary")
        let light = try await provider(transport).findCopies(origin: lookup, in: "primary")
        Self.expectSameRequestWithCopyRecordFields(transport.requests)
        try #require(whole.count == 2 && light.count == 2)
        for (full, record) in zip(whole, light) {
            #expect(record.id == full.id)
            #expect(record.calendarID == full.calendarID)
            #expect(record.title == full.title)
            #expect(record.start == full.start)
            #expect(record.end == full.end)
            #expect(record.recurrence == full.recurrence)
            #expect(record.seriesID == full.seriesID)
            #expect(record.originalStart == full.originalStart)
            #expect(record.status == full.status)
            #expect(record.created == full.created)
            #expect(record.origin == full.origin)
            #expect(record.extendedProperties == full.extendedProperties)
        }
        #expect(light[0].origin == marker)
        #expect(light[0].extendedProperties == ["team.note": "kept"])
        #expect(light[0].recurrence != nil && light[1].seriesID == "c1" && light[1].status == .cancelled)
        // The whole read has what the record leaves out.
        #expect(whole[0].body != nil && whole[0].location == "Room 2" && whole[0].webURL != nil)
        #expect(whole[0].attendees.count == 1 && whole[0].organizer != nil && whole[0].showAs == .free)
        #expect(light[0].body == nil && light[0].location == nil && light[0].webURL == nil)
        #expect(light[0].attendees.isEmpty && light[0].organizer == nil && light[0].iCalUID == nil && light[0].updated == nil)
    }

    @Test("listOccurrences sends the expanded listing's request with `fields` of the copy records, and reads the series' occurrences alike from the page Google cuts to it")
    func listOccurrencesReadsRecords() async throws {
        let marker = OriginMarker(provider: .microsoft, account: "work", calendarID: "AAMk=", eventID: "AAMkEv=", contentHash: "h")
        func item(_ id: String, series: String?) -> [String: Any] {
            var item: [String: Any] = [
                "id": id, "status": "confirmed", "summary": "Review", "description": "<p>Agenda</p>", "location": "Room 2",
                "htmlLink": "https://www.google.com/calendar/event?eid=YzE", "created": "2026-03-01T10:00:00.000Z",
                "start": ["dateTime": "2026-03-10T09:00:00+01:00", "timeZone": "Europe/Berlin"],
                "end": ["dateTime": "2026-03-10T10:00:00+01:00", "timeZone": "Europe/Berlin"],
                "attendees": [["email": "bob@example.com", "responseStatus": "accepted"]],
                "reminders": ["useDefault": false, "overrides": [["method": "popup", "minutes": 5]]],
                "extendedProperties": ["private": marker.properties],
            ]
            if let series {
                item["recurringEventId"] = series
                item["originalStartTime"] = ["dateTime": "2026-03-10T09:00:00+01:00", "timeZone": "Europe/Berlin"]
            }
            return item
        }
        let page = try JSONSerialization.data(withJSONObject: ["timeZone": "Europe/Berlin", "items": [item("single", series: nil), item("s1_20260310T080000Z", series: "s1")]])
        let transport = Self.answering(page)
        let range = TimeRange(start: Date(timeIntervalSince1970: 1_772_323_200), end: Date(timeIntervalSince1970: 1_775_001_600))
        let whole = try await provider(transport).listEvents(calendarID: "primary", range: range, expand: true)
        let records = try await provider(transport).listOccurrences(calendarID: "primary", range: range, ofSeries: ["s1"])
        Self.expectSameRequestWithCopyRecordFields(transport.requests)
        let full = try #require(whole.count == 2 ? whole[1] : nil)
        let record = try #require(records.count == 1 ? records[0] : nil)
        #expect(record.id == full.id && record.calendarID == full.calendarID && record.title == full.title)
        #expect(record.start == full.start && record.end == full.end && record.status == full.status)
        #expect(record.seriesID == "s1" && record.originalStart == full.originalStart && record.origin == marker)
        #expect(record.body == nil && record.attendees.isEmpty && record.reminders == nil && full.body != nil && !full.attendees.isEmpty)
    }

    @Test("userInfo reads the primary calendar list entry")
    func userInfo() async throws {
        let transport = RecordingTransport(json: #"{"id": "ann.lee@example.com", "summary": "Ann Lee", "timeZone": "Europe/Berlin", "accessRole": "owner", "primary": true}"#)
        let info = try await provider(transport).userInfo()
        #expect(transport.requests[0].rawPath == "/calendar/v3/users/me/calendarList/primary")
        // The primary calendar id is the account's stable identity (copy markers carry it, issue 12).
        #expect(info == UserInfo(
            displayName: "Ann Lee", email: "ann.lee@example.com", timeZone: "Europe/Berlin", providerTimeZone: "Europe/Berlin",
            accountIdentity: "ann.lee@example.com"))
    }

    @Test("a base URL with a path prefix and trailing slash keeps the prefix")
    func basePathPrefix() async throws {
        let transport = RecordingTransport(json: #"{"items": []}"#)
        let p = GoogleCalendarProvider(
            account: "a", transport: transport, baseURL: URL(string: "http://127.0.0.1:9/google/")!)
        _ = try await p.listCalendars()
        #expect(transport.requests[0].url.absoluteString == "http://127.0.0.1:9/google/calendar/v3/users/me/calendarList?maxResults=250")
    }
}
