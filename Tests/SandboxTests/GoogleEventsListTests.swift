import Foundation
import HTTP
import Sandbox
import Testing

@Suite("Google emulator: events.list, get and instances")
struct GoogleEventsListTests {
    /// Monday 2026-10-19 00:00 to Monday 2026-10-26 00:00 in Berlin (the DST change is in between).
    let week: [(String, String)] = [("timeMin", "2026-10-19T00:00:00+02:00"), ("timeMax", "2026-10-26T00:00:00+01:00")]

    @Test("singleEvents + orderBy=startTime gives this week's instances, the moved one moved and the cancelled one gone")
    func thisWeek() async throws {
        let emulator = try GoogleFixture.emulator()
        let reply = await emulator.list("primary", week + [("singleEvents", "true"), ("orderBy", "startTime")])
        #expect(reply.status == 200)
        #expect(reply.json?["kind"] == "calendar#events")
        #expect(reply.json?["timeZone"] == "Europe/Berlin")
        #expect(reply.json?["accessRole"] == "owner")
        #expect(reply.items.map(\.summary) == [
            "Team stand-up (moved for the all-hands)", "Project Atlas kickoff", "Doctor appointment",
            "Call with the New York office", "Web conference in Lisbon", "Tokyo partner sync", "Monthly budget review",
            "Focus day (no meetings)",
        ])
        let moved = reply.items[0]
        #expect(moved.id == "annstandup0001_20261019T070000Z")
        #expect(moved["recurringEventId"] == "annstandup0001")
        #expect(moved["originalStartTime"]?["dateTime"] == "2026-10-19T09:00:00+02:00")
        #expect(moved["start"]?["dateTime"] == "2026-10-19T10:30:00+02:00")
        #expect(reply.items[3]["start"]?["dateTime"] == "2026-10-20T16:00:00+02:00")  // 10:00 New York
        #expect(reply.items[3]["start"]?["timeZone"] == "America/New_York")
        #expect(reply.items[4]["start"] == ["date": "2026-10-21"])
        #expect(reply.items[4]["end"] == ["date": "2026-10-24"])
        #expect(reply.items.allSatisfy { $0["recurrence"] == nil })
        #expect(reply.json?["nextSyncToken"]?.stringValue != nil)
    }

    @Test("a weekly 09:00 Europe/Berlin series keeps 09:00 local across the late-October DST change")
    func daylightSaving() async throws {
        let emulator = try GoogleFixture.emulator()
        let reply = await emulator.call("GET", GoogleFixture.path("calendars", "primary", "events", "annstandup0001", "instances")
            + GoogleFixture.query([("timeMin", "2026-10-20T00:00:00Z"), ("timeMax", "2026-11-03T00:00:00Z")]))
        #expect(reply.status == 200)
        #expect(reply.items.map(\.id) == [
            "annstandup0001_20261026T080000Z", "annstandup0001_20261028T080000Z", "annstandup0001_20261102T080000Z",
        ])
        #expect(reply.items.map { $0["start"]?["dateTime"]?.stringValue ?? "" } == [
            "2026-10-26T09:00:00+01:00", "2026-10-28T09:00:00+01:00", "2026-11-02T09:00:00+01:00",
        ])
        #expect(reply.items.allSatisfy { $0["end"]?["timeZone"] == "Europe/Berlin" })
        let deleted = await emulator.call("GET", GoogleFixture.path("calendars", "primary", "events", "annstandup0001", "instances")
            + GoogleFixture.query([("timeMin", "2026-10-20T00:00:00Z"), ("timeMax", "2026-10-22T00:00:00Z"), ("showDeleted", "true")]))
        #expect(deleted.items.map(\.id) == ["annstandup0001_20261021T070000Z"])
        #expect(deleted.items.first?["status"] == "cancelled")
    }

    @Test("without singleEvents: series masters with their recurrence, exceptions as separate items")
    func masters() async throws {
        let emulator = try GoogleFixture.emulator()
        let reply = await emulator.list("primary", week)
        let ids = reply.items.map(\.id)
        #expect(ids.contains("annstandup0001"))
        #expect(reply.items.first { $0.id == "annstandup0001" }?["recurrence"] == ["RRULE:FREQ=WEEKLY;BYDAY=MO,WE"])
        #expect(ids.contains("annstandup0001_20261021T070000Z"))  // cancelled instances are listed here
        #expect(ids.contains("annstandup0001_20261019T070000Z"))
        let ordered = await emulator.list("primary", week + [("orderBy", "startTime")])
        #expect(ordered.status == 400)
        #expect(ordered.errorReason == "badRequest")
        #expect(ordered.json?["error"]?["message"] == "The requested ordering is not available for the particular query.")
        let updated = await emulator.list("primary", week + [("orderBy", "updated")])
        #expect(updated.status == 200)
    }

    @Test("a monthly BYDAY=2TU series and a yearly BYMONTH=11;BYDAY=4TH series")
    func monthlyAndYearly() async throws {
        let emulator = try GoogleFixture.emulator()
        let club = await emulator.call("GET", GoogleFixture.path("calendars", "primary", "events", "bobbookclub001", "instances")
            + GoogleFixture.query([("timeMax", "2027-01-01T00:00:00Z")]), as: GoogleFixture.bob)
        #expect(club.items.map { $0["start"]?["dateTime"]?.stringValue ?? "" } == [
            "2026-09-08T18:30:00-04:00", "2026-11-10T19:00:00-05:00", "2026-12-08T18:30:00-05:00",
        ])
        #expect(club.items[1].summary == "Book club (late start)")
        let holidays = await emulator.list("en.usa#holiday@group.v.calendar.google.com",
                                           [("timeMin", "2026-11-01T00:00:00Z"), ("timeMax", "2028-01-01T00:00:00Z"), ("singleEvents", "true"),
                                            ("orderBy", "startTime"), ("q", "thanksgiving")], as: GoogleFixture.bob)
        #expect(holidays.items.map { $0["start"]?["date"]?.stringValue ?? "" } == ["2026-11-26", "2027-11-25"])
        #expect(holidays.items.first?.id == "20201126thanksgiving_20261126")
    }

    @Test("extended-property filters: every given key=value must match")
    func extendedProperties() async throws {
        let emulator = try GoogleFixture.emulator()
        let team = await emulator.list("primary", week + [("privateExtendedProperty", "team=platform")])
        #expect(team.items.map(\.id) == ["annstandup0001"])
        let project = await emulator.list("primary", week + [("singleEvents", "true"), ("sharedExtendedProperty", "project=atlas")])
        #expect(project.items.map(\.id) == ["annkickoff0001"])
        let both = await emulator.list("primary", [("sharedExtendedProperty", "project=atlas"), ("privateExtendedProperty", "team=platform")])
        #expect(both.items.isEmpty)
        let wrongScope = await emulator.list("primary", [("privateExtendedProperty", "project=atlas")])
        #expect(wrongScope.items.isEmpty)
        let uid = await emulator.list("primary", [("iCalUID", "annkickoff0001@google.com")])
        #expect(uid.items.map(\.id) == ["annkickoff0001"])
    }

    @Test("paging with maxResults and pageToken visits every item once; nextSyncToken only on the last page")
    func paging() async throws {
        let emulator = try GoogleFixture.emulator()
        var seen: [String] = []
        var token: String?
        var pages = 0
        repeat {
            var query = week + [("singleEvents", "true"), ("orderBy", "startTime"), ("maxResults", "3")]
            if let token { query.append(("pageToken", token)) }
            let page = await emulator.list("primary", query)
            #expect(page.status == 200)
            seen += page.items.map(\.id)
            token = page.json?["nextPageToken"]?.stringValue
            #expect((token == nil) == (page.json?["nextSyncToken"] != nil))
            pages += 1
        } while token != nil && pages < 10
        #expect(pages == 3)
        #expect(seen.count == 8 && Set(seen).count == 8)
        let bad = await emulator.list("primary", [("pageToken", "%%%")])
        #expect(bad.status == 400)
    }

    @Test("the timeZone parameter sets the response zone and the offsets of dateTime values")
    func responseZone() async throws {
        let emulator = try GoogleFixture.emulator()
        let reply = await emulator.list("primary", week + [("singleEvents", "true"), ("orderBy", "startTime"), ("timeZone", "Asia/Tokyo")])
        #expect(reply.json?["timeZone"] == "Asia/Tokyo")
        #expect(reply.items[1]["start"]?["dateTime"] == "2026-10-19T21:00:00+09:00")
        let get = await emulator.call("GET", GoogleFixture.path("calendars", "primary", "events", "annkickoff0001") + "?timeZone=UTC")
        #expect(get.json?["start"]?["dateTime"] == "2026-10-19T12:00:00Z")
    }

    @Test("events.get: stored events, instances by id, exceptions; 404 for unknown ids")
    func get() async throws {
        let emulator = try GoogleFixture.emulator()
        let kickoff = await emulator.call("GET", GoogleFixture.path("calendars", "primary", "events", "annkickoff0001"))
        #expect(kickoff.status == 200)
        #expect(kickoff.headers["ETag"] == kickoff.json?["etag"]?.stringValue)
        #expect(kickoff.json?["hangoutLink"] == "https://meet.google.com/atl-asko-ick")
        #expect(kickoff.json?["organizer"] == ["email": "ann.lee@gmail.sandbox", "self": true])
        #expect(kickoff.json?["attendees"]?.arrayValue?.first?["self"] == true)
        #expect(kickoff.json?["attendees"]?.arrayValue?.first?["organizer"] == true)
        let instance = await emulator.call("GET", GoogleFixture.path("calendars", "primary", "events", "annstandup0001_20261026T080000Z"))
        #expect(instance.status == 200)
        #expect(instance.json?["recurringEventId"] == "annstandup0001")
        #expect(instance.json?["iCalUID"] == "annstandup0001@google.com")
        let cancelled = await emulator.call("GET", GoogleFixture.path("calendars", "primary", "events", "annstandup0001_20261021T070000Z"))
        #expect(cancelled.status == 200)
        #expect(cancelled.json?["status"] == "cancelled")
        let notAnInstance = await emulator.call("GET", GoogleFixture.path("calendars", "primary", "events", "annstandup0001_20261027T080000Z"))
        #expect(notAnInstance.status == 404)
        let unknown = await emulator.call("GET", GoogleFixture.path("calendars", "primary", "events", "nope00000"))
        #expect(unknown.status == 404)
        #expect(unknown.json == GoogleAPIError.notFound.body)
    }

    @Test("readers see private events only as busy blocks; free/busy readers see times only")
    func limitedViews() async throws {
        let emulator = try GoogleFixture.emulator()
        let asReader = await emulator.list(GoogleFixture.bob, week + [("singleEvents", "true")])
        let therapy = try #require(asReader.items.first { $0.id == "bobtherapie001" })
        #expect(therapy["summary"] == nil)
        #expect(therapy["start"] != nil)
        #expect(asReader.items.first { $0.id == "bobvendordemo1" }?.summary == "Vendor demo")
        let freeBusy = await emulator.list(GoogleFixture.ann, week, as: GoogleFixture.bob)
        #expect(freeBusy.json?["accessRole"] == "freeBusyReader")
        #expect(!freeBusy.items.isEmpty)
        #expect(freeBusy.items.allSatisfy { $0["summary"] == nil && $0["attendees"] == nil && $0["start"] != nil })
    }
}
