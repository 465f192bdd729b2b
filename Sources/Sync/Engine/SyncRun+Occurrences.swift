import CalendarBridge
import Foundation

extension SyncRun {
    /// One side's occurrence of a series, as this run read it.
    enum OccurrenceNow {
        case live(Event)
        /// Cancelled: listed cancelled (Google, which can restore it), or known cancelled without an event
        /// (Outlook: a read by id found it gone, or the state says so and nothing lists it).
        case cancelled(Event?)

        var event: Event? {
            switch self {
            case .live(let e): e
            case .cancelled(let e): e
            }
        }
    }

    /// A series on one side: its master and its occurrences by original start (live in the window, and the
    /// exceptions and cancellations its listing names).
    struct SeriesOnSide {
        var master: Event
        var occurrences: [OccurrenceKey: OccurrenceNow] = [:]
        var liveInWindow = Set<OccurrenceKey>()
    }

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

    /// One occurrence write and the state row that follows it.
    struct OccurrenceWrite {
        var item: Int
        var key: OccurrenceKey
        var target: SyncSide
        var write: EventWrite
        var title: String
        /// The row once the write succeeded (the target's state filled in from its answer).
        var row: SyncOccurrenceRecord
        var targetMaster: Event
        /// Why this write is not sent (it then fails, and is decided again next run).
        var refused: String?
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
                    both[side].occurrences[Self.key(e)] = e.status == .cancelled ? .cancelled(e) : .live(e)
                }
                for e in expandedOf[side][id] ?? [] {
                    both[side].occurrences[Self.key(e)] = .live(e)
                    both[side].liveInWindow.insert(Self.key(e))
                }
            }
            series[index] = both
            if let rowID = items[index].rowID, !createdSeries.contains(index) {
                for row in storedRows[rowID] ?? [] { stored[index, default: [:]][OccurrenceKey(stored: row.key)] = row }
            }
        }
        let planners = Sides(a: occurrencePlanner(from: .a), b: occurrencePlanner(from: .b))
        for side in SyncSide.allCases {
            var asked: [(item: Int, key: OccurrenceKey, query: OccurrenceQuery)] = []
            for (index, both) in series.sorted(by: { $0.key < $1.key }) {
                for key in Self.candidateKeys(both, stored: stored[index]) where both[side].occurrences[key] == nil {
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
        var writes: [OccurrenceWrite] = []
        var conflicts: [PlannedConflict] = []
        var rows: [Int: [SyncOccurrenceRecord]] = [:]
        let now = engine.now()
        for (index, both) in series.sorted(by: { $0.key < $1.key }) {
            guard let rowID = items[index].rowID ?? (dryRun ? -1 : nil) else { continue }
            let hasBase = stored[index].map { !$0.isEmpty } ?? false
            var kept: [SyncOccurrenceRecord] = []
            for key in Self.candidateKeys(both, stored: stored[index]) {
                guard let nowA = both.a.occurrences[key], let nowB = both.b.occurrences[key] else {
                    if let row = stored[index]?[key] { kept.append(row) }  // unknown on a side: as stored
                    continue
                }
                let current = Sides(a: nowA, b: nowB)
                let state = Sides(a: occurrenceState(nowA, master: both.a.master, on: .a), b: occurrenceState(nowB, master: both.b.master, on: .b))
                let decided = decideOccurrence(
                    index, current: current, state: state, base: hasBase ? stored[index]?[key] : nil, hasBase: hasBase,
                    requestedFrom: requestedFrom[index] ?? [], masterWrittenTo: Sides(a: mastersWritten.a.contains(index), b: mastersWritten.b.contains(index)))
                if let conflict = decided.conflict { conflicts.append(conflict) }
                var row = SyncOccurrenceRecord(itemID: rowID, key: key.description, stateA: state.a, stateB: state.b, updated: now)
                guard let winner = decided.winner, options.direction.carries(from: winner) else {
                    kept.append(row)
                    continue
                }
                let loser = winner.other
                let source: Event?
                switch current[winner] {
                case .live(let e): source = e
                case .cancelled: source = nil
                }
                guard let target = current[loser].event else {
                    // Cancelled for good on the other side (Outlook cannot restore an occurrence): it stays so.
                    if source != nil {
                        report.notices.append(
                            "'\(source?.title ?? "")' (\(key)): side \(loser.rawValue.uppercased()) cannot restore a cancelled occurrence; it stays cancelled there")
                    }
                    kept.append(row)
                    continue
                }
                if source == nil, target.status == .cancelled {
                    kept.append(row)
                    continue
                }
                let ontoOriginal = items[index].origin == loser
                let entry = planners[winner].carryOccurrence(
                    master: both[winner].master, target: target, source: source, targetMaster: both[loser].master, ontoOriginal: ontoOriginal)
                guard let write = entry.write else {
                    kept.append(row)
                    continue
                }
                row.updated = now
                let title = source?.title ?? target.title
                writes.append(
                    OccurrenceWrite(
                        item: index, key: key, target: loser, write: write, title: title, row: row, targetMaster: both[loser].master,
                        refused: ontoOriginal
                            ? invitationRefusal(title: title, attendees: [target.attendees, both[loser].master.attendees], on: loser, deleting: write.isDelete)
                            : nil))
            }
            rows[index] = kept
        }
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
                    let state = occurrenceState(written, master: write.targetMaster, on: side)
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

    /// The occurrences compared: those live in the window on either side, and stored ones either side still names.
    static func candidateKeys(_ both: Sides<SeriesOnSide>, stored: [OccurrenceKey: SyncOccurrenceRecord]?) -> [OccurrenceKey] {
        var keys = both.a.liveInWindow.union(both.b.liveInWindow)
        for key in (stored ?? [:]).keys where both.a.occurrences[key] != nil || both.b.occurrences[key] != nil { keys.insert(key) }
        return keys.sorted()
    }

    static func key(_ e: Event) -> OccurrenceKey { OccurrenceKey(e.originalStart ?? e.start) }

    /// The planner of occurrence writes from `side` to the other.
    func occurrencePlanner(from side: SyncSide) -> CopyPlanner {
        let source = endpoint(side), target = endpoint(side.other)
        return CopyPlanner(
            sourceProvider: source.provider.provider, sourceAccount: source.identity, legacySourceAccount: source.provider.account,
            sourceCalendarID: source.calendarID, targetCalendarID: target.calendarID, target: target.provider.capabilities,
            options: CopyOptions(window: window.range, zone: window.zone, fields: options.fields))
    }

    /// A side's occurrence as stored: it follows its series (with its content hash), it is cancelled, or the
    /// content hash of the exception (what a copy of it to the other side would carry).
    func occurrenceState(_ now: OccurrenceNow, master: Event, on side: SyncSide) -> String {
        guard case .live(let e) = now, e.status != .cancelled else { return SyncOccurrenceRecord.cancelled }
        let projection = projection(from: side)
        let copy = projection.copy(of: e)
        let content = CopyProjection.contentHash(of: copy)
        if CopyPlanner.followsMaster(copy, anchor: e.originalStart ?? e.start, masterCopy: projection.copy(of: master), masterStart: master.start) {
            return SyncOccurrenceRecord.followsSeries(content: content)
        }
        return content
    }

    /// Which side's version of one occurrence both sides get (nil: nothing to carry), and the conflict, if any.
    func decideOccurrence(
        _ index: Int, current: Sides<OccurrenceNow>, state: Sides<String>, base: SyncOccurrenceRecord?, hasBase: Bool,
        requestedFrom: Set<SyncSide>, masterWrittenTo: Sides<Bool>
    ) -> (winner: SyncSide?, conflict: PlannedConflict?) {
        let follows = Sides(a: SyncOccurrenceRecord.isFollowsSeries(state.a), b: SyncOccurrenceRecord.isFollowsSeries(state.b))
        if (follows.a && follows.b) || (state.a == SyncOccurrenceRecord.cancelled && state.b == SyncOccurrenceRecord.cancelled) { return (nil, nil) }
        if case .live(let ea) = current.a, case .live(let eb) = current.b, equivalent(ea, eb) { return (nil, nil) }
        guard hasBase else {
            // No stored occurrences: from the side whose occurrences changed; when both, an exception or a
            // cancellation before an occurrence that follows its series, else A's.
            if requestedFrom.count == 1, let from = requestedFrom.first { return (from, nil) }
            if follows.a { return (.b, nil) }
            return (.a, nil)
        }
        let was = Sides(a: base?.stateA ?? SyncOccurrenceRecord.followsSeries, b: base?.stateB ?? SyncOccurrenceRecord.followsSeries)
        // Following its series then and now is no change, whatever the series' content.
        var changed = Sides(
            a: state.a != was.a && !(follows.a && SyncOccurrenceRecord.isFollowsSeries(was.a)),
            b: state.b != was.b && !(follows.b && SyncOccurrenceRecord.isFollowsSeries(was.b)))
        var reapply: SyncSide?
        var leftBehind = Set<SyncSide>()
        for side in SyncSide.allCases where changed[side] {
            if masterWrittenTo[side] && follows[side] {
                // Following its series again on a side whose master this run wrote: it lost its exception by
                // that write (a new rule or start drops them), so the other side's version goes back.
                changed[side] = false
                reapply = side.other
            } else if let content = SyncOccurrenceRecord.followedContent(was[side]), state[side] == content {
                // An exception whose content is what it had when it followed its series: the series changed,
                // not the occurrence (Google keeps an exception's content then). It still follows its series.
                changed[side] = false
                leftBehind.insert(side)
            }
        }
        // Brought back to its series from the other side's version where that one follows its series (not
        // when it was left behind too, nor when it is cancelled there for good: a live occurrence stays).
        if leftBehind.count == 1, let side = leftBehind.first, follows[side.other] { reapply = side.other }
        switch (changed.a, changed.b) {
        case (false, false): return (reapply, nil)
        case (true, false): return (.a, nil)
        case (false, true): return (.b, nil)
        case (true, true): break
        }
        let record = items[index]
        switch (current.a, current.b) {
        case (.live(let ea), .live(let eb)):
            let winner = conflictWinner(ea, eb)
            let reason = winnerReason(ea, eb, winner: winner)
            let report = SyncConflict(itemID: record.rowID, title: (winner == .a ? ea : eb).title, a: ea, b: eb, winner: winner, reason: reason)
            return (winner, PlannedConflict(item: index, report: report))
        case (.cancelled(let cancelled), .live(let live)), (.live(let live), .cancelled(let cancelled)):
            let cancelledSide: SyncSide = { if case .cancelled = current.a { return .a } else { return .b } }()
            // Cancelled against an edit: the edit wins, as for items, where the cancelled side can restore it.
            if cancelled != nil { return (cancelledSide.other, nil) }
            var gone = live
            gone.id = ""
            gone.status = .cancelled
            gone.start = live.originalStart ?? live.start
            let reason = "cancelled on \(cancelledSide.rawValue.uppercased()), which cannot restore an occurrence; the edit on \(cancelledSide.other.rawValue.uppercased()) is kept in sync.db"
            let a = cancelledSide == .a ? gone : live, b = cancelledSide == .b ? gone : live
            let report = SyncConflict(itemID: record.rowID, title: live.title, a: a, b: b, winner: cancelledSide, reason: reason)
            return (cancelledSide, PlannedConflict(item: index, report: report))
        case (.cancelled, .cancelled):
            return (nil, nil)
        }
    }

    /// Replaces the stored occurrences of each series with `rows`, in one transaction. Returns false (and
    /// reports it) when the state cannot be written.
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
                guard occurrenceState(.live(event), master: update.targetMaster, on: side) != update.written else { continue }
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
        for record in stored { run.appendItem(record) }
        for side in SyncSide.allCases {
            let source = side.other
            let endpoint = run.endpoint(side)
            var ids = Set(stored.filter { $0.origin == source }.compactMap { $0.id(side) })
            do {
                let lookup = OriginLookup(property: OriginMarker.calendarKeyProperty, value: run.calendarKey(source))
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
