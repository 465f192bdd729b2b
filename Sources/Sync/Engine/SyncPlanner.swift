import CalendarBridge
import Foundation

/// One side of a pair as the planner sees it: whose calendar it is, and what its service can store.
struct SyncCalendar: Sendable {
    var provider: ProviderKind
    /// The account's stable identity (markers and derived ids use it).
    var identity: String
    /// The local account name (the markers of copies made before stable identities carry it).
    var account: String
    var calendarID: String
    var capabilities: ProviderCapabilities
    /// Whether its events carry a publisher's revisions (`SEQUENCE`, `LAST-MODIFIED`) that an older copy of
    /// the calendar can go back on: a read-only feed or file. Its revisions are kept in the state
    /// (`SyncRevision`), and an older one is not carried.
    var publishesRevisions: Bool

    init(
        provider: ProviderKind, identity: String, account: String, calendarID: String, capabilities: ProviderCapabilities,
        publishesRevisions: Bool = false
    ) {
        self.provider = provider
        self.identity = identity
        self.account = account
        self.calendarID = calendarID
        self.capabilities = capabilities
        self.publishesRevisions = publishesRevisions
    }

    init(_ endpoint: SyncEngine.Endpoint) {
        self.init(
            provider: endpoint.provider.provider, identity: endpoint.identity, account: endpoint.provider.account,
            calendarID: endpoint.calendarID, capabilities: endpoint.provider.capabilities,
            publishesRevisions: endpoint.provider is any ReadOnlyCalendarProvider)
    }
}

/// A side as one run sees it (`SyncReader` builds it from a change read).
struct SyncSideView: Sendable {
    /// Single events and series masters that changed (or, on a full read, all of them), by id.
    var units: [String: Event] = [:]
    /// Ids proven gone (reported removed, and a read by id answers gone).
    var gone = Set<String>()
    /// Series (master ids on this side) whose occurrences changed.
    var touchedSeries = Set<String>()
    var full = false
}

/// What to write, the conflicts found, and the series whose occurrences are compared next.
struct SyncPlan {
    var writes: [PlannedWrite] = []
    var conflicts: [PlannedConflict] = []
    /// Series to compare occurrence by occurrence, from the side whose occurrences (or master) changed.
    var seriesToCompare: [(item: Int, from: SyncSide)] = []
    /// What the run reports besides (a series whose rule the other side cannot store).
    var notices: [String] = []
}

struct PlannedWrite {
    enum Kind { case create, update, delete }
    var kind: Kind
    var target: SyncSide
    var write: EventWrite
    /// The item (index in `SyncItems`) whose state row follows the write.
    var item: Int
    /// The source side's event and hash, stored with the item once the write succeeded.
    var sourceSide: SyncSide
    var sourceHash: String?
    var title: String
    /// For an update: the source side's event as read (the other side's original is merged with it).
    var source: Event? = nil
    /// An update that re-links a copy to its source's new id (`SyncEngine.Endpoint.matchesByContent`).
    var matchedByContent = false
}

struct PlannedConflict {
    var item: Int
    var report: SyncConflict
}

/// One side's occurrence of a series, as a run read it.
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

/// What the occurrence comparison of one run writes and keeps (`SyncPlanner.planOccurrences`).
struct OccurrencePlan {
    var writes: [OccurrenceWrite] = []
    var conflicts: [PlannedConflict] = []
    /// Each series' rows as they stand without its writes; the row of a write joins them once it landed.
    var rows: [Int: [SyncOccurrenceRecord]] = [:]
    var notices: [String] = []
}

/// The sync decisions of one pair, without reading or writing anything: the items as stored and each side's
/// view of this run's changes in; the writes, the conflicts, the series to compare and the items' new state
/// out (`plan`); then, for those series, each occurrence's three-way comparison (`planOccurrences`). Tests
/// build it and its inputs directly. Also the pair's projections, hashes and markers, which the run's
/// writes and echo checks share.
struct SyncPlanner: Sendable {
    let pair: String
    let options: SyncPairOptions
    /// The instants both sides are kept in step over (`SyncWindow.round`).
    let window: CopyWindow
    let calendars: Sides<SyncCalendar>

