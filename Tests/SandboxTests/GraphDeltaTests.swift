import Foundation
import HTTP
@testable import Sandbox
import Testing

/// `calendarView/delta`, checked against the `event: delta` reference and "Get incremental changes to events
/// in a calendar view": rounds, paging, `@removed`, series occurrences, refused options and lost sync states.
@Suite("Sandbox Graph: calendarView delta")
struct GraphDeltaTests {
    /// The seeded week in UTC (Monday 2 March to Monday 9 March 2026).
    let window = "startDateTime=2026-03-02T00:00:00Z&endDateTime=2026-03-09T00:00:00Z"

    /// Follows one delta round from `target` to its delta link: every value, the page count, the delta link.
    func round(_ emulator: GraphEmulator, _ target: String, pageSize: Int? = nil) async throws
        -> (values: [[String: Any]], pages: Int, deltaLink: String)
    {
        var values: [[String: Any]] = []
        var next = target
        var pages = 0
        let headers = pageSize.map { ["Prefer": "odata.maxpagesize=\($0)"] } ?? [:]
        while pages < 100 {
            let reply = try await GraphTest.send(emulator, "GET", Self.path(next), headers: headers)
            try #require(reply.status == 200, "\(reply.errorCode ?? "") \(reply.errorMessage ?? "")")
            pages += 1
            values += reply.value
            let nextLink = reply.json["@odata.nextLink"] as? String
            let deltaLink = reply.json["@odata.deltaLink"] as? String
            #expect((nextLink == nil) != (deltaLink == nil), "a page has a next link or a delta link, never both")
            if let deltaLink { return (values, pages, deltaLink) }
            next = try #require(nextLink)
        }
        Issue.record("no delta link after 100 pages")
        return (values, pages, "")
    }

