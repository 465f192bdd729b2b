import CalendarBridge
import Foundation
import Testing
import TestSupport

@testable import Sync

/// The sync engine against two in-memory calendars (A like Google, B like Outlook): named cases the model
/// test covers at random, written out.
@Suite("Sync engine")
struct SyncEngineTests {
    static let now = SyncTestWorld.now

    typealias World = SyncTestWorld

    static func event(_ title: String, day: Int, hour: Int = 9) -> Event {
        let start = now.addingTimeInterval(Double(day) * 86_400 + Double(hour - 12) * 3600)
        return Event(title: title, start: .timed(instant: start, zone: "Europe/Berlin"), end: .timed(instant: start.addingTimeInterval(3600), zone: "Europe/Berlin"))
    }

    @Test("both ways: new events cross, edits on both sides cross, an edit of one event on both is one conflict kept in the state")
    func twoWayWithConflict() async throws {
        let w = try await World()
        defer { w.directory.remove() }
        let lunch = try await w.a.createEvent(Self.event("Lunch", day: 1), in: "home")
        let review = try await w.b.createEvent(Self.event("Review", day: 2), in: "work")
        let first = try await w.sync()
        #expect(first.aToB.created == 1 && first.bToA.created == 1)
        #expect(await w.titles(.a) == ["Lunch", "Review"])
        #expect(await w.titles(.b) == ["Lunch", "Review"])

        // A edits Lunch, B edits Review, and both edit... Lunch's copy on B too: a conflict.
        var lunchA = lunch
        lunchA.title = "Lunch with Ann"
        _ = try await w.a.updateEvent(lunchA)
        var reviewB = review
        reviewB.title = "Design review"
        _ = try await w.b.updateEvent(reviewB)
        guard var lunchB = await w.b.storedEvents(in: "work").first(where: { $0.title == "Lunch" }) else {
            Issue.record("no copy of Lunch on B")
            return
        }
        try await Task.sleep(for: .milliseconds(5))  // B's edit is the newer one
        lunchB.title = "Lunch at noon"
        _ = try await w.b.updateEvent(lunchB)

        let second = try await w.sync()
        #expect(second.conflicts.count == 1)
        #expect(second.conflicts.first?.winner == .b)
        #expect(second.conflicts.first?.a.title == "Lunch with Ann")
        #expect(await w.titles(.a) == ["Design review", "Lunch at noon"])
        #expect(await w.titles(.b) == ["Design review", "Lunch at noon"])
        let kept = try await w.store.read { try $0.conflicts(pair: "p") }
        #expect(kept.count == 1)
        #expect(kept.first?.versionA.contains("Lunch with Ann") == true, "the losing version is kept")

        // Nothing changed: the run reads the echoes of its own writes, then costs one request per side.
        _ = try await w.sync()
        await w.a.clearLog()
        await w.b.clearLog()
        let quiet = try await w.sync()
        #expect(quiet.requests == 2)
        #expect(quiet.aToB.writes + quiet.bToA.writes == 0)
        let logA = await w.a.log
        let logB = await w.b.log
        #expect(logA == ["changes"] && logB == ["changes"])
    }

    @Test("a deletion on one side deletes the other's copy; a deletion against an edit loses and the event comes back")
    func deletions() async throws {
        let w = try await World()
        defer { w.directory.remove() }
        let gym = try await w.a.createEvent(Self.event("Gym", day: 3), in: "home")
        let call = try await w.a.createEvent(Self.event("Call", day: 4), in: "home")
        _ = try await w.sync()
        try await w.a.deleteEvent(id: gym.id, calendarID: "home")
        // Call: deleted on A, edited on B.
        try await w.a.deleteEvent(id: call.id, calendarID: "home")
        guard var callB = await w.b.storedEvents(in: "work").first(where: { $0.title == "Call" }) else {
            Issue.record("no copy of Call on B")
            return
        }
        callB.title = "Call (moved)"
        _ = try await w.b.updateEvent(callB)
        let report = try await w.sync()
        #expect(report.aToB.deleted == 1)
        #expect(report.bToA.created == 1)
        #expect(await w.titles(.a) == ["Call (moved)"])
        #expect(await w.titles(.b) == ["Call (moved)"])
    }

    @Test("an expired cursor (410) is read in full and reconciled: no duplicates, and a deletion is still proven")
    func cursorExpiry() async throws {
        let w = try await World()
        defer { w.directory.remove() }
        let one = try await w.a.createEvent(Self.event("One", day: 1), in: "home")
        _ = try await w.a.createEvent(Self.event("Two", day: 2), in: "home")
        _ = try await w.sync()
        try await w.a.deleteEvent(id: one.id, calendarID: "home")
        await w.a.expireChangeCursors()
        await w.b.expireChangeCursors()
        let report = try await w.sync()
        #expect(report.fullReads.count == 2)
        #expect(report.notices.contains { $0.contains("fullSyncRequired") })
        #expect(report.aToB.created == 0 && report.bToA.created == 0)
        #expect(report.aToB.deleted == 1)
        #expect(await w.titles(.b) == ["Two"])
    }

