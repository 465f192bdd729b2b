import CalendarBridge
import Foundation
import TestSupport
import Testing

@testable import Sync

/// `SyncPlanner` on its own: the items as stored and each side's view of a run's changes built by hand, the
/// plan and the items' new state checked, without a provider, a store or an engine run.
@Suite("Sync planner")
struct SyncPlannerTests {
    static let monday = Date(timeIntervalSince1970: 1_796_544_000)  // 2026-12-07T08:00:00Z
    static let utc = TimeZone(identifier: "UTC")!

    static func at(_ days: Double, hours: Double = 0) -> EventTime {
        .timed(instant: monday.addingTimeInterval(days * 86_400 + hours * 3600), zone: "UTC")
    }

    /// A like Google, B like Outlook.
    static func planner(_ options: SyncPairOptions = SyncPairOptions(direction: .both)) -> SyncPlanner {
        let window = CopyWindow(
            range: TimeRange(start: monday.addingTimeInterval(-7 * 86_400), end: monday.addingTimeInterval(60 * 86_400)), zone: utc)
        return SyncPlanner(
            pair: "p", options: options, window: window,
            calendars: Sides(
                a: SyncCalendar(
                    provider: .google, identity: "a@gmail.example", account: "a", calendarID: "a-cal",
                    capabilities: InMemoryCalendarProvider.defaultCapabilities(.google)),
                b: SyncCalendar(
                    provider: .microsoft, identity: "b-object-id", account: "b", calendarID: "b-cal",
                    capabilities: InMemoryCalendarProvider.defaultCapabilities(.microsoft))))
    }

    static func event(_ id: String, _ title: String, day: Double = 1, updated: Double = 0) -> Event {
        var e = Event(id: id, title: title, start: at(day, hours: 1), end: at(day, hours: 2))
        e.updated = monday.addingTimeInterval(updated * 60)
        return e
    }

    /// An item linking `a` and `b` as last synced: each side's hash is what the event carries now.
    static func linked(_ planner: SyncPlanner, _ a: Event, _ b: Event, rowID: Int64 = 1, origin: SyncSide = .a) -> SyncItemRecord {
        SyncItemRecord(
            rowID: rowID, pair: "p", idA: a.id, idB: b.id, hashA: planner.sideHash(a, on: .a), hashB: planner.sideHash(b, on: .b),
            updated: monday, origin: origin)
    }

    static func views(a: [Event] = [], goneA: Set<String> = [], b: [Event] = [], goneB: Set<String> = []) -> Sides<SyncSideView> {
        Sides(
            a: SyncSideView(units: Dictionary(uniqueKeysWithValues: a.map { ($0.id, $0) }), gone: goneA),
            b: SyncSideView(units: Dictionary(uniqueKeysWithValues: b.map { ($0.id, $0) }), gone: goneB))
    }

    @Test("a new event on A becomes an item and a create on B carrying A's marker and a derived key")
    func newEventIsCreated() throws {
        let planner = Self.planner()
        var items = SyncItems()
        let plan = planner.plan(views: Self.views(a: [Self.event("a1", "Dentist")]), items: &items, now: Self.monday)
        #expect(items.count == 1)
        #expect(items[0].idA == "a1" && items[0].idB == nil && items[0].origin == .a)
        let write = try #require(plan.writes.first)
        #expect(plan.writes.count == 1 && write.kind == .create && write.target == .b && write.item == 0 && write.sourceSide == .a)
        guard case .create(let copy, let key) = write.write else {
            Issue.record("not a create: \(write.write)")
            return
        }
        #expect(copy.title == "Dentist")
        #expect(copy.origin?.eventID == "a1" && copy.origin?.calendarKey == planner.calendarKey(.a))
        #expect(key == IdempotencyKey.copy(of: try #require(copy.origin), toCalendar: "b-cal"))
        #expect(write.sourceHash == planner.sideHash(Self.event("a1", "Dentist"), on: .a))
        #expect(plan.conflicts.isEmpty && plan.seriesToCompare.isEmpty)
    }

    @Test("an event outside the window is not taken on")
    func outsideTheWindowIsLeft() {
        var items = SyncItems()
        let plan = Self.planner().plan(views: Self.views(a: [Self.event("a1", "Later", day: 90)]), items: &items, now: Self.monday)
        #expect(items.count == 0 && plan.writes.isEmpty)
    }

