import CalendarBridge
import Foundation

/// One run of one pair: the reads, the three-way comparison, the writes and the state updates.
struct SyncRun {
    let engine: SyncEngine
    let pair: String
    let endpoints: Sides<SyncEngine.Endpoint>
    let options: SyncPairOptions
    let dryRun: Bool
    /// The instants both sides are kept in step over (`SyncWindow.round`).
    let window: CopyWindow
    /// The pair's decisions, and its projections, hashes and markers.
    let planner: SyncPlanner
    var report: SyncReport
    /// The pair's items: as stored, plus the ones this run adds.
    var items = SyncItems()
    /// Items that got a write, per receiving side (series: also occurrence writes).
    var writtenTo: [SyncSide: Set<Int>] = [.a: [], .b: []]
    /// Ids this run deleted, per side (their removals come back in the follow-up read).
    var deletedIDs: [SyncSide: Set<String>] = [.a: [], .b: []]
    /// Sides whose stored cursor this run forgot before writing to them (`forgetCursor(beforeWritingTo:)`).
    var cursorForgotten = Set<SyncSide>()
    /// Series items whose master this run created on a side (a copy made or made again): their occurrences
    /// are compared as if seen for the first time.
    var createdSeries = Set<Int>()
    /// Single events this run updated, per receiving side, with both sides' hashes from before the update: the
    /// follow-up read must echo each, or it is read by id (`unapplied`).
    var updatedSingles: [SyncSide: [Int: Sides<String?>]] = [:]
    /// Occurrences this run updated, per receiving side (`unappliedOccurrences`).
    var updatedOccurrences: [SyncSide: [OccurrenceUpdate]] = [:]

    init(engine: SyncEngine, pair: String, a: SyncEngine.Endpoint, b: SyncEngine.Endpoint, options: SyncPairOptions, dryRun: Bool)
        async throws(SyncError)
    {
        self.engine = engine
        self.pair = pair
        self.endpoints = Sides(a: a, b: b)
        self.options = options
        self.dryRun = dryRun
        let now = engine.now()
        self.window = options.window(now: now, zone: engine.zone)
        self.planner = SyncPlanner(pair: pair, options: options, window: window, calendars: Sides(a: SyncCalendar(a), b: SyncCalendar(b)))
        self.report = SyncReport(name: pair, dryRun: dryRun, started: now)
        _ = try await engine.store.pairRecord(named: pair)
    }

    func endpoint(_ side: SyncSide) -> SyncEngine.Endpoint { endpoints[side] }

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
        items = SyncItems(stored.items)
        let roundKey = SyncWindow.key(window.range)

        // 1. What changed on each side (both at once).
        async let readA = Self.readChanges(endpoint(.a), side: .a, window: window.listingRange, stored: stored.cursors[.a], roundKey: roundKey)
        async let readB = Self.readChanges(endpoint(.b), side: .b, window: window.listingRange, stored: stored.cursors[.b], roundKey: roundKey)
        let reads: Sides<SideChanges>
        do {
            reads = Sides(a: try await readA, b: try await readB)
        } catch {
            throw error as? SyncError ?? SyncError(.provider, String(describing: error))
        }
        for side in SyncSide.allCases {
            let read = reads[side]
            report.requests += read.requests
            if read.full { report.fullReads.append(side) }
            if let notice = read.notice { report.notices.append(notice) }
        }

        // 2. Each side's view: current single events and masters, proven removals, touched series.
        var views = Sides(SyncSideView())
        for side in SyncSide.allCases {
            views[side] = await view(of: reads[side], side: side)
        }

        // 3. Copies found on either side that the state does not link yet (a crash after the write) linked,
        //    then everything reported compared and planned.
        let plan = planner.plan(views: views, items: &items, now: engine.now())
        report.notices += plan.notices
        if !dryRun, !(await flushPending()) { throw SyncError(.state, "the sync state could not be saved (see the file's error above)") }

        // 4. Write (each side's writes in batches, state rows after each batch), then the occurrences of
        //    touched series, then the cursors.
        var failedFrom = Set<SyncSide>()
        if !dryRun {
            for side in SyncSide.allCases {
                failedFrom.formUnion(await apply(plan.writes.filter { $0.target == side }, to: side))
            }
            try await saveConflicts(plan.conflicts)
        } else {
            for write in plan.writes { count(write.kind, to: write.target) }
        }
        report.conflicts = plan.conflicts.map(\.report)
        failedFrom.formUnion(try await syncOccurrences(plan.seriesToCompare))
        countUnchanged(plan)

