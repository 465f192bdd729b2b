import CalendarBridge
import Foundation

/// What one run of a pair has done so far, which its parts take in turn: the report (the reader counts its
/// requests there, the writer its writes and failures), the pair's items, and what was written where (the echo
/// check reads it).
struct SyncRunProgress {
    var report: SyncReport
    /// The pair's items: as stored, plus the ones this run adds.
    var items = SyncItems()
    /// Items that got a write, per receiving side (series: also occurrence writes).
    var writtenTo: [SyncSide: Set<Int>] = [.a: [], .b: []]
    /// Ids this run deleted, per side (their removals come back in the follow-up read).
    var deletedIDs: [SyncSide: Set<String>] = [.a: [], .b: []]
    /// Sides whose stored cursor this run forgot before writing to them (`SyncWriter.forgetCursor`).
    var cursorForgotten = Set<SyncSide>()
    /// Series items whose master this run created on a side (a copy made or made again): their occurrences
    /// are compared as if seen for the first time.
    var createdSeries = Set<Int>()
    /// Single events this run updated, per receiving side, with both sides' hashes from before the update: the
    /// follow-up read must echo each, or it is read by id (`SyncEchoCheck.unapplied`).
    var updatedSingles: [SyncSide: [Int: Sides<String?>]] = [:]
    /// Occurrences this run updated, per receiving side (`SyncEchoCheck.unappliedOccurrences`).
    var updatedOccurrences: [SyncSide: [OccurrenceUpdate]] = [:]

    init(report: SyncReport) {
        self.report = report
    }

    /// Counts a write made to `side` (in a dry run, one that would be).
    mutating func count(_ kind: PlannedWrite.Kind, to side: SyncSide, matchedByContent: Bool = false) {
        func bump(_ c: inout SyncCounts) {
            switch kind {
            case .create: c.created += 1
            case .update: c.updated += 1
            case .delete: c.deleted += 1
            }
            if matchedByContent { c.matchedByContent += 1 }
        }
        if side == .b { bump(&report.aToB) } else { bump(&report.bToA) }
    }

    /// `unchanged` per carried direction: the pair's live items that needed no write to the receiving side.
    mutating func countUnchanged(_ direction: SyncDirection) {
        for side in SyncSide.allCases where direction.carries(from: side.other) {
            let live = items.indices.filter { items[$0].idA != nil && items[$0].idB != nil }
            let unchanged = live.filter { !(writtenTo[side] ?? []).contains($0) }.count
            if side == .b { report.aToB.unchanged = unchanged } else { report.bToA.unchanged = unchanged }
        }
    }
}

/// An occurrence a run updated: what the follow-up read must show (`SyncEchoCheck.unappliedOccurrences`).
struct OccurrenceUpdate {
    var item: Int
    var key: OccurrenceKey
    var id: String
    var title: String
    /// The target side's state as written, and the row before the run (nil: none).
    var written: String
    var before: SyncOccurrenceRecord?
    var targetMaster: Event

    /// The stored row of an occurrence whose update did not land, put back as it was before the run.
    struct Restoration {
        var rowID: Int64
        var key: String
        /// Nil: there was none (the row is deleted).
        var before: SyncOccurrenceRecord?
    }
}
