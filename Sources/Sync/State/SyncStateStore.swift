import Foundation

/// Where sync state lives: pairs, each pair's items mapped across both sides, occurrences of synced series,
/// each side's change cursor, conflicts and each pair's last run. A person's state is SQLite
/// (`SQLiteSyncStateStore`, `sync.db`); an organisation's is PostgreSQL (the `Org` module's store). The
/// engine (`SyncEngine`, `SyncPairRunner`) sees only this protocol, and both stores pass one test suite.
///
/// Each call runs `body` in one transaction: a write stores all of it or (when it throws) none of it; a
/// read sees one consistent snapshot. `body` is synchronous and short: no provider call inside. A store
/// may refuse a write before `body` runs (an organisation worker whose lease is no longer current).
///
/// A test double keeps the rows in memory behind an actor and hands `body` a transaction over them.
public protocol SyncStateStore: Sendable {
    /// Runs `body` in one write transaction: all of it is stored, or (when it throws) none of it.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SyncStateTransaction) throws -> T) async throws -> T
    /// Runs `body` on one consistent snapshot of the state.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SyncStateTransaction) throws -> T) async throws -> T
}

/// The state's operations, valid inside one `SyncStateStore.write` or `read` call (do not keep it).
///
/// Every value read back is checked: a row that lacks what it must have is a `SyncStateError` `.corrupt`,
/// never a crash.
public protocol SyncStateTransaction {
    /// Adds the pair, or replaces its calendars and options (its items, cursors and runs stay).
    func savePair(_ pair: SyncPairRecord) throws
    func pair(named name: String) throws -> SyncPairRecord?
    /// Every pair, by name.
    func pairs() throws -> [SyncPairRecord]
    /// Removes the pair with its items, occurrences, cursors, conflicts and last run. Returns false when there was none.
    @discardableResult
    func removePair(named name: String) throws -> Bool

    /// Every item of a pair, in the order they were first saved.
    func items(pair: String) throws -> [SyncItemRecord]
    /// The item holding an event id on one side.
    func item(pair: String, side: SyncSide, id: String) throws -> SyncItemRecord?
    /// Inserts the item (no `rowID`) or updates it; returns it with its `rowID`.
    /// - Throws: `.constraint` when another item of the pair already holds one of its ids, or there is no
    ///   item of that `rowID` in the pair to update.
    @discardableResult
    func save(_ item: SyncItemRecord) throws -> SyncItemRecord
    /// The item stored under `rowID` (whatever its pair), if it is still there.
    func item(rowID: Int64) throws -> SyncItemRecord?
    /// Forgets an item (after its event is gone on both sides), with its occurrences.
    func deleteItem(rowID: Int64) throws

    /// The stored occurrences of the given items of a pair (series), by item.
    func occurrences(pair: String, itemIDs: [Int64]) throws -> [Int64: [SyncOccurrenceRecord]]
    /// Stores occurrences (replacing the rows of the same item and key).
    func saveOccurrences(_ records: [SyncOccurrenceRecord], pair: String) throws
    /// Forgets occurrences of an item: the given keys, or (nil) all of them.
    func deleteOccurrences(pair: String, itemID: Int64, keys: [String]?) throws

    func cursor(pair: String, side: SyncSide) throws -> SyncCursorRecord?
    /// Stores a side's cursor, or forgets it (nil: the next read is a full one).
    func setCursor(_ cursor: String?, pair: String, side: SyncSide, at date: Date) throws

    /// Keeps the pair's last run (one per pair, replaced).
    func recordRun(_ run: SyncRunRecord, pair: String) throws
    func lastRun(pair: String) throws -> SyncRunRecord?

    /// Keeps a conflict (both versions); returns it with its `rowID`.
    @discardableResult
    func saveConflict(_ conflict: SyncConflictRecord) throws -> SyncConflictRecord
    /// A pair's conflicts, oldest first.
    func conflicts(pair: String) throws -> [SyncConflictRecord]
    /// The conflict kept under `rowID` (whatever its pair), if there is one.
    func conflict(rowID: Int64) throws -> SyncConflictRecord?
    /// Records that a conflict's kept version was written back (`sync conflicts restore`): the version that had
    /// won becomes the kept one (so it can be restored in turn), with `reason`. Returns false when there is no
    /// such conflict.
    @discardableResult
    func swapWinner(ofConflict rowID: Int64, reason: String) throws -> Bool
}

extension SyncStateTransaction {
    /// Forgets every occurrence of an item.
    public func deleteOccurrences(pair: String, itemID: Int64) throws {
        try deleteOccurrences(pair: pair, itemID: itemID, keys: nil)
    }
}
