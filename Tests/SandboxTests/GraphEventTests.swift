import Foundation
import HTTP
import Sandbox
import Testing

@Suite("Graph emulator: events CRUD, occurrences, extended properties, transactionId")
struct GraphEventTests {
    @Test("POST creates in the default calendar: wall time in a Windows zone is stored as an instant")
    func create() async throws {
        let emulator = try GraphTest.emulator()
        let created = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Lunch", start: "2026-03-05T12:30", end: "2026-03-05T13:15", extra: [
                "body": ["contentType": "html", "content": "<p>Tacos</p>"],
                "location": ["displayName": "Cafe 9"],
                "attendees": [["type": "required", "emailAddress": ["address": "alice@contoso.com"]]],
                "isReminderOn": true, "reminderMinutesBeforeStart": 5, "showAs": "tentative", "sensitivity": "personal",
                "categories": ["Food"], "isOnlineMeeting": true,
            ]))
        #expect(created.status == 201)
        let event = created.json
        #expect(event["subject"] as? String == "Lunch")
        #expect(event.string("start.dateTime") == "2026-03-05T20:30:00.0000000")
        #expect(event.string("start.timeZone") == "UTC")
        #expect(event["originalStartTimeZone"] as? String == "Pacific Standard Time")
        #expect(event["type"] as? String == "singleInstance")
        #expect(event["bodyPreview"] as? String == "Tacos")
        #expect(event.string("location.displayName") == "Cafe 9")
        #expect((event["attendees"] as? [[String: Any]])?.first?.string("emailAddress.address") == "alice@contoso.com")
        #expect(event["reminderMinutesBeforeStart"] as? Int == 5)
        #expect(event["showAs"] as? String == "tentative")
        #expect(event.string("onlineMeeting.joinUrl")?.hasPrefix("https://teams.microsoft.com/l/meetup-join/") == true)
        #expect(event.string("organizer.emailAddress.address") == GraphTest.carol)
        #expect(event["isOrganizer"] as? Bool == true)
        let id = try #require(event["id"] as? String)

        let fetched = try await GraphTest.send(emulator, "GET", "/v1.0/me/events/\(id)",
                                               headers: ["Prefer": "outlook.timezone=\"Pacific Standard Time\""])
        #expect(fetched.json.string("start.dateTime") == "2026-03-05T12:30:00.0000000")
        let calendar = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendar/events?$top=100")
        #expect(calendar.value.contains { $0["id"] as? String == id })
    }

    @Test("an IANA zone is accepted on write; an unknown zone is TimeZoneNotSupportedException")
    func writeZones() async throws {
        let emulator = try GraphTest.emulator()
        let iana = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Kolkata", start: "2026-03-05T10:00:00", end: "2026-03-05T11:00:00", zone: "Asia/Kolkata"))
        #expect(iana.status == 201)
        #expect(iana.json.string("start.dateTime") == "2026-03-05T04:30:00.0000000")
        let utc = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Utc", start: "2026-03-05T10:00:00", end: "2026-03-05T11:00:00", zone: "tzone://Microsoft/Utc"))
        #expect(utc.json.string("start.dateTime") == "2026-03-05T10:00:00.0000000")
        let bad = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Bad", start: "2026-03-05T10:00:00", end: "2026-03-05T11:00:00", zone: "Greenwich Mean Time"))
        #expect(bad.status == 400)
        #expect(bad.errorCode == "TimeZoneNotSupportedException")
    }

    @Test("a wall time in a DST gap moves forward by the gap; a repeated one is its first reading", arguments: [
        // Los Angeles springs forward at 02:00 on 14 March 2027: 02:30 does not exist and becomes 03:30 PDT.
        ("2027-03-14T02:30:00", "Pacific Standard Time", "2027-03-14T10:30:00.0000000"),
        // It falls back at 02:00 on 7 November: 01:30 happens twice; the first is PDT.
        ("2027-11-07T01:30:00", "Pacific Standard Time", "2027-11-07T08:30:00.0000000"),
        // Sydney springs forward at 02:00 on 3 October 2027: 02:30 becomes 03:30 AEDT.
        ("2027-10-03T02:30:00", "Australia/Sydney", "2027-10-02T16:30:00.0000000"),
        // An ordinary time either side of a change is unaffected.
        ("2027-03-14T03:30:00", "Pacific Standard Time", "2027-03-14T10:30:00.0000000"),
        ("2027-03-13T02:30:00", "Pacific Standard Time", "2027-03-13T10:30:00.0000000"),
    ])
    func gapsAndRepeats(_ start: String, _ zone: String, _ utc: String) async throws {
        let emulator = try GraphTest.emulator()
        let created = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Around the change", start: start, end: String(start.prefix(11)) + "05:00:00", zone: zone))
        #expect(created.status == 201)
        #expect(created.json.string("start.dateTime") == utc)
    }

    @Test("all-day events need midnight start and end, end after start")
    func allDay() async throws {
        let emulator = try GraphTest.emulator()
        let good = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Holiday", start: "2026-03-06", end: "2026-03-07", extra: ["isAllDay": true]))
        #expect(good.status == 201)
        #expect(good.json.string("start.dateTime") == "2026-03-06T00:00:00.0000000")
        #expect(good.json["isAllDay"] as? Bool == true)
        for (start, end) in [("2026-03-06T09:00:00", "2026-03-07T00:00:00"), ("2026-03-06T00:00:00", "2026-03-06T00:00:00")] {
            let bad = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
                subject: "Bad", start: start, end: end, extra: ["isAllDay": true]))
            #expect(bad.status == 400)
            #expect(bad.errorCode == "ErrorInvalidRequest")
        }
    }

    @Test("bad bodies: malformed JSON, unknown property, wrong types and enum values are 400 with Graph's codes")
    func badBodies() async throws {
        let emulator = try GraphTest.emulator()
        let malformed = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: Data("{\"subject\": ".utf8))
        #expect(malformed.status == 400)
        #expect(malformed.errorCode == "BadRequest")
        let unknown = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "x", start: "2026-03-05T10:00:00", end: "2026-03-05T11:00:00", extra: ["colour": "red"]))
        #expect(unknown.status == 400)
        #expect(unknown.errorCode == "RequestBodyRead")
        #expect(unknown.errorMessage?.hasPrefix("The property 'colour' does not exist on type 'microsoft.graph.event'.") == true)
        for extra in [["showAs": "sleeping"], ["isAllDay": 1], ["reminderMinutesBeforeStart": "ten"], ["sensitivity": 3]] as [[String: Any]] {
            let reply = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
                subject: "x", start: "2026-03-05T10:00:00", end: "2026-03-05T11:00:00", extra: extra))
            #expect(reply.status == 400, "\(extra)")
        }
        let backwards = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "x", start: "2026-03-05T10:00:00", end: "2026-03-05T09:00:00"))
        #expect(backwards.status == 400)
        let badDate = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "x", start: "2026-02-30T10:00:00", end: "2026-03-05T09:00:00"))
        #expect(badDate.status == 400)
    }

    @Test("PATCH merges; DELETE answers 204 and the event is gone (404 after)")
    func patchAndDelete() async throws {
        let emulator = try GraphTest.emulator()
        let created = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Draft", start: "2026-03-05T10:00:00", end: "2026-03-05T11:00:00", extra: ["location": ["displayName": "A"]]))
        let id = try #require(created.json["id"] as? String)
        let changeKey = created.json["changeKey"] as? String
        let patched = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(id)", body: ["subject": "Final"])
        #expect(patched.status == 200)
        #expect(patched.json["subject"] as? String == "Final")
        #expect(patched.json.string("location.displayName") == "A")
        #expect(patched.json.string("start.dateTime") == created.json.string("start.dateTime"))
        #expect(patched.json["changeKey"] as? String != changeKey)
        let deleted = try await GraphTest.send(emulator, "DELETE", "/v1.0/me/events/\(id)")
        #expect(deleted.status == 204)
        #expect(deleted.body.isEmpty)
        let gone = try await GraphTest.send(emulator, "GET", "/v1.0/me/events/\(id)")
        #expect(gone.status == 404)
        #expect(gone.errorCode == "ErrorItemNotFound")
        let again = try await GraphTest.send(emulator, "DELETE", "/v1.0/me/events/\(id)")
        #expect(again.status == 404)
    }

    @Test("occurrence ids work for GET, PATCH (becomes an exception) and DELETE (cancels it)")
    func occurrences() async throws {
        let emulator = try GraphTest.emulator()
        let created = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Daily", start: "2026-03-09T09:00:00", end: "2026-03-09T09:15:00", extra: [
                "recurrence": ["pattern": ["type": "daily", "interval": 1],
                               "range": ["type": "endDate", "startDate": "2026-03-09", "endDate": "2026-03-13"]],
            ]))
        let master = try #require(created.json["id"] as? String)
        let window = "startDateTime=2026-03-09T00:00:00Z&endDateTime=2026-03-16T00:00:00Z"
        let instances = try await GraphTest.send(emulator, "GET", "/v1.0/me/events/\(master)/instances?\(window)")
        #expect(instances.value.count == 5)
        let ids = instances.value.compactMap { $0["id"] as? String }
        let one = try await GraphTest.send(emulator, "GET", "/v1.0/me/events/\(ids[1])")
        #expect(one.status == 200)
        #expect(one.json["type"] as? String == "occurrence")
        #expect(one.json["seriesMasterId"] as? String == master)

        let moved = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(ids[1])", body: [
            "start": ["dateTime": "2026-03-10T14:00:00", "timeZone": "Pacific Standard Time"],
            "end": ["dateTime": "2026-03-10T14:15:00", "timeZone": "Pacific Standard Time"],
        ])
        #expect(moved.status == 200)
        #expect(moved.json["type"] as? String == "exception")
        #expect(moved.json["id"] as? String == ids[1])
        let deleted = try await GraphTest.send(emulator, "DELETE", "/v1.0/me/events/\(ids[2])")
        #expect(deleted.status == 204)
        let view = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView?\(window)&$top=100",
                                            headers: ["Prefer": "outlook.timezone=\"Pacific Standard Time\""])
        let daily = view.value.filter { $0["subject"] as? String == "Daily" }
        #expect(daily.map { $0.string("start.dateTime") } == [
            "2026-03-09T09:00:00.0000000", "2026-03-10T14:00:00.0000000", "2026-03-12T09:00:00.0000000", "2026-03-13T09:00:00.0000000",
        ])
        #expect(daily.map { $0["type"] as? String } == ["occurrence", "exception", "occurrence", "occurrence"])
        let cancelled = try await GraphTest.send(emulator, "GET", "/v1.0/me/events/\(ids[2])")
        #expect(cancelled.status == 404)
        // /me/events lists the series master, not its instances.
        let list = try await GraphTest.send(emulator, "GET", "/v1.0/me/events?$top=100")
        #expect(list.value.filter { $0["subject"] as? String == "Daily" }.map { $0["type"] as? String } == ["seriesMaster"])
        // Deleting the master removes the whole series.
        #expect(try await GraphTest.send(emulator, "DELETE", "/v1.0/me/events/\(master)").status == 204)
        #expect(try await GraphTest.send(emulator, "GET", "/v1.0/me/events/\(ids[1])").status == 404)
    }

    @Test("the organizer's Exchange mails a meeting's attendees: an invitation on create, an update on every PATCH, a cancellation on DELETE or removal; nothing for an event without attendees")
    func meetingMails() async throws {
        let emulator = try GraphTest.emulator()
        func mails() async -> [String] { await emulator.sentInvitations.map { "\($0.to) \($0.kind.rawValue) \($0.subject)" } }
        let attendees: [[String: Any]] = [
            ["type": "required", "emailAddress": ["address": "alice@contoso.com"]],
            ["type": "required", "emailAddress": ["address": GraphTest.carol]],
        ]
        let created = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Weekly", start: "2026-03-09T09:00:00", end: "2026-03-09T09:30:00", extra: [
                "attendees": attendees,
                "recurrence": ["pattern": ["type": "weekly", "interval": 1, "daysOfWeek": ["monday"]],
                               "range": ["type": "numbered", "startDate": "2026-03-09", "numberOfOccurrences": 4]],
            ]))
        let master = try #require(created.json["id"] as? String)
        #expect(await mails() == ["alice@contoso.com invitation Weekly"], "the organizer is not mailed")

        // Any change of the meeting, even one the attendees cannot see, is mailed to them.
        #expect(try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(master)", body: ["categories": ["Blue"]]).status == 200)
        let window = "startDateTime=2026-03-09T00:00:00Z&endDateTime=2026-04-06T00:00:00Z"
        let ids = try await GraphTest.send(emulator, "GET", "/v1.0/me/events/\(master)/instances?\(window)").value.compactMap { $0["id"] as? String }
        try #require(ids.count == 4)
        #expect(try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(ids[1])", body: ["subject": "Weekly, moved"]).status == 200)
        #expect(try await GraphTest.send(emulator, "DELETE", "/v1.0/me/events/\(ids[2])").status == 204)
        #expect(try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(master)", body: [
            "attendees": [["type": "required", "emailAddress": ["address": "bob@contoso.com"]]],
        ]).status == 200)
        #expect(try await GraphTest.send(emulator, "DELETE", "/v1.0/me/events/\(master)").status == 204)
        #expect(await mails() == [
            "alice@contoso.com invitation Weekly", "alice@contoso.com update Weekly", "alice@contoso.com update Weekly, moved",
            "alice@contoso.com cancellation Weekly", "bob@contoso.com invitation Weekly", "alice@contoso.com cancellation Weekly",
            "bob@contoso.com cancellation Weekly",
        ])

        // An appointment (no attendees) mails nobody, however it changes.
        let before = await mails()
        let plain = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Focus", start: "2026-03-10T09:00:00", end: "2026-03-10T10:00:00"))
        let plainID = try #require(plain.json["id"] as? String)
        #expect(try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(plainID)", body: ["subject": "Focus time"]).status == 200)
        #expect(try await GraphTest.send(emulator, "DELETE", "/v1.0/me/events/\(plainID)").status == 204)
        #expect(await mails() == before)
    }

    @Test("read-only calendars refuse writes with 403 ErrorAccessDenied; editable shared calendars accept them")
    func readOnly() async throws {
        let emulator = try GraphTest.emulator()
        let calendars = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendars").value
        let holidays = try #require(calendars[1]["id"] as? String)
        let falcon = try #require(calendars[2]["id"] as? String)
        let body = GraphTest.newEvent(subject: "x", start: "2026-03-05T10:00:00", end: "2026-03-05T11:00:00")
        let refused = try await GraphTest.send(emulator, "POST", "/v1.0/me/calendars/\(holidays)/events", body: body)
        #expect(refused.status == 403)
        #expect(refused.errorCode == "ErrorAccessDenied")
        let existing = try #require(try await GraphTest.send(emulator, "GET", "/v1.0/me/calendars/\(holidays)/events").value.first?["id"] as? String)
        #expect(try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(existing)", body: ["subject": "y"]).status == 403)
        #expect(try await GraphTest.send(emulator, "DELETE", "/v1.0/me/events/\(existing)").status == 403)
        let accepted = try await GraphTest.send(emulator, "POST", "/v1.0/me/calendars/\(falcon)/events", body: body)
        #expect(accepted.status == 201)
        let id = try #require(accepted.json["id"] as? String)
        #expect(try await GraphTest.send(emulator, "GET", "/v1.0/me/calendars/\(falcon)/events/\(id)").status == 200)
        #expect(try await GraphTest.send(emulator, "GET", "/v1.0/me/calendars/\(holidays)/events/\(id)").status == 404)
    }

    @Test("transactionId: a retried POST returns the first event instead of a duplicate")
    func transactionID() async throws {
        let emulator = try GraphTest.emulator()
        let body = GraphTest.newEvent(subject: "Once", start: "2026-03-05T10:00:00", end: "2026-03-05T11:00:00",
                                      extra: ["transactionId": "7E163156-7762-4BEB-A1C6-729EA81755A7"])
        let first = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: body)
        let second = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: body)
        #expect(first.status == 201)
        #expect(second.status == 201)
        #expect(first.json["id"] as? String == second.json["id"] as? String)
        #expect(second.json["transactionId"] as? String == "7E163156-7762-4BEB-A1C6-729EA81755A7")
        let list = try await GraphTest.send(emulator, "GET", "/v1.0/me/events?$top=100&$filter=subject eq 'Once'")
        #expect(list.value.count == 1)
        // Another mailbox has its own transaction ids.
        let dan = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", as: GraphTest.dan, body: body)
        #expect(dan.json["id"] as? String != first.json["id"] as? String)
    }

    @Test("extended properties: stored on create, returned only via $expand, found with the Any filter")
    func extendedProperties() async throws {
        let emulator = try GraphTest.emulator()
        let id = GraphTest.extendedID
        let created = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Copy", start: "2026-03-05T10:00:00", end: "2026-03-05T11:00:00",
            extra: ["singleValueExtendedProperties": [["id": id, "value": "google:a:b:c1"]]]))
        #expect(created.status == 201)
        #expect(created.json["singleValueExtendedProperties"] == nil)
        let eventID = try #require(created.json["id"] as? String)
        let rawExpand = "$expand=singleValueExtendedProperties($filter=id eq '\(id)')"
        let expand = GraphTest.query(rawExpand)
        let expanded = try await GraphTest.send(emulator, "GET", "/v1.0/me/events/\(eventID)?\(expand)")
        let properties = try #require(expanded.json["singleValueExtendedProperties"] as? [[String: Any]])
        #expect(properties.first?["value"] as? String == "google:a:b:c1")
        #expect(properties.first?["id"] as? String == "String {00020329-0000-0000-c000-000000000046} Name calbridge.origin")

        for filterText in [
            "singleValueExtendedProperties/Any(ep: ep/id eq '\(id)' and ep/value eq 'google:a:b:c1')",
            "singleValueExtendedProperties/any(x:x/value eq 'google:a:b:c1' AND x/id eq '\(id)')",
        ] {
            let reply = try await GraphTest.send(emulator, "GET", "/v1.0/me/events?" + GraphTest.query("$filter=\(filterText)&\(rawExpand)"))
            #expect(reply.status == 200, "\(reply.json)")
            #expect(reply.value.map { $0["id"] as? String } == [eventID])
            #expect((reply.value.first?["singleValueExtendedProperties"] as? [[String: Any]])?.count == 1)
        }
        // The seeded copy is found in the calendarView with the same filter.
        let seeded = "singleValueExtendedProperties/Any(ep: ep/id eq '\(id)' and ep/value eq 'google:alice@sandbox.example:primary:seed-dentist')"
        let view = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView?startDateTime=2026-03-02T00:00:00Z&endDateTime=2026-03-09T00:00:00Z&"
                                            + GraphTest.query("$filter=\(seeded)"))
        #expect(view.value.map { $0["subject"] as? String } == ["Dentist (copied from Google)"])
        let none = try await GraphTest.send(emulator, "GET", "/v1.0/me/events?" + GraphTest.query(
            "$filter=singleValueExtendedProperties/Any(ep: ep/id eq '\(id)' and ep/value eq 'nothing')"))
        #expect(none.value.isEmpty)
        let unsupported = try await GraphTest.send(emulator, "GET", "/v1.0/me/events?" + GraphTest.query("$filter=contains(subject,'x')"))
        #expect(unsupported.status == 400)
        #expect(unsupported.errorCode == "BadRequest")
        #expect(unsupported.errorMessage == "Invalid filter clause")
        // PATCH updates one property's value in place.
        _ = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(eventID)",
                                     body: ["singleValueExtendedProperties": [["id": id, "value": "google:a:b:c2"]]])
        let after = try await GraphTest.send(emulator, "GET", "/v1.0/me/events/\(eventID)?\(expand)")
        #expect((after.json["singleValueExtendedProperties"] as? [[String: Any]])?.map { $0["value"] as? String } == ["google:a:b:c2"])
    }
}