    @Test("a change on one side is an update of the other side's event; an unchanged echo is nothing")
    func changeIsCarried() throws {
        let planner = Self.planner()
        let a = Self.event("a1", "Dentist"), b = Self.event("b1", "Dentist")
        var items = SyncItems([Self.linked(planner, a, b)])
        var edited = a
        edited.title = "Dentist (moved)"
        let plan = planner.plan(views: Self.views(a: [edited], b: [b]), items: &items, now: Self.monday)
        let write = try #require(plan.writes.first)
        #expect(plan.writes.count == 1 && write.kind == .update && write.target == .b && write.write.targetID == "b1")
        #expect(write.source?.title == "Dentist (moved)")

        var unchanged = SyncItems([Self.linked(planner, a, b)])
        let echo = planner.plan(views: Self.views(a: [a], b: [b]), items: &unchanged, now: Self.monday)
        #expect(echo.writes.isEmpty && unchanged.pendingSaves.isEmpty)
    }

    @Test(
        "changed on both sides: the conflict rule picks the winner, the conflict is planned", arguments: [SyncConflictRule.a, .b, .newer])
    func changeOnBothSides(rule: SyncConflictRule) throws {
        let planner = Self.planner(SyncPairOptions(direction: .both, conflict: rule))
        let a = Self.event("a1", "Review"), b = Self.event("b1", "Review")
        var items = SyncItems([Self.linked(planner, a, b)])
        var editedA = a, editedB = b
        editedA.title = "Review (A)"
        editedA.updated = Self.monday.addingTimeInterval(600)
        editedB.title = "Review (B)"
        editedB.updated = Self.monday.addingTimeInterval(1200)  // newer
        let plan = planner.plan(views: Self.views(a: [editedA], b: [editedB]), items: &items, now: Self.monday)
        let winner: SyncSide = rule == .a ? .a : .b
        let conflict = try #require(plan.conflicts.first)
        #expect(plan.conflicts.count == 1 && conflict.report.winner == winner && conflict.report.itemID == 1)
        let write = try #require(plan.writes.first)
        #expect(plan.writes.count == 1 && write.kind == .update && write.target == winner.other)
        #expect(write.source?.title == (winner == .a ? "Review (A)" : "Review (B)"))
    }

    @Test("the same content on both sides (a lost state row): no write, the state takes both hashes")
    func sameContentIsLinked() {
        let planner = Self.planner()
        let a = Self.event("a1", "Lunch"), b = Self.event("b1", "Lunch")
        var record = Self.linked(planner, a, b)
        record.hashA = "old"
        record.hashB = "old"
        var items = SyncItems([record])
        var editedA = a, editedB = b
        editedA.title = "Lunch!"
        editedB.title = "Lunch!"
        let plan = planner.plan(views: Self.views(a: [editedA], b: [editedB]), items: &items, now: Self.monday)
        #expect(plan.writes.isEmpty && plan.conflicts.isEmpty)
        #expect(items.pendingSaves == [0] && items[0].hashA == planner.sideHash(editedA, on: .a))
    }

    @Test("gone on one side (proof), unchanged on the other: deleted there; changed there: copied back")
    func deletion() throws {
        let planner = Self.planner()
        let a = Self.event("a1", "Gym"), b = Self.event("b1", "Gym")
        var items = SyncItems([Self.linked(planner, a, b)])
        let plan = planner.plan(views: Self.views(a: [a], goneB: ["b1"]), items: &items, now: Self.monday)
        let delete = try #require(plan.writes.first)
        #expect(plan.writes.count == 1 && delete.kind == .delete && delete.target == .a && delete.write.targetID == "a1")

        var changed = a
        changed.title = "Gym (later)"
        var second = SyncItems([Self.linked(planner, a, b)])
        let back = planner.plan(views: Self.views(a: [changed], goneB: ["b1"]), items: &second, now: Self.monday)
        let create = try #require(back.writes.first)
        #expect(back.writes.count == 1 && create.kind == .create && create.target == .b)
        #expect(second[0].idB == nil && second[0].origin == .a)
    }