        if !dryRun {
            let now = engine.now()
            var cursors: [(SyncSide, String?)] = []
            var unechoed: [(side: SyncSide, items: [Int], occurrences: [OccurrenceUpdate])] = []
            for side in SyncSide.allCases {
                guard !failedFrom.contains(side) else {
                    // No follow-up read after a failed write (no cursor is stored): every update is read by id.
                    unechoed.append((side, (updatedSingles[side] ?? [:]).keys.sorted(), updatedOccurrences[side] ?? []))
                    continue
                }
                var cursor: String? = reads[side].cursor
                // A side this run wrote to is read once more, so that the stored cursor lies past this run's
                // own writes: Graph's delta compares two sync states, so a copy created after the first read
                // and deleted by the user before the next one would never be reported removed. When that
                // read holds more than echoes, no cursor is stored: the next run reads the side in full.
                if !(writtenTo[side] ?? []).isEmpty {
                    let followUp = await cursorPastOwnWrites(side, from: reads[side].cursor)
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
                putBack += await unapplied(items, on: side)
                if await unappliedOccurrences(occurrences, on: side) { occurrencesPutBack = true }
            }
            if !putBack.isEmpty || occurrencesPutBack {
                _ = await persist(rows: putBack, forget: [])  // a failure is reported there
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
        report.finished = engine.now()
        return report
    }

    // MARK: reading

    /// One side's change read, as the run needs it.
    struct SideChanges: Sendable {
        var changed: [Event]
        var removed: [RemovedEvent]
        var cursor: String
        var full: Bool
        var requests: Int
        var notice: String?
        /// Changed events whose markers the read established although change reads carry none (`ChangeSet`).
        var markersRead: Set<String> = []
    }

    /// Reads a side's changes from its stored cursor; a cursor of another window round, or one the service
    /// no longer knows, means a full read (reported as a notice).
    static func readChanges(_ endpoint: SyncEngine.Endpoint, side: SyncSide, window: TimeRange, stored: String?, roundKey: String)
        async throws(SyncError) -> SideChanges
    {
        let account = endpoint.provider.account
        var cursor = SyncWindow.providerCursor(stored, roundKey: roundKey)
        var notice: String?
        if stored != nil && cursor == nil {
            notice = "side \(side.rawValue.uppercased()): the window moved on to a new week: read in full and reconciled"
        }
        var requests = 0
        for _ in 0..<2 {
            let answer: ChangeRead
            do {
                answer = try await endpoint.provider.changes(calendarID: endpoint.calendarID, window: window, cursor: cursor)
            } catch {
                throw SyncError(reading: error, side: side, account: account)
            }
            requests += 1
            switch answer {
            case .changes(let set):
                return SideChanges(
                    changed: set.changed, removed: set.removed, cursor: set.cursor, full: set.isFullRead,
                    requests: max(requests - 1 + set.requests, requests), notice: notice, markersRead: set.markersRead)
            case .cursorExpired(let expiry) where cursor != nil:
                notice = "side \(side.rawValue.uppercased())'s change cursor cannot be continued (\(expiry.message)"
                    + (expiry.providerCode.map { ", \($0)" } ?? "") + "): read in full and reconciled"
                cursor = nil
            case .cursorExpired(let expiry):
                throw SyncError(.provider, "side \(side.rawValue.uppercased()): a full read was refused: \(expiry.message)", account: account, side: side)
            }
        }
        throw SyncError(.provider, "side \(side.rawValue.uppercased()): the change read did not settle", account: account, side: side)
    }

    /// Turns a change read into units: occurrences name their master (read by id where the read carried
    /// none: Graph), items without markers are read by id when the service leaves markers out of change
    /// reads (Graph), and each reported removal of a known item is checked by a read by id (proof).
    mutating func view(of read: SideChanges, side: SyncSide) async -> SyncSideView {
        let endpoint = self.endpoint(side)
        var view = SyncSideView(full: read.full)
        let known = Set(items.records.compactMap { $0.id(side) })
        var mastersNeeded = Set<String>()
        for event in read.changed {
            if let seriesID = event.seriesID {
                view.touchedSeries.insert(seriesID)
                mastersNeeded.insert(seriesID)
            } else if event.status == .cancelled {
                if known.contains(event.id) { view.gone.insert(event.id) }
            } else {
                view.units[event.id] = event
            }
        }
        var removals: [String] = []
        var unknownRemoval = false
        for removed in read.removed {
            if let seriesID = removed.seriesID {
                view.touchedSeries.insert(seriesID)
            } else if known.contains(removed.id) {
                removals.append(removed.id)
            } else {
                unknownRemoval = true
            }
        }
        // A removal the read cannot place (Graph names only the occurrence's id): every series of this side
        // is compared, and its master read, so a cancelled occurrence or a deleted series is not missed.
        if unknownRemoval {
            for item in items.records where item.seriesKey == SyncItemKind.series {
                if let id = item.id(side) {
                    view.touchedSeries.insert(id)
                    mastersNeeded.insert(id)
                }
            }
        }
        mastersNeeded.subtract(view.units.keys)
        // After a full read, known items it did not list are read by id: absence is no proof, but a read by
        // id answering gone is (a deletion the expired cursor would have reported).
        if read.full {
            let listed = Set(view.units.keys).union(mastersNeeded).union(removals)
            removals += known.subtracting(listed).sorted()
        }
        // Unknown items without markers, where the service's change read leaves markers out (and this read
        // did not establish them).
        let unmarked = !endpoint.provider.changeReadsCarryMarkers
            ? view.units.values.filter { $0.origin == nil && !known.contains($0.id) && !read.markersRead.contains($0.id) }.map(\.id) : []
        let ids = Array(Set(removals).union(mastersNeeded).union(unmarked)).sorted()
        guard !ids.isEmpty else { return view }
        let probes = await endpoint.provider.probeEvents(ids: ids, calendarID: endpoint.calendarID)
        report.requests += (ids.count + 19) / 20
        for (id, probe) in zip(ids, probes) {
            switch probe {
            case .exists(let event) where event.seriesID == nil:
                // A master, an unmarked item with its marker, or a reported removal that still exists (it
                // left the change read's window): a change, never a deletion.
                view.units[id] = event
                view.gone.remove(id)
            case .exists:
                continue
            case .gone:
                if known.contains(id) { view.gone.insert(id) }
                view.units[id] = nil
                view.touchedSeries.remove(id)
            case .unknown(let why):
                if removals.contains(id) {
                    report.errors.append(
                        SyncItemError(side: side, eventID: id, title: nil, message: "reported removed, but a read by id failed (kept): \(why)"))
                }
            }
        }
        return view
    }

    /// A second change read of `side`: its cursor when it holds nothing but the echoes of this run's own writes,
    /// nil (no cursor: the next run reads the side in full) when it holds anything else, such as an edit the
    /// user made during the run; and the single events and occurrences this run updated that it does not show
    /// as written (all of them when it cannot be read).
    mutating func cursorPastOwnWrites(_ side: SyncSide, from cursor: String) async
        -> (cursor: String?, unechoed: [Int], unechoedOccurrences: [OccurrenceUpdate])
    {
        let endpoint = self.endpoint(side)
        let updated = (updatedSingles[side] ?? [:]).keys.sorted()
        let occurrences = updatedOccurrences[side] ?? []
        guard case .changes(let set)? = try? await endpoint.provider.changes(calendarID: endpoint.calendarID, window: window.listingRange, cursor: cursor)
        else { return (nil, updated, occurrences) }
        report.requests += set.requests
        // An echo is the event as written: its id alone is no proof (a series written in the same run lists
        // every occurrence again).
        let echoed = Dictionary(set.changed.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        let unechoed = updated.filter { index in
            guard let id = items[index].id(side) else { return false }
            return echoed[id].map { planner.sideHash($0, on: side) != items[index].hash(side) } ?? true
        }
        let unechoedOccurrences = occurrences.filter { update in
            echoed[update.id].map { planner.occurrenceState(.live($0), master: update.targetMaster, on: side) != update.written } ?? true
        }
        return (onlyEchoes(set, on: side) ? set.cursor : nil, unechoed, unechoedOccurrences)
    }

    /// Whether a change read of `side` holds nothing but the echoes of this run's own writes.
    func onlyEchoes(_ set: ChangeSet, on side: SyncSide) -> Bool {
        let written = writtenTo[side] ?? []
        let writtenSeries = Set(written.compactMap { items[$0].seriesKey == SyncItemKind.series ? items[$0].id(side) : nil })
        for event in set.changed {
            if let seriesID = event.seriesID {
                guard writtenSeries.contains(seriesID) else { return false }
            } else {
                guard let index = items.index(side, event.id), written.contains(index),
                    planner.sideHash(event, on: side) == items[index].hash(side)
                else { return false }
            }
        }
        for removed in set.removed {
            if let seriesID = removed.seriesID {
                guard writtenSeries.contains(seriesID) else { return false }
            } else if !(deletedIDs[side] ?? []).contains(removed.id) {
                // An occurrence this run cancelled (Graph names only its id), or something else: only the
                // former is an echo, and only where this run wrote occurrences.
                guard items.index(side, removed.id) == nil, !writtenSeries.isEmpty else { return false }
            }
        }
        return true
    }

    /// Of single events this run updated on `side` that its follow-up read did not echo, the ones whose update
    /// did not land, read by id: each is put back to its state before the update and reported (the caller
    /// saves them). One the read cannot tell about counts as not landed: writing an update twice is harmless.
    mutating func unapplied(_ indices: [Int], on side: SyncSide) async -> [Int] {
        let indices = indices.filter { items[$0].id(side) != nil }
        guard !indices.isEmpty else { return [] }
        let probes = await probe(ids: indices.compactMap { items[$0].id(side) }, on: side)
        var putBack: [Int] = []
        for (index, probe) in zip(indices, probes) {
            var title: String?
            switch probe {
            case .exists(let event):
                guard planner.sideHash(event, on: side) != items[index].hash(side) else { continue }
                title = event.title
            case .gone: continue  // deleted meanwhile: the next read reports it
            case .unknown: break
            }
            guard let before = updatedSingles[side]?[index] else { continue }
            for s in SyncSide.allCases { items.set(index, s, id: items[index].id(s), hash: before[s]) }
            putBack.append(index)
            reportUnapplied(on: side, id: items[index].id(side), title: title, what: "event")
        }
        return putBack
    }

    /// Reads `ids` on `side` by id, in the provider's batches, counting the requests.
    mutating func probe(ids: [String], on side: SyncSide) async -> [EventProbe] {
        let endpoint = self.endpoint(side)
        let perBatch = max(1, engine.batchSize ?? endpoint.provider.capabilities.maxWritesPerBatch)
        report.requests += (ids.count + perBatch - 1) / perBatch
        return await endpoint.provider.probeEvents(ids: ids, calendarID: endpoint.calendarID)
    }

    /// Counts an update that did not land as failed (it was counted as made) and reports it.
    mutating func reportUnapplied(on side: SyncSide, id: String?, title: String?, what: String) {
        if side == .b {
            report.aToB.updated -= 1
            report.aToB.failed += 1
        } else {
            report.bToA.updated -= 1
            report.bToA.failed += 1
        }
        report.errors.append(SyncItemError(
            side: side, eventID: id, title: title,
            message: "\(endpoint(side).provider.provider) answered the update as done, but the \(what) is as it was; it is written again on the next run"))
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

    // MARK: writing

    /// Batches sent at once by `apply` (as `copy` does): one batch at a time made a first sync of 1,000
    /// events wait for 20 Google batches in a row, 0.84 s of its 2.5 s.
    static let concurrentBatches = 4

    /// Applies the writes to one side in batches, `concurrentBatches` at a time; the state rows of each
    /// group of batches are saved right after it.
    /// - Returns: the sides whose changes could not all be applied (their stored cursors are not advanced).
    mutating func apply(_ writes: [PlannedWrite], to side: SyncSide) async -> Set<SyncSide> {
        guard !writes.isEmpty else { return [] }
        guard await forgetCursor(beforeWritingTo: side) else { return Set(SyncSide.allCases) }
        let endpoint = self.endpoint(side)
        let perBatch = max(1, engine.batchSize ?? endpoint.provider.capabilities.maxWritesPerBatch)
        let size = perBatch * Self.concurrentBatches
        var failedFrom = Set<SyncSide>()
        for start in stride(from: 0, to: writes.count, by: size) {
            var batch = Array(writes[start..<min(start + size, writes.count)])
            // Updates of originals on this side: read them (one batch) and merge the carried fields in. Deletions
            // of originals where the service mails a deleted meeting's attendees: read them to see whether they
            // are meetings.
            let mailsAttendees = endpoint.provider.capabilities.invitations == .sentByService
            let ontoOriginals = batch.indices.filter {
                let write = batch[$0]
                guard items[write.item].origin == side, write.write.targetID != nil else { return false }
                switch write.kind {
                case .update: return write.source != nil
                case .delete: return mailsAttendees
                case .create: return false
                }
            }
            /// Why a write onto an original is not sent (the write then fails, and is tried again next run).
            var unreadable: [Int: String] = [:]
            if !ontoOriginals.isEmpty {
                let probes = await probe(ids: ontoOriginals.compactMap { batch[$0].write.targetID }, on: side)
                for (position, probe) in zip(ontoOriginals, probes) {
                    let deleting = batch[position].kind == .delete
                    switch probe {
                    case .exists(let original):
                        let refusal = planner.invitationRefusal(
                            title: original.title, attendees: [original.attendees], on: side, deleting: deleting)
                        if let refusal {
                            unreadable[position] = refusal
                        } else if case .update(let planned, _) = batch[position].write, let source = batch[position].source {
                            var (merged, fields) = mergedIntoOriginal(planned, source: source, original: original, from: batch[position].sourceSide)
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
            var outcomes: [EventWriteResult] = batch.indices.map { .failure(CalendarError(.invalidResponse, unreadable[$0] ?? "the batch returned no outcome for this write")) }
            for (position, answer) in zip(sent, answers) { outcomes[position] = answer }
            report.requests += (sent.count + perBatch - 1) / perBatch
            var changedRows: [Int] = []
            var forgotten: [Int64] = []
            for (position, write) in batch.enumerated() {
                let outcome: EventWriteResult =
                    position < outcomes.count ? outcomes[position] : .failure(CalendarError(.invalidResponse, "the batch returned no outcome for this write"))
                switch outcome {
                case .success(.created(let event)), .success(.updated(let event)):
                    if write.kind == .update, items[write.item].seriesKey != SyncItemKind.series {
                        updatedSingles[side, default: [:]][write.item] = Sides(a: items[write.item].hash(.a), b: items[write.item].hash(.b))
                    }
                    items.set(write.item, side, id: event.id, hash: planner.sideHash(event, on: side))
                    if let hash = write.sourceHash, let sourceID = items[write.item].id(write.sourceSide) {
                        items.set(write.item, write.sourceSide, id: sourceID, hash: hash)
                    }
                    items[write.item].updated = engine.now()
                    if write.kind == .create, items[write.item].seriesKey == SyncItemKind.series { createdSeries.insert(write.item) }
                    changedRows.append(write.item)
                    writtenTo[side, default: []].insert(write.item)
                    count(write.kind, to: side)
                case .success(.deleted(let id)):
                    deletedIDs[side, default: []].insert(id)
                    if let rowID = items[write.item].rowID { forgotten.append(rowID) }
                    items.clear(write.item)
                    writtenTo[side, default: []].insert(write.item)
                    count(write.kind, to: side)
                case .failure(let error):
                    // Both cursors stay: the evidence this write followed (a change on one side, a removal
                    // on the other) must be read again.
                    failedFrom.formUnion(SyncSide.allCases)
                    if side == .b { report.aToB.failed += 1 } else { report.bToA.failed += 1 }
                    report.errors.append(
                        SyncItemError(side: side, eventID: write.write.targetID, title: write.title, message: (error as? CalendarError)?.description ?? "\(error)"))
                }
            }
            if !(await persist(rows: changedRows, forget: forgotten)) { failedFrom.formUnion(SyncSide.allCases) }
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

    mutating func count(_ kind: PlannedWrite.Kind, to side: SyncSide) {
        func bump(_ c: inout SyncCounts) {
            switch kind {
            case .create: c.created += 1
            case .update: c.updated += 1
            case .delete: c.deleted += 1
            }
        }
        if side == .b { bump(&report.aToB) } else { bump(&report.bToA) }
    }
}
