import Foundation
import HTTP
import Sandbox
import Testing
import LoopbackServer

@Suite("Google emulator: insert, import, patch, update, delete, quickAdd, sync")
struct GoogleEventsWriteTests {
    let events = GoogleFixture.path("calendars", "primary", "events")
    let timed = #""start": {"dateTime": "2026-10-22T10:00:00+02:00"}, "end": {"dateTime": "2026-10-22T11:00:00+02:00"}"#

    @Test("insert honours a client id, fills in the server fields, and answers 409 on a duplicate id")
    func insert() async throws {
        let emulator = try GoogleFixture.emulator()
        let body = #"{"id": "calbridge0copie1", "summary": "Copied", \#(timed), "extendedProperties": {"private": {"origin": "graph:abc"}}}"#
        let created = await emulator.call("POST", events + "?sendUpdates=none", body: body)
        #expect(created.status == 200)
        let json = try #require(created.json)
        #expect(json.id == "calbridge0copie1")
        #expect(json["kind"] == "calendar#event")
        #expect(json["status"] == "confirmed")
        #expect(json["eventType"] == "default")
        #expect(json["iCalUID"] == "calbridge0copie1@google.com")
        #expect(json["sequence"] == 0)
        #expect(json["reminders"] == ["useDefault": true])
        #expect(json["creator"] == ["email": "ann.lee@gmail.sandbox", "self": true])
        #expect(json["htmlLink"]?.stringValue?.hasPrefix("https://www.google.com/calendar/event?eid=") == true)
        #expect(json["created"]?.stringValue?.hasSuffix("Z") == true)
        #expect(json["start"]?["dateTime"] == "2026-10-22T10:00:00+02:00")
        let found = await emulator.list("primary", [("privateExtendedProperty", "origin=graph:abc")])
        #expect(found.items.map(\.id) == ["calbridge0copie1"])
        let again = await emulator.call("POST", events, body: body)
        #expect(again.status == 409)
        #expect(again.json == GoogleAPIError.duplicate.body)
        let generated = await emulator.call("POST", events, body: #"{"summary": "No id", \#(timed)}"#)
        #expect(generated.status == 200)
        #expect(generated.json?.id.count == 26)
    }

    @Test("insert, patch and delete mail guests only when asked: all → every guest, externalOnly → other domains, none or absent → nobody",
          arguments: [("all", ["zed@example.com", "bob.kim@gmail.sandbox"]), ("externalOnly", ["zed@example.com"]), ("none", []), (nil, [])] as [(String?, [String])])
    func invitations(_ sendUpdates: String?, _ mailed: [String]) async throws {
        let emulator = try GoogleFixture.emulator()
        let attendees = #""attendees": [{"email": "ann.lee@gmail.sandbox"}, {"email": "zed@example.com"}, {"email": "bob.kim@gmail.sandbox"}]"#
        let query = sendUpdates.map { "?sendUpdates=\($0)" } ?? ""
        let created = await emulator.call("POST", events + query, body: #"{"summary": "Meet", \#(timed), \#(attendees)}"#)
        #expect(created.status == 200)
        #expect(await emulator.sentInvitations.map(\.to) == mailed)
        #expect(await emulator.sentInvitations.allSatisfy { $0.from == GoogleFixture.ann && $0.subject == "Meet" && $0.kind == .invitation })

        // A patch and a delete mail the same guests when asked: an update, a cancellation (one guest removed by
        // the patch gets a cancellation then).
        let id = try #require(created.json?.id)
        let before = await emulator.sentInvitations.count
        let patched = await emulator.call(
            "PATCH", events + "/\(id)" + query, body: #"{"summary": "Meet 2", "attendees": [{"email": "ann.lee@gmail.sandbox"}, {"email": "zed@example.com"}]}"#)
        #expect(patched.status == 200)
        #expect(await emulator.call("DELETE", events + "/\(id)" + query).status == 204)
        let later = await emulator.sentInvitations.dropFirst(before).map { "\($0.to) \($0.kind.rawValue) \($0.subject)" }
        let expected: [String] =
            switch sendUpdates {
            case "all": ["zed@example.com update Meet 2", "bob.kim@gmail.sandbox cancellation Meet 2", "zed@example.com cancellation Meet 2"]
            case "externalOnly": ["zed@example.com update Meet 2", "zed@example.com cancellation Meet 2"]
            default: []
            }
        #expect(later == expected)
    }

    @Test("insert rejects bad ids, bad times, bad JSON and bad sendUpdates with Google's 400s")
    func insertValidation() async throws {
        let emulator = try GoogleFixture.emulator()
        for id in ["abc", "UPPERCASE01", "has-dash-01", "wxyz00000"] {
            let reply = await emulator.call("POST", events, body: #"{"id": "\#(id)", \#(timed)}"#)
            #expect(reply.status == 400, "id \(id)")
            #expect(reply.json?["error"]?["message"] == "Invalid resource id value.")
        }
        let noEnd = await emulator.call("POST", events, body: #"{"start": {"dateTime": "2026-10-22T10:00:00Z"}}"#)
        #expect(noEnd.status == 400)
        #expect(noEnd.errorReason == "required")
        let backwards = await emulator.call("POST", events, body: #"{"start": {"date": "2026-10-22"}, "end": {"date": "2026-10-21"}}"#)
        #expect(backwards.status == 400)
        #expect(backwards.errorReason == "timeRangeEmpty")
        #expect(backwards.json?["error"]?["message"] == "The specified time range is empty.")
        #expect(backwards.json?["error"]?["errors"]?.arrayValue?.first?["domain"] == "calendar")
        let floating = await emulator.call("POST", events, body: #"{"start": {"dateTime": "2026-10-22T10:00:00"}, "end": {"dateTime": "2026-10-22T11:00:00"}}"#)
        #expect(floating.status == 400)
        #expect(floating.json?["error"]?["message"] == "Missing time zone definition for start time.")
        let zoned = await emulator.call("POST", events, body: #"{"start": {"dateTime": "2026-10-22T10:00:00", "timeZone": "America/Chicago"}, "end": {"dateTime": "2026-10-22T11:00:00", "timeZone": "America/Chicago"}}"#)
        #expect(zoned.status == 200)
        #expect(zoned.json?["start"]?["dateTime"] == "2026-10-22T17:00:00+02:00")
        let mixed = await emulator.call("POST", events, body: #"{"start": {"date": "2026-10-22"}, "end": {"dateTime": "2026-10-22T11:00:00Z"}}"#)
        #expect(mixed.status == 400)
        let garbage = await emulator.call("POST", events, body: "{not json")
        #expect(garbage.status == 400)
        #expect(garbage.errorReason == "parseError")
        let badRule = await emulator.call("POST", events, body: #"{"recurrence": ["RRULE:FREQ=SOMETIMES"], "start": {"dateTime": "2026-10-22T10:00:00Z", "timeZone": "UTC"}, "end": {"dateTime": "2026-10-22T11:00:00Z", "timeZone": "UTC"}}"#)
        #expect(badRule.status == 400)
        let send = await emulator.call("POST", events + "?sendUpdates=everyone", body: #"{\#(timed)}"#)
        #expect(send.status == 400)
        #expect(send.errorReason == "invalid")
        for value in ["all", "externalOnly", "none"] {
            let ok = await emulator.call("POST", events + "?sendUpdates=" + value, body: #"{\#(timed)}"#)
            #expect(ok.status == 200)
        }
    }

    @Test("writes to a reader's calendar are 403 requiredAccessLevel; a writer may write to a shared calendar")
    func accessLevels() async throws {
        let emulator = try GoogleFixture.emulator()
        let holidays = GoogleFixture.path("calendars", GoogleFixture.holidaysDE, "events")
        let reply = await emulator.call("POST", holidays, body: #"{\#(timed)}"#)
        #expect(reply.status == 403)
        #expect(reply.json == GoogleAPIError.writerAccessRequired.body)
        #expect(reply.json?["error"]?["status"] == "PERMISSION_DENIED")
        let delete = await emulator.call("DELETE", GoogleFixture.path("calendars", GoogleFixture.holidaysDE, "events", "20270101neujahr0"))
        #expect(delete.status == 403)
        let shared = await emulator.call("POST", GoogleFixture.path("calendars", GoogleFixture.family, "events"), as: GoogleFixture.bob,
                                         body: #"{"summary": "Picnic", \#(timed)}"#)
        #expect(shared.status == 200)
        #expect(shared.json?["creator"] == ["email": "bob.kim@gmail.sandbox", "self": true])
        #expect(shared.json?["organizer"]?["email"]?.stringValue == GoogleFixture.family)
        let seenByAnn = await emulator.call("GET", GoogleFixture.path("calendars", GoogleFixture.family, "events", shared.json?.id ?? ""))
        #expect(seenByAnn.json?["creator"] == ["email": "bob.kim@gmail.sandbox"])
    }

    @Test("patch merges only the given fields; update replaces; etag changes on every write; sequence on time changes")
    func patchAndUpdate() async throws {
        let emulator = try GoogleFixture.emulator()
        let url = GoogleFixture.path("calendars", "primary", "events", "annkickoff0001")
        let before = try #require(await emulator.call("GET", url).json)
        let patched = await emulator.call("PATCH", url, body: #"{"summary": "Atlas kickoff (v2)", "extendedProperties": {"private": {"copied": "yes"}}}"#)
        #expect(patched.status == 200)
        let after = try #require(patched.json)
        #expect(after.summary == "Atlas kickoff (v2)")
        #expect(after["description"] == before["description"])
        #expect(after["attendees"] == before["attendees"])
        #expect(after["extendedProperties"] == ["shared": ["project": "atlas"], "private": ["copied": "yes"]])
        #expect(after["etag"] != before["etag"])
        #expect(after["sequence"] == before["sequence"])
        #expect(after["created"] == before["created"])
        let moved = await emulator.call("PATCH", url, body: #"{"start": {"dateTime": "2026-10-19T15:00:00+02:00"}, "end": {"dateTime": "2026-10-19T16:00:00+02:00"}, "description": null}"#)
        #expect(moved.json?["sequence"] == 1)
        #expect(moved.json?["description"] == nil)
        // start is merged like any object (Google's patch semantics): the zone not sent is kept.
        #expect(moved.json?["start"] == ["dateTime": "2026-10-19T15:00:00+02:00", "timeZone": "Europe/Berlin"])
        let replaced = await emulator.call("PUT", url, body: #"{"summary": "Replaced", "start": {"date": "2026-10-30"}, "end": {"date": "2026-10-31"}}"#)
        #expect(replaced.status == 200)
        #expect(replaced.json?["attendees"] == nil)
        #expect(replaced.json?["hangoutLink"] == "https://meet.google.com/atl-asko-ick")  // read-only, kept
        #expect(replaced.json?.id == "annkickoff0001")
        #expect(replaced.json?["iCalUID"] == "annkickoff0001@google.com")
        let missing = await emulator.call("PATCH", GoogleFixture.path("calendars", "primary", "events", "nothere00"), body: "{}")
        #expect(missing.status == 404)
    }

    @Test("patch merges start like Google: timed to all-day needs dateTime and timeZone null, else 400 Invalid start time.")
    func patchTimedToAllDay() async throws {
        let emulator = try GoogleFixture.emulator()
        let url = GoogleFixture.path("calendars", "primary", "events", "annkickoff0001")
        let naive = await emulator.call("PATCH", url, body: #"{"start": {"date": "2026-10-19"}, "end": {"date": "2026-10-20"}}"#)
        #expect(naive.status == 400)
        #expect(String(decoding: naive.body, as: UTF8.self).contains("Invalid start time."))
        let cleared = await emulator.call(
            "PATCH", url,
            body: #"{"start": {"date": "2026-10-19", "dateTime": null, "timeZone": null}, "end": {"date": "2026-10-20", "dateTime": null, "timeZone": null}}"#)
        #expect(cleared.status == 200)
        #expect(cleared.json?["start"] == ["date": "2026-10-19"])
        let back = await emulator.call(
            "PATCH", url,
            body: #"{"start": {"date": "2026-10-19"}, "end": {"date": "2026-10-20"}, "reminders": {"useDefault": false, "overrides": [{"method": "popup", "minutes": 5}]}}"#)
        #expect(back.status == 200)
        // Back to default reminders: overrides must be cleared with null, or Google refuses both at once.
        let both = await emulator.call("PATCH", url, body: #"{"reminders": {"useDefault": true}}"#)
        #expect(both.status == 400)
        let defaults = await emulator.call("PATCH", url, body: #"{"reminders": {"useDefault": true, "overrides": null}}"#)
        #expect(defaults.status == 200)
        #expect(defaults.json?["reminders"] == ["useDefault": true])
    }

    @Test("delete: get still answers with status cancelled, a second delete is 410 deleted, listing hides it")
    func delete() async throws {
        let emulator = try GoogleFixture.emulator()
        let url = GoogleFixture.path("calendars", "primary", "events", "anndoctor00001")
        let deleted = await emulator.call("DELETE", url + "?sendUpdates=all")
        #expect(deleted.status == 204)
        #expect(deleted.body.isEmpty)
        let get = await emulator.call("GET", url)
        #expect(get.status == 200)
        #expect(get.json?["status"] == "cancelled")
        let again = await emulator.call("DELETE", url)
        #expect(again.status == 410)
        #expect(again.json == GoogleAPIError.deleted.body)
        let list = await emulator.list("primary", [("singleEvents", "true"), ("timeMin", "2026-10-20T00:00:00Z"), ("timeMax", "2026-10-21T00:00:00Z")])
        #expect(!list.items.map(\.id).contains("anndoctor00001"))
        let withDeleted = await emulator.list("primary", [("singleEvents", "true"), ("showDeleted", "true"), ("timeMin", "2026-10-20T00:00:00Z"), ("timeMax", "2026-10-21T00:00:00Z")])
        #expect(withDeleted.items.map(\.id).contains("anndoctor00001"))
    }

    @Test("changing and deleting single instances creates exceptions of the series")
    func instanceExceptions() async throws {
        let emulator = try GoogleFixture.emulator()
        let instance = GoogleFixture.path("calendars", "primary", "events", "annstandup0001_20261026T080000Z")
        let patched = await emulator.call("PATCH", instance, body: #"{"summary": "Stand-up after the clock change"}"#)
        #expect(patched.status == 200)
        #expect(patched.json?["recurringEventId"] == "annstandup0001")
        #expect(patched.json?["iCalUID"] == "annstandup0001@google.com")
        let removed = await emulator.call("DELETE", GoogleFixture.path("calendars", "primary", "events", "annstandup0001_20261028T080000Z"))
        #expect(removed.status == 204)
        let list = await emulator.call("GET", GoogleFixture.path("calendars", "primary", "events", "annstandup0001", "instances")
            + GoogleFixture.query([("timeMin", "2026-10-26T00:00:00Z"), ("timeMax", "2026-11-03T00:00:00Z")]))
        #expect(list.items.map(\.summary) == ["Stand-up after the clock change", "Team stand-up"])
    }

    @Test("import adds by iCalUID, and importing the same iCalUID again updates instead of duplicating")
    func importByUID() async throws {
        let emulator = try GoogleFixture.emulator()
        let url = GoogleFixture.path("calendars", "primary", "events", "import")
        let first = await emulator.call("POST", url, body: #"{"iCalUID": "outlook-123@contoso.example", "summary": "Imported", \#(timed)}"#)
        #expect(first.status == 200)
        #expect(first.json?["iCalUID"] == "outlook-123@contoso.example")
        let second = await emulator.call("POST", url, body: #"{"iCalUID": "outlook-123@contoso.example", "summary": "Imported again", \#(timed)}"#)
        #expect(second.status == 200)
        #expect(second.json?.id == first.json?.id)
        let found = await emulator.list("primary", [("iCalUID", "outlook-123@contoso.example")])
        #expect(found.items.map(\.summary) == ["Imported again"])
        let noUID = await emulator.call("POST", url, body: #"{\#(timed)}"#)
        #expect(noUID.status == 400)
        #expect(noUID.errorReason == "required")
    }

    @Test("quickAdd takes text as a query parameter and no body; default: next full hour, one hour long")
    func quickAdd() async throws {
        let emulator = try GoogleFixture.emulator()
        let url = GoogleFixture.path("calendars", "primary", "events", "quickAdd")
        let reply = await emulator.call("POST", url + "?text=" + FormEncoding.percentEncode("Lunch with Bob & Carol"))
        #expect(reply.status == 200)
        #expect(reply.json?.summary == "Lunch with Bob & Carol")
        #expect(reply.json?["start"]?["dateTime"] == "2026-10-21T15:00:00+02:00")  // now is 14:00 in Berlin
        #expect(reply.json?["end"]?["dateTime"] == "2026-10-21T16:00:00+02:00")
        let missing = await emulator.call("POST", url)
        #expect(missing.status == 400)
        #expect(missing.errorReason == "required")
        #expect(missing.json?["error"]?["errors"]?.arrayValue?.first?["location"] == "text")
        let readOnly = await emulator.call("POST", GoogleFixture.path("calendars", GoogleFixture.holidaysDE, "events", "quickAdd") + "?text=x")
        #expect(readOnly.status == 403)
    }

    @Test("quickAdd uses the interpreter it was given, with the calendar's zone")
    func quickAddInterpreter() async throws {
        let emulator = try GoogleFixture.emulator(quickAdd: { text, now, zone in
            guard zone.identifier == "America/New_York" else { return nil }
            return QuickAddInterpretation(summary: "Parsed: " + text, start: now.addingTimeInterval(86400), allDay: true, location: "Park")
        })
        let reply = await emulator.call("POST", GoogleFixture.path("calendars", "primary", "events", "quickAdd") + "?text=picnic",
                                        as: GoogleFixture.bob)
        #expect(reply.json?.summary == "Parsed: picnic")
        #expect(reply.json?["start"] == ["date": "2026-10-22"])
        #expect(reply.json?["end"] == ["date": "2026-10-23"])
        #expect(reply.json?["location"] == "Park")
    }

    @Test("syncToken returns only changes since the token, deletions included; bad tokens are 410 fullSyncRequired")
    func sync() async throws {
        let emulator = try GoogleFixture.emulator()
        let full = await emulator.list("primary")
        let token = try #require(full.json?["nextSyncToken"]?.stringValue)
        let quiet = await emulator.list("primary", [("syncToken", token)])
        #expect(quiet.status == 200)
        #expect(quiet.items.isEmpty)
        _ = await emulator.call("POST", events, body: #"{"id": "changetest0001", \#(timed)}"#)
        _ = await emulator.call("DELETE", GoogleFixture.path("calendars", "primary", "events", "anntokio000001"))
        let changes = await emulator.list("primary", [("syncToken", token)])
        #expect(Set(changes.items.map(\.id)) == ["changetest0001", "anntokio000001"])
        #expect(changes.items.first { $0.id == "anntokio000001" }?["status"] == "cancelled")
        let next = try #require(changes.json?["nextSyncToken"]?.stringValue)
        #expect(await emulator.list("primary", [("syncToken", next)]).items.isEmpty)
        for bad in ["garbage", "", Data("s1|0|1|events:x".utf8).base64EncodedString()] {
            let reply = await emulator.list("primary", [("syncToken", bad)])
            #expect(reply.status == 410, "token \(bad)")
            #expect(reply.json == GoogleAPIError.fullSyncRequired.body)
        }
        let otherCalendar = await emulator.list("family0u4k7s2m9q1ddc3e@group.calendar.google.com", [("syncToken", token)])
        #expect(otherCalendar.status == 410)
        let combined = await emulator.list("primary", [("syncToken", token), ("timeMin", "2026-10-19T00:00:00Z")])
        #expect(combined.status == 400)
    }
}
