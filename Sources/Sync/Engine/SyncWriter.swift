import CalendarBridge
import Foundation

/// What a run writes: the planned writes to each side in batches, an update of an original merged onto it as
/// read (`mergedIntoOriginal`), the occurrence writes, and the state rows that follow each write (a write
/// first, its row right after). A dry run writes nothing here. It records each write in the run's progress.
struct SyncWriter: Sendable {
    let engine: SyncEngine
    let pair: String
    let reader: SyncReader
    let planner: SyncPlanner
    let dryRun: Bool

    /// Batches sent at once by `apply` (as `copy` does): one batch at a time made a first sync of 1,000
    /// events wait for 20 Google batches in a row, 0.84 s of its 2.5 s.
    static let concurrentBatches = 4

    /// Applies the writes to one side in batches, `concurrentBatches` at a time; the state rows of each
    /// group of batches are saved right after it.
    /// - Returns: the sides whose changes could not all be applied (their stored cursors are not advanced).
    func apply(_ writes: [PlannedWrite], to side: SyncSide, progress: inout SyncRunProgress) async -> Set<SyncSide> {
        guard !writes.isEmpty else { return [] }
        guard await forgetCursor(beforeWritingTo: side, progress: &progress) else { return Set(SyncSide.allCases) }
        let endpoint = reader.endpoints[side]
        let perBatch = max(1, reader.batchSize ?? endpoint.provider.capabilities.maxWritesPerBatch)
        let size = perBatch * Self.concurrentBatches
        var failedFrom = Set<SyncSide>()
        for start in stride(from: 0, to: writes.count, by: size) {
            if engine.shouldStop() {
                // Asked to stop: no new batch starts; those sent have their rows. Both cursors stay where they were.
                progress.report.interrupted = true
                failedFrom.formUnion(SyncSide.allCases)
                break
            }
            var batch = Array(writes[start..<min(start + size, writes.count)])
            // Updates of originals on this side: read them (one batch) and merge the carried fields in. Deletions
            // of originals where the service mails a deleted meeting's attendees: read them to see whether they
            // are meetings.
            let mailsAttendees = endpoint.provider.capabilities.invitations == .sentByService
            let ontoOriginals = batch.indices.filter {
                let write = batch[$0]
                guard progress.items[write.item].origin == side, write.write.targetID != nil else { return false }
                switch write.kind {
                case .update: return write.source != nil
                case .delete: return mailsAttendees
                case .create: return false
                }
            }
            /// Why a write onto an original is not sent (the write then fails, and is tried again next run).
            var unreadable: [Int: String] = [:]
            if !ontoOriginals.isEmpty {
                let probes = await reader.probe(
                    ids: ontoOriginals.compactMap { batch[$0].write.targetID }, on: side, report: &progress.report)
                for (position, probe) in zip(ontoOriginals, probes) {
                    let deleting = batch[position].kind == .delete
                    switch probe {
                    case .exists(let original):
                        if let refusal = planner.invitationRefusal(
                            title: original.title, attendees: [original.attendees], on: side, deleting: deleting)
                        {
                            unreadable[position] = refusal
                        } else if case .update(let planned, _) = batch[position].write, let source = batch[position].source {
                            var (merged, fields) = mergedIntoOriginal(
                                planned, source: source, original: original, from: batch[position].sourceSide)
                            merged.calendarID = endpoint.calendarID
                            batch[position].write = .update(merged, fields: fields)
                        }
                    case .gone:
                        // Deleted meanwhile: a deletion has reached its goal, an update has nothing to merge into.
                        if !deleting { unreadable[position] = "the original was deleted meanwhile" }
                    case .unknown(let why): unreadable[position] = "the original could not be read: \(why)"
                    }
                }
            }
            let sent = batch.indices.filter { unreadable[$0] == nil }
            let answers = await Self.applyInBatches(sent.map { batch[$0].write }, perBatch: perBatch, to: endpoint)
            var outcomes: [EventWriteResult] = batch.indices.map {
                .failure(CalendarError(.invalidResponse, unreadable[$0] ?? "the batch returned no outcome for this write"))
            }
            for (position, answer) in zip(sent, answers) { outcomes[position] = answer }
            progress.report.requests += (sent.count + perBatch - 1) / perBatch
            var changedRows: [Int] = []
            var forgotten: [Int64] = []
            let failedBefore = progress.report.errors.count
            defer {
                let failed = progress.report.errors.count - failedBefore
                engine.onWrites(batch.count - failed, failed)
            }
            for (position, write) in batch.enumerated() {
                let outcome: EventWriteResult =
                    position < outcomes.count
                    ? outcomes[position] : .failure(CalendarError(.invalidResponse, "the batch returned no outcome for this write"))
                switch outcome {
                case .success(.created(let event)), .success(.updated(let event)):
                    if write.kind == .update, progress.items[write.item].seriesKey != SyncItemKind.series {
                        progress.updatedSingles[side, default: [:]][write.item] = Sides(
                            a: progress.items[write.item].hash(.a), b: progress.items[write.item].hash(.b))
                    }
                    progress.items.set(write.item, side, id: event.id, hash: planner.sideHash(event, on: side))
                    if let hash = write.sourceHash, let sourceID = progress.items[write.item].id(write.sourceSide) {
                        progress.items.set(write.item, write.sourceSide, id: sourceID, hash: hash)
                    }
                    progress.items[write.item].updated = engine.now()
                    if write.kind == .create, progress.items[write.item].seriesKey == SyncItemKind.series {
                        progress.createdSeries.insert(write.item)
                    }
                    changedRows.append(write.item)
                    progress.writtenTo[side, default: []].insert(write.item)
                    progress.count(write.kind, to: side, matchedByContent: write.matchedByContent)
                case .success(.deleted(let id)):
                    progress.deletedIDs[side, default: []].insert(id)
                    if let rowID = progress.items[write.item].rowID { forgotten.append(rowID) }
                    progress.items.clear(write.item)
                    progress.writtenTo[side, default: []].insert(write.item)
                    progress.count(write.kind, to: side)
                case .failure(let error):
                    // Both cursors stay: the evidence this write followed (a change on one side, a removal
                    // on the other) must be read again.
                    failedFrom.formUnion(SyncSide.allCases)
                    if side == .b { progress.report.aToB.failed += 1 } else { progress.report.bToA.failed += 1 }
                    progress.report.errors.append(
                        SyncItemError(
                            side: side, eventID: write.write.targetID, title: write.title,
                            message: (error as? CalendarError)?.description ?? "\(error)"))
                }
            }
            if !(await persist(rows: changedRows, forget: forgotten, progress: &progress)) { failedFrom.formUnion(SyncSide.allCases) }
        }
        return failedFrom
    }

