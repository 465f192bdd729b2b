import Accounts
import CalbridgeSupport
import Foundation
import Testing
import TestSupport

@testable import Sync

/// `sync.db`: round trips, transactions, file checks and several connections on one file.
@Suite("Sync state store")
struct SyncStateStoreTests {
    static let when = Date(timeIntervalSince1970: 1_790_000_000)

    static func pair(_ name: String = "work-home") -> SyncPairRecord {
        SyncPairRecord(name: name, sideA: "work:Calendar", sideB: "home:primary", options: #"{"direction":"both"}"#, created: when)
    }

    static func item(_ n: Int, pair: String = "work-home") -> SyncItemRecord {
        SyncItemRecord(pair: pair, idA: "a-\(n)", idB: "b-\(n)", hashA: "ha\(n)", hashB: "hb\(n)",
                       seriesKey: n % 2 == 0 ? "series-\(n)|2026-12-01T09:00:00Z" : nil, updated: when)
    }

    /// A 0700 directory inside the temporary one (the store refuses a directory others can read).
    static func home(_ temp: TemporaryDirectory) throws -> URL {
        let url = temp.url.appendingPathComponent("home", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return url
    }

    @Test("pairs, items, cursors and runs come back as written after reopening; file 0600, dir 0700, WAL")
    func roundTrip() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        let store = try SQLiteSyncStateStore(url: home.syncDatabase)
        let saved = try await store.write { tx in
            try tx.savePair(Self.pair())
            let items = try (1...3).map { try tx.save(Self.item($0)) }
            try tx.setCursor("google.v1:token-1", pair: "work-home", side: .a, at: Self.when)
            try tx.setCursor("graph.v1|x|y|link", pair: "work-home", side: .b, at: Self.when)
            try tx.recordRun(SyncRunRecord(started: Self.when, finished: Self.when.addingTimeInterval(2), outcome: "ok",
                                           counts: #"{"created":3}"#), pair: "work-home")
            return items
        }
        #expect(saved.allSatisfy { $0.rowID != nil })

        let reopened = try SQLiteSyncStateStore(url: home.syncDatabase)
        let (pairs, items, cursorA, cursorB, run, byB) = try await reopened.read { tx in
            (try tx.pairs(), try tx.items(pair: "work-home"), try tx.cursor(pair: "work-home", side: .a),
             try tx.cursor(pair: "work-home", side: .b), try tx.lastRun(pair: "work-home"),
             try tx.item(pair: "work-home", side: .b, id: "b-2"))
        }
        #expect(pairs == [Self.pair()])
        #expect(items == saved)
        #expect(cursorA == SyncCursorRecord(cursor: "google.v1:token-1", updated: Self.when))
        #expect(cursorB?.cursor == "graph.v1|x|y|link")
        #expect(run?.outcome == "ok" && run?.counts == #"{"created":3}"# && run?.error == nil)
        #expect(byB == saved[1])

        let attributes = try FileManager.default.attributesOfItem(atPath: home.syncDatabase.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let directory = try FileManager.default.attributesOfItem(atPath: home.directory.path)
        #expect((directory[.posixPermissions] as? Int) == 0o700)
        let wal = home.syncDatabase.path + "-wal"
        #expect(FileManager.default.fileExists(atPath: wal), "WAL mode keeps a -wal file beside the database")
        #expect((try FileManager.default.attributesOfItem(atPath: wal)[.posixPermissions] as? Int) == 0o600)
    }

    @Test("an update changes the row in place; removing a pair removes its items, cursors and run")
    func updateAndCascade() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let store = try SQLiteSyncStateStore(url: try Self.home(temp).appendingPathComponent("sync.db"))
        try await store.write { tx in
            try tx.savePair(Self.pair())
            try tx.savePair(Self.pair("other"))
            var item = try tx.save(Self.item(1))
            item.hashB = "changed"
            item.idA = nil
            try tx.save(item)
            try tx.save(Self.item(1, pair: "other"))
            try tx.setCursor("c", pair: "work-home", side: .a, at: Self.when)
            try tx.recordRun(SyncRunRecord(started: Self.when, finished: Self.when, outcome: "failed", counts: "{}",
                                           error: "account 'work': sign in again"), pair: "work-home")
        }
        let item = try await store.read { tx in try tx.items(pair: "work-home") }
        #expect(item.count == 1 && item.first?.hashB == "changed" && item.first?.idA == nil)
        #expect(try await store.read { tx in try tx.lastRun(pair: "work-home")?.error } == "account 'work': sign in again")
        let removed = try await store.write { tx in try tx.removePair(named: "work-home") }
        #expect(removed)
        let (items, cursor, run, others) = try await store.read { tx in
            (try tx.items(pair: "work-home"), try tx.cursor(pair: "work-home", side: .a), try tx.lastRun(pair: "work-home"),
             try tx.items(pair: "other"))
        }
        #expect(items.isEmpty && cursor == nil && run == nil)
        #expect(others.count == 1, "the other pair keeps its items")
        #expect(try await store.write { tx in try tx.removePair(named: "work-home") } == false)
    }

    @Test("a damaged file, another program's database and a newer schema are clear errors naming the file")
    func refusedFiles() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let garbage = try Self.home(temp).appendingPathComponent("garbage.db")
        try Data(repeating: 0x5A, count: 8192).write(to: garbage)
        let notADatabase = #expect(throws: SyncStateError.self) { try SQLiteSyncStateStore(url: garbage) }
        #expect(notADatabase?.code == .corrupt)
        #expect(notADatabase?.description.contains(garbage.path) == true)
        #expect(notADatabase?.description.contains("move the file away") == true)

        let foreign = try Self.home(temp).appendingPathComponent("foreign.db")
        do {
            let other = try SQLiteConnection(path: foreign.path, create: true, busyTimeout: .seconds(1))
            try other.execute("CREATE TABLE songs (title TEXT)")
        }
        #expect(throws: SyncStateError.self) { try SQLiteSyncStateStore(url: foreign) }
        #expect((try? SQLiteSyncStateStore(url: foreign)) == nil)
        let foreignError = #expect(throws: SyncStateError.self) { try SQLiteSyncStateStore(url: foreign) }
        #expect(foreignError?.code == .foreign)

        let newer = try Self.home(temp).appendingPathComponent("newer.db")
        _ = try SQLiteSyncStateStore(url: newer)
        do {
            let raw = try SQLiteConnection(path: newer.path, create: false, busyTimeout: .seconds(1))
            try raw.execute("PRAGMA user_version = 99")
        }
        let newerError = #expect(throws: SyncStateError.self) { try SQLiteSyncStateStore(url: newer) }
        #expect(newerError?.code == .newerSchema)

        // A row damaged by hand (text where a time must be; column affinity cannot stop it) is .corrupt, not a crash.
        let damaged = try Self.home(temp).appendingPathComponent("damaged.db")
        let store = try SQLiteSyncStateStore(url: damaged)
        try await store.write { tx in try tx.savePair(Self.pair()) }
        do {
            let raw = try SQLiteConnection(path: damaged.path, create: false, busyTimeout: .seconds(1))
            try raw.execute("UPDATE pairs SET created_at = 'yesterday'")
        }
        let rowError = await #expect(throws: SyncStateError.self) { try await store.read { tx in try tx.pairs() } }
        #expect(rowError?.code == .corrupt)
    }

    @Test("a second connection waits for the first one's write lock (busy timeout), and fails busy past it")
    func busyTimeout() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let url = try Self.home(temp).appendingPathComponent("sync.db")
        let store = try SQLiteSyncStateStore(url: url, busyTimeout: .milliseconds(200))
        try await store.write { tx in try tx.savePair(Self.pair()) }
        // Another process stands for itself here with its own connection (SQLite locks the file alike).
        let other = try SQLiteConnection(path: url.path, create: false, busyTimeout: .seconds(1))
        try other.execute("BEGIN IMMEDIATE")
        let started = ContinuousClock.now
        let busy = await #expect(throws: SyncStateError.self) {
            try await store.write { tx in try tx.save(Self.item(1)) }
        }
        #expect(busy?.code == .busy)
        #expect(ContinuousClock.now - started >= .milliseconds(150), "it waited for the lock first")
        // Readers are not blocked by a writer in WAL mode.
        #expect(try await store.read { tx in try tx.pairs().count } == 1)
        try other.execute("COMMIT")
        _ = try await store.write { tx in try tx.save(Self.item(1)) }
        #expect(try await store.read { tx in try tx.items(pair: "work-home").count } == 1)
    }

