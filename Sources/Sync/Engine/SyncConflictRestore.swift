import CalendarBridge
import Foundation

/// What `SyncEngine.restoreConflict` wrote.
public struct SyncRestoreResult: Sendable, Hashable, Codable {
    public enum Action: String, Sendable, Hashable, Codable {
        /// The kept version was written onto the event as an edit of the fields a pair carries.
        case updated
        /// The kept version is a deletion: the event was deleted again.
        case deleted
        /// The event already held the kept version: nothing was written.
        case unchanged
    }

    public var conflictID: Int64
    public var pair: String
    /// The side written: the one whose version had lost.
    public var side: SyncSide
    public var eventID: String
    public var title: String
    public var action: Action
    /// The fields written (`title`, `times`, `location`, `description`, `rule`), for `updated`.
    public var fields: [String]
}

extension SyncEngine {
    /// `sync conflicts restore ID`: writes a conflict's kept (losing) version back to the side it lost on, as an
    /// edit of the event that side holds now (only the fields the losing side had changed: title, times,
    /// location, description, a series' rule), or for a deletion that lost, by deleting that event again. It
    /// never creates an event: when the side holds none any more, nothing is written. The next run carries the
    /// restored version to the other side as it carries any edit. The conflict stays kept with the other
    /// version as the kept one (so a restore can be undone the same way).
    /// - Parameters:
    ///   - id: the conflict's id (`SyncConflictRecord.rowID`); it must belong to `pair`.
    ///   - a, b: the pair's two calendars (as for `run`).
    /// - Throws: `SyncError`: `.conflictNotRestorable` (no such conflict in this pair, a version that cannot be
    ///   read back, the event gone from that side, a meeting the service would mail), `.grantMustBeRenewed`,
    ///   `.provider`, `.state`.
    public func restoreConflict(_ id: Int64, pair: String, a: Endpoint, b: Endpoint) async throws(SyncError) -> SyncRestoreResult {
        let found: (SyncConflictRecord?, SyncItemRecord?)
        do {
            found = try await store.read { t in
                let conflict = try t.conflict(rowID: id)
                return (conflict, try conflict?.itemID.flatMap { try t.item(rowID: $0) })
            }
        } catch {
            throw SyncError.wrap(error)
        }
        guard let conflict = found.0, conflict.pair == pair else {
            throw SyncError(.conflictNotRestorable, "sync pair '\(pair)' keeps no conflict \(id) ('calbridge sync conflicts' lists them)")
        }
        let side = conflict.winner.other
        let label = side.rawValue.uppercased()
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let kept = try? decoder.decode(Event.self, from: Data((side == .a ? conflict.versionA : conflict.versionB).utf8)) else {
            throw SyncError(.conflictNotRestorable, "conflict \(id): its kept version cannot be read back from sync.db")
        }
        let endpoint = side == .a ? a : b
        // An occurrence is addressed by its own id (the item is its series); anything else by the id the side
        // holds now (a lost deletion's event was made again under a new id).
        let targetID = kept.isOccurrence ? kept.id : found.1?.id(side)
        guard let targetID, !targetID.isEmpty else {
            throw SyncError(
                .conflictNotRestorable,
                "conflict \(id) ('\(kept.title)'): side \(label) holds the event no more, and a restore never creates one")
        }
        var result = SyncRestoreResult(
            conflictID: id, pair: pair, side: side, eventID: targetID, title: kept.title, action: .unchanged, fields: [])
        let current: Event
        do {
            current = try await endpoint.provider.getEvent(id: targetID, calendarID: endpoint.calendarID)
        } catch let error as CalendarError where error.code == .notFound {
            if kept.status == .cancelled { return try await swapped(result, conflict) }
            throw SyncError(
                .conflictNotRestorable,
                "conflict \(id) ('\(kept.title)'): side \(label) holds the event no more, and a restore never creates one")
        } catch {
            throw SyncError(reading: error, side: side, account: endpoint.provider.account)
        }
        if let refusal = SyncPlanner.invitationRefusal(
            title: current.title, attendees: [current.attendees], provider: endpoint.provider.provider,
            capabilities: endpoint.provider.capabilities, deleting: kept.status == .cancelled,
            otherSide: "restore it there yourself (the conflict stays kept)")
        {
            throw SyncError(.conflictNotRestorable, "conflict \(id): \(refusal)")
        }
        let write: EventWrite
        if kept.status == .cancelled {
            if current.status == .cancelled { return try await swapped(result, conflict) }
            write = .delete(id: targetID)
            result.action = .deleted
        } else {
            let (merged, fields, names) = Self.edit(current, toMatch: kept)
            guard !fields.isEmpty else { return try await swapped(result, conflict) }
            write = .update(merged, fields: fields)
            result.action = .updated
            result.fields = names
        }
        let outcome = await endpoint.provider.applyWrites([write], in: endpoint.calendarID, maxConcurrent: 1).first
        switch outcome {
        case .success?: break
        case .failure(let error)?: throw SyncError(reading: error, side: side, account: endpoint.provider.account)
        case nil: throw SyncError(.provider, "conflict \(id): the calendar returned no outcome for the write", side: side)
        }
        return try await swapped(result, conflict)
    }

    /// `result`, once the conflict records that the other version is now the kept one.
    private func swapped(_ result: SyncRestoreResult, _ conflict: SyncConflictRecord) async throws(SyncError) -> SyncRestoreResult {
        let id = result.conflictID
        let reason =
            "restored \(ISO8601DateFormatter().string(from: now())) onto \(result.side.rawValue.uppercased()) (was: \(conflict.reason))"
        do {
            _ = try await store.write { t in try t.swapWinner(ofConflict: id, reason: reason) }
        } catch {
            throw SyncError.wrap(error)
        }
        return result
    }

    /// `current` with the fields a pair carries taken from `kept` where they differ, and those fields (as
    /// written and as named for people). The rest (attendees, organizer, what a copy does not carry) stays as
    /// the service stores it.
    static func edit(_ current: Event, toMatch kept: Event) -> (Event, EventFields, [String]) {
        var merged = current
        var fields: EventFields = []
        var names: [String] = []
        if kept.title != current.title {
            merged.title = kept.title
            fields.insert(.title)
            names.append("title")
        }
        if kept.start != current.start || kept.end != current.end {
            merged.start = kept.start
            merged.end = kept.end
            fields.insert(.times)
            names.append("times")
        }
        if kept.location != current.location {
            merged.location = kept.location
            fields.insert(.location)
            names.append("location")
        }
        if kept.body != current.body {
            merged.body = kept.body
            fields.insert(.body)
            names.append("description")
        }
        if !current.isOccurrence, let rule = kept.recurrence, rule.lines != current.recurrence?.lines {
            merged.recurrence = Recurrence(lines: rule.lines, allDayZone: current.recurrence?.allDayZone)
            fields.insert(.recurrence)
            names.append("rule")
        }
        return (merged, fields, names)
    }
}
