import CalendarBridge
import Foundation

extension SyncRun {
    /// For a source that may give its events new ids (`SyncEngine.Endpoint.matchesByContent`, a subscribed
    /// feed): the plan's creations of copies of events of unknown id and deletions of copies whose source id is
    /// gone are paired where they show the same event (start, title and location, as `copy` matches them). Each
    /// pair becomes one update of the existing copy (re-marked with the new id) on the old item, whose source
    /// id becomes the new one: nothing is deleted and created again, and never a second copy. The copies to be
    /// deleted are read by id on the receiving side (one batch); no pairs, no request.
    mutating func matchRotatedIDs(_ plan: inout SyncPlan, views: Sides<SyncSideView>) async {
        for source in SyncSide.allCases where reader.endpoints[source].matchesByContent && options.direction.carries(from: source) {
            let target = source.other
            let creations = plan.writes.indices.filter { plan.writes[$0].kind == .create && plan.writes[$0].sourceSide == source }
            let deletions = plan.writes.indices.filter {
                let write = plan.writes[$0]
                return write.kind == .delete && write.sourceSide == source && progress.items[write.item].origin == source
            }
            guard !creations.isEmpty, !deletions.isEmpty else { continue }
            let copyIDs = deletions.compactMap { plan.writes[$0].write.targetID }
            guard copyIDs.count == deletions.count else { continue }
            let probes = await reader.probe(ids: copyIDs, on: target, report: &progress.report)
            // The copies that exist, by what they show; several with one key are matched in order.
            var byKey: [ContentKey: [(position: Int, copy: Event)]] = [:]
            for (position, probe) in zip(deletions, probes) {
                if case .exists(let copy) = probe { byKey[ContentKey(copy), default: []].append((position, copy)) }
            }
            var dropped = Set<Int>()
            for position in creations {
                let creation = plan.writes[position]
                guard case .create(let planned, _) = creation.write, let sourceID = progress.items[creation.item].id(source),
                    let event = views[source].units[sourceID], let hash = creation.sourceHash,
                    let match = byKey[ContentKey(planned)]?.firstIndex(where: { ($0.copy.location ?? "") == (planned.location ?? "") }),
                    let found = byKey[ContentKey(planned)]?.remove(at: match)
                else { continue }
                let old = plan.writes[found.position].item
                // The old item takes the new id (its hash stays until the update lands, so a failed write is
                // matched again next run); the new item is dropped before it was ever saved.
                progress.items.clear(creation.item)
                progress.items.set(old, source, id: sourceID, hash: progress.items[old].hash(source))
                progress.items[old].seriesKey = event.recurrence != nil ? SyncItemKind.series : progress.items[old].seriesKey
                var update = planner.update(old, from: source, source: event, hash: hash, targetID: found.copy.id)
                update.matchedByContent = true
                plan.writes[position] = update
                dropped.insert(found.position)
                for (index, entry) in plan.seriesToCompare.enumerated() where entry.item == creation.item {
                    plan.seriesToCompare[index].item = old
                }
            }
            plan.writes = plan.writes.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
        }
    }
}