    // MARK: items

    /// Links the copies either side holds that `items` does not (a crash after their write), then compares
    /// every item either side reported three ways and adds the new ones. `items` comes back with the state
    /// edits made without a write (`pendingSaves`, `pendingForgets`); the writes' rows follow them (`SyncRun`).
    /// `now`: when new items are stamped.
    func plan(views: Sides<SyncSideView>, items: inout SyncItems, now: Date) -> SyncPlan {
        adoptCopies(views, items: &items, now: now)
        var plan = SyncPlan()
        decide(views: views, items: &items, now: now, into: &plan)
        return plan
    }

    /// Links copies the state does not know (their write landed, their state row did not): to the item of
    /// their source, or a new item whose copy side is this one.
    func adoptCopies(_ views: Sides<SyncSideView>, items: inout SyncItems, now: Date) {
        for side in SyncSide.allCases {
            let other = side.other
            for (id, event) in views[side].units.sorted(by: { $0.key < $1.key }) {
                guard items.item(side, id) == nil, isCopy(event, of: other), let sourceID = event.origin?.eventID else { continue }
                if let index = items.index(other, sourceID) {
                    if items[index].id(side) == nil { items.set(index, side, id: id, hash: nil) }
                } else {
                    var record = SyncItemRecord(pair: pair, idA: nil, idB: nil, hashA: nil, hashB: nil, updated: now, origin: other)
                    record.set(other, id: sourceID, hash: nil)
                    record.set(side, id: id, hash: nil)
                    record.seriesKey = event.recurrence != nil ? SyncItemKind.series : nil
                    items.append(record)
                }
            }
        }
    }

