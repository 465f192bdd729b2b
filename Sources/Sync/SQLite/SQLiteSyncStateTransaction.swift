import Foundation

/// The state's operations on SQLite, valid inside one `SQLiteSyncStateStore.write` or `read` call (do not keep it).
///
/// Every value read from the file is checked: a row that lacks what it must have is `.corrupt`, never a crash.
public struct SQLiteSyncStateTransaction: SyncStateTransaction {
    let connection: SQLiteConnection

    // MARK: Pairs

    /// Adds the pair, or replaces its calendars and options (its items, cursors and runs stay).
    public func savePair(_ pair: SyncPairRecord) throws {
        try connection.run(
            """
            INSERT INTO pairs (name, side_a, side_b, options, created_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(name) DO UPDATE SET side_a = excluded.side_a, side_b = excluded.side_b, options = excluded.options
            """,
            [.text(pair.name), .text(pair.sideA), .text(pair.sideB), .text(pair.options), .real(pair.created.timeIntervalSince1970)])
    }

    public func pair(named name: String) throws -> SyncPairRecord? {
        try connection.rows("SELECT name, side_a, side_b, options, created_at FROM pairs WHERE name = ?", [.text(name)])
            .first.map(decodePair)
    }

    /// Every pair, by name.
    public func pairs() throws -> [SyncPairRecord] {
        try connection.rows("SELECT name, side_a, side_b, options, created_at FROM pairs ORDER BY name").map(decodePair)
    }

    /// Removes the pair with its items, cursors and last run. Returns false when there was none.
    @discardableResult
    public func removePair(named name: String) throws -> Bool {
        try connection.run("DELETE FROM pairs WHERE name = ?", [.text(name)]) > 0
    }

    // MARK: Items

    /// Every item of a pair, in the order they were first saved.
    public func items(pair: String) throws -> [SyncItemRecord] {
        try connection.rows(Self.itemColumns + " WHERE pair = ? ORDER BY id", [.text(pair)]).map(decodeItem)
    }

    /// The item holding an event id on one side.
    public func item(pair: String, side: SyncSide, id: String) throws -> SyncItemRecord? {
        let column = side == .a ? "id_a" : "id_b"
        return try connection.rows(Self.itemColumns + " WHERE pair = ? AND \(column) = ?", [.text(pair), .text(id)])
            .first.map(decodeItem)
    }

