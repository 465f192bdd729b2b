import Foundation
import Sync

/// The sync state's operations on PostgreSQL, valid inside one `PostgresSyncStateStore.write` or `read`.
/// The statements mirror `SQLiteSyncStateTransaction`'s, on the `sync_*` tables.
struct PostgresSyncStateTransaction: SyncStateTransaction {
    let session: PostgresSession

    /// Where errors say the state is.
    static let location = "PostgreSQL sync_* tables"

    // MARK: Pairs

    func savePair(_ pair: SyncPairRecord) throws {
        try run(
            """
            INSERT INTO sync_pairs (name, side_a, side_b, options, created_at) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (name) DO UPDATE SET side_a = excluded.side_a, side_b = excluded.side_b, options = excluded.options
            """,
            [pair.name, pair.sideA, pair.sideB, pair.options, Self.time(pair.created)])
    }

    func pair(named name: String) throws -> SyncPairRecord? {
        try rows("SELECT name, side_a, side_b, options, created_at FROM sync_pairs WHERE name = $1", [name]).first.map(decodePair)
    }

    func pairs() throws -> [SyncPairRecord] {
        try rows("SELECT name, side_a, side_b, options, created_at FROM sync_pairs ORDER BY name", []).map(decodePair)
    }

    @discardableResult
    func removePair(named name: String) throws -> Bool {
        try run("DELETE FROM sync_pairs WHERE name = $1", [name]).affected > 0
    }

    // MARK: Items

    static let itemColumns = "SELECT id, pair, id_a, id_b, hash_a, hash_b, series_key, updated_at, origin FROM sync_items"

    func items(pair: String) throws -> [SyncItemRecord] {
        try rows(Self.itemColumns + " WHERE pair = $1 ORDER BY id", [pair]).map(decodeItem)
    }

    func item(pair: String, side: SyncSide, id: String) throws -> SyncItemRecord? {
        let column = side == .a ? "id_a" : "id_b"
        return try rows(Self.itemColumns + " WHERE pair = $1 AND \(column) = $2", [pair, id]).first.map(decodeItem)
    }

    @discardableResult
    func save(_ item: SyncItemRecord) throws -> SyncItemRecord {
        let values: [String?] = [
            item.idA, item.idB, item.hashA, item.hashB, item.seriesKey, Self.time(item.updated), item.origin?.rawValue, item.pair,
        ]
        var saved = item
        if let rowID = item.rowID {
            let changed = try run(
                """
                UPDATE sync_items SET id_a = $1, id_b = $2, hash_a = $3, hash_b = $4, series_key = $5, updated_at = $6, origin = $7
                WHERE pair = $8 AND id = $9
                """,
                values + [String(rowID)]
            ).affected
            guard changed == 1 else {
                throw SyncStateError(.constraint, "no item \(rowID) in pair '\(item.pair)' to update", path: Self.location)
            }
        } else {
            let inserted = try run(
                """
                INSERT INTO sync_items (id_a, id_b, hash_a, hash_b, series_key, updated_at, origin, pair)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id
                """,
                values)
            guard let id = inserted[0, "id"].flatMap({ Int64($0) }) else { throw corrupt("an inserted item's id") }
            saved.rowID = id
        }
        return saved
    }

    func item(rowID: Int64) throws -> SyncItemRecord? {
        try rows(Self.itemColumns + " WHERE id = $1", [String(rowID)]).first.map(decodeItem)
    }

    func deleteItem(rowID: Int64) throws {
        try run("DELETE FROM sync_items WHERE id = $1", [String(rowID)])
    }

    // MARK: Occurrences