    /// The three-way comparison of every item either side reported, and the new items.
    func decide(views: Sides<SyncSideView>, items: inout SyncItems, now: Date, into plan: inout SyncPlan) {
        // Items by either side's id, so each is decided once.
        var touched = Set<Int>()
        for side in SyncSide.allCases {
            let view = views[side]
            for (id, event) in view.units.sorted(by: { $0.key < $1.key }) where !isForeignCopy(event, on: side) {
                if let index = items.index(side, id) {
                    touched.insert(index)
                } else if isCopy(event, of: side.other) {
                    continue  // adopted above, or a copy whose source left the state: never copied back
                } else if window.contains(event) || event.recurrence != nil {
                    var record = SyncItemRecord(pair: pair, idA: nil, idB: nil, hashA: nil, hashB: nil, updated: now, origin: side)
                    record.set(side, id: id, hash: nil)
                    record.seriesKey = event.recurrence != nil ? SyncItemKind.series : nil
                    items.append(record)
                    touched.insert(items.count - 1)
                }
            }
            for id in view.gone { if let index = items.index(side, id) { touched.insert(index) } }
            for id in view.touchedSeries {
                if let index = items.index(side, id), items[index].id(side.other) != nil {
                    plan.seriesToCompare.append((index, side))
                }
            }
        }
        for index in touched.sorted() { decide(item: index, views: views, items: &items, into: &plan) }
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

    func current(_ side: SyncSide, _ record: SyncItemRecord, _ views: Sides<SyncSideView>) -> Current {
        guard let id = record.id(side) else { return .gone }
        if views[side].gone.contains(id) { return .gone }
        if let event = views[side].units[id] { return .present(event) }
        return .unseen
    }

    func decide(item index: Int, views: Sides<SyncSideView>, items: inout SyncItems, into plan: inout SyncPlan) {
        let record = items[index]
        var now = Sides(a: current(.a, record, views), b: current(.b, record, views))
        var hashes = Sides<String?>(nil)
        var changed = Sides(false)
        for side in SyncSide.allCases {
            if case .present(let event) = now[side] {
                guard let hash = sideHash(event, on: side) else {
                    plan.notices.append(
                        "'\(event.title)': its series rule cannot be stored on side \(side.other.rawValue.uppercased()); not synced")
                    return
                }
                let kept = SyncRevision.split(record.hash(side))
                let revision = calendars[side].publishesRevisions ? SyncRevision(event) : nil
                if let revision, let synced = kept.revision, let newer = revision.olderThan(synced) {
                    // An older revision (a feed served from a stale mirror): as last synced, nothing carried.
                    plan.notices.append("'\(event.title)': the feed gave an older revision (\(newer)); not carried")
                    now[side] = .unseen
                    continue
                }
                hashes[side] = SyncRevision.tagged(hash, revision)
                // A higher SEQUENCE is a change even when what it shows is the same, as `copy` takes it (so the
                // older revision cannot win later).
                let raised = revision.map { r in kept.revision.map { r.sequence > $0.sequence } ?? false } ?? false
                changed[side] = hash != kept.content || raised
            }
        }
        func carried(_ side: SyncSide) -> Bool { options.direction.carries(from: side) }

        switch (now.a, now.b) {
        case (.gone, .gone):
            items.forget(index)
        case (.gone, .unseen) where record.id(.b) == nil, (.unseen, .gone) where record.id(.a) == nil:
            items.forget(index)
        case (.present(let ea), .present(let eb)) where changed.a && changed.b:
            if equivalent(ea, eb) {
                // The same content on both (a write whose state row was lost, or the same edit twice).
                items.set(index, .a, id: ea.id, hash: hashes[.a])
                items.set(index, .b, id: eb.id, hash: hashes[.b])
                items.save(index)
                return
            }
            // No base (a copy linked by its marker): its origin's version is the one to keep.
            let noBase = record.hash(.a) == nil && record.hash(.b) == nil
            let winner = noBase ? (record.origin ?? .a) : conflictWinner(ea, eb)
            let loser = winner.other
            let reason = winnerReason(ea, eb, winner: winner)
            if !noBase {
                plan.conflicts.append(
                    PlannedConflict(
                        item: index,
                        report: SyncConflict(
                            itemID: record.rowID, title: (winner == .a ? ea : eb).title, a: ea, b: eb, winner: winner, reason: reason)))
            }
            let source = winner == .a ? ea : eb
            let target = loser == .a ? ea : eb
            if carried(winner), let hash = hashes[winner] {
                plan.writes.append(update(index, from: winner, source: source, hash: hash, targetID: target.id))
                // A master written over may lose its exceptions: the winner's occurrences are compared again.
                if source.recurrence != nil { plan.seriesToCompare.append((index, winner)) }
            }
        case (.present(let e), let other) where changed.a:
            propagate(index, from: .a, event: e, hash: hashes.a ?? "", other: other, items: &items, into: &plan)
        case (let other, .present(let e)) where changed.b:
            propagate(index, from: .b, event: e, hash: hashes.b ?? "", other: other, items: &items, into: &plan)
        case (.gone, .present(let eb)):
            deletion(index, goneSide: .a, otherEvent: eb, items: &items, into: &plan)
        case (.present(let ea), .gone):
            deletion(index, goneSide: .b, otherEvent: ea, items: &items, into: &plan)
        case (.gone, .unseen):
            deletion(index, goneSide: .a, otherEvent: nil, items: &items, into: &plan)
        case (.unseen, .gone):
            deletion(index, goneSide: .b, otherEvent: nil, items: &items, into: &plan)
        default:
            // Reported but unchanged against the state (an echo of this pair's own write): nothing to do.
            break
        }
    }

    /// A change on `side` (the other side unchanged or unseen): written to the other side when the pair
    /// carries changes from `side`.
    func propagate(
        _ index: Int, from side: SyncSide, event: Event, hash: String, other: Current, items: inout SyncItems, into plan: inout SyncPlan
    ) {
        let record = items[index]
        guard options.direction.carries(from: side) else {
            // A one-way pair: changes on the receiving side stay there; the state follows them, so they are
            // not taken for changes again.
            items.set(index, side, id: event.id, hash: hash)
            items.save(index)
            return
        }
        if record.id(side.other) != nil, case .gone = other {
            // Deleted there, changed here: the change wins and is copied back.
            keepLostDeletion(index, record: record, goneSide: side.other, changed: event, into: &plan)
            items.set(index, side.other, id: nil, hash: nil)
            items[index].origin = side
            plan.writes.append(create(index, from: side, source: event, hash: hash))
        } else if let targetID = record.id(side.other) {
            plan.writes.append(update(index, from: side, source: event, hash: hash, targetID: targetID))
        } else {
            plan.writes.append(create(index, from: side, source: event, hash: hash))
        }
        if event.recurrence != nil { plan.seriesToCompare.append((index, side)) }
    }

    /// A deletion on `goneSide` that loses to a change on the other side (in a two-way pair) is kept as a conflict,
    /// its version a cancelled one, so that `sync conflicts restore` can delete the event again.
    func keepLostDeletion(_ index: Int, record: SyncItemRecord, goneSide: SyncSide, changed event: Event, into plan: inout SyncPlan) {
        guard options.direction == .both else { return }
        var deleted = event
        deleted.id = record.id(goneSide) ?? ""
        deleted.calendarID = calendars[goneSide].calendarID
        deleted.status = .cancelled
        let side = { (s: SyncSide) in s.rawValue.uppercased() }
        let reason = "deleted on \(side(goneSide)) while changed on \(side(goneSide.other)): the change wins and is copied back"
        let report = SyncConflict(
            itemID: record.rowID, title: event.title, a: goneSide == .a ? deleted : event, b: goneSide == .b ? deleted : event,
            winner: goneSide.other, reason: reason)
        plan.conflicts.append(PlannedConflict(item: index, report: report))
    }

    /// `goneSide`'s event is gone (proof): the other side's is deleted unless it changed, in which case the
    /// change wins and is copied back.
    func deletion(_ index: Int, goneSide: SyncSide, otherEvent: Event?, items: inout SyncItems, into plan: inout SyncPlan) {
        let record = items[index]
        let keep = goneSide.other
        guard let keptID = record.id(keep) else { return items.forget(index) }
        if let event = otherEvent, let hash = sideHash(event, on: keep), hash != SyncRevision.split(record.hash(keep)).content {
            keepLostDeletion(index, record: record, goneSide: goneSide, changed: event, into: &plan)
            if options.direction.carries(from: keep) {
                items.set(index, goneSide, id: nil, hash: nil)
                items[index].origin = keep
                plan.writes.append(create(index, from: keep, source: event, hash: hash))
                // A series copied back is compared occurrence by occurrence: Google brings a deleted event back
                // under its old id with the occurrences cancelled before the deletion still cancelled.
                if event.recurrence != nil { plan.seriesToCompare.append((index, keep)) }
            } else {
                items.set(index, goneSide, id: nil, hash: nil)
                items.set(index, keep, id: keptID, hash: hash)
                items.save(index)
            }
            return
        }
        if options.direction.carries(from: goneSide) {
            plan.writes.append(
                PlannedWrite(
                    kind: .delete, target: keep, write: .delete(id: keptID), item: index, sourceSide: goneSide, sourceHash: nil,
                    title: otherEvent?.title ?? keptID))
        } else {
            // One-way from `keep`: its event stays; the copy the user deleted comes back.
            if let event = otherEvent, let hash = sideHash(event, on: keep) {
                let revision = calendars[keep].publishesRevisions ? SyncRevision(event) : nil
                plan.writes.append(create(index, from: keep, source: event, hash: SyncRevision.tagged(hash, revision)))
                if event.recurrence != nil { plan.seriesToCompare.append((index, keep)) }
            } else {
                items.set(index, keep, id: keptID, hash: nil)  // unseen: compared (and copied) when next read
                items.set(index, goneSide, id: nil, hash: nil)
                items.save(index)
            }
        }
    }

    func create(_ index: Int, from side: SyncSide, source: Event, hash: String) -> PlannedWrite {
        let (copy, marker) = copyAndMarker(source, from: side)
        let key = IdempotencyKey.copy(of: marker, toCalendar: calendars[side.other].calendarID)
        return PlannedWrite(
            kind: .create, target: side.other, write: .create(copy, idempotencyKey: key), item: index, sourceSide: side,
            sourceHash: hash, title: source.title)
    }

    func update(_ index: Int, from side: SyncSide, source: Event, hash: String, targetID: String) -> PlannedWrite {
        var copy = copyEvent(source, from: side)
        copy.id = targetID
        copy.calendarID = calendars[side.other].calendarID
        return PlannedWrite(
            kind: .update, target: side.other, write: .update(copy), item: index, sourceSide: side, sourceHash: hash, title: source.title,
            source: source)
    }

    /// The marker this pair writes into a copy of `event` from `side`.
    func marker(for event: Event, from side: SyncSide, hash: String) -> OriginMarker {
        let e = calendars[side]
        return OriginMarker(provider: e.provider, account: e.identity, calendarID: e.calendarID, eventID: event.id, contentHash: hash)
    }

    /// The key the copies of `side`'s events carry.
    func calendarKey(_ side: SyncSide) -> String {
        let e = calendars[side]
        return OriginMarker.calendarKey(provider: e.provider, account: e.identity, calendarID: e.calendarID)
    }

    /// Legacy local-name keys (copies made before stable identities) are recognised too.
    func isCopy(_ event: Event, of side: SyncSide) -> Bool {
        guard let origin = event.origin else { return false }
        let e = calendars[side]
        return origin.calendarKey == calendarKey(side)
            || origin.calendarKey == OriginMarker.calendarKey(provider: e.provider, account: e.account, calendarID: e.calendarID)
    }

    // MARK: projection and hashes

    func projection(from side: SyncSide) -> CopyProjection {
        CopyProjection(fields: options.fields, target: calendars[side.other].capabilities)
    }

    /// The copy of `event` (from `side`) for the other side, with this pair's marker.
    func copyEvent(_ event: Event, from side: SyncSide) -> Event { copyAndMarker(event, from: side).copy }

    func copyAndMarker(_ event: Event, from side: SyncSide) -> (copy: Event, marker: OriginMarker) {
        let rule = event.recurrence.flatMap {
            try? SeriesFit.recurrence(for: $0, start: event.start, on: calendars[side.other].capabilities.recurrence).get()
        }
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
            guard
                case .success(let fitted) = SeriesFit.recurrence(
                    for: recurrence, start: event.start, on: calendars[side.other].capabilities.recurrence)
            else { return nil }
            rule = fitted
        }
        var copy = projection(from: side).copy(of: event, recurrence: rule)
        // Cancelled occurrences are decided occurrence by occurrence (`seriesToCompare`), as Google and Graph
        // report them: a CalDAV server's EXDATE on the master is no change of the series either, so a
        // cancellation on one side never counts as an edit that wins over the series' deletion on the other.
        copy.recurrence = copy.recurrence?.withoutExceptionDates
        return CopyProjection.contentHash(of: copy)
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

    /// Why a write onto an original on `side` (a meeting: `attendees`, of the event or of its series) must not be
    /// sent, or nil: its service mails the attendees of a meeting that changes or is deleted (Graph), with no
    /// way to stop it.
    func invitationRefusal(title: String, attendees: [[Attendee]], on side: SyncSide, deleting: Bool = false) -> String? {
        let calendar = calendars[side]
        return Self.invitationRefusal(
            title: title, attendees: attendees, provider: calendar.provider, capabilities: calendar.capabilities, deleting: deleting,
            otherSide: deleting
                ? "delete it there yourself (it stays deleted on the other side)"
                : "change it there yourself (the other side keeps its edit)")
    }

    /// Why a write onto a meeting (`attendees`, of the event or of its series) of a calendar of `provider` must not
    /// be sent: its service mails the attendees of a meeting that changes or is deleted (Graph), with no way to stop
    /// it. `instead` says what the user can do. Nil when the write mails nobody.
    static func invitationRefusal(
        title: String, attendees: [[Attendee]], provider: ProviderKind, capabilities: ProviderCapabilities, deleting: Bool,
        otherSide instead: String
    ) -> String? {
        guard capabilities.invitations == .sentByService, attendees.contains(where: { !$0.isEmpty }) else { return nil }
        let what = deleting ? "a cancellation for the deletion" : "about the change"
        return "'\(title)' has attendees, and \(provider) would e-mail them \(what) from the other side; \(instead)"
    }

    // MARK: occurrences

    /// The three-way comparison of each occurrence of the series compared (`series`: each side's master and
    /// occurrences, by item), against what it was at the last sync (`stored`, empty for a series compared for
    /// the first time): the writes, the conflicts, and each series' rows as they stand before the writes
    /// (a write's row joins them once it landed). `requestedFrom`: the sides whose occurrences (or master)
    /// changed, by item; `mastersWritten`: the items whose master this run wrote, by side.
    func planOccurrences(
        series: [Int: Sides<SeriesOnSide>], stored: [Int: [OccurrenceKey: SyncOccurrenceRecord]], requestedFrom: [Int: Set<SyncSide>],
        mastersWritten: Sides<Set<Int>>, items: SyncItems, dryRun: Bool, now: Date
    ) -> OccurrencePlan {
        var plan = OccurrencePlan()
        let planners = Sides(a: occurrencePlanner(from: .a), b: occurrencePlanner(from: .b))
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
                let state = Sides(
                    a: occurrenceState(nowA, master: both.a.master, on: .a), b: occurrenceState(nowB, master: both.b.master, on: .b))
                let decided = decideOccurrence(
                    index, rowID: items[index].rowID, current: current, state: state, base: hasBase ? stored[index]?[key] : nil,
                    hasBase: hasBase,
                    requestedFrom: requestedFrom[index] ?? [],
                    masterWrittenTo: Sides(a: mastersWritten.a.contains(index), b: mastersWritten.b.contains(index)))
                if let conflict = decided.conflict { plan.conflicts.append(conflict) }
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
                        plan.notices.append(
                            "'\(source?.title ?? "")' (\(key)): side \(loser.rawValue.uppercased()) cannot restore a cancelled occurrence; it stays cancelled there"
                        )
                    }
                    kept.append(row)
                    continue
                }
                if source == nil, target.status == .cancelled {
                    kept.append(row)
                    continue
                }
                let ontoOriginal = items[index].origin == loser
                let entry = planners[winner].carry(
                    master: both[winner].master, target: target, source: source, targetMaster: both[loser].master,
                    ontoOriginal: ontoOriginal)
                guard let write = entry.write else {
                    kept.append(row)
                    continue
                }
                row.updated = now
                let title = source?.title ?? target.title
                plan.writes.append(
                    OccurrenceWrite(
                        item: index, key: key, target: loser, write: write, title: title, row: row, targetMaster: both[loser].master,
                        refused: ontoOriginal
                            ? invitationRefusal(
                                title: title, attendees: [target.attendees, both[loser].master.attendees], on: loser,
                                deleting: write.isDelete)
                            : nil))
            }
            plan.rows[index] = kept
        }
        return plan
    }

    /// The occurrences compared: those live in the window on either side, and stored ones either side still names.
    static func candidateKeys(_ both: Sides<SeriesOnSide>, stored: [OccurrenceKey: SyncOccurrenceRecord]?) -> [OccurrenceKey] {
        var keys = both.a.liveInWindow.union(both.b.liveInWindow)
        for key in (stored ?? [:]).keys where both.a.occurrences[key] != nil || both.b.occurrences[key] != nil { keys.insert(key) }
        return keys.sorted()
    }

    static func key(_ e: Event) -> OccurrenceKey { OccurrenceKey(e.originalStart ?? e.start) }

    /// The planner of occurrence writes from `side` to the other.
    func occurrencePlanner(from side: SyncSide) -> OccurrencePlanner {
        let source = calendars[side], target = calendars[side.other]
        return OccurrencePlanner(
            sourceProvider: source.provider, sourceAccount: source.identity, sourceCalendarID: source.calendarID,
            targetCalendarID: target.calendarID, projection: projection(from: side), zone: window.zone)
    }

    /// A side's occurrence as stored: it follows its series (with its content hash), it is cancelled, or the
    /// content hash of the exception (what a copy of it to the other side would carry).
    func occurrenceState(_ now: OccurrenceNow, master: Event, on side: SyncSide) -> String {
        guard case .live(let e) = now, e.status != .cancelled else { return SyncOccurrenceRecord.cancelled }
        let projection = projection(from: side)
        let copy = projection.copy(of: e)
        let content = CopyProjection.contentHash(of: copy)
        if OccurrencePlanner.followsMaster(
            copy, anchor: e.originalStart ?? e.start, masterCopy: projection.copy(of: master), masterStart: master.start)
        {
            return SyncOccurrenceRecord.followsSeries(content: content)
        }
        return content
    }

    /// Which side's version of one occurrence both sides get (nil: nothing to carry), and the conflict, if any
    /// (of item `index`, stored as `rowID`).
    func decideOccurrence(
        _ index: Int, rowID: Int64?, current: Sides<OccurrenceNow>, state: Sides<String>, base: SyncOccurrenceRecord?, hasBase: Bool,
        requestedFrom: Set<SyncSide>, masterWrittenTo: Sides<Bool>
    ) -> (winner: SyncSide?, conflict: PlannedConflict?) {
        let follows = Sides(a: SyncOccurrenceRecord.isFollowsSeries(state.a), b: SyncOccurrenceRecord.isFollowsSeries(state.b))
        if (follows.a && follows.b) || (state.a == SyncOccurrenceRecord.cancelled && state.b == SyncOccurrenceRecord.cancelled) {
            return (nil, nil)
        }
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
        switch (current.a, current.b) {
        case (.live(let ea), .live(let eb)):
            let winner = conflictWinner(ea, eb)
            let reason = winnerReason(ea, eb, winner: winner)
            let report = SyncConflict(itemID: rowID, title: (winner == .a ? ea : eb).title, a: ea, b: eb, winner: winner, reason: reason)
            return (winner, PlannedConflict(item: index, report: report))
        case (.cancelled(let cancelled), .live(let live)), (.live(let live), .cancelled(let cancelled)):
            let cancelledSide: SyncSide = { if case .cancelled = current.a { return .a } else { return .b } }()
            // Cancelled against an edit: the edit wins, as for items, where the cancelled side can restore it; in a
            // two-way pair the cancellation is kept (as a lost deletion is), so `sync conflicts restore` can
            // cancel that one occurrence again.
            if var lost = cancelled {
                guard options.direction == .both else { return (cancelledSide.other, nil) }
                lost.status = .cancelled
                let side = { (s: SyncSide) in s.rawValue.uppercased() }
                let reason =
                    "cancelled on \(side(cancelledSide)) while changed on \(side(cancelledSide.other)): the change wins and is copied back"
                let a = cancelledSide == .a ? lost : live, b = cancelledSide == .b ? lost : live
                let report = SyncConflict(itemID: rowID, title: live.title, a: a, b: b, winner: cancelledSide.other, reason: reason)
                return (cancelledSide.other, PlannedConflict(item: index, report: report))
            }
            var gone = live
            gone.id = ""
            gone.status = .cancelled
            gone.start = live.originalStart ?? live.start
            let reason =
                "cancelled on \(cancelledSide.rawValue.uppercased()), which cannot restore an occurrence; the edit on \(cancelledSide.other.rawValue.uppercased()) is kept in sync.db"
            let a = cancelledSide == .a ? gone : live, b = cancelledSide == .b ? gone : live
            let report = SyncConflict(itemID: rowID, title: live.title, a: a, b: b, winner: cancelledSide, reason: reason)
            return (cancelledSide, PlannedConflict(item: index, report: report))
        case (.cancelled, .cancelled):
            return (nil, nil)
        }
    }
}