    /// `writes` as batches of `perBatch`, all at once; the outcomes in the order of `writes`.
    static func applyInBatches(_ writes: [EventWrite], perBatch: Int, to endpoint: SyncEngine.Endpoint) async -> [EventWriteResult] {
        let provider = endpoint.provider, calendarID = endpoint.calendarID
        let batches = stride(from: 0, to: writes.count, by: perBatch).map { Array(writes[$0..<min($0 + perBatch, writes.count)]) }
        guard batches.count > 1 else { return await provider.applyWrites(writes, in: calendarID, maxConcurrent: 4) }
        return await mapConcurrently(batches, limit: batches.count) {
            await provider.applyWrites($0, in: calendarID, maxConcurrent: 4)
        }.flatMap { $0 }
    }

    /// An update of the side that holds an item's original (a copy's edit carried back) must not write a copy
    /// over it: the original keeps its attendees (rewriting them would e-mail them), body, organizer and
    /// anything else a copy does not carry, and gets no marker (it would then count as a copy, for
    /// `--remove-copies` too). Only the fields that differ between the copy and what a copy of the
    /// original would be are carried back: title, times, location and the rule, and only those are written
    /// (`fields`): the rest, an Outlook series' pattern included, stays as the service stores it.
    func mergedIntoOriginal(_ planned: Event, source: Event, original: Event, from side: SyncSide)
        -> (event: Event, fields: EventFields)
    {
        let unchanged = planner.projection(from: side.other).copy(of: original, recurrence: original.recurrence)
        var merged = original
        var fields: EventFields = []
        if source.title != unchanged.title {
            merged.title = planned.title
            fields.insert(.title)
        }
        if source.start != unchanged.start || source.end != unchanged.end {
            merged.start = planned.start
            merged.end = planned.end
            fields.insert(.times)
        }
        if source.location != unchanged.location {
            merged.location = planned.location
            fields.insert(.location)
        }
        if source.recurrence?.lines != original.recurrence?.lines, let rule = planned.recurrence {
            merged.recurrence = Recurrence(lines: rule.lines, allDayZone: original.recurrence?.allDayZone)
            fields.insert(.recurrence)
        }
        return (merged, fields)
    }