    func occurrences(pair: String, itemIDs: [Int64]) throws -> [Int64: [SyncOccurrenceRecord]] {
        let ids = Set(itemIDs).sorted()
        guard !ids.isEmpty else { return [:] }
        var found: [Int64: [SyncOccurrenceRecord]] = [:]
        for id in ids { found[id] = [] }
        // One statement for all the items: an array parameter in PostgreSQL's text form.
        let list = "{" + ids.map(String.init).joined(separator: ",") + "}"
        for row in try rows(
            """
            SELECT item_id, occurrence_key, state_a, state_b, updated_at FROM sync_occurrences
            WHERE pair = $1 AND item_id = ANY ($2::bigint[]) ORDER BY item_id, occurrence_key
            """,
            [pair, list])
        {
            guard let itemID = row[0].flatMap({ Int64($0) }), let key = row[1], let a = row[2], let b = row[3],
                let updated = row[4].flatMap(Double.init)
            else { throw corrupt("a sync_occurrences row") }
            found[itemID, default: []].append(
                SyncOccurrenceRecord(itemID: itemID, key: key, stateA: a, stateB: b, updated: Date(timeIntervalSince1970: updated)))
        }
        return found
    }

    func saveOccurrences(_ records: [SyncOccurrenceRecord], pair: String) throws {
        for r in records {
            try run(
                """
                INSERT INTO sync_occurrences (pair, item_id, occurrence_key, state_a, state_b, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (pair, item_id, occurrence_key) DO UPDATE SET state_a = excluded.state_a, state_b = excluded.state_b,
                    updated_at = excluded.updated_at
                """,
                [pair, String(r.itemID), r.key, r.stateA, r.stateB, Self.time(r.updated)])
        }
    }

    func deleteOccurrences(pair: String, itemID: Int64, keys: [String]?) throws {
        guard let keys else {
            try run("DELETE FROM sync_occurrences WHERE pair = $1 AND item_id = $2", [pair, String(itemID)])
            return
        }
        for key in keys {
            try run(
                "DELETE FROM sync_occurrences WHERE pair = $1 AND item_id = $2 AND occurrence_key = $3", [pair, String(itemID), key])
        }
    }

    // MARK: Cursors

    func cursor(pair: String, side: SyncSide) throws -> SyncCursorRecord? {
        guard let row = try rows("SELECT cursor, updated_at FROM sync_cursors WHERE pair = $1 AND side = $2", [pair, side.rawValue]).first
        else { return nil }
        guard let cursor = row[0], let updated = row[1].flatMap(Double.init) else { throw corrupt("a cursor row of pair '\(pair)'") }
        return SyncCursorRecord(cursor: cursor, updated: Date(timeIntervalSince1970: updated))
    }

    func setCursor(_ cursor: String?, pair: String, side: SyncSide, at date: Date) throws {
        if let cursor {
            try run(
                """
                INSERT INTO sync_cursors (pair, side, cursor, updated_at) VALUES ($1, $2, $3, $4)
                ON CONFLICT (pair, side) DO UPDATE SET cursor = excluded.cursor, updated_at = excluded.updated_at
                """,
                [pair, side.rawValue, cursor, Self.time(date)])
        } else {
            try run("DELETE FROM sync_cursors WHERE pair = $1 AND side = $2", [pair, side.rawValue])
        }
    }

    // MARK: Runs

    func recordRun(_ run: SyncRunRecord, pair: String) throws {
        try self.run(
            """
            INSERT INTO sync_runs (pair, started_at, finished_at, outcome, counts, error) VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (pair) DO UPDATE SET started_at = excluded.started_at, finished_at = excluded.finished_at,
                outcome = excluded.outcome, counts = excluded.counts, error = excluded.error
            """,
            [pair, Self.time(run.started), Self.time(run.finished), run.outcome, run.counts, run.error])
    }

    func lastRun(pair: String) throws -> SyncRunRecord? {
        guard let row = try rows("SELECT started_at, finished_at, outcome, counts, error FROM sync_runs WHERE pair = $1", [pair]).first
        else { return nil }
        guard let started = row[0].flatMap(Double.init), let finished = row[1].flatMap(Double.init), let outcome = row[2],
            let counts = row[3]
        else { throw corrupt("the run row of pair '\(pair)'") }
        return SyncRunRecord(
            started: Date(timeIntervalSince1970: started), finished: Date(timeIntervalSince1970: finished), outcome: outcome,
            counts: counts, error: row[4])
    }

    // MARK: Conflicts