    /// Inserts the item (no `rowID`) or updates it; returns it with its `rowID`.
    /// - Throws: `.constraint` when another item of the pair already holds one of its ids.
    @discardableResult
    public func save(_ item: SyncItemRecord) throws -> SyncItemRecord {
        let values: [SQLiteValue] = [
            .optional(item.idA), .optional(item.idB), .optional(item.hashA), .optional(item.hashB),
            .optional(item.seriesKey), .real(item.updated.timeIntervalSince1970), .optional(item.origin?.rawValue),
        ]
        var saved = item
        if let rowID = item.rowID {
            let changed = try connection.run(
                "UPDATE items SET id_a = ?, id_b = ?, hash_a = ?, hash_b = ?, series_key = ?, updated_at = ?, origin = ? WHERE id = ? AND pair = ?",
                values + [.integer(rowID), .text(item.pair)])
            guard changed == 1 else {
                throw SyncStateError(.constraint, "no item \(rowID) in pair '\(item.pair)' to update", path: connection.path)
            }
        } else {
            try connection.run(
                "INSERT INTO items (id_a, id_b, hash_a, hash_b, series_key, updated_at, origin, pair) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                values + [.text(item.pair)])
            saved.rowID = connection.lastInsertRowID
        }
        return saved
    }

    /// The item stored under `rowID`, if it is still there.
    public func item(rowID: Int64) throws -> SyncItemRecord? {
        try connection.rows(Self.itemColumns + " WHERE id = ?", [.integer(rowID)]).first.map(decodeItem)
    }

    /// Forgets an item (after its event is gone on both sides).
    public func deleteItem(rowID: Int64) throws {
        try connection.run("DELETE FROM items WHERE id = ?", [.integer(rowID)])
    }

    // MARK: Occurrences

    /// The stored occurrences of the given items of a pair (series), by item.
    public func occurrences(pair: String, itemIDs: [Int64]) throws -> [Int64: [SyncOccurrenceRecord]] {
        var found: [Int64: [SyncOccurrenceRecord]] = [:]
        for itemID in Set(itemIDs).sorted() {
            found[itemID] = try connection.rows(
                "SELECT occurrence_key, state_a, state_b, updated_at FROM occurrences WHERE pair = ? AND item_id = ? ORDER BY occurrence_key",
                [.text(pair), .integer(itemID)]
            ).map { row in
                guard let key = row.text(0), let a = row.text(1), let b = row.text(2), let updated = row.real(3) else {
                    throw corrupt("an occurrences row")
                }
                return SyncOccurrenceRecord(itemID: itemID, key: key, stateA: a, stateB: b, updated: Date(timeIntervalSince1970: updated))
            }
        }
        return found
    }

    /// Stores occurrences (replacing the rows of the same item and key).
    public func saveOccurrences(_ records: [SyncOccurrenceRecord], pair: String) throws {
        for r in records {
            try connection.run(
                """
                INSERT INTO occurrences (pair, item_id, occurrence_key, state_a, state_b, updated_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(pair, item_id, occurrence_key) DO UPDATE SET state_a = excluded.state_a, state_b = excluded.state_b,
                    updated_at = excluded.updated_at
                """,
                [.text(pair), .integer(r.itemID), .text(r.key), .text(r.stateA), .text(r.stateB), .real(r.updated.timeIntervalSince1970)])
        }
    }

    /// Forgets occurrences of an item: the given keys, or (nil) all of them.
    public func deleteOccurrences(pair: String, itemID: Int64, keys: [String]? = nil) throws {
        guard let keys else {
            try connection.run("DELETE FROM occurrences WHERE pair = ? AND item_id = ?", [.text(pair), .integer(itemID)])
            return
        }
        for key in keys {
            try connection.run(
                "DELETE FROM occurrences WHERE pair = ? AND item_id = ? AND occurrence_key = ?", [.text(pair), .integer(itemID), .text(key)])
        }
    }

    // MARK: Cursors

    public func cursor(pair: String, side: SyncSide) throws -> SyncCursorRecord? {
        guard let row = try connection.rows(
            "SELECT cursor, updated_at FROM cursors WHERE pair = ? AND side = ?", [.text(pair), .text(side.rawValue)]).first
        else { return nil }
        guard let cursor = row.text(0), let updated = row.real(1) else { throw corrupt("a cursor row of pair '\(pair)'") }
        return SyncCursorRecord(cursor: cursor, updated: Date(timeIntervalSince1970: updated))
    }

    /// Stores a side's cursor, or forgets it (nil: the next read is a full one).
    public func setCursor(_ cursor: String?, pair: String, side: SyncSide, at date: Date) throws {
        if let cursor {
            try connection.run(
                """
                INSERT INTO cursors (pair, side, cursor, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT(pair, side) DO UPDATE SET cursor = excluded.cursor, updated_at = excluded.updated_at
                """,
                [.text(pair), .text(side.rawValue), .text(cursor), .real(date.timeIntervalSince1970)])
        } else {
            try connection.run("DELETE FROM cursors WHERE pair = ? AND side = ?", [.text(pair), .text(side.rawValue)])
        }
    }

    // MARK: Runs

    public func recordRun(_ run: SyncRunRecord, pair: String) throws {
        try connection.run(
            """
            INSERT INTO runs (pair, started_at, finished_at, outcome, counts, error) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(pair) DO UPDATE SET started_at = excluded.started_at, finished_at = excluded.finished_at,
                outcome = excluded.outcome, counts = excluded.counts, error = excluded.error
            """,
            [.text(pair), .real(run.started.timeIntervalSince1970), .real(run.finished.timeIntervalSince1970),
             .text(run.outcome), .text(run.counts), .optional(run.error)])
    }

    public func lastRun(pair: String) throws -> SyncRunRecord? {
        guard let row = try connection.rows(
            "SELECT started_at, finished_at, outcome, counts, error FROM runs WHERE pair = ?", [.text(pair)]).first
        else { return nil }
        guard let started = row.real(0), let finished = row.real(1), let outcome = row.text(2), let counts = row.text(3) else {
            throw corrupt("the run row of pair '\(pair)'")
        }
        return SyncRunRecord(started: Date(timeIntervalSince1970: started), finished: Date(timeIntervalSince1970: finished),
                             outcome: outcome, counts: counts, error: row.text(4))
    }

    // MARK: Conflicts

    /// Keeps a conflict (both versions); returns it with its `rowID`.
    @discardableResult
    public func saveConflict(_ conflict: SyncConflictRecord) throws -> SyncConflictRecord {
        let values: [SQLiteValue] = [
            .text(conflict.pair), conflict.itemID.map(SQLiteValue.integer) ?? .null, .real(conflict.detected.timeIntervalSince1970),
            .text(conflict.winner.rawValue), .text(conflict.reason), .text(conflict.versionA), .text(conflict.versionB),
        ]
        try connection.run(
            """
            INSERT INTO conflicts (pair, item_id, detected_at, winner, reason, version_a, version_b) VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            values)
        var saved = conflict
        saved.rowID = connection.lastInsertRowID
        return saved
    }

    /// A pair's conflicts, oldest first.
    public func conflicts(pair: String) throws -> [SyncConflictRecord] {
        try connection.rows(Self.conflictColumns + " WHERE pair = ? ORDER BY id", [.text(pair)]).map(decodeConflict)
    }

    /// The conflict kept under `rowID` (whatever its pair), if there is one.
    public func conflict(rowID: Int64) throws -> SyncConflictRecord? {
        try connection.rows(Self.conflictColumns + " WHERE id = ?", [.integer(rowID)]).first.map(decodeConflict)
    }

    /// Records that a conflict's kept version was written back (`sync conflicts restore`): the version that had
    /// won is now the one kept, so it can be restored in turn. Returns false when there is no such conflict.
    @discardableResult
    public func swapWinner(ofConflict rowID: Int64, reason: String) throws -> Bool {
        let sql = "UPDATE conflicts SET winner = CASE winner WHEN 'a' THEN 'b' ELSE 'a' END, reason = ? WHERE id = ?"
        return try connection.run(sql, [.text(reason), .integer(rowID)]) == 1
    }

    static let conflictColumns = "SELECT id, pair, item_id, detected_at, winner, reason, version_a, version_b FROM conflicts"

    func decodeConflict(_ row: SQLiteRow) throws -> SyncConflictRecord {
        guard let rowID = row.integer(0), let pair = row.text(1), let detected = row.real(3),
            let winner = row.text(4).flatMap(SyncSide.init(rawValue:)), let reason = row.text(5), let a = row.text(6),
            let b = row.text(7)
        else { throw corrupt("a conflicts row") }
        return SyncConflictRecord(
            rowID: rowID, pair: pair, itemID: row.integer(2), detected: Date(timeIntervalSince1970: detected), winner: winner,
            reason: reason, versionA: a, versionB: b)
    }

    // MARK: Decoding

    static let itemColumns = "SELECT id, pair, id_a, id_b, hash_a, hash_b, series_key, updated_at, origin FROM items"

    func decodeItem(_ row: SQLiteRow) throws -> SyncItemRecord {
        guard let rowID = row.integer(0), let pair = row.text(1), let updated = row.real(7) else {
            throw corrupt("an items row")
        }
        return SyncItemRecord(rowID: rowID, pair: pair, idA: row.text(2), idB: row.text(3), hashA: row.text(4),
                              hashB: row.text(5), seriesKey: row.text(6), updated: Date(timeIntervalSince1970: updated),
                              origin: row.text(8).flatMap(SyncSide.init(rawValue:)))
    }

    func decodePair(_ row: SQLiteRow) throws -> SyncPairRecord {
        guard let name = row.text(0), let sideA = row.text(1), let sideB = row.text(2), let options = row.text(3),
              let created = row.real(4) else { throw corrupt("a pairs row") }
        return SyncPairRecord(name: name, sideA: sideA, sideB: sideB, options: options,
                              created: Date(timeIntervalSince1970: created))
    }

    func corrupt(_ what: String) -> SyncStateError {
        SyncStateError(.corrupt, "\(what) lacks a value it must have", path: connection.path)
    }
}