    @Test("a run killed after a write, before its state row: the next run links the copy instead of making another")
    func crashAfterWrite() async throws {
        let w = try await World()
        defer { w.directory.remove() }
        _ = try await w.a.createEvent(Self.event("Standup", day: 1), in: "home")
        _ = try await w.b.createEvent(Self.event("Retro", day: 2), in: "work")
        await w.a.failWritesAfter(0, loseFirstResponse: true)
        await w.b.failWritesAfter(0, loseFirstResponse: true)
        let killed = try await w.sync()
        #expect(killed.outcome == .partial)
        await w.a.failWritesAfter(nil)
        await w.b.failWritesAfter(nil)
        _ = try await w.sync()
        _ = try await w.sync()
        #expect(await w.titles(.a) == ["Retro", "Standup"])
        #expect(await w.titles(.b) == ["Retro", "Standup"])
        let items = try await w.store.read { try $0.items(pair: "p") }
        #expect(items.count == 2)
        #expect(items.allSatisfy { $0.idA != nil && $0.idB != nil })
    }

    @Test("a-to-b: B's own events and its edits of copies stay on B; a dry run writes nothing")
    func oneWayAndDryRun() async throws {
        let w = try await World(options: SyncPairOptions(direction: .aToB))
        defer { w.directory.remove() }
        _ = try await w.a.createEvent(Self.event("Focus", day: 1), in: "home")
        _ = try await w.b.createEvent(Self.event("Private", day: 1), in: "work")
        let dry = try await w.sync(dryRun: true)
        #expect(dry.aToB.created == 1)
        #expect(await w.b.writesApplied == 1, "only the test's own create")
        _ = try await w.sync()
        #expect(await w.titles(.a) == ["Focus"])
        #expect(await w.titles(.b) == ["Focus", "Private"])
    }

    @Test("an expired grant is 'grant must be renewed', naming the account")
    func grantExpired() async throws {
        let w = try await World()
        defer { w.directory.remove() }
        await w.b.failReads(with: CalendarError(.unauthorized, "invalid_grant", provider: .microsoft, account: "work"))
        await #expect {
            _ = try await w.sync()
        } throws: { error in
            guard let error = error as? SyncError else { return false }
            return error.code == .grantMustBeRenewed && error.account == "work"
        }
    }

    @Test("remove copies: deletes what the pair made on both sides, nothing else")
    func removeCopies() async throws {
        let w = try await World()
        defer { w.directory.remove() }
        _ = try await w.a.createEvent(Self.event("Mine A", day: 1), in: "home")
        _ = try await w.b.createEvent(Self.event("Mine B", day: 1), in: "work")
        _ = try await w.sync()
        let report = try await w.engine.removeCopies(pair: "p", a: w.endpoint(.a), b: w.endpoint(.b))
        #expect(report.aToB.deleted == 1 && report.bToA.deleted == 1)
        #expect(await w.titles(.a) == ["Mine A"])
        #expect(await w.titles(.b) == ["Mine B"])
    }

    @Test("a series crosses as a series, and an occurrence cancelled on one side is cancelled on the other (a dry run counts it first)")
    func seriesAndCancelledOccurrence() async throws {
        let w = try await World()
        defer { w.directory.remove() }
        var weekly = Self.event("Weekly", day: 1)
        weekly.recurrence = Recurrence(lines: ["RRULE:FREQ=WEEKLY;COUNT=4"])
        let master = try await w.a.createEvent(weekly, in: "home")
        _ = try await w.sync()
        let copies = await w.b.storedEvents(in: "work")
        #expect(copies.count == 1 && copies.first?.recurrence != nil)
        let window = TimeRange(start: Self.now.addingTimeInterval(-86_400 * 7), end: Self.now.addingTimeInterval(86_400 * 60))
        let occurrences = try await w.a.listEvents(calendarID: "home", range: window, expand: true).filter { $0.seriesID == master.id }
        try #require(occurrences.count == 4)
        try await w.a.deleteEvent(id: occurrences[2].id, calendarID: "home")
        // A dry run plans the cancellation (one occurrence write to B) and sends nothing.
        let dry = try await w.sync(dryRun: true)
        #expect(dry.aToB.updated == 1)
        #expect(try await w.b.listEvents(calendarID: "work", range: window, expand: true).filter { $0.seriesID != nil }.count == 4)
        _ = try await w.sync()
        let onB = try await w.b.listEvents(calendarID: "work", range: window, expand: true).filter { $0.seriesID != nil }
        #expect(onB.count == 3)
    }
}