    @discardableResult
    func saveConflict(_ conflict: SyncConflictRecord) throws -> SyncConflictRecord {
        let inserted = try run(
            """
            INSERT INTO sync_conflicts (pair, item_id, detected_at, winner, reason, version_a, version_b)
            VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id
            """,
            [
                conflict.pair, conflict.itemID.map(String.init), Self.time(conflict.detected), conflict.winner.rawValue, conflict.reason,
                conflict.versionA, conflict.versionB,
            ])
        var saved = conflict
        guard let id = inserted[0, "id"].flatMap({ Int64($0) }) else { throw corrupt("an inserted conflict's id") }
        saved.rowID = id
        return saved
    }

    static let conflictColumns = "SELECT id, pair, item_id, detected_at, winner, reason, version_a, version_b FROM sync_conflicts"

    func conflicts(pair: String) throws -> [SyncConflictRecord] {
        try rows(Self.conflictColumns + " WHERE pair = $1 ORDER BY id", [pair]).map(decodeConflict)
    }

    func conflict(rowID: Int64) throws -> SyncConflictRecord? {
        try rows(Self.conflictColumns + " WHERE id = $1", [String(rowID)]).first.map(decodeConflict)
    }

    @discardableResult
    func swapWinner(ofConflict rowID: Int64, reason: String) throws -> Bool {
        let sql = "UPDATE sync_conflicts SET winner = CASE winner WHEN 'a' THEN 'b' ELSE 'a' END, reason = $1 WHERE id = $2"
        return try run(sql, [reason, String(rowID)]).affected == 1
    }

    // MARK: Statements and decoding

    @discardableResult
    private func run(_ sql: String, _ parameters: [String?]) throws -> PostgresRows {
        do {
            return try session.execute(sql, parameters)
        } catch {
            throw Self.stateError(error)
        }
    }

    private func rows(_ sql: String, _ parameters: [String?]) throws -> [[String?]] {
        try run(sql, parameters).rows
    }

    /// A time as PostgreSQL reads double precision: the shortest text that reads back as the same Double.
    static func time(_ date: Date) -> String { "\(date.timeIntervalSince1970)" }

    /// The server's refusal as the state's error: constraint violations (SQLSTATE class 23) as `.constraint`,
    /// like SQLite's.
    static func stateError(_ error: PostgresError) -> SyncStateError {
        if error.sqlState.hasPrefix("23") { return SyncStateError(.constraint, error.message, path: location) }
        return SyncStateError(.storage, error.description, path: location)
    }

    private func decodeItem(_ row: [String?]) throws -> SyncItemRecord {
        guard let rowID = row[0].flatMap({ Int64($0) }), let pair = row[1], let updated = row[7].flatMap(Double.init) else {
            throw corrupt("a sync_items row")
        }
        return SyncItemRecord(
            rowID: rowID, pair: pair, idA: row[2], idB: row[3], hashA: row[4], hashB: row[5], seriesKey: row[6],
            updated: Date(timeIntervalSince1970: updated), origin: row[8].flatMap(SyncSide.init(rawValue:)))
    }

    private func decodeConflict(_ row: [String?]) throws -> SyncConflictRecord {
        guard let rowID = row[0].flatMap({ Int64($0) }), let pair = row[1], let detected = row[3].flatMap(Double.init),
            let winner = row[4].flatMap(SyncSide.init(rawValue:)), let reason = row[5], let a = row[6], let b = row[7]
        else { throw corrupt("a sync_conflicts row") }
        return SyncConflictRecord(
            rowID: rowID, pair: pair, itemID: row[2].flatMap { Int64($0) }, detected: Date(timeIntervalSince1970: detected),
            winner: winner, reason: reason, versionA: a, versionB: b)
    }

    private func decodePair(_ row: [String?]) throws -> SyncPairRecord {
        guard let name = row[0], let sideA = row[1], let sideB = row[2], let options = row[3],
            let created = row[4].flatMap(Double.init)
        else { throw corrupt("a sync_pairs row") }
        return SyncPairRecord(name: name, sideA: sideA, sideB: sideB, options: options, created: Date(timeIntervalSince1970: created))
    }

    private func corrupt(_ what: String) -> SyncStateError {
        SyncStateError(.corrupt, "\(what) lacks a value it must have", path: Self.location)
    }
}
