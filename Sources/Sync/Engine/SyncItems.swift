import CalendarBridge
import Foundation

/// A pair's items during one run: as stored, plus the ones the run adds (indexes stay valid for the whole
/// run), found by either side's event id, and the rows changed without a write (saved before the writes).
/// The planner edits it; the run saves what it marks.
struct SyncItems: Sendable {
    private(set) var records: [SyncItemRecord] = []
    /// Each side's event ids → index in `records` (kept by `append`, `set`, `clear`).
    private var byID = Sides<[String: Int]>([:])
    /// Items whose state changed without a write (flushed before the writes).
    var pendingSaves = Set<Int>()
    /// Rows of items forgotten without a write.
    var pendingForgets = Set<Int64>()

    init(_ records: [SyncItemRecord] = []) {
        for record in records { append(record) }
    }

    /// One item. Its ids change through `set` (which keeps the index), everything else in place.
    subscript(index: Int) -> SyncItemRecord {
        get { records[index] }
        _modify { yield &records[index] }
    }

    var indices: Range<Int> { records.indices }
    var count: Int { records.count }

    /// Adds an item (and its ids to the index).
    mutating func append(_ record: SyncItemRecord) {
        records.append(record)
        for side in SyncSide.allCases { if let id = record.id(side) { byID[side][id] = records.count - 1 } }
    }

    /// Sets one side's id and hash of an item, keeping the index.
    mutating func set(_ index: Int, _ side: SyncSide, id: String?, hash: String?) {
        if let old = records[index].id(side), byID[side][old] == index { byID[side][old] = nil }
        records[index].set(side, id: id, hash: hash)
        if let id { byID[side][id] = index }
    }

    /// Takes both ids off an item (it is forgotten; its row goes with the next save).
    mutating func clear(_ index: Int) {
        for side in SyncSide.allCases { set(index, side, id: nil, hash: records[index].hash(side)) }
    }

    /// Marks an item's row to be saved with the next flush.
    mutating func save(_ index: Int) { pendingSaves.insert(index) }

    /// Forgets an item (gone on both sides, or its last side is gone with nothing to carry).
    mutating func forget(_ index: Int) {
        if let rowID = records[index].rowID { pendingForgets.insert(rowID) }
        clear(index)
        pendingSaves.remove(index)
    }

    /// The index of the item whose `side` has event `id`.
    func index(_ side: SyncSide, _ id: String) -> Int? { byID[side][id] }

    /// The item whose `side` has event `id`.
    func item(_ side: SyncSide, _ id: String) -> SyncItemRecord? { index(side, id).map { records[$0] } }
}