    @Test("a series deleted on A while B cancelled one of its occurrences (a CalDAV EXDATE): the deletion wins, no conflict")
    func deletedSeriesBeatsCancelledOccurrence() throws {
        // B stores series as RFC 5545 lines, as a CalDAV server does: a cancelled occurrence is an EXDATE on the master.
        let caldav = ProviderCapabilities(
            serverQuickAdd: false, recurrence: .rfc5545, personalSensitivity: false, richShowAs: false, categories: false, htmlBody: false)
        let base = Self.planner()
        let planner = SyncPlanner(
            pair: "p", options: base.options, window: base.window,
            calendars: Sides(
                a: base.calendars.a,
                b: SyncCalendar(
                    provider: ProviderKind(rawValue: "caldav"), identity: "b@dav.example", account: "b", calendarID: "b-cal",
                    capabilities: caldav)))
        var a = Self.event("a1", "Standup"), b = Self.event("b1", "Standup")
        a.recurrence = Recurrence(lines: ["RRULE:FREQ=WEEKLY;COUNT=5"])
        b.recurrence = a.recurrence
        var items = SyncItems([Self.linked(planner, a, b)])
        var cancelled = b
        cancelled.recurrence?.lines.append("EXDATE;TZID=UTC:20261221T090000")
        #expect(planner.sideHash(cancelled, on: .b) == planner.sideHash(b, on: .b))

        let plan = planner.plan(views: Self.views(goneA: ["a1"], b: [cancelled]), items: &items, now: Self.monday)
        let delete = try #require(plan.writes.first)
        #expect(plan.writes.count == 1 && delete.kind == .delete && delete.target == .b && delete.write.targetID == "b1")
        #expect(plan.conflicts.isEmpty)

        // A change of the series itself still wins over the deletion.
        var retimed = cancelled
        retimed.title = "Standup (moved)"
        var second = SyncItems([Self.linked(planner, a, b)])
        let back = planner.plan(views: Self.views(goneA: ["a1"], b: [retimed]), items: &second, now: Self.monday)
        #expect(back.writes.count == 1 && back.writes.first?.kind == .create && back.writes.first?.target == .a)
        #expect(back.conflicts.count == 1)
    }

    @Test("gone on both sides: the item is forgotten, its row deleted with the next save")
    func goneOnBothIsForgotten() {
        let planner = Self.planner()
        let a = Self.event("a1", "Gym"), b = Self.event("b1", "Gym")
        var items = SyncItems([Self.linked(planner, a, b, rowID: 7)])
        let plan = planner.plan(views: Self.views(goneA: ["a1"], goneB: ["b1"]), items: &items, now: Self.monday)
        #expect(plan.writes.isEmpty)
        #expect(items.pendingForgets == [7] && items[0].idA == nil && items[0].idB == nil)
        #expect(items.index(.a, "a1") == nil && items.index(.b, "b1") == nil)
    }

    @Test("a one-way pair: a change on the receiving side stays there, the state follows it")
    func oneWayReceivingSideChange() {
        let planner = Self.planner(SyncPairOptions(direction: .aToB))
        let a = Self.event("a1", "Standup"), b = Self.event("b1", "Standup")
        var items = SyncItems([Self.linked(planner, a, b)])
        var edited = b
        edited.title = "Standup (mine)"
        let plan = planner.plan(views: Self.views(b: [edited]), items: &items, now: Self.monday)
        #expect(plan.writes.isEmpty)
        #expect(items.pendingSaves == [0] && items[0].hashB == planner.sideHash(edited, on: .b))
    }

