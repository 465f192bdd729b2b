import CalendarBridge
import Foundation

/// What a run checks after its writes: a second change read of each side it wrote to, whose cursor is stored
/// only when it holds nothing but the echoes of the run's own writes (`cursorPastOwnWrites`), and the updates
/// the service answered as done but did not apply, read by id (`unapplied`, `unappliedOccurrences`).
struct SyncEchoCheck: Sendable {
    let reader: SyncReader
    let planner: SyncPlanner

    /// A second change read of `side`: its cursor when it holds nothing but the echoes of this run's own writes,
    /// nil (no cursor: the next run reads the side in full) when it holds anything else, such as an edit the
    /// user made during the run; and the single events and occurrences this run updated that it does not show
    /// as written (all of them when it cannot be read).
    func cursorPastOwnWrites(_ side: SyncSide, from cursor: String, progress: inout SyncRunProgress) async
        -> (cursor: String?, unechoed: [Int], unechoedOccurrences: [OccurrenceUpdate])
    {
        let endpoint = reader.endpoints[side]
        let updated = (progress.updatedSingles[side] ?? [:]).keys.sorted()
        let occurrences = progress.updatedOccurrences[side] ?? []
        guard
            case .changes(let set)? = try? await endpoint.provider.changes(
                calendarID: endpoint.calendarID, window: reader.window.listingRange, cursor: cursor)
        else { return (nil, updated, occurrences) }
        progress.report.requests += set.requests
        // An echo is the event as written: its id alone is no proof (a series written in the same run lists
        // every occurrence again).
        let echoed = Dictionary(set.changed.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        let unechoed = updated.filter { index in
            guard let id = progress.items[index].id(side) else { return false }
            return echoed[id].map { planner.sideHash($0, on: side) != progress.items[index].hash(side) } ?? true
        }
        let unechoedOccurrences = occurrences.filter { update in
            echoed[update.id].map { planner.occurrenceState(.live($0), master: update.targetMaster, on: side) != update.written } ?? true
        }
        return (onlyEchoes(set, on: side, progress: progress) ? set.cursor : nil, unechoed, unechoedOccurrences)
    }

    /// Whether a change read of `side` holds nothing but the echoes of this run's own writes.
    func onlyEchoes(_ set: ChangeSet, on side: SyncSide, progress: SyncRunProgress) -> Bool {
        let written = progress.writtenTo[side] ?? []
        let writtenSeries = Set(
            written.compactMap { progress.items[$0].seriesKey == SyncItemKind.series ? progress.items[$0].id(side) : nil })
        for event in set.changed {
            if let seriesID = event.seriesID {
                guard writtenSeries.contains(seriesID) else { return false }
            } else {
                guard let index = progress.items.index(side, event.id), written.contains(index),
                    planner.sideHash(event, on: side) == progress.items[index].hash(side)
                else { return false }
            }
        }
        for removed in set.removed {
            if let seriesID = removed.seriesID {
                guard writtenSeries.contains(seriesID) else { return false }
            } else if !(progress.deletedIDs[side] ?? []).contains(removed.id) {
                // An occurrence this run cancelled (Graph names only its id), or something else: only the
                // former is an echo, and only where this run wrote occurrences.
                guard progress.items.index(side, removed.id) == nil, !writtenSeries.isEmpty else { return false }
            }
        }
        return true
    }

    /// Of single events this run updated on `side` that its follow-up read did not echo, the ones whose update
    /// did not land, read by id: each is put back to its state before the update and reported (the caller
    /// saves them). One the read cannot tell about counts as not landed: writing an update twice is harmless.
    func unapplied(_ indices: [Int], on side: SyncSide, progress: inout SyncRunProgress) async -> [Int] {
        let indices = indices.filter { progress.items[$0].id(side) != nil }
        guard !indices.isEmpty else { return [] }
        let probes = await reader.probe(ids: indices.compactMap { progress.items[$0].id(side) }, on: side, report: &progress.report)
        var putBack: [Int] = []
        for (index, probe) in zip(indices, probes) {
            var title: String?
            switch probe {
            case .exists(let event):
                guard planner.sideHash(event, on: side) != progress.items[index].hash(side) else { continue }
                title = event.title
            case .gone: continue  // deleted meanwhile: the next read reports it
            case .unknown: break
            }
            guard let before = progress.updatedSingles[side]?[index] else { continue }
            for s in SyncSide.allCases { progress.items.set(index, s, id: progress.items[index].id(s), hash: before[s]) }
            putBack.append(index)
            reportUnapplied(on: side, id: progress.items[index].id(side), title: title, what: "event", report: &progress.report)
        }
        return putBack
    }

    /// Counts an update that did not land as failed (it was counted as made) and reports it.
    func reportUnapplied(on side: SyncSide, id: String?, title: String?, what: String, report: inout SyncReport) {
        if side == .b {
            report.aToB.updated -= 1
            report.aToB.failed += 1
        } else {
            report.bToA.updated -= 1
            report.bToA.failed += 1
        }
        report.errors.append(
            SyncItemError(
                side: side, eventID: id, title: title,
                message:
                    "\(reader.endpoints[side].provider.provider) answered the update as done, but the \(what) is as it was; it is written again on the next run"
            ))
    }

    /// Of the occurrences this run updated on `side` whose ids the follow-up read did not echo, the ones whose
    /// update did not land, read by id: each is reported, as `unapplied` does for single events, and its row
    /// is to go back to what it was before the run (the caller writes them: `SyncWriter.restoreOccurrences`).
    func unappliedOccurrences(_ updates: [OccurrenceUpdate], on side: SyncSide, progress: inout SyncRunProgress) async
        -> [OccurrenceUpdate.Restoration]
    {
        guard !updates.isEmpty else { return [] }
        let probes = await reader.probe(ids: updates.map(\.id), on: side, report: &progress.report)
        var putBack: [OccurrenceUpdate.Restoration] = []
        for (update, probe) in zip(updates, probes) {
            switch probe {
            case .exists(let event):
                guard planner.occurrenceState(.live(event), master: update.targetMaster, on: side) != update.written else { continue }
            case .gone: continue  // cancelled meanwhile: the next read reports it
            case .unknown: break
            }
            guard let rowID = progress.items[update.item].rowID else { continue }
            putBack.append(OccurrenceUpdate.Restoration(rowID: rowID, key: update.key.description, before: update.before))
            reportUnapplied(on: side, id: update.id, title: update.title, what: "occurrence", report: &progress.report)
        }
        return putBack
    }
}