    /// Forgets `side`'s stored cursor before this run's first write to it, so that a run that dies or fails
    /// after writing leaves a full read for the next one. Graph's delta compares two snapshots: read from a
    /// cursor taken before a copy was made, it never reports that copy removed when the user deletes it
    /// before the next run, and the deletion would not cross. The run stores a cursor again at its end, when
    /// it can get one past its own writes (`SyncEchoCheck.cursorPastOwnWrites`). Returns false (and reports
    /// it) when the state cannot be written; the side is then not written either.
    func forgetCursor(beforeWritingTo side: SyncSide, progress: inout SyncRunProgress) async -> Bool {
        guard !dryRun, !progress.cursorForgotten.contains(side) else { return true }
        let pair = self.pair, now = engine.now()
        do {
            try await engine.store.write { t in try t.setCursor(nil, pair: pair, side: side, at: now) }
        } catch {
            progress.report.errors.append(SyncItemError(side: side, eventID: nil, title: nil, message: SyncError.wrap(error).message))
            return false
        }
        progress.cursorForgotten.insert(side)
        return true
    }

    /// Saves the rows changed without a write.
    func flushPending(progress: inout SyncRunProgress) async -> Bool {
        let rows = progress.items.pendingSaves.sorted()
        let forgets = Array(progress.items.pendingForgets)
        progress.items.pendingSaves = []
        progress.items.pendingForgets = []
        return await persist(rows: rows, forget: forgets, progress: &progress)
    }

    /// Saves `rows` (inserting new ones) and deletes `forget`, in one transaction. Returns false (and
    /// reports it) when the state cannot be written.
    func persist(rows: [Int], forget: [Int64], progress: inout SyncRunProgress) async -> Bool {
        guard !dryRun, !(rows.isEmpty && forget.isEmpty) else { return true }
        let live = rows.filter { progress.items[$0].idA != nil || progress.items[$0].idB != nil }
        let dead = rows.filter { progress.items[$0].idA == nil && progress.items[$0].idB == nil }.compactMap { progress.items[$0].rowID }
        let records = live.map { progress.items[$0] }
        let store = engine.store
        do {
            let saved = try await store.write { t in
                for rowID in forget + dead { try t.deleteItem(rowID: rowID) }
                return try records.map { try t.save($0) }
            }
            for (index, record) in zip(live, saved) { progress.items[index].rowID = record.rowID }
            return true
        } catch {
            progress.report.errors.append(SyncItemError(side: .a, eventID: nil, title: nil, message: SyncError.wrap(error).message))
            return false
        }
    }