    @Test("a copy on B of A's event that the state does not link is adopted, not copied again or back")
    func copyIsAdopted() throws {
        let planner = Self.planner()
        let a = Self.event("a1", "Offsite")
        var items = SyncItems()
        // What the create on B would have written, with the id B gave it.
        guard case .create(var copy, _) = planner.create(0, from: .a, source: a, hash: try #require(planner.sideHash(a, on: .a))).write
        else {
            Issue.record("not a create")
            return
        }
        copy.id = "b9"
        let plan = planner.plan(views: Self.views(a: [a], b: [copy]), items: &items, now: Self.monday)
        #expect(items.count == 1 && items[0].idA == "a1" && items[0].idB == "b9" && items[0].origin == .a)
        // No base: the origin's version is kept, written over the copy (the same content: an equal hash).
        #expect(plan.writes.allSatisfy { $0.kind != .create })
    }

    @Test("a copy made from another calendar is never synced")
    func foreignCopyIsLeft() {
        var foreign = Self.event("b1", "Copied by 'copy'")
        foreign.origin = OriginMarker(provider: .google, account: "someone", calendarID: "elsewhere", eventID: "x", contentHash: "h")
        var items = SyncItems()
        let plan = Self.planner().plan(views: Self.views(b: [foreign]), items: &items, now: Self.monday)
        #expect(items.count == 0 && plan.writes.isEmpty)
    }

    @Test("a series whose rule the other side cannot store is not synced, with a notice")
    func unstorableRule() {
        var series = Self.event("a1", "Odd series")
        series.recurrence = Recurrence(lines: ["RRULE:FREQ=MINUTELY;COUNT=3"])
        var items = SyncItems()
        let plan = Self.planner().plan(views: Self.views(a: [series]), items: &items, now: Self.monday)
        #expect(plan.writes.isEmpty)
        #expect(plan.notices.count == 1 && plan.notices[0].contains("cannot be stored on side B"))
    }

    // MARK: occurrences

    /// A weekly series on both sides (the item linked, row 3), its occurrences at `days` (original starts).
    static func series(_ planner: SyncPlanner, edit: (inout Event) -> Void = { _ in }) -> (Sides<SeriesOnSide>, SyncItems) {
        var both = Sides(a: SeriesOnSide(master: Self.event("am", "Weekly")), b: SeriesOnSide(master: Self.event("bm", "Weekly")))
        for side in SyncSide.allCases {
            both[side].master.recurrence = Recurrence(lines: ["RRULE:FREQ=WEEKLY;COUNT=4"])
            for week in 0..<4 {
                var e = Self.event("\(side)m_\(week)", "Weekly", day: 1 + 7 * Double(week))
                e.seriesID = both[side].master.id
                e.originalStart = e.start
                if side == .a && week == 2 { edit(&e) }
                let key = SyncPlanner.key(e)
                both[side].occurrences[key] = .live(e)
                both[side].liveInWindow.insert(key)
            }
        }
        var record = Self.linked(planner, both.a.master, both.b.master, rowID: 3)
        record.seriesKey = SyncItemKind.series
        return (both, SyncItems([record]))
    }

    @Test("occurrences that follow their series on both sides: nothing to write, each one's row kept")
    func followingOccurrences() {
        let planner = Self.planner()
        let (both, items) = Self.series(planner)
        let plan = planner.planOccurrences(
            series: [0: both], stored: [:], requestedFrom: [0: [.a]], mastersWritten: Sides([]), items: items, dryRun: false,
            now: Self.monday)
        #expect(plan.writes.isEmpty && plan.conflicts.isEmpty)
        #expect(plan.rows[0]?.count == 4)
        #expect(plan.rows[0]?.allSatisfy { SyncOccurrenceRecord.isFollowsSeries($0.stateA) && $0.itemID == 3 } == true)
    }

    @Test("an occurrence moved on A since the last sync: an update of B's occurrence; moved on both: a conflict")
    func movedOccurrence() throws {
        let planner = Self.planner()
        let (both, items) = Self.series(planner) { e in
            e.start = Self.at(15, hours: 3)
            e.end = Self.at(15, hours: 4)
        }
        // As last synced: every occurrence followed its series on both sides.
        let followed = planner.planOccurrences(
            series: [0: Self.series(planner).0], stored: [:], requestedFrom: [0: [.a]], mastersWritten: Sides([]), items: items,
            dryRun: false,
            now: Self.monday)
        let stored = Dictionary(uniqueKeysWithValues: (followed.rows[0] ?? []).map { (OccurrenceKey(stored: $0.key), $0) })
        let plan = planner.planOccurrences(
            series: [0: both], stored: [0: stored], requestedFrom: [0: [.a]], mastersWritten: Sides([]), items: items, dryRun: false,
            now: Self.monday)
        let write = try #require(plan.writes.first)
        #expect(plan.writes.count == 1 && write.target == .b && write.write.targetID == "bm_2" && plan.conflicts.isEmpty)
        guard case .update(let moved, _) = write.write else {
            Issue.record("not an update: \(write.write)")
            return
        }
        #expect(moved.start == Self.at(15, hours: 3))

        var bothMoved = both
        for (key, now) in bothMoved.b.occurrences where now.event?.id == "bm_2" {
            var e = try #require(now.event)
            e.title = "Weekly (B's)"
            bothMoved.b.occurrences[key] = .live(e)
        }
        let conflicting = planner.planOccurrences(
            series: [0: bothMoved], stored: [0: stored], requestedFrom: [0: [.a, .b]], mastersWritten: Sides([]), items: items,
            dryRun: false,
            now: Self.monday)
        #expect(conflicting.conflicts.count == 1 && conflicting.writes.count == 1)
    }
}