    static func path(_ link: String) -> String {
        link.hasPrefix("http") ? String(link.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" }) : link
    }

    /// Which of the two Graph does is not documented; the sync model runs under both.
    @Test("a master's new subject and location: exceptions keep theirs, or with exceptionsFollowSeries take what they had not set themselves", arguments: [false, true])
    func exceptionsAfterSeriesChange(follow: Bool) async throws {
        let emulator = try GraphTest.emulator(exceptionsFollowSeries: follow)
        let created = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Daily", start: "2026-03-09T09:00:00", end: "2026-03-09T09:15:00", extra: [
                "location": ["displayName": "Room 1"],
                "recurrence": ["pattern": ["type": "daily", "interval": 1],
                               "range": ["type": "endDate", "startDate": "2026-03-09", "endDate": "2026-03-13"]],
            ]))
        let master = try #require(created.json["id"] as? String)
        let window = "startDateTime=2026-03-09T00:00:00Z&endDateTime=2026-03-16T00:00:00Z"
        let ids = try await GraphTest.send(emulator, "GET", "/v1.0/me/events/\(master)/instances?\(window)").value.compactMap { $0["id"] as? String }
        try #require(ids.count == 5)
        // Moved only; retitled only.
        _ = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(ids[1])", body: [
            "start": ["dateTime": "2026-03-10T14:00:00", "timeZone": "Pacific Standard Time"],
            "end": ["dateTime": "2026-03-10T14:15:00", "timeZone": "Pacific Standard Time"],
        ])
        _ = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(ids[3])", body: ["subject": "Daily, this one"])
        let before = try await round(emulator, "/v1.0/me/calendarView/delta?\(window)")

        let patched = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(master)", body: [
            "subject": "Daily (new)", "location": ["displayName": "Room 2"],
        ])
        #expect(patched.status == 200)
        func read(_ id: String) async throws -> (subject: String?, location: String?) {
            let json = try await GraphTest.send(emulator, "GET", "/v1.0/me/events/\(id)").json
            return (json["subject"] as? String, json.string("location.displayName"))
        }
        let moved = try await read(ids[1]), retitled = try await read(ids[3]), plain = try await read(ids[0])
        #expect(plain.subject == "Daily (new)" && plain.location == "Room 2")
        #expect(retitled.subject == "Daily, this one", "an exception's own subject stays its own")
        if follow {
            #expect(moved.subject == "Daily (new)" && moved.location == "Room 2")
            #expect(retitled.location == "Room 2")
        } else {
            #expect(moved.subject == "Daily" && moved.location == "Room 1")
            #expect(retitled.location == "Room 1")
        }
        // The series' change is reported for every instance, the exceptions included.
        let changes = try await round(emulator, before.deltaLink)
        let reported = Set(changes.values.compactMap { $0["id"] as? String })
        #expect(reported.isSuperset(of: [ids[0], ids[2], ids[4]]), "the occurrences")
        #expect(reported.contains(ids[1]) == follow && reported.contains(ids[3]) == follow, "the exceptions, when they changed")
    }

    @Test("the first round lists the view's singles, occurrences and exceptions (never masters) like calendarView")
    func initialRound() async throws {
        let emulator = try GraphTest.emulator()
        let delta = try await round(emulator, "/v1.0/me/calendarView/delta?\(window)")
        var pages = 0
        let view = try await GraphTest.all(emulator, "/v1.0/me/calendarView?\(window)&$top=100", pages: &pages)
        #expect(!delta.values.isEmpty)
        #expect(Set(delta.values.compactMap { $0["id"] as? String }) == Set(view.compactMap { $0["id"] as? String }))
        #expect(!delta.values.contains { ($0["type"] as? String) == "seriesMaster" })
        #expect(delta.values.contains { ($0["type"] as? String) == "occurrence" })
        #expect(delta.values.contains { ($0["type"] as? String) == "exception" })
        #expect(delta.deltaLink.contains("$deltatoken="))
        #expect(delta.deltaLink.hasPrefix("http://127.0.0.1:8765/v1.0/me/calendarView/delta?"))
    }

    @Test("Prefer: odata.maxpagesize pages the round with $skiptoken links and says so in Preference-Applied")
    func paging() async throws {
        let emulator = try GraphTest.emulator()
        let whole = try await round(emulator, "/v1.0/me/calendarView/delta?\(window)")
        let paged = try await round(emulator, "/v1.0/me/calendarView/delta?\(window)", pageSize: 2)
        #expect(paged.pages == (whole.values.count + 1) / 2)
        #expect(paged.values.compactMap { $0["id"] as? String } == whole.values.compactMap { $0["id"] as? String })
        let first = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView/delta?\(window)",
                                             headers: ["Prefer": "odata.maxpagesize=2"])
        #expect(first.value.count == 2)
        #expect((first.json["@odata.nextLink"] as? String)?.contains("$skiptoken=") == true)
        #expect(first.headers["Preference-Applied"]?.contains("odata.maxpagesize=2") == true)
        #expect(first.headers["Preference-Applied"]?.contains("odata.track-changes") == true)
    }

    @Test("the delta link reports creations, updates and deletions since its round, and nothing when quiet")
    func changes() async throws {
        let emulator = try GraphTest.emulator()
        let first = try await round(emulator, "/v1.0/me/calendarView/delta?\(window)")
        let quiet = try await round(emulator, first.deltaLink)
        #expect(quiet.values.isEmpty)

        let created = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Delta probe", start: "2026-03-05T09:00:00", end: "2026-03-05T10:00:00"))
        let createdID = try #require(created.json["id"] as? String)
        let outside = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Far away", start: "2026-05-05T09:00:00", end: "2026-05-05T10:00:00"))
        #expect(outside.status == 201)
        let single = try #require(first.values.first { ($0["type"] as? String) == "singleInstance" })
        let updatedID = try #require(single["id"] as? String)
        let patched = try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(updatedID)", body: ["subject": "Renamed"])
        #expect(patched.status == 200)
        let doomed = try #require(first.values.last { ($0["type"] as? String) == "singleInstance" && ($0["id"] as? String) != updatedID })
        let doomedID = try #require(doomed["id"] as? String)
        #expect(try await GraphTest.send(emulator, "DELETE", "/v1.0/me/events/\(doomedID)").status == 204)

        let second = try await round(emulator, quiet.deltaLink)
        let byID = Dictionary(second.values.compactMap { v in (v["id"] as? String).map { ($0, v) } }, uniquingKeysWith: { a, _ in a })
        #expect(Set(byID.keys) == [createdID, updatedID, doomedID], "only what changed, nothing outside the window")
        #expect(byID[createdID]?["subject"] as? String == "Delta probe")
        #expect(byID[updatedID]?["subject"] as? String == "Renamed")
        let removed = try #require(byID[doomedID])
        #expect((removed["@removed"] as? [String: Any])?["reason"] as? String == "deleted")
        #expect(removed["@odata.type"] as? String == "#microsoft.graph.event")
        #expect(removed["subject"] == nil)
        // The same (older) link still answers its own changes: a client retrying a lost page loses nothing.
        #expect(try await round(emulator, quiet.deltaLink).values.count == 3)
        #expect(try await round(emulator, second.deltaLink).values.isEmpty)
    }

    @Test("a series edit reports its occurrences; a cancelled occurrence and an exception's edit come alone")
    func seriesChanges() async throws {
        let emulator = try GraphTest.emulator()
        let first = try await round(emulator, "/v1.0/me/calendarView/delta?\(window)")
        let occurrences = first.values.filter { ($0["type"] as? String) == "occurrence" && ($0["subject"] as? String) == "Team sync" }
        #expect(!occurrences.isEmpty)
        let masterID = try #require(occurrences.first?["seriesMasterId"] as? String)
        #expect(try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(masterID)", body: ["subject": "Team sync v2"]).status == 200)
        let afterSeries = try await round(emulator, first.deltaLink)
        let renamed = afterSeries.values.filter { ($0["seriesMasterId"] as? String) == masterID && ($0["type"] as? String) == "occurrence" }
        #expect(renamed.count == occurrences.count)
        #expect(renamed.allSatisfy { ($0["subject"] as? String) == "Team sync v2" })
        #expect(!afterSeries.values.contains { ($0["id"] as? String) == masterID }, "never the master")

        let victim = try #require(renamed.first?["id"] as? String)
        #expect(try await GraphTest.send(emulator, "DELETE", "/v1.0/me/events/\(victim)").status == 204)
        let afterCancel = try await round(emulator, afterSeries.deltaLink)
        #expect(afterCancel.values.count == 1)
        #expect(afterCancel.values.first?["id"] as? String == victim)
        #expect(afterCancel.values.first?["@removed"] != nil)

        let exception = try #require(first.values.first { ($0["type"] as? String) == "exception" })
        let exceptionID = try #require(exception["id"] as? String)
        #expect(try await GraphTest.send(emulator, "PATCH", "/v1.0/me/events/\(exceptionID)", body: ["location": ["displayName": "Elsewhere"]]).status == 200)
        let afterException = try await round(emulator, afterCancel.deltaLink)
        #expect(afterException.values.compactMap { $0["id"] as? String } == [exceptionID])
    }

    @Test("a calendar's own delta covers that calendar only")
    func calendarScoped() async throws {
        let emulator = try GraphTest.emulator()
        let calendars = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendars")
        let other = try #require(calendars.value.first { ($0["isDefaultCalendar"] as? Bool) == false }?["id"] as? String)
        let first = try await round(emulator, "/v1.0/me/calendars/\(other)/calendarView/delta?\(window)")
        #expect(first.deltaLink.contains("/calendars/"))
        _ = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Default calendar only", start: "2026-03-05T09:00:00", end: "2026-03-05T10:00:00"))
        #expect(try await round(emulator, first.deltaLink).values.isEmpty)
        let posted = try await GraphTest.send(emulator, "POST", "/v1.0/me/calendars/\(other)/events", body: GraphTest.newEvent(
            subject: "Other calendar", start: "2026-03-05T09:00:00", end: "2026-03-05T10:00:00"))
        let second = try await round(emulator, first.deltaLink)
        #expect(second.values.compactMap { $0["id"] as? String } == [posted.json["id"] as? String].compactMap { $0 })
    }

    @Test("options the delta refuses, and the window it needs", arguments: [
        ("$filter=subject eq 'x'", "ErrorInvalidUrlQuery"), ("$orderby=start/dateTime", "ErrorInvalidUrlQuery"),
        ("$top=5", "ErrorInvalidUrlQuery"), ("$expand=singleValueExtendedProperties", "BadRequest"),
    ])
    func refusedOptions(option: String, code: String) async throws {
        let emulator = try GraphTest.emulator()
        let reply = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView/delta?\(window)&" + GraphTest.query(option))
        #expect(reply.status == 400)
        #expect(reply.errorCode == code)
    }

    @Test("$select is ignored: a delta returns every property a calendarView would")
    func selectIgnored() async throws {
        let emulator = try GraphTest.emulator()
        let reply = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView/delta?\(window)&$select=subject")
        #expect(reply.status == 200)
        #expect(reply.value.first?["start"] != nil)
        let missing = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView/delta")
        #expect(missing.status == 400)
        #expect(missing.errorCode == "ErrorInvalidParameter")
    }

    @Test("unknown and expired tokens answer 410 SyncStateNotFound; a new round works after")
    func expired() async throws {
        let emulator = try GraphTest.emulator()
        let first = try await round(emulator, "/v1.0/me/calendarView/delta?\(window)", pageSize: 3)
        let garbage = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView/delta?$deltatoken=nonsense")
        #expect(garbage.status == 410)
        #expect(garbage.errorCode == "SyncStateNotFound")
        let midRound = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView/delta?\(window)",
                                                headers: ["Prefer": "odata.maxpagesize=3"])
        let skipLink = try #require(midRound.json["@odata.nextLink"] as? String)
        await emulator.expireDeltaTokens()
        for link in [first.deltaLink, skipLink] {
            let reply = try await GraphTest.send(emulator, "GET", Self.path(link))
            #expect(reply.status == 410)
            #expect(reply.errorCode == "SyncStateNotFound")
            #expect(reply.errorMessage?.hasPrefix("The sync state generation is not found") == true)
        }
        let fresh = try await round(emulator, "/v1.0/me/calendarView/delta?\(window)")
        #expect(fresh.values.count == first.values.count)
    }

    @Test("the sync state cache is per mailbox: one mailbox's new tokens drop its own oldest, never another's")
    func cachePerMailbox() {
        var store = GraphDeltaStore()
        func state(_ mailbox: String) -> GraphDeltaState {
            store.generation += 1
            return GraphDeltaState(
                mailboxID: mailbox, calendarID: "c", start: Date(), end: Date(), seen: [:], generation: store.generation)
        }
        store.insert(state("quiet"), key: "quiet-1")
        for index in 0..<(GraphDeltaStore.capacity + 10) { store.insert(state("busy"), key: "busy-\(index)") }
        #expect(store.states["quiet-1"] != nil, "another mailbox's token is kept")
        #expect(store.states.values.filter { $0.mailboxID == "busy" }.count == GraphDeltaStore.capacity)
        #expect(store.states["busy-0"] == nil && store.states["busy-9"] == nil && store.states["busy-10"] != nil)
    }

    @Test("delta tokens survive a snapshot and restore (the sandbox's --state file)")
    func persisted() async throws {
        let emulator = try GraphTest.emulator()
        let first = try await round(emulator, "/v1.0/me/calendarView/delta?\(window)")
        let snapshot = try await emulator.snapshot()
        let restored = try GraphTest.emulator()
        try await restored.restore(snapshot)
        #expect(try await round(restored, first.deltaLink).values.isEmpty)
    }
}
