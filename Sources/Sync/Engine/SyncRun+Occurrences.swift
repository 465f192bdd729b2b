import CalendarBridge
import Foundation

extension SyncRun {
    /// An occurrence this run updated: what the follow-up read must show (`unappliedOccurrences`).
    struct OccurrenceUpdate {
        var item: Int
        var key: OccurrenceKey
        var id: String
        var title: String
        /// The target side's state as written, and the row before the run (nil: none).
        var written: String
        var before: SyncOccurrenceRecord?
        var targetMaster: Event
    }

    /// Brings the occurrences of touched series in step by a three-way comparison per occurrence: each side's
    /// occurrence now (followed by the series, an exception's content, or cancelled) against what it was at the
    /// last sync (the `occurrences` table). Changed on one side: carried to the other; on both: the pair's
    /// conflict rule decides, as for items, except that a cancellation loses to an edit where the cancelled
    /// side can restore the occurrence (Google; Outlook cannot); changed on neither: nothing. A series with no
    /// stored occurrences (new, or copied again) is brought across from the side whose occurrences changed.
    /// Four listings serve every series and both directions; one read by id per side finds occurrences a
    /// side no longer lists. Each write comes before its state row; conflicts are kept before the writes.
    /// A dry run counts the writes it would send.
    /// - Returns: the sides whose occurrence changes could not all be applied.
    mutating func syncOccurrences(_ requested: [(item: Int, from: SyncSide)]) async throws(SyncError) -> Set<SyncSide> {
        var requestedFrom: [Int: Set<SyncSide>] = [:]
        for entry in requested where options.direction.carries(from: entry.from) {
            let record = items[entry.item]
            guard record.seriesKey == SyncItemKind.series, record.id(.a) != nil, record.id(.b) != nil else { continue }
            requestedFrom[entry.item, default: []].insert(entry.from)
        }
        let chosen = requestedFrom.keys.sorted()
        guard !chosen.isEmpty else { return [] }
        // Masters this run wrote (before any occurrence write): their exceptions may be gone by that write.
        let mastersWritten = Sides(a: writtenTo[.a] ?? [], b: writtenTo[.b] ?? [])

        // 1. Both sides listed once (series and occurrences), for every series and both directions.
        var listings = Sides<(listed: [Event], expanded: [Event])>(([], []))
        do {
            let range = window.listingRange
            let a = endpoint(.a), b = endpoint(.b)
            async let aListed = a.provider.listEvents(calendarID: a.calendarID, range: range, expand: false)
            async let aExpanded = a.provider.listEvents(calendarID: a.calendarID, range: range, expand: true)
            async let bListed = b.provider.listEvents(calendarID: b.calendarID, range: range, expand: false)
            async let bExpanded = b.provider.listEvents(calendarID: b.calendarID, range: range, expand: true)
            listings.a = (try await aListed, try await aExpanded)
            listings.b = (try await bListed, try await bExpanded)
            report.requests += 4
        } catch {
            report.errors.append(
                SyncItemError(side: .a, eventID: nil, title: nil, message: "occurrences of series not compared: \((error as? CalendarError)?.description ?? "\(error)")"))
            return Set(SyncSide.allCases)
        }

        // 2. Each side's masters: listed, else read by id (a master whose rule left the window is not listed).
        var masters = Sides<[String: Event]>([:])
        for side in SyncSide.allCases {
            for e in listings[side].listed where e.recurrence != nil && e.seriesID == nil { masters[side][e.id] = masters[side][e.id] ?? e }
            let missing = chosen.compactMap { items[$0].id(side) }.filter { masters[side][$0] == nil }
            guard !missing.isEmpty else { continue }
            let e = endpoint(side)
            for (id, probe) in zip(missing, await e.provider.probeEvents(ids: missing, calendarID: e.calendarID)) {
                if case .exists(let master) = probe { masters[side][id] = master }
            }
            report.requests += (missing.count + 19) / 20
        }

        // 3. The stored occurrences of these series.
        let pair = self.pair
        let rowIDs = chosen.compactMap { items[$0].rowID }
        let storedRows: [Int64: [SyncOccurrenceRecord]]
        do {
            storedRows = rowIDs.isEmpty ? [:] : try await engine.store.read { try $0.occurrences(pair: pair, itemIDs: rowIDs) }
        } catch {
            throw SyncError.wrap(error)
        }

        // 4. Each series on each side, and the occurrences a side no longer lists, read by id (one request per side).
        var series: [Int: Sides<SeriesOnSide>] = [:]
        var stored: [Int: [OccurrenceKey: SyncOccurrenceRecord]] = [:]
        // Each side's listings by series, once (see `groupedBySeries`).
        var listedOf = Sides<[String: [Event]]>([:])
        var expandedOf = Sides<[String: [Event]]>([:])
        for side in SyncSide.allCases {
            listedOf[side] = listings[side].listed.groupedBySeries()
            expandedOf[side] = listings[side].expanded.groupedBySeries { $0.status != .cancelled && window.contains($0) }
        }
        for index in chosen {
            guard let idA = items[index].id(.a), let idB = items[index].id(.b), let masterA = masters.a[idA], let masterB = masters.b[idB] else { continue }
            var both = Sides(a: SeriesOnSide(master: masterA), b: SeriesOnSide(master: masterB))
            for side in SyncSide.allCases {
                let id = side == .a ? idA : idB
                for e in listedOf[side][id] ?? [] {
                    both[side].occurrences[SyncPlanner.key(e)] = e.status == .cancelled ? .cancelled(e) : .live(e)
                }
                for e in expandedOf[side][id] ?? [] {
                    both[side].occurrences[SyncPlanner.key(e)] = .live(e)
                    both[side].liveInWindow.insert(SyncPlanner.key(e))
                }
            }
            series[index] = both
            if let rowID = items[index].rowID, !createdSeries.contains(index) {
                for row in storedRows[rowID] ?? [] { stored[index, default: [:]][OccurrenceKey(stored: row.key)] = row }
            }
        }
        let planners = Sides(a: planner.occurrencePlanner(from: .a), b: planner.occurrencePlanner(from: .b))
        for side in SyncSide.allCases {
            var asked: [(item: Int, key: OccurrenceKey, query: OccurrenceQuery)] = []
            for (index, both) in series.sorted(by: { $0.key < $1.key }) {
                for key in SyncPlanner.candidateKeys(both, stored: stored[index]) where both[side].occurrences[key] == nil {
                    if stored[index]?[key]?.state(side) == SyncOccurrenceRecord.cancelled {
                        series[index]?[side].occurrences[key] = .cancelled(nil)  // gone for good where nothing lists it
                    } else if let other = both[side.other].occurrences[key]?.event,
                        let query = planners[side.other].occurrenceQuery(for: other, master: both[side].master)
                    {
                        asked.append((index, key, query))
                    }
                }
            }
            guard !asked.isEmpty else { continue }
            let e = endpoint(side)
            let probes = await e.provider.probeOccurrences(asked.map(\.query), calendarID: e.calendarID)
            report.requests += 1
            for (question, probe) in zip(asked, probes) {
                switch probe {
                case .cancelled: series[question.item]?[side].occurrences[question.key] = .cancelled(nil)
                case .exists(let found): series[question.item]?[side].occurrences[question.key] = .live(found)
                case .seriesGone, .unknown: continue  // no proof either way: this occurrence waits
                }
            }
        }

        // 5. The three-way comparison of each occurrence.
        let decided = planner.planOccurrences(
            series: series, stored: stored, requestedFrom: requestedFrom, mastersWritten: mastersWritten, items: items, dryRun: dryRun,
            now: engine.now())
        let writes = decided.writes, conflicts = decided.conflicts
        var rows = decided.rows
        report.notices += decided.notices
        report.conflicts += conflicts.map(\.report)
        if dryRun {
            for write in writes where write.refused == nil { count(.update, to: write.target) }
            return []
        }
        // The losing versions are kept before anything is written over them.
        try await saveConflicts(conflicts)

        // 6. The writes, each side's in one batch, then the state rows of the ones that landed.
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
            if write.target == .b { report.aToB.failed += 1 } else { report.bToA.failed += 1 }
            report.errors.append(SyncItemError(side: write.target, eventID: write.write.targetID, title: write.title, message: message))
        }
        for write in writes { if let why = write.refused { fail(write, why) } }
        for side in SyncSide.allCases {
            let batch = writes.filter { $0.target == side && $0.refused == nil }
            guard !batch.isEmpty else { continue }
            // Not sent when the state cannot be written (reported there).
            guard await forgetCursor(beforeWritingTo: side) else {
                batch.forEach(keepStored)
                continue
            }
            let target = endpoint(side)
            let outcomes = await target.provider.applyWrites(batch.map(\.write), in: target.calendarID, maxConcurrent: 4)
            report.requests += 1
            writtenTo[side, default: []].formUnion(batch.map(\.item))
            for (position, write) in batch.enumerated() {
                let outcome: EventWriteResult =
                    position < outcomes.count ? outcomes[position] : .failure(CalendarError(.invalidResponse, "the batch returned no outcome for this write"))
                switch outcome {
                case .success(let result):
                    count(.update, to: side)
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
                        updatedOccurrences[side, default: []].append(OccurrenceUpdate(
                            item: write.item, key: write.key, id: e.id, title: write.title, written: state,
                            before: stored[write.item]?[write.key], targetMaster: write.targetMaster))
                    }
                case .failure(let error):
                    fail(write, (error as? CalendarError)?.description ?? "\(error)")
                }
            }
        }
        for index in firstTimeFailed { rows[index] = [] }
        if !(await persistOccurrences(rows)) { failedFrom.formUnion(SyncSide.allCases) }
        return failedFrom
    }

    /// Of the occurrences this run updated on `side` whose ids the follow-up read did not echo, the ones whose
    /// update did not land, read by id: each one's row goes back to what it was before the run, and it is
    /// reported, as `unapplied` does for single events. Returns whether any went back.
    mutating func unappliedOccurrences(_ updates: [OccurrenceUpdate], on side: SyncSide) async -> Bool {
        guard !updates.isEmpty else { return false }
        let probes = await probe(ids: updates.map(\.id), on: side)
        var putBack: [(rowID: Int64, update: OccurrenceUpdate)] = []
        for (update, probe) in zip(updates, probes) {
            switch probe {
            case .exists(let event):
                guard planner.occurrenceState(.live(event), master: update.targetMaster, on: side) != update.written else { continue }
            case .gone: continue  // cancelled meanwhile: the next read reports it
            case .unknown: break
            }
            guard let rowID = items[update.item].rowID else { continue }
            putBack.append((rowID, update))
            reportUnapplied(on: side, id: update.id, title: update.title, what: "occurrence")
        }
        guard !putBack.isEmpty else { return false }
        let pair = self.pair
        let restored = putBack.map { (rowID: $0.rowID, key: $0.update.key.description, before: $0.update.before) }
        do {
            try await engine.store.write { t in
                for (rowID, key, before) in restored {
                    if var row = before {
                        row.itemID = rowID
                        try t.saveOccurrences([row], pair: pair)
                    } else {
                        try t.deleteOccurrences(pair: pair, itemID: rowID, keys: [key])
                    }
                }
            }
        } catch {
            report.errors.append(SyncItemError(side: side, eventID: nil, title: nil, message: SyncError.wrap(error).message))
        }
        return true
    }

    /// Replaces the stored occurrences of each series with `rows`, in one transaction. Returns false (and
    /// reports it) when the state cannot be written.
    mutating func persistOccurrences(_ rows: [Int: [SyncOccurrenceRecord]]) async -> Bool {
        guard !dryRun, !rows.isEmpty else { return true }
        let pair = self.pair
        let byItem = rows.compactMap { index, records in items[index].rowID.map { ($0, records) } }
        do {
            try await engine.store.write { t in
                for (rowID, records) in byItem {
                    try t.deleteOccurrences(pair: pair, itemID: rowID)
                    try t.saveOccurrences(records.map { var r = $0; r.itemID = rowID; return r }, pair: pair)
                }
            }
            return true
        } catch {
            report.errors.append(SyncItemError(side: .a, eventID: nil, title: nil, message: SyncError.wrap(error).message))
            return false
        }
    }

    /// `SyncEngine.removeCopies`: deletes each side's copies (by the state's ids and by this pair's markers).
    static func removeCopies(engine: SyncEngine, pair: String, a: SyncEngine.Endpoint, b: SyncEngine.Endpoint, dryRun: Bool)
        async throws(SyncError) -> SyncReport
    {
        var run = try await SyncRun(engine: engine, pair: pair, a: a, b: b, options: .defaults, dryRun: dryRun)
        let stored: [SyncItemRecord]
        do {
            stored = try await engine.store.read { try $0.items(pair: pair) }
        } catch {
            throw SyncError.wrap(error)
        }
        run.items = SyncItems(stored)
        for side in SyncSide.allCases {
            let source = side.other
            let endpoint = run.endpoint(side)
            var ids = Set(stored.filter { $0.origin == source }.compactMap { $0.id(side) })
            do {
                let lookup = OriginLookup(property: OriginMarker.calendarKeyProperty, value: run.planner.calendarKey(source))
                let found = try await endpoint.provider.findEvents(origin: lookup, in: endpoint.calendarID)
                ids.formUnion(found.filter { $0.seriesID == nil }.map(\.id))
                // Never an original of this side, whatever marker an earlier version may have written into it.
                ids.subtract(stored.filter { $0.origin == side }.compactMap { $0.id(side) })
                run.report.requests += 1
            } catch {
                throw SyncError(reading: error, side: side, account: endpoint.provider.account)
            }
            let sorted = ids.sorted()
            if dryRun {
                if side == .b { run.report.aToB.deleted = sorted.count } else { run.report.bToA.deleted = sorted.count }
                continue
            }
            let outcomes = await endpoint.provider.applyWrites(sorted.map { .delete(id: $0) }, in: endpoint.calendarID, maxConcurrent: 4)
            run.report.requests += 1
            var gone: [Int64] = []
            for (id, outcome) in zip(sorted, outcomes) {
                switch outcome {
                case .success:
                    run.count(.delete, to: side)
                    gone += stored.filter { $0.id(side) == id }.compactMap(\.rowID)
                case .failure(let error):
                    if side == .b { run.report.aToB.failed += 1 } else { run.report.bToA.failed += 1 }
                    run.report.errors.append(SyncItemError(side: side, eventID: id, title: nil, message: (error as? CalendarError)?.description ?? "\(error)"))
                }
            }
            _ = await run.persist(rows: [], forget: gone)
        }
        run.report.finished = engine.now()
        return run.report
    }
}
