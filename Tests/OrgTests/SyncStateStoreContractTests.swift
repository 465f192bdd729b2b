import Foundation
import Sync
import TestSupport
import Testing

@testable import Org

/// One contract for every sync state store: the SQLite store of a person's `sync.db` and the PostgreSQL
/// store of an organisation pass the same tests (round trips, replacement, cascades, rollback, constraints,
/// occurrences, conflicts). PostgreSQL is real, started for the suite.
@Suite("Sync state store contract (SQLite and PostgreSQL)", .postgres)
struct SyncStateStoreContractTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// A new empty store of `kind`; `cleanup` removes what it made.
    static func store(_ kind: Kind) async throws -> (store: any SyncStateStore, cleanup: @Sendable () -> Void) {
        switch kind {
        case .sqlite:
            let temp = try TemporaryDirectory(prefix: "calbridge-contract")
            let home = temp.url.appendingPathComponent("home", isDirectory: true)
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return (try SQLiteSyncStateStore(url: home.appendingPathComponent("sync.db")), { temp.remove() })
        case .postgres:
            let connection = try await PostgresConnection(url: try await TestPostgres.database())
            try await OrgSchema.migrate(connection)
            return (PostgresSyncStateStore(connection: connection), {})
        }
    }

    /// Times with binary fractions: both stores keep seconds since 1970 exactly, but `Date` counts from 2001, and
    /// a fraction such as 1/7 does not survive Foundation's conversion between the two epochs bit for bit.
    static let when = Date(timeIntervalSince1970: 1_790_000_000.25)

    static func pair(_ name: String = "work-home") -> SyncPairRecord {
        SyncPairRecord(name: name, sideA: "work:Calendar", sideB: "home:primary", options: #"{"direction":"both"}"#, created: when)
    }

    static func item(_ n: Int, pair: String = "work-home") -> SyncItemRecord {
        SyncItemRecord(
            pair: pair, idA: "a-\(n)", idB: "b-\(n)", hashA: "ha\(n)", hashB: "hb\(n)",
            seriesKey: n % 2 == 0 ? "series-\(n)|2026-12-01T09:00:00Z" : nil, updated: when.addingTimeInterval(Double(n) / 8),
            origin: n % 2 == 0 ? .a : .b)
    }

    struct Planned: Error {}

    @Test("pairs, items, cursors and runs come back exactly as written", arguments: Kind.allCases)
    func roundTrip(kind: Kind) async throws {
        let (store, cleanup) = try await Self.store(kind)
        defer { cleanup() }
        let saved = try await store.write { tx in
            try tx.savePair(Self.pair())
            let items = try (1...3).map { try tx.save(Self.item($0)) }
            try tx.setCursor("google.v1:token-1", pair: "work-home", side: .a, at: Self.when)
            try tx.setCursor("graph.v1|x|y|link", pair: "work-home", side: .b, at: Self.when)
            try tx.recordRun(
                SyncRunRecord(started: Self.when, finished: Self.when.addingTimeInterval(2), outcome: "ok", counts: #"{"created":3}"#),
                pair: "work-home")
            return items
        }
        #expect(saved.allSatisfy { $0.rowID != nil })
        #expect(Set(saved.compactMap(\.rowID)).count == 3)
        let (pairs, items, cursorA, cursorB, run, byB, missing) = try await store.read { tx in
            (
                try tx.pairs(), try tx.items(pair: "work-home"), try tx.cursor(pair: "work-home", side: .a),
                try tx.cursor(pair: "work-home", side: .b), try tx.lastRun(pair: "work-home"),
                try tx.item(pair: "work-home", side: .b, id: "b-2"), try tx.item(pair: "work-home", side: .a, id: "b-2")
            )
        }
        #expect(pairs == [Self.pair()])
        #expect(items == saved, "items in the order first saved, every field and time exact")
        #expect(cursorA == SyncCursorRecord(cursor: "google.v1:token-1", updated: Self.when))
        #expect(cursorB?.cursor == "graph.v1|x|y|link")
        #expect(
            run == SyncRunRecord(started: Self.when, finished: Self.when.addingTimeInterval(2), outcome: "ok", counts: #"{"created":3}"#))
        #expect(byB == saved[1])
        #expect(missing == nil, "an id is looked up on its own side only")
    }

    @Test(
        "saving a pair again replaces its sides and options and keeps its items; a run and a cursor are replaced", arguments: Kind.allCases)
    func replacement(kind: Kind) async throws {
        let (store, cleanup) = try await Self.store(kind)
        defer { cleanup() }
        try await store.write { tx in
            try tx.savePair(Self.pair())
            try tx.save(Self.item(1))
            try tx.setCursor("one", pair: "work-home", side: .a, at: Self.when)
            try tx.recordRun(
                SyncRunRecord(started: Self.when, finished: Self.when, outcome: "failed", counts: "{}", error: "x"), pair: "work-home")
        }
        var edited = Self.pair()
        edited.sideB = "home:Family"
        edited.options = #"{"direction":"a-to-b"}"#
        let replacement = edited
        try await store.write { tx in
            try tx.savePair(replacement)
            try tx.setCursor("two", pair: "work-home", side: .a, at: Self.when.addingTimeInterval(5))
            try tx.recordRun(SyncRunRecord(started: Self.when, finished: Self.when, outcome: "ok", counts: "{}"), pair: "work-home")
        }
        let (pair, items, cursor, run) = try await store.read { tx in
            (
                try tx.pair(named: "work-home"), try tx.items(pair: "work-home"), try tx.cursor(pair: "work-home", side: .a),
                try tx.lastRun(pair: "work-home")
            )
        }
        #expect(pair == edited)
        #expect(items.count == 1)
        #expect(cursor == SyncCursorRecord(cursor: "two", updated: Self.when.addingTimeInterval(5)))
        #expect(run?.outcome == "ok" && run?.error == nil)
        try await store.write { tx in try tx.setCursor(nil, pair: "work-home", side: .a, at: Self.when) }
        #expect(try await store.read { tx in try tx.cursor(pair: "work-home", side: .a) } == nil)
    }

    @Test("an update changes the row in place; removing a pair removes everything of it and nothing else", arguments: Kind.allCases)
    func updateAndCascade(kind: Kind) async throws {
        let (store, cleanup) = try await Self.store(kind)
        defer { cleanup() }
        try await store.write { tx in
            try tx.savePair(Self.pair())
            try tx.savePair(Self.pair("other"))
            var item = try tx.save(Self.item(2))
            item.hashB = "changed"
            item.idA = nil
            try tx.save(item)
            let id = try #require(item.rowID)
            try tx.saveOccurrences(
                [SyncOccurrenceRecord(itemID: id, key: "k1", stateA: "series", stateB: "series", updated: Self.when)], pair: "work-home")
            try tx.saveConflict(
                SyncConflictRecord(
                    pair: "work-home", itemID: id, detected: Self.when, winner: .a, reason: "both", versionA: "A", versionB: "B"))
            try tx.save(Self.item(1, pair: "other"))
            try tx.setCursor("c", pair: "work-home", side: .a, at: Self.when)
            try tx.recordRun(SyncRunRecord(started: Self.when, finished: Self.when, outcome: "ok", counts: "{}"), pair: "work-home")
        }
        let items = try await store.read { tx in try tx.items(pair: "work-home") }
        #expect(items.count == 1 && items.first?.hashB == "changed" && items.first?.idA == nil)
        let missing = await #expect(throws: SyncStateError.self) {
            try await store.write { tx in
                var ghost = Self.item(9)
                ghost.rowID = 987_654
                try tx.save(ghost)
            }
        }
        #expect(missing?.code == .constraint, "updating an item that is not there is refused")

        #expect(try await store.write { tx in try tx.removePair(named: "work-home") })
        let (left, cursor, run, conflicts, others) = try await store.read { tx in
            (
                try tx.items(pair: "work-home"), try tx.cursor(pair: "work-home", side: .a), try tx.lastRun(pair: "work-home"),
                try tx.conflicts(pair: "work-home"), try tx.items(pair: "other")
            )
        }
        #expect(left.isEmpty && cursor == nil && run == nil && conflicts.isEmpty)
        #expect(others.count == 1, "the other pair keeps its items")
        #expect(try await store.write { tx in try tx.removePair(named: "work-home") } == false)
    }

    @Test("a transaction that throws leaves nothing behind; constraint failures are typed", arguments: Kind.allCases)
    func rollback(kind: Kind) async throws {
        let (store, cleanup) = try await Self.store(kind)
        defer { cleanup() }
        try await store.write { tx in try tx.savePair(Self.pair()) }
        await #expect(throws: Planned.self) {
            try await store.write { tx in
                try tx.save(Self.item(1))
                try tx.setCursor("new", pair: "work-home", side: .a, at: Self.when)
                throw Planned()
            }
        }
        #expect(try await store.read { tx in try tx.items(pair: "work-home") }.isEmpty)
        #expect(try await store.read { tx in try tx.cursor(pair: "work-home", side: .a) } == nil)

        let twice = await #expect(throws: SyncStateError.self) {
            try await store.write { tx in
                try tx.save(Self.item(1))
                try tx.save(Self.item(1))  // the same id on side A twice
            }
        }
        #expect(twice?.code == .constraint)
        #expect(try await store.read { tx in try tx.items(pair: "work-home") }.isEmpty, "the first save rolled back too")
        let orphan = await #expect(throws: SyncStateError.self) {
            try await store.write { tx in try tx.save(Self.item(1, pair: "no-such-pair")) }
        }
        #expect(orphan?.code == .constraint, "an item needs its pair")
        // The store is usable after a failure.
        _ = try await store.write { tx in try tx.save(Self.item(1)) }
        #expect(try await store.read { tx in try tx.items(pair: "work-home") }.count == 1)
    }

    @Test("occurrences: saved per item and key, replaced, deleted by key or all, gone with their item", arguments: Kind.allCases)
    func occurrences(kind: Kind) async throws {
        let (store, cleanup) = try await Self.store(kind)
        defer { cleanup() }
        let (first, second) = try await store.write { tx in
            try tx.savePair(Self.pair())
            return (try tx.save(Self.item(2)), try tx.save(Self.item(4)))
        }
        let a = try #require(first.rowID), b = try #require(second.rowID)
        @Sendable func occurrence(_ item: Int64, _ key: String, _ state: String) -> SyncOccurrenceRecord {
            SyncOccurrenceRecord(itemID: item, key: key, stateA: state, stateB: "series", updated: Self.when)
        }
        try await store.write { tx in
            try tx.saveOccurrences(
                [occurrence(a, "2026-12-02", "h1"), occurrence(a, "2026-12-01", "cancelled"), occurrence(b, "x", "h2")], pair: "work-home")
            try tx.saveOccurrences([occurrence(a, "2026-12-02", "h1-edited")], pair: "work-home")
        }
        let all = try await store.read { tx in try tx.occurrences(pair: "work-home", itemIDs: [b, a, a]) }
        #expect(
            all[a] == [occurrence(a, "2026-12-01", "cancelled"), occurrence(a, "2026-12-02", "h1-edited")], "by key, replaced in place")
        #expect(all[b] == [occurrence(b, "x", "h2")])
        #expect(try await store.read { tx in try tx.occurrences(pair: "work-home", itemIDs: []) }.isEmpty)

        try await store.write { tx in try tx.deleteOccurrences(pair: "work-home", itemID: a, keys: ["2026-12-01"]) }
        #expect(try await store.read { tx in try tx.occurrences(pair: "work-home", itemIDs: [a]) }[a]?.map(\.key) == ["2026-12-02"])
        try await store.write { tx in try tx.deleteOccurrences(pair: "work-home", itemID: a) }
        #expect(try await store.read { tx in try tx.occurrences(pair: "work-home", itemIDs: [a]) }[a] ?? [] == [])
        try await store.write { tx in try tx.deleteItem(rowID: b) }
        #expect(try await store.read { tx in try tx.occurrences(pair: "work-home", itemIDs: [b]) }[b] ?? [] == [])
    }

    @Test("conflicts: kept oldest first with ids; an item's deletion keeps the conflict without its item", arguments: Kind.allCases)
    func conflicts(kind: Kind) async throws {
        let (store, cleanup) = try await Self.store(kind)
        defer { cleanup() }
        let saved = try await store.write { tx in
            try tx.savePair(Self.pair())
            let item = try tx.save(Self.item(1))
            return try (0..<3).map { n in
                try tx.saveConflict(
                    SyncConflictRecord(
                        pair: "work-home", itemID: n == 2 ? nil : item.rowID, detected: Self.when.addingTimeInterval(Double(n)),
                        winner: n == 1 ? .b : .a, reason: "edited on both sides \(n)", versionA: #"{"title":"A\#(n)"}"#,
                        versionB: #"{"title":"B\#(n)"}"#))
            }
        }
        #expect(Set(saved.compactMap(\.rowID)).count == 3)
        #expect(try await store.read { tx in try tx.conflicts(pair: "work-home") } == saved)
        let itemID = try #require(saved[0].itemID)
        try await store.write { tx in try tx.deleteItem(rowID: itemID) }
        let after = try await store.read { tx in try tx.conflicts(pair: "work-home") }
        #expect(after.count == 3 && after.allSatisfy { $0.itemID == nil })
    }

    @Test(
        "by id: an item and a conflict are found whatever their pair; swapping a conflict's winner keeps both versions",
        arguments: Kind.allCases)
    func lookupsByID(kind: Kind) async throws {
        let (store, cleanup) = try await Self.store(kind)
        defer { cleanup() }
        let (item, conflict, other) = try await store.write { tx in
            try tx.savePair(Self.pair())
            try tx.savePair(Self.pair("other"))
            let item = try tx.save(Self.item(3))
            let conflict = try tx.saveConflict(
                SyncConflictRecord(
                    pair: "work-home", itemID: item.rowID, detected: Self.when, winner: .a, reason: "edited on both sides",
                    versionA: #"{"title":"A"}"#, versionB: #"{"title":"B"}"#))
            let other = try tx.saveConflict(
                SyncConflictRecord(
                    pair: "other", itemID: nil, detected: Self.when, winner: .b, reason: "deleted on A", versionA: "{}", versionB: "{}"))
            return (item, conflict, other)
        }
        let itemID = try #require(item.rowID), conflictID = try #require(conflict.rowID), otherID = try #require(other.rowID)
        let (foundItem, foundConflict, foundOther, noItem, noConflict) = try await store.read { tx in
            (
                try tx.item(rowID: itemID), try tx.conflict(rowID: conflictID), try tx.conflict(rowID: otherID),
                try tx.item(rowID: itemID + 1000), try tx.conflict(rowID: otherID + 1000)
            )
        }
        #expect(foundItem == item)
        #expect(foundConflict == conflict)
        #expect(foundOther == other, "a conflict of another pair is found by its id")
        #expect(noItem == nil && noConflict == nil)

        #expect(try await store.write { tx in try tx.swapWinner(ofConflict: conflictID, reason: "restored onto B") })
        let swapped = try #require(try await store.read { tx in try tx.conflict(rowID: conflictID) })
        var expected = conflict
        expected.winner = .b
        expected.reason = "restored onto B"
        #expect(swapped == expected, "only the winner and the reason change")
        #expect(try await store.write { tx in try tx.swapWinner(ofConflict: conflictID, reason: "back") })
        #expect(try await store.read { tx in try tx.conflict(rowID: conflictID) }?.winner == .a, "a second swap restores the first winner")
        #expect(try await store.read { tx in try tx.conflict(rowID: otherID) } == other, "the other pair's conflict is untouched")
        #expect(try await store.write { tx in try tx.swapWinner(ofConflict: otherID + 1000, reason: "x") } == false)
    }

    @Test("the engine's pair operations work on both: add, ensure, list, remove")
    func pairOperations() async throws {
        for kind in Kind.allCases {
            let (store, cleanup) = try await Self.store(kind)
            defer { cleanup() }
            try await store.addPair(name: "p", sideA: "a:x", sideB: "b:y", options: SyncPairOptions(direction: .both), at: Self.when)
            await #expect(throws: SyncError.self) {
                try await store.addPair(name: "p", sideA: "a:x", sideB: "b:y", options: SyncPairOptions(direction: .both), at: Self.when)
            }
            #expect(try await store.pairs().map(\.name) == ["p"], "\(kind)")
            try await store.removePair(named: "p")
            #expect(try await store.pairs().isEmpty, "\(kind)")
        }
    }
}
