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
    var report: SyncReport
    /// The pair's items: as stored, plus the ones this run adds (indexes stay valid for the whole run).
    var items: [SyncItemRecord] = []
    /// Each side's event ids → index in `items` (kept by `appendItem`, `setItem`, `clearItem`).
    var itemsByID = Sides<[String: Int]>([:])
    /// Items whose state changed without a write (flushed before the writes).
    var pendingSaves = Set<Int>()
    var pendingForgets = Set<Int64>()
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
        for record in stored.items { appendItem(record) }
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
        var views = Sides(SideView())
        for side in SyncSide.allCases {
            views[side] = await view(of: reads[side], side: side)
        }

        // 3. Copies found on either side that the state does not link yet (a crash after the write): link them.
        adoptCopies(&views)

        // 4. Compare and plan.
        var plan = SyncPlan()
        decide(views: views, into: &plan)
        if !dryRun, !(await flushPending()) { throw SyncError(.state, "the sync state could not be saved (see the file's error above)") }

        // 5. Write (each side's writes in batches, state rows after each batch), then the occurrences of
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

    /// A side as this run sees it.
    struct SideView {
        /// Single events and series masters that changed (or, on a full read, all of them), by id.
        var units: [String: Event] = [:]
        /// Ids proven gone (reported removed, and a read by id answers gone).
        var gone = Set<String>()
        /// Series (master ids on this side) whose occurrences changed.
        var touchedSeries = Set<String>()
        var full = false
    }

    /// Turns a change read into units: occurrences name their master (read by id where the read carried
    /// none: Graph), items without markers are read by id when the service leaves markers out of change
    /// reads (Graph), and each reported removal of a known item is checked by a read by id (proof).
    mutating func view(of read: SideChanges, side: SyncSide) async -> SideView {
        let endpoint = self.endpoint(side)
        var view = SideView(full: read.full)
        let known = Set(items.compactMap { $0.id(side) })
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
            for item in items where item.seriesKey == SyncItemKind.series {
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
            return echoed[id].map { sideHash($0, on: side) != items[index].hash(side) } ?? true
        }
        let unechoedOccurrences = occurrences.filter { update in
            echoed[update.id].map { occurrenceState(.live($0), master: update.targetMaster, on: side) != update.written } ?? true
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
                guard let index = itemIndex(side, event.id), written.contains(index), sideHash(event, on: side) == items[index].hash(side)
                else { return false }
            }
        }
        for removed in set.removed {
            if let seriesID = removed.seriesID {
                guard writtenSeries.contains(seriesID) else { return false }
            } else if !(deletedIDs[side] ?? []).contains(removed.id) {
                // An occurrence this run cancelled (Graph names only its id), or something else: only the
                // former is an echo, and only where this run wrote occurrences.
                guard itemIndex(side, removed.id) == nil, !writtenSeries.isEmpty else { return false }
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
                guard sideHash(event, on: side) != items[index].hash(side) else { continue }
                title = event.title
            case .gone: continue  // deleted meanwhile: the next read reports it
            case .unknown: break
            }
            guard let before = updatedSingles[side]?[index] else { continue }
            for s in SyncSide.allCases { setItem(index, s, id: items[index].id(s), hash: before[s]) }
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

    // MARK: copies and markers

    /// The marker this pair writes into a copy of `event` from `side`.
    func marker(for event: Event, from side: SyncSide, hash: String) -> OriginMarker {
        let e = endpoint(side)
        return OriginMarker(provider: e.provider.provider, account: e.identity, calendarID: e.calendarID, eventID: event.id, contentHash: hash)
    }

    /// The key the copies of `side`'s events carry.
    func calendarKey(_ side: SyncSide) -> String {
        let e = endpoint(side)
        return OriginMarker.calendarKey(provider: e.provider.provider, account: e.identity, calendarID: e.calendarID)
    }

    /// Legacy local-name keys (copies made before stable identities) are recognised too.
    func isCopy(_ event: Event, of side: SyncSide) -> Bool {
        guard let origin = event.origin else { return false }
        let e = endpoint(side)
        return origin.calendarKey == calendarKey(side)
            || origin.calendarKey == OriginMarker.calendarKey(provider: e.provider.provider, account: e.provider.account, calendarID: e.calendarID)
    }

    /// Links copies the state does not know (their write landed, their state row did not): to the item of
    /// their source, or a new item whose copy side is this one.
    mutating func adoptCopies(_ views: inout Sides<SideView>) {
        for side in SyncSide.allCases {
            let other = side.other
            for (id, event) in views[side].units.sorted(by: { $0.key < $1.key }) {
                guard item(side, id) == nil, isCopy(event, of: other), let sourceID = event.origin?.eventID else { continue }
                if let index = itemIndex(other, sourceID) {
                    if items[index].id(side) == nil { setItem(index, side, id: id, hash: nil) }
                } else {
                    var record = SyncItemRecord(pair: pair, idA: nil, idB: nil, hashA: nil, hashB: nil, updated: engine.now(), origin: other)
                    record.set(other, id: sourceID, hash: nil)
                    record.set(side, id: id, hash: nil)
                    record.seriesKey = event.recurrence != nil ? SyncItemKind.series : nil
                    appendItem(record)
                }
            }
        }
    }

    func itemIndex(_ side: SyncSide, _ id: String) -> Int? { itemsByID[side][id] }
    func item(_ side: SyncSide, _ id: String) -> SyncItemRecord? { itemIndex(side, id).map { items[$0] } }

    // MARK: deciding

    /// What to write, and the conflicts found.
    struct SyncPlan {
        var writes: [PlannedWrite] = []
        var conflicts: [PlannedConflict] = []
        /// Series to compare occurrence by occurrence, from the side whose occurrences (or master) changed.
        var seriesToCompare: [(item: Int, from: SyncSide)] = []
        /// Items that got a write, per receiving side.
        var written: [SyncSide: Set<Int>] = [.a: [], .b: []]
    }

    struct PlannedWrite {
        enum Kind { case create, update, delete }
        var kind: Kind
        var target: SyncSide
        var write: EventWrite
        /// The item (index in `items`) whose state row follows the write.
        var item: Int
        /// The source side's event and hash, stored with the item once the write succeeded.
        var sourceSide: SyncSide
        var sourceHash: String?
        var title: String
        /// For an update: the source side's event as read (the other side's original is merged with it).
        var source: Event? = nil
    }

    struct PlannedConflict {
        var item: Int
        var report: SyncConflict
    }

    /// The three-way comparison of every item either side reported, and the new items.
    mutating func decide(views: Sides<SideView>, into plan: inout SyncPlan) {
        // Items by either side's id, so each is decided once.
        var touched = Set<Int>()
        for side in SyncSide.allCases {
            let view = views[side]
            for (id, event) in view.units.sorted(by: { $0.key < $1.key }) where !isForeignCopy(event, on: side) {
                if let index = itemIndex(side, id) {
                    touched.insert(index)
                } else if isCopy(event, of: side.other) {
                    continue  // adopted above, or a copy whose source left the state: never copied back
                } else if window.contains(event) || event.recurrence != nil {
                    var record = SyncItemRecord(pair: pair, idA: nil, idB: nil, hashA: nil, hashB: nil, updated: engine.now(), origin: side)
                    record.set(side, id: id, hash: nil)
                    record.seriesKey = event.recurrence != nil ? SyncItemKind.series : nil
                    appendItem(record)
                    touched.insert(items.count - 1)
                }
            }
            for id in view.gone { if let index = itemIndex(side, id) { touched.insert(index) } }
            for id in view.touchedSeries {
                if let index = itemIndex(side, id), items[index].id(side.other) != nil {
                    plan.seriesToCompare.append((index, side))
                }
            }
        }
        for index in touched.sorted() { decide(item: index, views: views, into: &plan) }
    }

    /// A copy made from another calendar (by `copy` or another pair): never synced.
    func isForeignCopy(_ event: Event, on side: SyncSide) -> Bool {
        event.origin != nil && !isCopy(event, of: side.other)
    }

    enum Current {
        case present(Event)
        case gone
        /// Not in this run's changes: as last synced.
        case unseen
    }

    func current(_ side: SyncSide, _ record: SyncItemRecord, _ views: Sides<SideView>) -> Current {
        guard let id = record.id(side) else { return .gone }
        if views[side].gone.contains(id) { return .gone }
        if let event = views[side].units[id] { return .present(event) }
        return .unseen
    }

    mutating func decide(item index: Int, views: Sides<SideView>, into plan: inout SyncPlan) {
        let record = items[index]
        let now = Sides(a: current(.a, record, views), b: current(.b, record, views))
        var hashes = Sides<String?>(nil)
        var changed = Sides(false)
        for side in SyncSide.allCases {
            if case .present(let event) = now[side] {
                guard let hash = sideHash(event, on: side) else {
                    report.notices.append("'\(event.title)': its series rule cannot be stored on side \(side.other.rawValue.uppercased()); not synced")
                    return
                }
                hashes[side] = hash
                changed[side] = hash != record.hash(side)
            }
        }
        func carried(_ side: SyncSide) -> Bool { options.direction.carries(from: side) }

        switch (now.a, now.b) {
        case (.gone, .gone):
            forget(index)
        case (.gone, .unseen) where record.id(.b) == nil, (.unseen, .gone) where record.id(.a) == nil:
            forget(index)
        case (.present(let ea), .present(let eb)) where changed.a && changed.b:
            if equivalent(ea, eb) {
                // The same content on both (a write whose state row was lost, or the same edit twice).
                setItem(index, .a, id: ea.id, hash: hashes[.a])
                setItem(index, .b, id: eb.id, hash: hashes[.b])
                save(index)
                return
            }
            // No base (a copy linked by its marker): its origin's version is the one to keep.
            let noBase = record.hash(.a) == nil && record.hash(.b) == nil
            let winner = noBase ? (record.origin ?? .a) : conflictWinner(ea, eb)
            let loser = winner.other
            let reason = winnerReason(ea, eb, winner: winner)
            if !noBase {
                plan.conflicts.append(
                    PlannedConflict(item: index, report: SyncConflict(itemID: record.rowID, title: (winner == .a ? ea : eb).title, a: ea, b: eb, winner: winner, reason: reason)))
            }
            let source = winner == .a ? ea : eb
            let target = loser == .a ? ea : eb
            if carried(winner), let hash = hashes[winner] {
                plan.writes.append(update(index, from: winner, source: source, hash: hash, targetID: target.id))
                // A master written over may lose its exceptions: the winner's occurrences are compared again.
                if source.recurrence != nil { plan.seriesToCompare.append((index, winner)) }
            }
        case (.present(let e), let other) where changed.a:
            propagate(index, from: .a, event: e, hash: hashes.a ?? "", other: other, into: &plan)
        case (let other, .present(let e)) where changed.b:
            propagate(index, from: .b, event: e, hash: hashes.b ?? "", other: other, into: &plan)
        case (.gone, .present(let eb)):
            deletion(index, goneSide: .a, otherEvent: eb, into: &plan)
        case (.present(let ea), .gone):
            deletion(index, goneSide: .b, otherEvent: ea, into: &plan)
        case (.gone, .unseen):
            deletion(index, goneSide: .a, otherEvent: nil, into: &plan)
        case (.unseen, .gone):
            deletion(index, goneSide: .b, otherEvent: nil, into: &plan)
        default:
            // Reported but unchanged against the state (an echo of this pair's own write): nothing to do.
            break
        }
    }

    /// A change on `side` (the other side unchanged or unseen): written to the other side when the pair
    /// carries changes from `side`.
    mutating func propagate(_ index: Int, from side: SyncSide, event: Event, hash: String, other: Current, into plan: inout SyncPlan) {
        let record = items[index]
        guard options.direction.carries(from: side) else {
            // A one-way pair: changes on the receiving side stay there; the state follows them, so they are
            // not taken for changes again.
            setItem(index, side, id: event.id, hash: hash)
            save(index)
            return
        }
        if record.id(side.other) != nil, case .gone = other {
            // Deleted there, changed here: the change wins and is copied back.
            setItem(index, side.other, id: nil, hash: nil)
            items[index].origin = side
            plan.writes.append(create(index, from: side, source: event, hash: hash))
        } else if let targetID = record.id(side.other) {
            plan.writes.append(update(index, from: side, source: event, hash: hash, targetID: targetID))
        } else {
            plan.writes.append(create(index, from: side, source: event, hash: hash))
        }
        if event.recurrence != nil { plan.seriesToCompare.append((index, side)) }
    }

    /// `goneSide`'s event is gone (proof): the other side's is deleted unless it changed, in which case the
    /// change wins and is copied back.
    mutating func deletion(_ index: Int, goneSide: SyncSide, otherEvent: Event?, into plan: inout SyncPlan) {
        let record = items[index]
        let keep = goneSide.other
        guard let keptID = record.id(keep) else { return forget(index) }
        if let event = otherEvent, let hash = sideHash(event, on: keep), hash != record.hash(keep) {
            if options.direction.carries(from: keep) {
                setItem(index, goneSide, id: nil, hash: nil)
                items[index].origin = keep
                plan.writes.append(create(index, from: keep, source: event, hash: hash))
                // A series copied back is compared occurrence by occurrence: Google brings a deleted event back
                // under its old id with the occurrences cancelled before the deletion still cancelled.
                if event.recurrence != nil { plan.seriesToCompare.append((index, keep)) }
            } else {
                setItem(index, goneSide, id: nil, hash: nil)
                setItem(index, keep, id: keptID, hash: hash)
                save(index)
            }
            return
        }
        if options.direction.carries(from: goneSide) {
            plan.writes.append(
                PlannedWrite(kind: .delete, target: keep, write: .delete(id: keptID), item: index, sourceSide: goneSide, sourceHash: nil, title: otherEvent?.title ?? keptID))
        } else {
            // One-way from `keep`: its event stays; the copy the user deleted comes back.
            if let event = otherEvent, let hash = sideHash(event, on: keep) {
                plan.writes.append(create(index, from: keep, source: event, hash: hash))
                if event.recurrence != nil { plan.seriesToCompare.append((index, keep)) }
            } else {
                setItem(index, keep, id: keptID, hash: nil)  // unseen: compared (and copied) when next read
                setItem(index, goneSide, id: nil, hash: nil)
                save(index)
            }
        }
    }

    func create(_ index: Int, from side: SyncSide, source: Event, hash: String) -> PlannedWrite {
        let (copy, marker) = copyAndMarker(source, from: side)
        let key = IdempotencyKey.copy(of: marker, toCalendar: endpoint(side.other).calendarID)
        return PlannedWrite(
            kind: .create, target: side.other, write: .create(copy, idempotencyKey: key), item: index, sourceSide: side,
            sourceHash: hash, title: source.title)
    }

    func update(_ index: Int, from side: SyncSide, source: Event, hash: String, targetID: String) -> PlannedWrite {
        var copy = copyEvent(source, from: side)
        copy.id = targetID
        copy.calendarID = endpoint(side.other).calendarID
        return PlannedWrite(
            kind: .update, target: side.other, write: .update(copy), item: index, sourceSide: side, sourceHash: hash, title: source.title,
            source: source)
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
        let unchanged = projection(from: side.other).copy(of: original, recurrence: original.recurrence)
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

    // MARK: projection and hashes

    func projection(from side: SyncSide) -> CopyProjection {
        CopyProjection(fields: options.fields, target: endpoint(side.other).provider.capabilities)
    }

    /// The copy of `event` (from `side`) for the other side, with this pair's marker.
    func copyEvent(_ event: Event, from side: SyncSide) -> Event { copyAndMarker(event, from: side).copy }

    func copyAndMarker(_ event: Event, from side: SyncSide) -> (copy: Event, marker: OriginMarker) {
        let rule = event.recurrence.flatMap { try? SeriesFit.recurrence(for: $0, start: event.start, on: endpoint(side.other).provider.capabilities.recurrence).get() }
        var copy = projection(from: side).copy(of: event, recurrence: rule)
        let marker = marker(for: event, from: side, hash: CopyProjection.contentHash(of: copy))
        copy.origin = marker
        return (copy, marker)
    }

    /// What `event` on `side` would carry to the other side, hashed: equal hashes, nothing to carry. Nil for
    /// a series whose rule the other side cannot store.
    func sideHash(_ event: Event, on side: SyncSide) -> String? {
        var rule: Recurrence?
        if let recurrence = event.recurrence {
            guard case .success(let fitted) = SeriesFit.recurrence(for: recurrence, start: event.start, on: endpoint(side.other).provider.capabilities.recurrence)
            else { return nil }
            rule = fitted
        }
        return CopyProjection.contentHash(of: projection(from: side).copy(of: event, recurrence: rule))
    }

    /// Whether both sides already hold the same content: either is what a copy of the other would be.
    func equivalent(_ ea: Event, _ eb: Event) -> Bool {
        func strip(_ e: Event) -> String { CopyProjection.contentHash(of: e) }
        return CopyProjection.contentHash(of: copyEvent(ea, from: .a)) == strip(eb)
            || CopyProjection.contentHash(of: copyEvent(eb, from: .b)) == strip(ea)
    }

    func conflictWinner(_ ea: Event, _ eb: Event) -> SyncSide {
        switch options.direction {
        case .aToB: return .a
        case .bToA: return .b
        case .both: break
        }
        switch options.conflict {
        case .a: return .a
        case .b: return .b
        case .newer:
            let ua = ea.updated ?? .distantPast
            let ub = eb.updated ?? .distantPast
            return ub > ua ? .b : .a
        }
    }

    func winnerReason(_ ea: Event, _ eb: Event, winner: SyncSide) -> String {
        if options.direction != .both { return "the pair copies \(options.direction.rawValue)" }
        switch options.conflict {
        case .a, .b: return "--conflict \(options.conflict.rawValue)"
        case .newer:
            func text(_ d: Date?) -> String { d.map { ISO8601DateFormatter().string(from: $0) } ?? "unknown" }
            return "newer: A modified \(text(ea.updated)), B \(text(eb.updated))"
        }
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
                        if let refusal = invitationRefusal(title: original.title, attendees: [original.attendees], on: side, deleting: deleting) {
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
                    setItem(write.item, side, id: event.id, hash: sideHash(event, on: side))
                    if let hash = write.sourceHash, let sourceID = items[write.item].id(write.sourceSide) {
                        setItem(write.item, write.sourceSide, id: sourceID, hash: hash)
                    }
                    items[write.item].updated = engine.now()
                    if write.kind == .create, items[write.item].seriesKey == SyncItemKind.series { createdSeries.insert(write.item) }
                    changedRows.append(write.item)
                    writtenTo[side, default: []].insert(write.item)
                    count(write.kind, to: side)
                case .success(.deleted(let id)):
                    deletedIDs[side, default: []].insert(id)
                    if let rowID = items[write.item].rowID { forgotten.append(rowID) }
                    clearItem(write.item)
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

    /// Why a write onto an original on `side` (a meeting: `attendees`, of the event or of its series) must not be
    /// sent, or nil: its service mails the attendees of a meeting that changes or is deleted (Graph), with no
    /// way to stop it.
    func invitationRefusal(title: String, attendees: [[Attendee]], on side: SyncSide, deleting: Bool = false) -> String? {
        let provider = endpoint(side).provider
        guard provider.capabilities.invitations == .sentByService, attendees.contains(where: { !$0.isEmpty }) else { return nil }
        if deleting {
            return "'\(title)' has attendees, and \(provider.provider) would e-mail them a cancellation for the deletion on the other side; "
                + "delete it there yourself (it stays deleted on the other side)"
        }
        return "'\(title)' has attendees, and \(provider.provider) would e-mail them about the change from the other side; "
            + "change it there yourself (the other side keeps its edit)"
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
