import CalendarBridge
import Foundation

/// What a run reads: each side's changes since its cursor, turned into the view the planner decides from
/// (`view`), and, for the series whose occurrences are compared, both sides' series and occurrences
/// (`listSeries`, then `series`). It writes nothing; it counts its requests and reports what it could not
/// read in the run's report.
struct SyncReader: Sendable {
    let endpoints: Sides<SyncEngine.Endpoint>
    /// The instants both sides are kept in step over.
    let window: CopyWindow
    /// Reads by id per request; nil: the provider's `maxWritesPerBatch` (`SyncEngine.batchSize`).
    let batchSize: Int?

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
                notice =
                    "side \(side.rawValue.uppercased())'s change cursor cannot be continued (\(expiry.message)"
                    + (expiry.providerCode.map { ", \($0)" } ?? "") + "): read in full and reconciled"
                cursor = nil
            case .cursorExpired(let expiry):
                throw SyncError(
                    .provider, "side \(side.rawValue.uppercased()): a full read was refused: \(expiry.message)", account: account,
                    side: side)
            }
        }
        throw SyncError(.provider, "side \(side.rawValue.uppercased()): the change read did not settle", account: account, side: side)
    }

    /// Turns a change read into units: occurrences name their master (read by id where the read carried
    /// none: Graph), items without markers are read by id when the service leaves markers out of change
    /// reads (Graph), and each reported removal of a known item is checked by a read by id (proof).
    func view(of read: SideChanges, side: SyncSide, items: SyncItems, report: inout SyncReport) async -> SyncSideView {
        let endpoint = endpoints[side]
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
        let unmarked =
            !endpoint.provider.changeReadsCarryMarkers
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
                        SyncItemError(
                            side: side, eventID: id, title: nil, message: "reported removed, but a read by id failed (kept): \(why)"))
                }
            }
        }
        return view
    }

    /// Reads `ids` on `side` by id, in the provider's batches, counting the requests.
    func probe(ids: [String], on side: SyncSide, report: inout SyncReport) async -> [EventProbe] {
        let endpoint = endpoints[side]
        let perBatch = max(1, batchSize ?? endpoint.provider.capabilities.maxWritesPerBatch)
        report.requests += (ids.count + perBatch - 1) / perBatch
        return await endpoint.provider.probeEvents(ids: ids, calendarID: endpoint.calendarID)
    }

    // MARK: series

    /// Both sides' listings (series and occurrences) and the masters of the series compared.
    struct SeriesListings {
        var listings: Sides<(listed: [Event], expanded: [Event])>
        var masters: Sides<[String: Event]>
    }

    /// Lists both sides once (series and occurrences) for every series in `chosen` (indexes in `items`) and
    /// both directions, and finds each series' master on each side: listed, else read by id (a master whose
    /// rule left the window is not listed). Nil (reported) when a listing fails.
    func listSeries(_ chosen: [Int], items: SyncItems, report: inout SyncReport) async -> SeriesListings? {
        // Both sides listed once (series and occurrences), for every series and both directions.
        var listings = Sides<(listed: [Event], expanded: [Event])>(([], []))
        do {
            let range = window.listingRange
            let a = endpoints.a, b = endpoints.b
            // Each of the four listings a request of its own, all at once.
            func both(_ side: SyncEngine.Endpoint) -> @Sendable () async throws -> ([Event], [Event]) {
                {
                    try await concurrently(
                        { try await side.provider.listEvents(calendarID: side.calendarID, range: range, expand: false) },
                        { try await side.provider.listEvents(calendarID: side.calendarID, range: range, expand: true) })
                }
            }
            (listings.a, listings.b) = try await concurrently(both(a), both(b))
            report.requests += 4
        } catch {
            report.errors.append(
                SyncItemError(
                    side: .a, eventID: nil, title: nil,
                    message: "occurrences of series not compared: \((error as? CalendarError)?.description ?? "\(error)")"))
            return nil
        }

        // Each side's masters: listed, else read by id (a master whose rule left the window is not listed).
        var masters = Sides<[String: Event]>([:])
        for side in SyncSide.allCases {
            for e in listings[side].listed where e.recurrence != nil && e.seriesID == nil { masters[side][e.id] = masters[side][e.id] ?? e }
            let missing = chosen.compactMap { items[$0].id(side) }.filter { masters[side][$0] == nil }
            guard !missing.isEmpty else { continue }
            let e = endpoints[side]
            for (id, probe) in zip(missing, await e.provider.probeEvents(ids: missing, calendarID: e.calendarID)) {
                if case .exists(let master) = probe { masters[side][id] = master }
            }
            report.requests += (missing.count + 19) / 20
        }

        return SeriesListings(listings: listings, masters: masters)
    }

    /// Each series of `chosen` on each side (its master and occurrences by original start) and its stored
    /// occurrences (`storedRows` by row id; none for a series this run created again: `createdSeries`); the
    /// occurrences a side no longer lists are read by id (one request per side), those stored cancelled there
    /// stay cancelled.
    func series(
        _ chosen: [Int], read: SeriesListings, items: SyncItems, createdSeries: Set<Int>, storedRows: [Int64: [SyncOccurrenceRecord]],
        planner: SyncPlanner, report: inout SyncReport
    ) async -> (series: [Int: Sides<SeriesOnSide>], stored: [Int: [OccurrenceKey: SyncOccurrenceRecord]]) {
        var series: [Int: Sides<SeriesOnSide>] = [:]
        var stored: [Int: [OccurrenceKey: SyncOccurrenceRecord]] = [:]
        let listings = read.listings, masters = read.masters
        // Each side's listings by series, once (see `groupedBySeries`).
        var listedOf = Sides<[String: [Event]]>([:])
        var expandedOf = Sides<[String: [Event]]>([:])
        for side in SyncSide.allCases {
            listedOf[side] = listings[side].listed.groupedBySeries()
            expandedOf[side] = listings[side].expanded.groupedBySeries { $0.status != .cancelled && window.contains($0) }
        }
        for index in chosen {
            guard let idA = items[index].id(.a), let idB = items[index].id(.b), let masterA = masters.a[idA], let masterB = masters.b[idB]
            else { continue }
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
                        let query = planners[side.other].query(for: other, master: both[side].master)
                    {
                        asked.append((index, key, query))
                    }
                }
            }
            guard !asked.isEmpty else { continue }
            let e = endpoints[side]
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

        return (series, stored)
    }
}