    @Test("two stores on one file write concurrently without losing a write")
    func concurrentWriters() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let url = try Self.home(temp).appendingPathComponent("sync.db")
        let first = try SQLiteSyncStateStore(url: url)
        let second = try SQLiteSyncStateStore(url: url)
        try await first.write { tx in try tx.savePair(Self.pair()) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (offset, store) in [first, second].enumerated() {
                group.addTask {
                    for n in 0..<50 {
                        try await store.write { tx in
                            // Read-modify-write: a lost update would show as a wrong count below.
                            let count = try tx.items(pair: "work-home").count
                            try tx.save(SyncItemRecord(pair: "work-home", idA: "w\(offset)-\(n)", idB: nil, hashA: "\(count)",
                                                       hashB: nil, updated: Self.when))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let items = try await first.read { tx in try tx.items(pair: "work-home") }
        #expect(items.count == 100)
        #expect(Set(items.compactMap(\.hashA)) == Set((0..<100).map(String.init)), "every write saw the one before it")
    }

    @Test("stores opening a new file at once all open it (none refused as busy) and create the schema once")
    func concurrentCreation() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = try Self.home(temp)
        // Each round a new file, four stores opening it on threads of their own (not the cooperative pool,
        // whose two threads would take them in turns): without the retried switch to WAL, one of them is
        // often refused as busy.
        for round in 0..<20 {
            let url = home.appendingPathComponent("sync-\(round).db")
            let opened = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let store = try await blocking { try SQLiteSyncStateStore(url: url) }
                        return try await store.read { tx in try tx.pairs().count }
                    }
                }
                var counts: [Int] = []
                for try await count in group { counts.append(count) }
                return counts
            }
            #expect(opened == [0, 0, 0, 0], "round \(round)")
        }
    }

