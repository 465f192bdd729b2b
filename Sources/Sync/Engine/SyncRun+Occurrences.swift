import CalendarBridge
import Foundation

extension SyncRun {
    /// Brings the occurrences of touched series across, from the side whose occurrences (or master)
    /// changed: the copy engine's occurrence planning (moved and changed occurrences patched, cancelled
    /// ones cancelled on proof), one listing per side for all of them. A dry run plans them and counts the
    /// writes it would send.
    /// - Returns: the sides whose occurrence changes could not all be applied.
    mutating func syncOccurrences(_ requested: [(item: Int, from: SyncSide)]) async -> Set<SyncSide> {
        var failedFrom = Set<SyncSide>()
        for from in SyncSide.allCases where options.direction.carries(from: from) {
            let to = from.other
            var seen = Set<Int>()
            let chosen = requested.filter { $0.from == from && seen.insert($0.item).inserted }.filter { entry in
                let record = items[entry.item]
                return record.seriesKey == SyncItemKind.series && record.id(from) != nil && record.id(to) != nil
            }
            let series = chosen.compactMap { entry in items[entry.item].id(from).flatMap { s in items[entry.item].id(to).map { (s, $0) } } }
            guard !series.isEmpty else { continue }
            let source = endpoint(from)
            let target = endpoint(to)
            do {
                let range = window.listingRange
                async let sourceListed = source.provider.listEvents(calendarID: source.calendarID, range: range, expand: false)
                async let sourceExpanded = source.provider.listEvents(calendarID: source.calendarID, range: range, expand: true)
                async let targetExpanded = target.provider.listEvents(calendarID: target.calendarID, range: range, expand: true)
                async let targetListed = target.provider.listEvents(calendarID: target.calendarID, range: range, expand: false)
                let listed = try await sourceListed
                let expanded = try await sourceExpanded
                let targetOccurrences = try await targetExpanded
                let targetCancelled = try await targetListed.filter { $0.seriesID != nil && $0.status == .cancelled }
                report.requests += 4
                // Masters not in the series listing (Graph lists none of them there? it does; a master whose
                // rule left the window does not): read by id.
                var masters = Dictionary(listed.filter { $0.recurrence != nil && $0.seriesID == nil }.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
                let missing = series.map(\.0).filter { masters[$0] == nil }
                if !missing.isEmpty {
                    for (id, probe) in zip(missing, await source.provider.probeEvents(ids: missing, calendarID: source.calendarID)) {
                        if case .exists(let master) = probe { masters[id] = master }
                    }
                    report.requests += 1
                }
                let planner = CopyPlanner(
                    sourceProvider: source.provider.provider, sourceAccount: source.identity, legacySourceAccount: source.provider.account,
                    sourceCalendarID: source.calendarID, targetCalendarID: target.calendarID, target: target.provider.capabilities,
                    options: CopyOptions(window: window.range, zone: window.zone, fields: options.fields))
                let linked = series.compactMap { pair in masters[pair.0].map { (sourceMaster: $0, targetMasterID: pair.1) } }
                let targetIDs = Set(linked.map(\.targetMasterID))
                let occurrences = planner.planOccurrences(
                    series: linked, sourceOccurrences: expanded.filter { $0.seriesID != nil && window.contains($0) },
                    sourceExceptions: listed.filter { $0.seriesID != nil },
                    targetOccurrences: targetOccurrences.filter { $0.seriesID.map(targetIDs.contains) == true && window.contains($0) },
                    targetCancelled: targetCancelled.filter { $0.seriesID.map(targetIDs.contains) == true })
                var entries = occurrences.entries
                if !occurrences.open.isEmpty {
                    let probes = await source.provider.probeOccurrences(occurrences.open.map(\.query), calendarID: source.calendarID)
                    report.requests += 1
                    entries += planner.resolve(occurrences.open, probes: probes)
                }
                let writes = entries.compactMap(\.write)
                guard !writes.isEmpty else { continue }
                if dryRun {
                    for _ in writes { count(.update, to: to) }
                    continue
                }
                let outcomes = await target.provider.applyWrites(writes, in: target.calendarID, maxConcurrent: 4)
                report.requests += 1
                writtenTo[to, default: []].formUnion(chosen.map(\.item))
                for (write, outcome) in zip(writes, outcomes) {
                    switch outcome {
                    case .success:
                        count(.update, to: to)
                    case .failure(let error):
                        failedFrom.formUnion(SyncSide.allCases)
                        if to == .b { report.aToB.failed += 1 } else { report.bToA.failed += 1 }
                        report.errors.append(
                            SyncItemError(side: to, eventID: write.targetID, title: nil, message: (error as? CalendarError)?.description ?? "\(error)"))
                    }
                }
            } catch {
                failedFrom.formUnion(SyncSide.allCases)
                report.errors.append(
                    SyncItemError(side: to, eventID: nil, title: nil, message: "occurrences of series not compared: \((error as? CalendarError)?.description ?? "\(error)")"))
            }
        }
        return failedFrom
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
