import CalendarBridge
import Foundation
import Sync
import TestSupport

/// Named cases of a series' occurrences edited on both sides between two runs, on any pair of calendars
/// (`SyncModelCalendars`: in memory in SyncTests, the sandbox through the real providers in ProvidersTests).
/// Side A is Google-like (a cancelled occurrence stays listed and can be restored), side B Outlook-like (a
/// cancelled occurrence is gone for good). Each scenario returns what went wrong (empty: all held).
package struct SyncOccurrenceScenarios {
    let calendars: any SyncModelCalendars
    let directory: TemporaryDirectory
    let store: SQLiteSyncStateStore
    let engine: SyncEngine
    let options: SyncPairOptions
    var problems: [String] = []

    package init(_ calendars: any SyncModelCalendars, conflict: SyncConflictRule = .newer) async throws {
        self.calendars = calendars
        directory = try TemporaryDirectory(prefix: "calbridge-sync-occurrences")
        store = try SQLiteSyncStateStore(url: directory.url.appendingPathComponent("home").appendingPathComponent("sync.db"))
        let clock = calendars.now
        engine = SyncEngine(store: store, zone: TimeZone(identifier: "UTC")!, now: { clock })
        options = SyncPairOptions(direction: .both, conflict: conflict)
        try await store.addPair(name: "p", sideA: "a", sideB: "b", options: options, at: clock)
    }

    func endpoint(_ side: SyncSide) -> SyncEngine.Endpoint {
        SyncEngine.Endpoint(provider: calendars.provider(side), calendarID: calendars.calendar(side), accountIdentity: side == .a ? "a-id" : "b-id")
    }

    func sync() async throws -> SyncReport {
        try await engine.run(pair: "p", a: endpoint(.a), b: endpoint(.b), options: options)
    }

    mutating func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { problems.append(message()) }
    }

    var window: TimeRange { options.window(now: calendars.now, zone: TimeZone(identifier: "UTC")!).range }

    /// The live occurrences of the series titled `title` on `side`, by original start.
    func occurrences(_ side: SyncSide, _ title: String = "Weekly") async throws -> [Event] {
        let provider = calendars.provider(side), calendar = calendars.calendar(side)
        let masters = try await provider.listEvents(calendarID: calendar, range: window, expand: false)
            .filter { $0.recurrence != nil && $0.seriesID == nil && $0.title == title }
        guard let master = masters.first else { return [] }
        return try await provider.listEvents(calendarID: calendar, range: window, expand: true)
            .filter { $0.seriesID == master.id && $0.status != .cancelled }
            .sorted { Self.key($0) < Self.key($1) }
    }

    static func key(_ e: Event) -> OccurrenceKey { OccurrenceKey(e.originalStart ?? e.start) }

    /// Each live occurrence as `original start -> start`, for comparing both sides.
    func shape(_ side: SyncSide, _ title: String = "Weekly") async throws -> [String: Date] {
        var shape: [String: Date] = [:]
        for e in try await occurrences(side, title) { shape[Self.key(e).description] = e.start.instant(allDayZone: TimeZone(identifier: "UTC")!) }
        return shape
    }

    /// Syncs until a run writes nothing (at most four runs); then a run with nothing changed must take one
    /// request per side and write nothing.
    mutating func settle(_ label: String) async throws {
        var settled = false
        for _ in 0..<4 {
            let run = try await sync()
            check(run.errors.isEmpty, "\(label): errors \(run.errors.map(\.message))")
            if run.aToB.writes + run.bToA.writes == 0 {
                settled = true
                break
            }
        }
        check(settled, "\(label): the pair did not settle in four runs")
        let quiet = try await sync()
        check(quiet.requests == 2 && quiet.aToB.writes + quiet.bToA.writes == 0 && quiet.conflicts.isEmpty,
              "\(label): a run with nothing changed took \(quiet.requests) requests, \(quiet.aToB.writes + quiet.bToA.writes) writes, \(quiet.conflicts.count) conflicts")
    }

    /// A weekly series of five made on A and synced: its occurrences on A and on B.
    mutating func series() async throws -> (a: [Event], b: [Event]) {
        let zone = "Europe/Berlin"
        let start = Date(timeIntervalSince1970: (calendars.now.timeIntervalSince1970 / 3600).rounded(.down) * 3600 + 86_400)
        var weekly = Event(title: "Weekly", start: .timed(instant: start, zone: zone), end: .timed(instant: start.addingTimeInterval(3600), zone: zone))
        weekly.recurrence = Recurrence(lines: ["RRULE:FREQ=WEEKLY;COUNT=5"])
        _ = try await calendars.provider(.a).createEvent(weekly, in: calendars.calendar(.a))
        try await settle("first sync")
        let a = try await occurrences(.a), b = try await occurrences(.b)
        check(a.count == 5 && b.count == 5, "the series has \(a.count) occurrences on A and \(b.count) on B, not 5")
        return (a, b)
    }

    func move(_ side: SyncSide, _ occurrence: Event, minutes: Double) async throws {
        var moved = occurrence
        moved.start = Self.shifted(moved.start, minutes)
        moved.end = Self.shifted(moved.end, minutes)
        _ = try await calendars.provider(side).updateEvent(moved)
    }

    func cancel(_ side: SyncSide, _ occurrence: Event) async throws {
        try await calendars.provider(side).deleteEvent(id: occurrence.id, calendarID: calendars.calendar(side))
    }

    static func shifted(_ time: EventTime, _ minutes: Double) -> EventTime {
        guard case .timed(let instant, let zone) = time else { return time }
        return .timed(instant: instant.addingTimeInterval(minutes * 60), zone: zone)
    }

    static func start(_ e: Event) -> Date { e.start.instant(allDayZone: TimeZone(identifier: "UTC")!) }

    /// The same occurrence moved on both sides (B's move the later one): one conflict, won by the pair's rule
    /// (`newer`: B), the winner's time on both sides, the loser kept in the state.
    package static func sameOccurrenceMoved(_ calendars: any SyncModelCalendars, conflict: SyncConflictRule) async throws -> [String] {
        var s = try await SyncOccurrenceScenarios(calendars, conflict: conflict)
        defer { s.directory.remove() }
        let (a, b) = try await s.series()
        guard a.count == 5, b.count == 5 else { return s.problems }
        try await s.move(.a, a[2], minutes: 60)
        try await Task.sleep(for: .milliseconds(1100))  // B's edit is the newer one, to the second
        try await s.move(.b, b[2], minutes: 120)
        let run = try await s.sync()
        let winner: SyncSide = conflict == .a ? .a : .b
        s.check(run.conflicts.count == 1, "\(run.conflicts.count) conflicts reported, not 1")
        s.check(run.conflicts.first?.winner == winner, "the winner is \(run.conflicts.first?.winner.rawValue ?? "none"), not \(winner.rawValue)")
        if let c = run.conflicts.first {
            s.check(Self.start(c.a) == Self.start(a[2]).addingTimeInterval(3600), "the conflict's A version is not A's move")
            s.check(Self.start(c.b) == Self.start(b[2]).addingTimeInterval(7200), "the conflict's B version is not B's move")
        }
        let kept = try await s.store.read { try $0.conflicts(pair: "p") }
        s.check(kept.count == 1 && kept.first?.winner == winner, "\(kept.count) conflicts kept in the state")
        try await s.settle("after the conflict")
        let expected = Self.start(a[2]).addingTimeInterval(winner == .a ? 3600 : 7200)
        let shapeA = try await s.shape(.a), shapeB = try await s.shape(.b)
        s.check(shapeA == shapeB, "the sides differ: A \(shapeA), B \(shapeB)")
        s.check(shapeA[key(a[2]).description] == expected, "occurrence 3 is at \(String(describing: shapeA[key(a[2]).description])), not the winner's \(expected)")
        s.check(shapeA.count == 5, "A has \(shapeA.count) occurrences, not 5")
        return s.problems
    }

    /// Different occurrences of one series moved on each side: both moves kept on both sides, no conflict.
    package static func differentOccurrencesMoved(_ calendars: any SyncModelCalendars) async throws -> [String] {
        var s = try await SyncOccurrenceScenarios(calendars)
        defer { s.directory.remove() }
        let (a, b) = try await s.series()
        guard a.count == 5, b.count == 5 else { return s.problems }
        try await s.move(.a, a[1], minutes: 60)
        try await s.move(.b, b[3], minutes: 120)
        let run = try await s.sync()
        s.check(run.conflicts.isEmpty, "\(run.conflicts.count) conflicts reported, not 0")
        try await s.settle("after both edits")
        let shapeA = try await s.shape(.a), shapeB = try await s.shape(.b)
        s.check(shapeA == shapeB, "the sides differ: A \(shapeA), B \(shapeB)")
        s.check(shapeA[key(a[1]).description] == Self.start(a[1]).addingTimeInterval(3600), "A's move of occurrence 2 was lost")
        s.check(shapeA[key(a[3]).description] == Self.start(a[3]).addingTimeInterval(7200), "B's move of occurrence 4 was lost")
        return s.problems
    }

    /// One occurrence cancelled on one side and moved on the other. Cancelled on A (which can restore it):
    /// the move wins, as an edit wins over a deletion, and A's occurrence comes back moved; A's cancellation is
    /// the losing version of a conflict, and restoring it (`sync conflicts restore`) cancels that one occurrence
    /// again on both sides. Cancelled on B (which cannot restore a cancelled occurrence): the cancellation
    /// stands on both sides, and A's move is the losing version of a conflict, reported and kept.
    package static func cancelledAndMoved(_ calendars: any SyncModelCalendars, cancelledOn: SyncSide) async throws -> [String] {
        var s = try await SyncOccurrenceScenarios(calendars)
        defer { s.directory.remove() }
        let (a, b) = try await s.series()
        guard a.count == 5, b.count == 5 else { return s.problems }
        func occurrences(_ side: SyncSide) -> [Event] { side == .a ? a : b }
        try await s.cancel(cancelledOn, occurrences(cancelledOn)[2])
        try await s.move(cancelledOn.other, occurrences(cancelledOn.other)[2], minutes: 90)
        let run = try await s.sync()
        let moved = Self.start(a[2]).addingTimeInterval(5400)
        if cancelledOn == .a {
            s.check(
                run.conflicts.count == 1 && run.conflicts.first?.winner == .b,
                "the move is not one conflict won by B: \(run.conflicts.map(\.winner))")
            s.check(run.conflicts.first?.a.status == .cancelled, "the conflict's A version is not A's cancellation")
        } else {
            s.check(run.conflicts.count == 1 && run.conflicts.first?.winner == .b, "the cancellation is not one conflict won by B: \(run.conflicts.map(\.winner))")
            s.check(run.conflicts.first.map { Self.start($0.a) == moved } == true, "the conflict's A version is not A's move")
        }
        let kept = try await s.store.read { try $0.conflicts(pair: "p") }
        s.check(kept.count == 1, "\(kept.count) conflicts kept in the state, not 1")
        try await s.settle("after cancel and move")
        let shapeA = try await s.shape(.a), shapeB = try await s.shape(.b)
        s.check(shapeA == shapeB, "the sides differ: A \(shapeA), B \(shapeB)")
        guard cancelledOn == .a else {
            s.check(shapeA[key(a[2]).description] == nil && shapeA.count == 4, "the cancelled occurrence is not cancelled on both: \(shapeA)")
            return s.problems
        }
        s.check(shapeA[key(a[2]).description] == moved, "the moved occurrence is not on both sides: \(shapeA)")
        // A's cancellation restored: written back to that occurrence alone, then carried to B.
        guard let id = kept.first?.rowID else { return s.problems }
        let restored = try await s.engine.restoreConflict(id, pair: "p", a: s.endpoint(.a), b: s.endpoint(.b))
        s.check(restored.side == .a && restored.action == .deleted && restored.eventID == a[2].id, "the restore wrote \(restored)")
        try await s.settle("after the restore")
        var cancelled = shapeA
        cancelled[key(a[2]).description] = nil
        let restoredA = try await s.shape(.a), restoredB = try await s.shape(.b)
        s.check(restoredA == cancelled && restoredB == cancelled, "after the restore: A \(restoredA), B \(restoredB), not \(cancelled)")
        return s.problems
    }

    /// After the same occurrence moved on both sides and the pair settled, the stored occurrence state is
    /// what both sides hold: a run with nothing changed writes nothing, and a later edit of another occurrence
    /// of the same series (the series compared again) writes that one edit and nothing else: the state
    /// stored from the answer to the conflict's write (to B when A wins, to A when B wins) is what that side
    /// lists.
    package static func quietRerun(_ calendars: any SyncModelCalendars, conflict: SyncConflictRule) async throws -> [String] {
        var s = try await SyncOccurrenceScenarios(calendars, conflict: conflict)
        defer { s.directory.remove() }
        let (a, b) = try await s.series()
        guard a.count == 5, b.count == 5 else { return s.problems }
        try await s.move(.a, a[2], minutes: 60)
        try await s.move(.b, b[2], minutes: 120)
        _ = try await s.sync()
        try await s.settle("after the conflict")
        let again = try await s.occurrences(.b)
        guard again.count == 5 else { return s.problems + ["B has \(again.count) occurrences, not 5"] }
        try await s.move(.b, again[0], minutes: 30)
        let run = try await s.sync()
        s.check(run.conflicts.isEmpty, "\(run.conflicts.count) conflicts on a one-sided edit")
        s.check(run.bToA.updated == 1 && run.aToB.writes == 0, "B's one occurrence edit wrote \(run.bToA.updated) to A and \(run.aToB.writes) to B, not 1 and 0")
        try await s.settle("after the second edit")
        let shapeA = try await s.shape(.a), shapeB = try await s.shape(.b)
        s.check(shapeA == shapeB, "the sides differ: A \(shapeA), B \(shapeB)")
        return s.problems
    }

    /// An occurrence moved on B (copied to A, the original's side, as an exception there), then B's series
    /// shifted by a week and retitled (B drops a series' exceptions when its time changes, as Outlook does),
    /// then retitled again. A keeps an exception's content when its series changes (as Google does): its
    /// occurrence must follow its series all the same, titled as the series on both sides after each change
    /// and at the series' time (seed 391228 of the sandbox model).
    package static func exceptionFollowsItsSeriesAgain(_ calendars: any SyncModelCalendars) async throws -> [String] {
        var s = try await SyncOccurrenceScenarios(calendars)
        defer { s.directory.remove() }
        let (a, b) = try await s.series()
        guard a.count == 5, b.count == 5 else { return s.problems }
        try await s.move(.b, b[2], minutes: 45)
        try await s.settle("after B's move")
        for (title, days) in [("Weekly 2", 7.0), ("Weekly 3", 0)] {
            let masters = try await calendars.provider(.b).listEvents(calendarID: calendars.calendar(.b), range: s.window, expand: false)
            guard var master = masters.first(where: { $0.recurrence != nil && $0.seriesID == nil }) else { return s.problems + ["B has no series"] }
            master.title = title
            master.start = Self.shifted(master.start, days * 1440)
            master.end = Self.shifted(master.end, days * 1440)
            _ = try await calendars.provider(.b).updateEvent(master)
            try await s.settle("after B's change to \(title)")
            for side in SyncSide.allCases {
                let titles = try await s.occurrences(side, title).map(\.title)
                s.check(titles == Array(repeating: title, count: 5), "\(title): side \(side.rawValue.uppercased())'s occurrences are titled \(titles)")
            }
        }
        let shapeA = try await s.shape(.a, "Weekly 3"), shapeB = try await s.shape(.b, "Weekly 3")
        s.check(shapeA == shapeB && shapeA.count == 5, "the sides differ: A \(shapeA), B \(shapeB)")
        s.check(shapeA[key(a[2]).description] == Self.start(a[2]), "occurrence 3 is at \(String(describing: shapeA[key(a[2]).description])), not its series' time")
        return s.problems
    }

    /// Occurrence rows stored before occurrences that follow their series kept their content (state `series`
    /// alone): a run with nothing changed writes nothing and stores the content, and a later retitle of the
    /// series still reaches every occurrence on both sides.
    package static func rowsWithoutContent(_ calendars: any SyncModelCalendars) async throws -> [String] {
        var s = try await SyncOccurrenceScenarios(calendars)
        defer { s.directory.remove() }
        let (a, b) = try await s.series()
        guard a.count == 5, b.count == 5 else { return s.problems }
        func rows() async throws -> [SyncOccurrenceRecord] {
            try await s.store.read { t in
                let ids = try t.items(pair: "p").compactMap(\.rowID)
                return try t.occurrences(pair: "p", itemIDs: ids).values.flatMap { $0 }
            }
        }
        let stored = try await rows()
        s.check(stored.count == 5 && stored.allSatisfy { SyncOccurrenceRecord.followedContent($0.stateA) != nil && SyncOccurrenceRecord.followedContent($0.stateB) != nil },
                "the occurrences are not stored following their series with their content: \(stored.map { [$0.stateA, $0.stateB] })")
        try await s.store.write { t in
            for row in stored {
                try t.deleteOccurrences(pair: "p", itemID: row.itemID, keys: [row.key])
                var old = row
                old.stateA = SyncOccurrenceRecord.followsSeries
                old.stateB = SyncOccurrenceRecord.followsSeries
                try t.saveOccurrences([old], pair: "p")
            }
        }
        let masters = try await calendars.provider(.a).listEvents(calendarID: calendars.calendar(.a), range: s.window, expand: false)
        guard var master = masters.first(where: { $0.recurrence != nil && $0.seriesID == nil }) else { return s.problems + ["A has no series"] }
        master.title = "Weekly 2"
        _ = try await calendars.provider(.a).updateEvent(master)
        let run = try await s.sync()
        s.check(run.conflicts.isEmpty && run.aToB.writes == 1 && run.bToA.writes == 0, "A's retitle wrote \(run.aToB.writes) to B and \(run.bToA.writes) to A, not 1 and 0")
        try await s.settle("after A's retitle")
        for side in SyncSide.allCases {
            let titles = try await s.occurrences(side, "Weekly 2").map(\.title)
            s.check(titles == Array(repeating: "Weekly 2", count: 5), "side \(side.rawValue.uppercased())'s occurrences are titled \(titles)")
        }
        return s.problems
    }

    /// The same occurrence moved on both sides, and the write of the winner's version lands on A but its
    /// answer is lost (a run killed between the write and its state row): the next run finds both sides
    /// alike, stores that, and reports no second conflict; the one kept stays the only one.
    package static func lostAnswer(_ calendars: InMemorySyncCalendars) async throws -> [String] {
        var s = try await SyncOccurrenceScenarios(calendars)
        defer { s.directory.remove() }
        let (a, b) = try await s.series()
        guard a.count == 5, b.count == 5 else { return s.problems }
        try await s.move(.a, a[2], minutes: 60)
        try await Task.sleep(for: .milliseconds(5))
        try await s.move(.b, b[2], minutes: 120)
        await calendars.a.failWritesAfter(0, loseFirstResponse: true)
        let killed = try await s.sync()
        await calendars.a.failWritesAfter(nil)
        s.check(killed.conflicts.count == 1 && killed.bToA.failed == 1, "the killed run: \(killed.conflicts.count) conflicts, \(killed.bToA.failed) failed writes")
        let next = try await s.sync()
        s.check(next.conflicts.isEmpty, "the run after it reported \(next.conflicts.count) conflicts again")
        try await s.settle("after the lost answer")
        let kept = try await s.store.read { try $0.conflicts(pair: "p") }
        s.check(kept.count == 1, "\(kept.count) conflicts kept, not 1")
        let shapeA = try await s.shape(.a), shapeB = try await s.shape(.b)
        s.check(shapeA == shapeB && shapeA[key(a[2]).description] == Self.start(a[2]).addingTimeInterval(7200), "the sides are not both at B's move: A \(shapeA), B \(shapeB)")
        return s.problems
    }
}