    static let python = "/usr/bin/python3"

    @Test("another process's write lock: a store waits for it within its busy timeout and fails busy past it",
          .enabled(if: FileManager.default.isExecutableFile(atPath: python), "needs /usr/bin/python3 (its sqlite3 module)"))
    func otherProcess() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let url = try Self.home(temp).appendingPathComponent("sync.db")
        let patient = try SQLiteSyncStateStore(url: url, busyTimeout: .seconds(20))
        let impatient = try SQLiteSyncStateStore(url: url, busyTimeout: .milliseconds(100))
        try await patient.write { tx in try tx.savePair(Self.pair()) }

        // A separate process takes the write lock, says so, holds it for a second, and commits a pair.
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = ["-c", """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("BEGIN IMMEDIATE")
            c.execute("INSERT INTO pairs (name, side_a, side_b, options, created_at) VALUES ('from-python', 'a:x', 'b:y', '{}', 0)")
            print("locked", flush=True)
            time.sleep(1.0)
            c.execute("COMMIT")
            """, url.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let line = output.fileHandleForReading.availableData
        #expect(String(decoding: line, as: UTF8.self).hasPrefix("locked"))

        let busy = await #expect(throws: SyncStateError.self) {
            try await impatient.write { tx in try tx.save(Self.item(1)) }
        }
        #expect(busy?.code == .busy)
        let started = ContinuousClock.now
        _ = try await patient.write { tx in try tx.save(Self.item(1)) }
        #expect(ContinuousClock.now - started >= .milliseconds(300), "it waited for the other process")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let names = try await patient.read { tx in try tx.pairs().map(\.name) }
        #expect(names == ["from-python", "work-home"], "both processes' writes are there")
    }

    @Test("a version 1 file is migrated to the current version: its rows stay, items gain an origin, conflicts are kept")
    func migratesVersion1() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let url = try Self.home(temp).appendingPathComponent("v1.db")
        do {
            let raw = try SQLiteConnection(path: url.path, create: true, busyTimeout: .seconds(1))
            try raw.execute(SyncStateSchema.migrations[0])
            try raw.execute("PRAGMA application_id = \(SyncStateSchema.applicationID); PRAGMA user_version = 1")
            try raw.execute(
                "INSERT INTO pairs VALUES ('old', 'a:x', 'b:y', '{}', 0); INSERT INTO items (pair, id_a, id_b, updated_at) VALUES ('old', 'e1', 'f1', 0)")
        }
        let store = try SQLiteSyncStateStore(url: url)
        let items = try await store.read { tx in try tx.items(pair: "old") }
        #expect(items.count == 1 && items.first?.idA == "e1" && items.first?.origin == nil)
        let version = try SQLiteConnection(path: url.path, create: false, busyTimeout: .seconds(1)).rows("PRAGMA user_version").first?.integer(0)
        #expect(version == SyncStateSchema.currentVersion)
        let itemID = items.first?.rowID
        try await store.write { tx in
            var item = items[0]
            item.origin = .b
            try tx.save(item)
            try tx.saveConflict(
                SyncConflictRecord(pair: "old", itemID: itemID, detected: Self.when, winner: .a, reason: "--conflict a", versionA: "{}", versionB: #"{"title":"lost"}"#))
        }
        let conflicts = try await store.read { tx in try tx.conflicts(pair: "old") }
        #expect(conflicts.map(\.versionB) == [#"{"title":"lost"}"#])
        #expect(try await store.read { tx in try tx.items(pair: "old").first?.origin } == .b)
    }

    @Test("a version 2 file is migrated to version 3: items, cursors and conflicts stay; occurrences are stored per series and go with their item")
    func migratesVersion2() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let url = try Self.home(temp).appendingPathComponent("v2.db")
        do {
            let raw = try SQLiteConnection(path: url.path, create: true, busyTimeout: .seconds(1))
            try raw.execute(SyncStateSchema.migrations[0])
            try raw.execute(SyncStateSchema.migrations[1])
            try raw.execute("PRAGMA application_id = \(SyncStateSchema.applicationID); PRAGMA user_version = 2")
            try raw.execute(
                """
                INSERT INTO pairs VALUES ('old', 'a:x', 'b:y', '{}', 0);
                INSERT INTO items (pair, id_a, id_b, hash_a, hash_b, series_key, updated_at, origin) VALUES ('old', 'm1', 'n1', 'ha', 'hb', 'series', 0, 'a');
                INSERT INTO cursors VALUES ('old', 'a', 'google.v1:t', 0);
                INSERT INTO conflicts (pair, item_id, detected_at, winner, reason, version_a, version_b) VALUES ('old', 1, 0, 'b', 'newer', '{}', '{}');
                """)
        }
        let store = try SQLiteSyncStateStore(url: url)
        let version = try SQLiteConnection(path: url.path, create: false, busyTimeout: .seconds(1)).rows("PRAGMA user_version").first?.integer(0)
        #expect(version == 3)
        let items = try await store.read { tx in try tx.items(pair: "old") }
        #expect(items.count == 1 && items.first?.idA == "m1" && items.first?.hashB == "hb" && items.first?.origin == .a && items.first?.seriesKey == "series")
        #expect(try await store.read { tx in try tx.cursor(pair: "old", side: .a)?.cursor } == "google.v1:t")
        #expect(try await store.read { tx in try tx.conflicts(pair: "old").count } == 1)
        let itemID = try #require(items.first?.rowID)
        #expect(try await store.read { tx in try tx.occurrences(pair: "old", itemIDs: [itemID]) } == [itemID: []], "a migrated series has no stored occurrences")

        let rows = [
            SyncOccurrenceRecord(itemID: itemID, key: "at:1796212800000", stateA: SyncOccurrenceRecord.followsSeries, stateB: SyncOccurrenceRecord.followsSeries, updated: Self.when),
            SyncOccurrenceRecord(itemID: itemID, key: "at:1796817600000", stateA: "aa11", stateB: SyncOccurrenceRecord.cancelled, updated: Self.when),
        ]
        try await store.write { tx in try tx.saveOccurrences(rows, pair: "old") }
        #expect(try await store.read { tx in try tx.occurrences(pair: "old", itemIDs: [itemID])[itemID] } == rows)
        var changed = rows[1]
        changed.stateB = "bb22"
        let moved = changed
        try await store.write { tx in try tx.saveOccurrences([moved], pair: "old") }
        #expect(try await store.read { tx in try tx.occurrences(pair: "old", itemIDs: [itemID])[itemID] } == [rows[0], moved], "saved again: replaced, not added")
        try await store.write { tx in try tx.deleteOccurrences(pair: "old", itemID: itemID, keys: [rows[0].key]) }
        #expect(try await store.read { tx in try tx.occurrences(pair: "old", itemIDs: [itemID])[itemID] } == [moved])
        try await store.write { tx in try tx.deleteItem(rowID: itemID) }
        #expect(try await store.read { tx in try tx.occurrences(pair: "old", itemIDs: [itemID])[itemID] } == [], "forgetting the item forgets its occurrences")
    }

    @Test("an occurrence's stored state: following its series with its content or without (rows from before), cancelled, or an exception's hash")
    func occurrenceStates() {
        let content = String(repeating: "ab", count: 32)
        let following = SyncOccurrenceRecord.followsSeries(content: content)
        #expect(following == "series:" + content)
        #expect(SyncOccurrenceRecord.isFollowsSeries(following) && SyncOccurrenceRecord.followedContent(following) == content)
        #expect(SyncOccurrenceRecord.isFollowsSeries(SyncOccurrenceRecord.followsSeries) && SyncOccurrenceRecord.followedContent(SyncOccurrenceRecord.followsSeries) == nil)
        for other in [SyncOccurrenceRecord.cancelled, content, "seriesx", "serie", ""] {
            #expect(!SyncOccurrenceRecord.isFollowsSeries(other) && SyncOccurrenceRecord.followedContent(other) == nil, "\(other)")
        }
    }
}
