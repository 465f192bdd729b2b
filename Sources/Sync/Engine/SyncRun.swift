import CalendarBridge
import Foundation

/// One run of one pair, its parts in order: the reader (each side's changes and view), the planner (the
/// three-way comparison of each item, then of each occurrence of the series compared), the writer (the writes
/// and the state rows after them) and the echo check (a cursor past the run's own writes, updates that did
/// not land); then the cursors are stored.
struct SyncRun {
    let engine: SyncEngine
    let pair: String
    let options: SyncPairOptions
    let dryRun: Bool
    let reader: SyncReader
    let planner: SyncPlanner
    let writer: SyncWriter
    let echoCheck: SyncEchoCheck
    var progress: SyncRunProgress

    init(engine: SyncEngine, pair: String, a: SyncEngine.Endpoint, b: SyncEngine.Endpoint, options: SyncPairOptions, dryRun: Bool)
        async throws(SyncError)
    {
        self.engine = engine
        self.pair = pair
        self.options = options
        self.dryRun = dryRun
        let now = engine.now()
        let window = options.window(now: now, zone: engine.zone)
        let reader = SyncReader(endpoints: Sides(a: a, b: b), window: window, batchSize: engine.batchSize)
        let planner = SyncPlanner(pair: pair, options: options, window: window, calendars: Sides(a: SyncCalendar(a), b: SyncCalendar(b)))
        self.reader = reader
        self.planner = planner
        self.writer = SyncWriter(engine: engine, pair: pair, reader: reader, planner: planner, dryRun: dryRun)
        self.echoCheck = SyncEchoCheck(reader: reader, planner: planner)
        self.progress = SyncRunProgress(report: SyncReport(name: pair, dryRun: dryRun, started: now))
        _ = try await engine.store.pairRecord(named: pair)
    }

    // MARK: the run

