import CalendarBridge
import Foundation
import HTTP
import MicrosoftGraph
import TestSupport
import Testing

@Suite("Graph provider: outgoing requests")
struct GraphRequestTests {
    static let base = URL(string: "http://127.0.0.1:8080")!
    static let marker = "{4b1f3c2e-9d7a-4c55-b0e8-6a2d91f7c3e4}"

    func provider(_ transport: RecordingTransport, zone: String = "UTC") -> GraphCalendarProvider {
        GraphCalendarProvider(account: "o365", transport: transport, baseURL: Self.base, responseZone: zone)
    }

    @Test("/me/calendars follows @odata.nextLink and maps names, default, access and colour")
    func calendarsPaging() async throws {
        let transport = RecordingTransport { request in
            request.rawQuery.isEmpty
                ? Fixture.response("graph/calendars-page1.json") : Fixture.response("graph/calendars-page2.json")
        }
        let calendars = try await provider(transport).listCalendars()
        let requests = transport.requests
        #expect(requests.map(\.url.absoluteString) == [
            "http://127.0.0.1:8080/v1.0/me/calendars", "http://127.0.0.1:8080/v1.0/me/calendars?%24skip=2",
        ])
        #expect(requests.allSatisfy { $0.headers["Authorization"] == nil && $0.method == .get })
        #expect(calendars.map(\.name) == ["Calendar", "Team", "team", "United States holidays"])
        #expect(calendars.map(\.isPrimary) == [true, false, false, false])
        #expect(calendars.map(\.accessRole) == [.owner, .writer, .owner, .reader])
        #expect(calendars.map(\.colour) == [nil, "#87d28e", "#a6d1f5", nil])
        #expect(calendars.allSatisfy { $0.provider == .microsoft && $0.account == "o365" && $0.timeZone == nil })
    }

    @Test("a next link to another server is refused (the token must not follow it)")
    func foreignNextLink() async throws {
        let transport = RecordingTransport(json: #"{"value": [], "@odata.nextLink": "https://evil.example/v1.0/me/calendars?$skip=1"}"#)
        let error = try await #require(throws: CalendarError.self) { try await provider(transport).listCalendars() }
        #expect(error.code == .invalidResponse)
        #expect(transport.requests.count == 1)
    }

    @Test("calendarView: encoded id, UTC bounds, $top, $orderby, the properties read selected, extended ones expanded, Prefer header, all pages")
    func calendarView() async throws {
        let transport = RecordingTransport { request in
            request.queryValue("$skip") == nil
                ? Fixture.response("graph/calendarView-page1.json") : Fixture.response("graph/calendarView-page2.json")
        }
        let start = Date(timeIntervalSince1970: 1_772_438_400)  // 2026-03-02T08:00:00Z
        let range = TimeRange(start: start, end: start.addingTimeInterval(14 * 86_400 - 3600))
        let events = try await provider(transport, zone: "Pacific Standard Time")
            .listEvents(calendarID: "AAMkAGI2TGuLAAA=", range: range, expand: true)
        let requests = transport.requests
        #expect(requests.count == 2)
        #expect(requests[0].rawPath == "/v1.0/me/calendars/AAMkAGI2TGuLAAA%3D/calendarView")
        let expand =
            "singleValueExtendedProperties%28%24filter%3Did%20eq%20%27String%20%7B4b1f3c2e-9d7a-4c55-b0e8-6a2d91f7c3e4%7D%20Name%20calbridge.origin%27"
            + "%20or%20id%20eq%20%27String%20%7B4b1f3c2e-9d7a-4c55-b0e8-6a2d91f7c3e4%7D%20Name%20calbridge.originKey%27"
            + "%20or%20id%20eq%20%27String%20%7B4b1f3c2e-9d7a-4c55-b0e8-6a2d91f7c3e4%7D%20Name%20calbridge.originCalendar%27"
            // Outlook's custom-zone definitions: start, end and recurrence (MS-OXOCAL 2.2.1.42-2.2.1.44).
            + "%20or%20id%20eq%20%27Binary%20%7B00062002-0000-0000-C000-000000000046%7D%20Id%200x825E%27"
            + "%20or%20id%20eq%20%27Binary%20%7B00062002-0000-0000-C000-000000000046%7D%20Id%200x825F%27"
            + "%20or%20id%20eq%20%27Binary%20%7B00062002-0000-0000-C000-000000000046%7D%20Id%200x8260%27%29"
        // Only what the reader uses (`GraphEvent.selectedProperties`); the extended properties come by $expand.
        let select = [
            "id", "subject", "body", "start", "end", "originalStartTimeZone", "originalEndTimeZone", "originalStart",
            "isAllDay", "isCancelled", "location", "attendees", "organizer", "showAs", "sensitivity", "isReminderOn",
            "reminderMinutesBeforeStart", "recurrence", "seriesMasterId", "type", "onlineMeeting", "onlineMeetingUrl",
            "webLink", "createdDateTime", "lastModifiedDateTime", "categories", "iCalUId",
        ].joined(separator: "%2C")
        #expect(requests[0].rawQueryItems == [
            "startDateTime=2026-03-02T08%3A00%3A00Z", "endDateTime=2026-03-16T07%3A00%3A00Z", "$top=999",
            "$orderby=start%2FdateTime", "$select=\(select)", "$expand=\(expand)",
        ])
        #expect(requests[1].url.absoluteString.hasSuffix("%24skip=3"), "the next link is followed as given")
        #expect(requests.allSatisfy { $0.headers["Prefer"] == #"outlook.timezone="Pacific Standard Time""# })
        #expect(requests.allSatisfy { $0.headers["Authorization"] == nil })
        #expect(events.count == 5)
    }

    @Test("a listing cut to its $select, as Graph cuts it, maps to the same events as the whole one, in both views")
    func selectLosesNothing() async throws {
        // Graph keeps `id`, the `@odata` annotations and the expanded extended properties besides the selected.
        func pages(projected: Bool) -> RecordingTransport {
            RecordingTransport { request in
                if request.rawPath.hasPrefix("/v1.0/me/events/") { return Fixture.response("graph/event-seriesMaster.json") }
                let path = request.queryValue("$skip") == nil ? "graph/calendarView-page1.json" : "graph/calendarView-page2.json"
                let whole = Fixture.response(path)
                guard projected, let select = request.queryValue("$select"),
                    var page = try? JSONSerialization.jsonObject(with: whole.body) as? [String: Any],
                    let items = page["value"] as? [[String: Any]]
                else { return whole }
                let kept = Set(select.split(separator: ",").map(String.init) + ["id", "singleValueExtendedProperties"])
                page["value"] = items.map { $0.filter { kept.contains($0.key) || $0.key.hasPrefix("@odata.") } }
                let body = (try? JSONSerialization.data(withJSONObject: page)) ?? whole.body
                return HTTPResponse(status: 200, headers: whole.headers, body: body)
            }
        }
        let start = Date(timeIntervalSince1970: 1_772_438_400)
        let range = TimeRange(start: start, end: start.addingTimeInterval(14 * 86_400))
        for expand in [true, false] {
            let cut = pages(projected: true), whole = pages(projected: false)
            let fromCut = try await provider(cut, zone: "Pacific Standard Time").listEvents(calendarID: "c", range: range, expand: expand)
            let fromWhole = try await provider(whole, zone: "Pacific Standard Time").listEvents(calendarID: "c", range: range, expand: expand)
            #expect(!fromWhole.isEmpty)
            #expect(fromCut == fromWhole)
            #expect(cut.requests.first?.queryValue("$select")?.contains("subject") == true, "the cut really happened")
        }
    }

    @Test("series view replaces occurrences by their master, fetched once, and keeps exceptions")
    func seriesView() async throws {
        let transport = RecordingTransport { request in
            if request.rawPath.hasPrefix("/v1.0/me/events/") { return Fixture.response("graph/event-seriesMaster.json") }
            return request.queryValue("$skip") == nil
                ? Fixture.response("graph/calendarView-page1.json") : Fixture.response("graph/calendarView-page2.json")
        }
        let start = Date(timeIntervalSince1970: 1_772_438_400)
        let events = try await provider(transport)
            .listEvents(calendarID: "AAMkAGI2TGuLAAA=", range: TimeRange(start: start, end: start + 86_400 * 14), expand: false)
        #expect(events.map(\.id) == [
            "AAMkAGI2TG96AAA=", "AAMkAGI2TG93AAA=", "AAMkAGI2TG94AAA=", "AAMkAGI2TG95AAA=", "AAMkAGI2TG96AAABEgAQBBB=",
        ])
        #expect(events[0].isSeriesMaster)
        #expect(transport.requests.filter { $0.rawPath == "/v1.0/me/events/AAMkAGI2TG96AAA%3D" }.count == 1)
    }

    @Test("create POSTs to the calendar with transactionId and is retry-safe; patch and delete use /me/events/{id}")
    func writes() async throws {
        let transport = RecordingTransport { request in
            switch request.method {
            case .delete: return HTTPResponse(status: 204)
            default:
                var json = request.jsonBody!
                json["id"] = "AAMkNEW="
                json["start"] = ["dateTime": "2026-03-09T10:00:00.0000000", "timeZone": "Pacific Standard Time"]
                json["end"] = ["dateTime": "2026-03-09T10:30:00.0000000", "timeZone": "Pacific Standard Time"]
                return HTTPResponse(status: 201, body: try JSONSerialization.data(withJSONObject: json))
            }
        }
        let p = provider(transport)
        let event = Event(
            title: "Sync", start: .timed(instant: Date(timeIntervalSince1970: 1_773_075_600), zone: "America/Los_Angeles"),
            end: .timed(instant: Date(timeIntervalSince1970: 1_773_077_400), zone: "America/Los_Angeles"))
        let key = IdempotencyKey("copy-9")
        var created = try await p.createEvent(event, in: "AAMkAGI2TGuMAAA=", idempotencyKey: key)
        created.title = "Sync (renamed)"
        _ = try await p.updateEvent(created)
        try await p.deleteEvent(id: created.id, calendarID: created.calendarID)

        let r = transport.requests
        #expect(r.map(\.method) == [.post, .patch, .delete])
        #expect(r[0].rawPath == "/v1.0/me/calendars/AAMkAGI2TGuMAAA%3D/events")
        #expect(r[0].jsonBody?["transactionId"] as? String == key.transactionID)
        #expect(r[0].isRetrySafe)
        #expect(r[0].headers["Content-Type"] == "application/json")
        #expect(r[1].rawPath == "/v1.0/me/events/AAMkNEW%3D")
        #expect(r[1].jsonBody?["subject"] as? String == "Sync (renamed)")
        #expect(r[1].jsonBody?["transactionId"] == nil)
        #expect(r[1].isRetrySafe)
        #expect(r[2].rawPath == "/v1.0/me/events/AAMkNEW%3D")
        #expect(r.allSatisfy { $0.headers["Authorization"] == nil })
    }

    @Test("a create without a key has no transactionId and may not be retried")
    func createWithoutKey() async throws {
        let transport = RecordingTransport { _ in Fixture.response("graph/event-seriesMaster.json", status: 201) }
        let event = Event(title: "X", start: .allDay(date: LocalDate("2026-03-10")!), end: .allDay(date: LocalDate("2026-03-11")!))
        _ = try await provider(transport).createEvent(event, in: "AAMkAGI2TGuMAAA=")
        #expect(transport.requests[0].jsonBody?["transactionId"] == nil)
        #expect(transport.requests[0].isRetrySafe == false)
    }

    @Test("a 409 on a create with a key returns the event found by its transactionId")
    func createConflict() async throws {
        let key = IdempotencyKey("copy-10")
        let transport = RecordingTransport { request in
            if request.method == .post {
                return HTTPResponse(status: 409, body: Data(#"{"error": {"code": "ErrorDuplicateTransactionId", "message": "dup"}}"#.utf8))
            }
            let item = String(decoding: Fixture.data("graph/event-seriesMaster.json"), as: UTF8.self)
            return HTTPResponse(status: 200, body: Data(#"{"value": [\#(item)]}"#.utf8))
        }
        let event = Event(title: "X", start: .allDay(date: LocalDate("2026-03-10")!), end: .allDay(date: LocalDate("2026-03-11")!))
        let found = try await provider(transport).createEvent(event, in: "AAMkAGI2TGuMAAA=", idempotencyKey: key)
        #expect(found.id == "AAMkAGI2TG96AAA=")
        #expect(transport.requests[1].queryValue("$filter") == "transactionId eq '\(key.transactionID)'")
    }

    @Test("origin lookups filter singleValueExtendedProperties/Any on id and value")
    func originLookup() async throws {
        let transport = RecordingTransport(json: #"{"value": []}"#)
        let m = OriginMarker(provider: .google, account: "me", calendarID: "primary", eventID: "g1", contentHash: "h")
        _ = try await provider(transport).findEvents(originatingFrom: m, in: "AAMkAGI2TGuLAAA=")
        let r = transport.requests[0]
        #expect(r.rawPath == "/v1.0/me/calendars/AAMkAGI2TGuLAAA%3D/events")
        #expect(r.queryValue("$filter") == "singleValueExtendedProperties/Any(ep: ep/id eq 'String \(Self.marker) Name calbridge.originKey' and ep/value eq '\(m.eventKey)')")
        #expect(r.queryValue("$expand")?.hasPrefix("singleValueExtendedProperties($filter=id eq 'String \(Self.marker) Name calbridge.origin'") == true)
        #expect(r.rawQuery.contains("%27"), "quotes are percent-encoded")
    }

    @Test("userInfo reads /me and /me/mailboxSettings and converts the Windows zone")
    func userInfo() async throws {
        let transport = RecordingTransport { request in
            request.rawPath.hasSuffix("mailboxSettings") ? Fixture.response("graph/mailboxSettings.json") : Fixture.response("graph/me.json")
        }
        let info = try await provider(transport).userInfo()
        #expect(transport.requests.map(\.rawPath) == ["/v1.0/me", "/v1.0/me/mailboxSettings"])
        #expect(transport.requests[0].rawQuery == "$select=id%2CdisplayName%2Cmail%2CuserPrincipalName")
        // The user's object id is the account's stable identity (copy markers carry it, issue 12).
        #expect(info == UserInfo(
            displayName: "Megan Bowen", email: "MeganB@contoso.example", timeZone: "America/Los_Angeles",
            providerTimeZone: "Pacific Standard Time", accountIdentity: "48d31887-5fad-4d73-a9f5-3c356e68a038"))
    }

    @Test("quick add is unsupported on Outlook and sends nothing")
    func quickAdd() async throws {
        let transport = RecordingTransport(json: "{}")
        let error = try await #require(throws: CalendarError.self) {
            try await provider(transport).quickAdd(text: "Lunch tomorrow", in: "AAMkAGI2TGuLAAA=")
        }
        #expect(error.code == .unsupported)
        #expect(transport.requests.isEmpty)
        #expect(provider(transport).capabilities.serverQuickAdd == false)
    }
}