    /// Keeps each conflict's losing version in the state.
    func saveConflicts(_ conflicts: [PlannedConflict], items: SyncItems) async throws(SyncError) {
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
                SyncConflictRecord(
                    pair: pair, itemID: items[conflict.item].rowID, detected: now, winner: c.winner, reason: c.reason, versionA: a,
                    versionB: b))
        }
        let store = engine.store
        let records = built
        do {
            try await store.write { t in for r in records { try t.saveConflict(r) } }
        } catch {
            throw SyncError.wrap(error)
        }
    }

    /// Replaces the stored occurrences of each series with `rows`, in one transaction. Returns false (and
    /// reports it) when the state cannot be written.
    func persistOccurrences(_ rows: [Int: [SyncOccurrenceRecord]], progress: inout SyncRunProgress) async -> Bool {
        guard !dryRun, !rows.isEmpty else { return true }
        let pair = self.pair
        let byItem = rows.compactMap { index, records in progress.items[index].rowID.map { ($0, records) } }
        do {
            try await engine.store.write { t in
                for (rowID, records) in byItem {
                    try t.deleteOccurrences(pair: pair, itemID: rowID)
                    try t.saveOccurrences(
                        records.map {
                            var r = $0; r.itemID = rowID; return r
                        }, pair: pair)
                }
            }
            return true
        } catch {
            progress.report.errors.append(SyncItemError(side: .a, eventID: nil, title: nil, message: SyncError.wrap(error).message))
            return false
        }
    }

    /// Sends the occurrence writes, each side's in one batch (those `refused` fail without a request), then
    /// saves each series' occurrences: `rows` as planned, the row of each write that landed (the target's state
    /// as its answer shows it), the stored row of each that did not (`stored`: the next run decides it again).
    /// - Returns: the sides whose occurrence changes could not all be applied.
    func writeOccurrences(
        _ writes: [OccurrenceWrite], stored: [Int: [OccurrenceKey: SyncOccurrenceRecord]], rows: [Int: [SyncOccurrenceRecord]],
        progress: inout SyncRunProgress
    ) async -> Set<SyncSide> {
        var rows = rows
        var failedFrom = Set<SyncSide>()
        // A series compared for the first time whose writes did not all land stays without stored occurrences.
        var firstTimeFailed = Set<Int>()
        /// A write that did not land: the stored state stays, and the next run (both cursors kept) decides
        /// this occurrence again.
        func keepStored(_ write: OccurrenceWrite) {
            failedFrom.formUnion(SyncSide.allCases)
            if let row = stored[write.item]?[write.key] { rows[write.item, default: []].append(row) }
            if stored[write.item]?.isEmpty ?? true { firstTimeFailed.insert(write.item) }
        }
        func fail(_ write: OccurrenceWrite, _ message: String) {
            keepStored(write)
            if write.target == .b { progress.report.aToB.failed += 1 } else { progress.report.bToA.failed += 1 }
            progress.report.errors.append(
                SyncItemError(side: write.target, eventID: write.write.targetID, title: write.title, message: message))
        }
        for write in writes { if let why = write.refused { fail(write, why) } }
        for side in SyncSide.allCases {
            let batch = writes.filter { $0.target == side && $0.refused == nil }
            guard !batch.isEmpty else { continue }
            // Not sent when the state cannot be written (reported there).
            guard await forgetCursor(beforeWritingTo: side, progress: &progress) else {
                batch.forEach(keepStored)
                continue
            }
            let target = reader.endpoints[side]
            let outcomes = await target.provider.applyWrites(batch.map(\.write), in: target.calendarID, maxConcurrent: 4)
            progress.report.requests += 1
            progress.writtenTo[side, default: []].formUnion(batch.map(\.item))
            for (position, write) in batch.enumerated() {
                let outcome: EventWriteResult =
                    position < outcomes.count
                    ? outcomes[position] : .failure(CalendarError(.invalidResponse, "the batch returned no outcome for this write"))
                switch outcome {
                case .success(let result):
                    progress.count(.update, to: side)
                    var row = write.row
                    let written: OccurrenceNow
                    switch result {
                    case .created(let e), .updated(let e):
                        var e = e
                        if e.originalStart == nil, case .update(let sent, _) = write.write { e.originalStart = sent.originalStart }
                        written = .live(e)
                    case .deleted: written = .cancelled(nil)
                    }
                    let state = planner.occurrenceState(written, master: write.targetMaster, on: side)
                    if side == .a { row.stateA = state } else { row.stateB = state }
                    rows[write.item, default: []].append(row)
                    if case .updated(let e) = result {
                        progress.updatedOccurrences[side, default: []].append(
                            OccurrenceUpdate(
                                item: write.item, key: write.key, id: e.id, title: write.title, written: state,
                                before: stored[write.item]?[write.key], targetMaster: write.targetMaster))
                    }
                case .failure(let error):
                    fail(write, (error as? CalendarError)?.description ?? "\(error)")
                }
            }
        }
        for index in firstTimeFailed { rows[index] = [] }
        if !(await persistOccurrences(rows, progress: &progress)) { failedFrom.formUnion(SyncSide.allCases) }
        return failedFrom
    }

    /// Puts the rows of occurrences whose update did not land back as they were before the run
    /// (`SyncEchoCheck.unappliedOccurrences`), in one transaction; a failure is reported.
    func restoreOccurrences(_ restorations: [OccurrenceUpdate.Restoration], on side: SyncSide, report: inout SyncReport) async {
        let pair = self.pair
        do {
            try await engine.store.write { t in
                for restoration in restorations {
                    if var row = restoration.before {
                        row.itemID = restoration.rowID
                        try t.saveOccurrences([row], pair: pair)
                    } else {
                        try t.deleteOccurrences(pair: pair, itemID: restoration.rowID, keys: [restoration.key])
                    }
                }
            }
        } catch {
            report.errors.append(SyncItemError(side: side, eventID: nil, title: nil, message: SyncError.wrap(error).message))
        }
    }
}
