import CalendarBridge
import Foundation

extension SyncRun {
    /// Forgets `side`'s stored cursor before this run's first write to it, so that a run that dies or fails
    /// after writing leaves a full read for the next one. Graph's delta compares two snapshots: read from a
    /// cursor taken before a copy was made, it never reports that copy removed when the user deletes it
    /// before the next run, and the deletion would not cross. The run stores a cursor again at its end, when
    /// it can get one past its own writes (`cursorPastOwnWrites`). Returns false (and reports it) when the
    /// state cannot be written; the side is then not written either.
    mutating func forgetCursor(beforeWritingTo side: SyncSide) async -> Bool {
        guard !dryRun, !cursorForgotten.contains(side) else { return true }
        let pair = self.pair, now = engine.now()
        do {
            try await engine.store.write { t in try t.setCursor(nil, pair: pair, side: side, at: now) }
        } catch {
            report.errors.append(SyncItemError(side: side, eventID: nil, title: nil, message: SyncError.wrap(error).message))
            return false
        }
        cursorForgotten.insert(side)
        return true
    }

    /// Saves the rows changed without a write.
    mutating func flushPending() async -> Bool {
        let rows = items.pendingSaves.sorted()
        let forgets = Array(items.pendingForgets)
        items.pendingSaves = []
        items.pendingForgets = []
        return await persist(rows: rows, forget: forgets)
    }

    /// Saves `rows` (inserting new ones) and deletes `forget`, in one transaction. Returns false (and
    /// reports it) when the state cannot be written.
    mutating func persist(rows: [Int], forget: [Int64]) async -> Bool {
        guard !dryRun, !(rows.isEmpty && forget.isEmpty) else { return true }
        let live = rows.filter { items[$0].idA != nil || items[$0].idB != nil }
        let dead = rows.filter { items[$0].idA == nil && items[$0].idB == nil }.compactMap { items[$0].rowID }
        let records = live.map { items[$0] }
        let store = engine.store
        do {
            let saved = try await store.write { t in
                for rowID in forget + dead { try t.deleteItem(rowID: rowID) }
                return try records.map { try t.save($0) }
            }
            for (index, record) in zip(live, saved) { items[index].rowID = record.rowID }
            return true
        } catch {
            report.errors.append(SyncItemError(side: .a, eventID: nil, title: nil, message: SyncError.wrap(error).message))
            return false
        }
    }

    /// Keeps each conflict's losing version in the state.
    mutating func saveConflicts(_ conflicts: [PlannedConflict]) async throws(SyncError) {
        guard !conflicts.isEmpty else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let now = engine.now()
        var built: [SyncConflictRecord] = []
        for conflict in conflicts {
            let c = conflict.report
            let a = (try? encoder.encode(c.a)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            let b = (try? encoder.encode(c.b)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            built.append(
                SyncConflictRecord(pair: pair, itemID: items[conflict.item].rowID, detected: now, winner: c.winner, reason: c.reason, versionA: a, versionB: b))
        }
        let store = engine.store
        let records = built
        do {
            try await store.write { t in for r in records { try t.saveConflict(r) } }
        } catch {
            throw SyncError.wrap(error)
        }
    }

    /// `unchanged` per carried direction: the pair's live items that needed no write to the receiving side.
    mutating func countUnchanged(_ plan: SyncPlan) {
        for side in SyncSide.allCases where options.direction.carries(from: side.other) {
            let live = items.indices.filter { items[$0].idA != nil && items[$0].idB != nil }
            let unchanged = live.filter { !(writtenTo[side] ?? []).contains($0) }.count
            if side == .b { report.aToB.unchanged = unchanged } else { report.bToA.unchanged = unchanged }
        }
    }
}