    mutating func execute() async throws(SyncError) -> SyncReport {
        let pair = self.pair
        let stored: (items: [SyncItemRecord], cursors: [SyncSide: String])
        do {
            stored = try await engine.store.read { t in
                var cursors: [SyncSide: String] = [:]
                for side in SyncSide.allCases { cursors[side] = try t.cursor(pair: pair, side: side)?.cursor }
                return (try t.items(pair: pair), cursors)
            }
        } catch {
            throw SyncError.wrap(error)
        }
        progress.items = SyncItems(stored.items)
        let window = reader.window
        let roundKey = SyncWindow.key(window.range)

        // 1. What changed on each side (both at once).
        let a = reader.endpoints.a, b = reader.endpoints.b
        let range = window.listingRange, cursors = stored.cursors
        let reads: Sides<SyncReader.SideChanges>
        do {
            let (readA, readB) = try await concurrently(
                { try await SyncReader.readChanges(a, side: .a, window: range, stored: cursors[.a], roundKey: roundKey) },
                { try await SyncReader.readChanges(b, side: .b, window: range, stored: cursors[.b], roundKey: roundKey) })
            reads = Sides(a: readA, b: readB)
        } catch {
            throw error as? SyncError ?? SyncError(.provider, String(describing: error))
        }
        for side in SyncSide.allCases {
            let read = reads[side]
            progress.report.requests += read.requests
            if read.full { progress.report.fullReads.append(side) }
            if let notice = read.notice { progress.report.notices.append(notice) }
        }

        // 2. Each side's view: current single events and masters, proven removals, touched series.
        var views = Sides(SyncSideView())
        for side in SyncSide.allCases {
            views[side] = await reader.view(of: reads[side], side: side, items: progress.items, report: &progress.report)
        }

        // 3. Copies found on either side that the state does not link yet (a crash after the write) linked,
        //    then everything reported compared and planned.
        var plan = planner.plan(views: views, items: &progress.items, now: engine.now())
        progress.report.notices += plan.notices
        // 3b. A feed that gave events new ids: a creation and a deletion showing the same event are one update.
        await matchRotatedIDs(&plan, views: views)
        if !dryRun, !(await writer.flushPending(progress: &progress)) {
            throw SyncError(.state, "the sync state could not be saved (see the file's error above)")
        }

        // 4. Write (each side's writes in batches, state rows after each batch), then the occurrences of
        //    touched series, then the cursors.
        var failedFrom = Set<SyncSide>()
        if !dryRun {
            for side in SyncSide.allCases {
                failedFrom.formUnion(await writer.apply(plan.writes.filter { $0.target == side }, to: side, progress: &progress))
            }
            try await writer.saveConflicts(plan.conflicts, items: progress.items)
        } else {
            for write in plan.writes { progress.count(write.kind, to: write.target, matchedByContent: write.matchedByContent) }
        }
        progress.report.conflicts = plan.conflicts.map(\.report)
        if !dryRun, progress.report.interrupted == true || engine.shouldStop() {
            // Stopped: the occurrences wait for the next run (their rows stay as they were, no cursor is stored).
            progress.report.interrupted = true
            failedFrom.formUnion(SyncSide.allCases)
        } else {
            failedFrom.formUnion(try await syncOccurrences(plan.seriesToCompare))
        }
        progress.countUnchanged(options.direction)

        // 5. The echo check, then the cursors.
        if !dryRun {
            let now = engine.now()
            var cursors: [(SyncSide, String?)] = []
            var unechoed: [(side: SyncSide, items: [Int], occurrences: [OccurrenceUpdate])] = []
            for side in SyncSide.allCases {
                guard !failedFrom.contains(side) else {
                    // No follow-up read after a failed write (no cursor is stored): every update is read by id.
                    unechoed.append((side, (progress.updatedSingles[side] ?? [:]).keys.sorted(), progress.updatedOccurrences[side] ?? []))
                    continue
                }
                var cursor: String? = reads[side].cursor
                // A side this run wrote to is read once more, so that the stored cursor lies past this run's
                // own writes: Graph's delta compares two sync states, so a copy created after the first read
                // and deleted by the user before the next one would never be reported removed. When that
                // read holds more than echoes, no cursor is stored: the next run reads the side in full.
                if !(progress.writtenTo[side] ?? []).isEmpty {
                    let followUp = await echoCheck.cursorPastOwnWrites(side, from: reads[side].cursor, progress: &progress)
                    cursor = followUp.cursor
                    unechoed.append((side, followUp.unechoed, followUp.unechoedOccurrences))
                }
                cursors.append((side, cursor.map { SyncWindow.cursor($0, roundKey: roundKey) }))
            }
            // An update the service answered as done but did not apply: its item goes back to its state before
            // the run, and no cursor is stored, so the next run reads the edit again and writes it again.
            // (Kept, the state would say both sides agree; the next full read would then find the unchanged
            // event "changed" and carry it back over the edit.)
            var putBack: [Int] = []
            var occurrencesPutBack = false
            for (side, items, occurrences) in unechoed {
                putBack += await echoCheck.unapplied(items, on: side, progress: &progress)
                let restorations = await echoCheck.unappliedOccurrences(occurrences, on: side, progress: &progress)
                if !restorations.isEmpty {
                    await writer.restoreOccurrences(restorations, on: side, report: &progress.report)
                    occurrencesPutBack = true
                }
            }
            if !putBack.isEmpty || occurrencesPutBack {
                _ = await writer.persist(rows: putBack, forget: [], progress: &progress)  // a failure is reported there
                cursors = []
            }
            let stored = cursors
            do {
                try await engine.store.write { t in
                    for (side, cursor) in stored { try t.setCursor(cursor, pair: pair, side: side, at: now) }
                }
            } catch {
                throw SyncError.wrap(error)
            }
        }
        progress.report.finished = engine.now()
        return progress.report
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
            let record = progress.items[entry.item]
            guard record.seriesKey == SyncItemKind.series, record.id(.a) != nil, record.id(.b) != nil else { continue }
            requestedFrom[entry.item, default: []].insert(entry.from)
        }
        let chosen = requestedFrom.keys.sorted()
        guard !chosen.isEmpty else { return [] }
        // Masters this run wrote (before any occurrence write): their exceptions may be gone by that write.
        let mastersWritten = Sides(a: progress.writtenTo[.a] ?? [], b: progress.writtenTo[.b] ?? [])

