import CalendarBridge
import Foundation
import TestSupport
import Testing

@testable import Sync

/// `SyncEngine.restoreConflict` (`sync conflicts restore ID`) against two in-memory calendars: the kept
/// version goes back onto the side it lost on as an edit of that side's event (a lost deletion as a deletion),
/// the next run carries it across, and nothing is ever created by the restore itself.
@Suite("Sync conflict restore")
struct SyncConflictRestoreTests {
    typealias World = SyncTestWorld

    func restore(_ w: World, _ id: Int64) async throws(SyncError) -> SyncRestoreResult {
        try await w.engine.restoreConflict(id, pair: "p", a: w.endpoint(.a), b: w.endpoint(.b))
    }

    @Test(
        "an edit that lost is written back onto its side's event (no new event), then synced to the other side; the conflict's versions swap"
    )
    func editRestored() async throws {
        let w = try await World()
        defer { w.directory.remove() }
        let lunch = try await w.a.createEvent(SyncEngineTests.event("Lunch", day: 1), in: "home")
        _ = try await w.sync()
        var lunchA = lunch
        lunchA.title = "Lunch with Ann"
        lunchA.location = "Canteen"
        _ = try await w.a.updateEvent(lunchA)
        var lunchB = try #require(await w.b.storedEvents(in: "work").first { $0.title == "Lunch" })
        try await Task.sleep(for: .milliseconds(5))  // B's edit is the newer one: it wins
        lunchB.title = "Lunch at noon"
        _ = try await w.b.updateEvent(lunchB)
        let run = try await w.sync()
        #expect(run.conflicts.count == 1 && run.conflicts.first?.winner == .b)
        #expect(await w.titles(.a) == ["Lunch at noon"])
        let kept = try #require(try await w.store.read { try $0.conflicts(pair: "p") }.first)
        let id = try #require(kept.rowID)

        let result = try await restore(w, id)
        #expect(result.side == .a && result.action == .updated && result.eventID == lunch.id)
        #expect(result.fields == ["title", "location"])
        // Side A's original holds its own edit again, under its own id: nothing was created.
        let onA = await w.a.storedEvents(in: "home")
        #expect(onA.map(\.id) == [lunch.id])
        #expect(onA.first?.title == "Lunch with Ann" && onA.first?.location == "Canteen")
        let swapped = try #require(try await w.store.read { try $0.conflict(rowID: id) })
        #expect(swapped.winner == .a && swapped.reason.hasPrefix("restored "))

        // The next run carries it to B as any edit, and no conflict comes of it.
        let after = try await w.sync()
        #expect(after.aToB.updated == 1 && after.conflicts.isEmpty && after.aToB.created + after.bToA.created == 0)
        #expect(await w.titles(.a) == ["Lunch with Ann"])
        #expect(await w.titles(.b) == ["Lunch with Ann"])
        // Restoring again puts B's version back: the swap makes a restore undoable.
        let undo = try await restore(w, id)
        #expect(undo.side == .b && undo.action == .updated)
        _ = try await w.sync()
        #expect(await w.titles(.a) == ["Lunch at noon"])
        #expect(await w.titles(.b) == ["Lunch at noon"])
    }

    @Test(
        "a deletion that lost to an edit is kept as a conflict; restoring it deletes the event again, and the next run deletes it on both sides"
    )
    func deletionRestored() async throws {
        let w = try await World()
        defer { w.directory.remove() }
        let call = try await w.a.createEvent(SyncEngineTests.event("Call", day: 4), in: "home")
        _ = try await w.sync()
        try await w.a.deleteEvent(id: call.id, calendarID: "home")
        var callB = try #require(await w.b.storedEvents(in: "work").first { $0.title == "Call" })
        callB.title = "Call (moved)"
        _ = try await w.b.updateEvent(callB)
        let run = try await w.sync()
        #expect(run.bToA.created == 1, "the edit wins and comes back to A")
        let conflict = try #require(run.conflicts.first)
        #expect(conflict.winner == .b && conflict.a.status == .cancelled && conflict.reason.contains("deleted on A"))
        let kept = try #require(try await w.store.read { try $0.conflicts(pair: "p") }.first)

        let result = try await restore(w, try #require(kept.rowID))
        #expect(result.side == .a && result.action == .deleted)
        #expect(await w.titles(.a).isEmpty)
        let after = try await w.sync()
        #expect(after.aToB.deleted == 1)
        #expect(await w.titles(.a).isEmpty)
        #expect(await w.titles(.b).isEmpty)
    }

    @Test("nothing is written when the side holds the event no more, and an unknown id or another pair's id is refused")
    func refusals() async throws {
        let w = try await World()
        defer { w.directory.remove() }
        let talk = try await w.a.createEvent(SyncEngineTests.event("Talk", day: 2), in: "home")
        _ = try await w.sync()
        var talkA = talk
        talkA.title = "Talk (A)"
        _ = try await w.a.updateEvent(talkA)
        var talkB = try #require(await w.b.storedEvents(in: "work").first { $0.title == "Talk" })
        try await Task.sleep(for: .milliseconds(5))
        talkB.title = "Talk (B)"
        _ = try await w.b.updateEvent(talkB)
        _ = try await w.sync()
        let id = try #require(try await w.store.read { try $0.conflicts(pair: "p") }.first?.rowID)
        // The losing side's event is deleted behind the pair's back: a restore must not make it again.
        try await w.a.deleteEvent(id: talk.id, calendarID: "home")
        await w.a.clearLog()
        await #expect(throws: SyncError.self) { _ = try await restore(w, id) }
        do {
            _ = try await restore(w, id)
        } catch {
            #expect(error.code == .conflictNotRestorable && error.message.contains("never creates"), "\(error.message)")
        }
        #expect(await w.a.writeLog.isEmpty)
        #expect(await w.titles(.a).isEmpty)
        do {
            _ = try await restore(w, id + 100)
            Issue.record("an unknown conflict was restored")
        } catch {
            #expect(error.code == .conflictNotRestorable)
        }
        do {
            _ = try await w.engine.restoreConflict(id, pair: "other", a: w.endpoint(.a), b: w.endpoint(.b))
            Issue.record("a conflict was restored through another pair")
        } catch {
            #expect(error.code == .conflictNotRestorable)
        }
    }
}