        // 1. Both sides listed once (series and occurrences), for every series and both directions, with each
        //    side's masters.
        guard let listings = await reader.listSeries(chosen, items: progress.items, report: &progress.report) else {
            return Set(SyncSide.allCases)
        }

        // 2. The stored occurrences of these series.
        let pair = self.pair
        let rowIDs = chosen.compactMap { progress.items[$0].rowID }
        let storedRows: [Int64: [SyncOccurrenceRecord]]
        do {
            storedRows = rowIDs.isEmpty ? [:] : try await engine.store.read { try $0.occurrences(pair: pair, itemIDs: rowIDs) }
        } catch {
            throw SyncError.wrap(error)
        }

        // 3. Each series on each side, and the occurrences a side no longer lists, read by id (one request per side).
        let (series, stored) = await reader.series(
            chosen, read: listings, items: progress.items, createdSeries: progress.createdSeries, storedRows: storedRows, planner: planner,
            report: &progress.report)

        // 4. The three-way comparison of each occurrence.
        let decided = planner.planOccurrences(
            series: series, stored: stored, requestedFrom: requestedFrom, mastersWritten: mastersWritten, items: progress.items,
            dryRun: dryRun, now: engine.now())
        progress.report.notices += decided.notices
        progress.report.conflicts += decided.conflicts.map(\.report)
        if dryRun {
            for write in decided.writes where write.refused == nil { progress.count(.update, to: write.target) }
            return []
        }
        // The losing versions are kept before anything is written over them.
        try await writer.saveConflicts(decided.conflicts, items: progress.items)

        // 5. The writes, each side's in one batch, then the state rows of the ones that landed.
        return await writer.writeOccurrences(decided.writes, stored: stored, rows: decided.rows, progress: &progress)
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
        run.progress.items = SyncItems(stored)
        for side in SyncSide.allCases {
            let source = side.other
            let endpoint = run.reader.endpoints[side]
            var ids = Set(stored.filter { $0.origin == source }.compactMap { $0.id(side) })
            do {
                let lookup = OriginLookup(property: OriginMarker.calendarKeyProperty, value: run.planner.calendarKey(source))
                let found = try await endpoint.provider.findEvents(origin: lookup, in: endpoint.calendarID)
                ids.formUnion(found.filter { $0.seriesID == nil }.map(\.id))
                // Never an original of this side, whatever marker an earlier version may have written into it.
                ids.subtract(stored.filter { $0.origin == side }.compactMap { $0.id(side) })
                run.progress.report.requests += 1
            } catch {
                throw SyncError(reading: error, side: side, account: endpoint.provider.account)
            }
            let sorted = ids.sorted()
            if dryRun {
                if side == .b { run.progress.report.aToB.deleted = sorted.count } else { run.progress.report.bToA.deleted = sorted.count }
                continue
            }
            let outcomes = await endpoint.provider.applyWrites(sorted.map { .delete(id: $0) }, in: endpoint.calendarID, maxConcurrent: 4)
            run.progress.report.requests += 1
            var gone: [Int64] = []
            for (id, outcome) in zip(sorted, outcomes) {
                switch outcome {
                case .success:
                    run.progress.count(.delete, to: side)
                    gone += stored.filter { $0.id(side) == id }.compactMap(\.rowID)
                case .failure(let error):
                    if side == .b { run.progress.report.aToB.failed += 1 } else { run.progress.report.bToA.failed += 1 }
                    run.progress.report.errors.append(
                        SyncItemError(side: side, eventID: id, title: nil, message: (error as? CalendarError)?.description ?? "\(error)"))
                }
            }
            _ = await run.writer.persist(rows: [], forget: gone, progress: &run.progress)
        }
        run.progress.report.finished = engine.now()
        return run.progress.report
    }
}
