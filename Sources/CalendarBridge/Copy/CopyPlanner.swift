import Foundation

/// The pure part of a copy: from what both sides hold now to a plan of creates, updates, deletes and
/// skips. No I/O; `CopyEngine` does the reading and writing around it.
public struct CopyPlanner: Sendable {
    /// The source calendar's coordinates (they go into every origin marker).
    public var sourceProvider: ProviderKind
    /// The source account's stable identity (`CopyEngine.Endpoint.accountIdentity`; the local name when
    /// there is none): markers and derived ids use it, so one mailbox under two names is one source.
    public var sourceAccount: String
    /// The account's local name when it differs from `sourceAccount`: copies made by versions that put
    /// the local name into markers are still recognised (and re-marked when next written).
    public var legacySourceAccount: String?
    public var sourceCalendarID: String
    public var targetCalendarID: String
    public var projection: CopyProjection
    public var options: CopyOptions
    /// The `calendarKey` of every marker this planner makes (one hash per run, not one per write).
    let sourceCalendarKey: String

    public init(
        sourceProvider: ProviderKind, sourceAccount: String, legacySourceAccount: String? = nil,
        sourceCalendarID: String, targetCalendarID: String, target: ProviderCapabilities, options: CopyOptions
    ) {
        self.sourceProvider = sourceProvider
        self.sourceAccount = sourceAccount
        self.legacySourceAccount = legacySourceAccount == sourceAccount ? nil : legacySourceAccount
        self.sourceCalendarID = sourceCalendarID
        self.targetCalendarID = targetCalendarID
        self.projection = CopyProjection(fields: options.fields, target: target)
        self.options = options
        sourceCalendarKey = OriginMarker.calendarKey(provider: sourceProvider, account: sourceAccount, calendarID: sourceCalendarID)
    }

    /// The lookup that finds every copy of this source calendar on the target.
    public var copiesLookup: OriginLookup {
        .calendar(provider: sourceProvider, account: sourceAccount, calendarID: sourceCalendarID)
    }

    /// Every lookup that finds copies of this source calendar: by identity, and by the legacy local name.
    public var copiesLookups: [OriginLookup] {
        [copiesLookup]
            + (legacySourceAccount.map { [.calendar(provider: sourceProvider, account: $0, calendarID: sourceCalendarID)] } ?? [])
    }

    /// Whether a marker is of this source calendar (under the identity or the legacy name): what its
    /// `calendarKey` says, read from the fields the key is a hash of (no hash per listed copy).
    func isOfThisCalendar(_ origin: OriginMarker) -> Bool {
        origin.provider == sourceProvider && origin.calendarID == sourceCalendarID
            && (origin.account == sourceAccount || origin.account == legacySourceAccount)
    }

    /// Whether a copy's marker uses the current identity (not a legacy local name).
    func isCurrent(_ copy: Event) -> Bool { copy.origin?.account == sourceAccount }

    /// The marker a copy of `source` carries.
    public func marker(for source: Event, hash: String) -> OriginMarker {
        OriginMarker.copy(
            of: source, provider: sourceProvider, account: sourceAccount, calendarID: sourceCalendarID, calendarKey: sourceCalendarKey,
            hash: hash)
    }

    /// Phase 2: the occurrences of the series this planner copies as series (the same planner `sync` uses).
    public var occurrences: OccurrencePlanner {
        OccurrencePlanner(
            sourceProvider: sourceProvider, sourceAccount: sourceAccount, sourceCalendarID: sourceCalendarID,
            sourceCalendarKey: sourceCalendarKey, targetCalendarID: targetCalendarID, projection: projection, zone: options.zone)
    }

    /// What the source event should look like on the target: the copy with its marker, and the hash.
    struct Unit {
        var source: Event
        var copy: Event
        var hash: String
        var asSeries: Bool
        var fallbackReason: String?
    }

    // MARK: phase 1: single events and series masters

    /// Plans the copy of single events and series masters.
    /// - Parameters:
    ///   - sourceEvents: with `.series`, the source listed with `expand: false` (single events, series
    ///     masters, exceptions); with `.instances`, listed with `expand: true`.
    ///   - sourceOccurrences: with `.series`, the source listed with `expand: true` (the occurrences a
    ///     series falls back to when the target cannot store its rule); ignored with `.instances`.
    ///   - existingCopies: `findCopies(origin: copiesLookup, in: target)`: every copy of this source
    ///     calendar on the whole target calendar.
    public func plan(sourceEvents: [Event], sourceOccurrences: [Event], existingCopies: [Event]) -> CopyPlan {
        var plan = CopyPlan()
        // What to copy, in order; the copies themselves are projected one at a time below, so that
        // only those that are written stay alive (lower peak memory for large calendars).
        var units: [(source: Event, recurrence: Recurrence?, fallbackReason: String?)] = []
        units.reserveCapacity(sourceEvents.count)
        let seriesMode = options.recurrence == .series
        let masterIDs = Set(sourceEvents.filter { $0.recurrence != nil && $0.seriesID == nil }.map(\.id))
        // Live occurrences by series, grouped once on first need (filtering them all per series copied as
        // instances was quadratic).
        var liveOccurrences: [String: [Event]]?

        for source in sourceEvents {
            if source.origin != nil {
                plan.entries.append(skip(source, "it is a calbridge copy (never copied again)"))
                continue
            }
            if let seriesID = source.seriesID {
                // Exceptions of a series copied as a series are mirrored with its occurrences.
                if seriesMode && masterIDs.contains(seriesID) { continue }
                if source.status == .cancelled { continue }
                if seriesMode {
                    plan.entries.append(skip(source, "its series is not in the listing"))
                    continue
                }
            }
            if source.status == .cancelled {
                plan.entries.append(skip(source, "it is cancelled"))
                continue
            }
            guard let recurrence = source.recurrence else {
                units.append((source, nil, nil))
                continue
            }
            switch SeriesFit.recurrence(for: recurrence, start: source.start, on: projection.target.recurrence) {
            case .success(let rule) where seriesMode:
                units.append((source, rule, nil))
            case let outcome:
                let reason: String
                if case .failure(let refusal) = outcome { reason = refusal.reason } else { reason = "copied as instances" }
                let grouped = liveOccurrences ?? sourceOccurrences.groupedBySeries { $0.status != .cancelled }
                liveOccurrences = grouped
                let occurrences = grouped[source.id] ?? []
                if seriesMode {
                    plan.fallbacks.append(
                        CopyFallback(sourceEventID: source.id, title: source.title, reason: reason, occurrences: occurrences.count))
                }
                for occurrence in occurrences where occurrence.origin == nil {
                    units.append((occurrence, nil, "series copied as instances: \(reason)"))
                }
            }
        }

        // Existing copies of this source calendar, by source event id (occurrence-level copies aside).
        // (Positions in `existingCopies`, not second copies of the events.) Room ahead for every copy,
        // so that the table is not rehashed as it grows.
        var copiesBySource = [String: [Int]](minimumCapacity: existingCopies.count)
        var order: [String] = []
        order.reserveCapacity(existingCopies.count)
        for (position, copy) in existingCopies.enumerated() where copy.seriesID == nil {
            guard let origin = copy.origin, isOfThisCalendar(origin) else { continue }
            if copiesBySource[origin.eventID] == nil { order.append(origin.eventID) }
            copiesBySource[origin.eventID, default: []].append(position)
        }

        for pending in units {
            if pending.recurrence != nil { plan.seriesCopiedWhole.insert(pending.source.id) }
            if let seriesID = pending.source.seriesID { plan.seriesCopiedSingly.insert(seriesID) }
        }
        var matched = Set<String>(minimumCapacity: units.count)
        // With `matchByContent`: copies whose source id this listing does not have, by what they show.
        var byContent: [ContentKey: [String]] = [:]
        if options.matchByContent {
            let listed = Set(units.map { $0.source.id })
            for eventID in order where !listed.contains(eventID) {
                guard let position = copiesBySource[eventID]?.first else { continue }
                byContent[ContentKey(existingCopies[position]), default: []].append(eventID)
            }
        }
        for pending in units {
            var u = unit(pending.source, recurrence: pending.recurrence)
            u.fallbackReason = pending.fallbackReason
            if copiesBySource[u.source.id] == nil, options.matchByContent,
                let index = byContent[ContentKey(u.copy)]?.firstIndex(where: { sameLocation(existingCopies[copiesBySource[$0]![0]], u) }),
                let eventID = byContent[ContentKey(u.copy)]?.remove(at: index), let positions = copiesBySource[eventID]
            {
                // The same event under a new UID: its copy is re-marked (an update), not duplicated.
                matched.insert(eventID)
                bring(positions.map { existingCopies[$0] }, upTo: u, into: &plan, matchedByContent: true)
                continue
            }
            guard let positions = copiesBySource[u.source.id], !positions.isEmpty else {
                u.copy.origin = u.copy.origin?.withEventKey()
                let key = IdempotencyKey.copy(of: u.copy.origin!, toCalendar: targetCalendarID)
                let title = u.source.title
                let start = CopyItem.startText(u.source.start)
                plan.entries.append(
                    .init(
                        item: CopyItem(action: .create, sourceEventID: u.source.id, title: title, start: start, reason: u.fallbackReason),
                        write: .create(u.copy, idempotencyKey: key)))
                if u.asSeries { plan.series.append(.init(sourceMaster: u.source, targetMasterID: nil, entryIndex: plan.entries.count - 1)) }
                continue
            }
            matched.insert(u.source.id)
            bring(positions.map { existingCopies[$0] }, upTo: u, into: &plan)
        }

        // Copies whose source is not among this run's events: absence is no proof, so with --prune they
        // are candidates only; `prunes(_:probes:)` deletes those whose source reads back gone. Series
        // copies are asked about with or without --prune: a series whose rule left the window is not
        // listed, yet its copy must follow the new rule (`refreshes(_:probes:plan:)`).
        for eventID in order where !matched.contains(eventID) {
            for position in copiesBySource[eventID] ?? [] {
                let copy = existingCopies[position]
                guard inWindow(copy) else { continue }
                if options.prune { plan.orphans.append(copy) }
                if seriesMode && copy.recurrence != nil { plan.unlistedSeries.append(copy) }
            }
        }
        return plan
    }

    /// Whether a copy's location is `u`'s: compared where the copy listing carries locations, else through the
    /// content hash (which covers the location; a listing of copies may carry only the fields `findCopies`
    /// names, and Google's does).
    func sameLocation(_ copy: Event, _ u: Unit) -> Bool {
        if let location = copy.location, !location.isEmpty { return location == u.copy.location }
        return copy.origin?.contentHash == u.hash
    }

    /// The entries that bring existing `copies` of one source event up to `u`: the keeper unchanged or
    /// updated (and, for a series, linked for phase 2), every other copy a surplus.
    func bring(_ copies: [Event], upTo u: Unit, into plan: inout CopyPlan, matchedByContent: Bool = false) {
        let title = u.source.title
        let start = CopyItem.startText(u.source.start)
        // The deterministic id only decides among several copies (two hashes saved per copied event).
        let keeper =
            copies.count == 1
            ? copies[0]
            : Self.keeper(
                copies, hash: u.hash, googleID: IdempotencyKey.copy(of: u.copy.origin!, toCalendar: targetCalendarID).googleEventID,
                account: sourceAccount)
        if !matchedByContent, let newer = Self.newerRevision(of: keeper, than: u.copy.origin) {
            // An older revision of the event (an older file, a feed that went back): the copy stays.
            plan.entries.append(
                .init(
                    item: CopyItem(
                        action: .unchanged, status: .done, sourceEventID: u.source.id, targetEventID: keeper.id,
                        title: title, start: start, reason: "the copy is of a newer revision (\(newer)): not overwritten"),
                    write: nil))
        } else if keeper.origin?.contentHash == u.hash && isCurrent(keeper) && !matchedByContent
            && !Self.isNewerRevision(u.copy.origin, than: keeper.origin)
        {
            plan.entries.append(
                .init(
                    item: CopyItem(
                        action: .unchanged, status: .done, sourceEventID: u.source.id, targetEventID: keeper.id,
                        title: title, start: start, reason: u.fallbackReason),
                    write: nil))
        } else {
            var update = u.copy
            update.id = keeper.id
            update.calendarID = targetCalendarID
            var item = CopyItem(
                action: .update, sourceEventID: u.source.id, targetEventID: keeper.id, title: title,
                start: start,
                reason: u.fallbackReason
                    ?? (matchedByContent
                        ? "matched by start, title and location: the source gave it a new id"
                        : keeper.origin?.contentHash != u.hash
                            ? "the source changed"
                            : isCurrent(keeper) ? "a new revision of the source (SEQUENCE)" : "re-marked with the account's identity"))
            item.matchedByContent = matchedByContent
            plan.entries.append(.init(item: item, write: .update(update)))
        }
        if u.asSeries { plan.series.append(.init(sourceMaster: u.source, targetMasterID: keeper.id, entryIndex: plan.entries.count - 1)) }
        for extra in copies where extra.id != keeper.id {
            plan.entries.append(surplus(extra))
        }
    }

    /// What makes `copy` newer than the source revision `source` describes, when it is: a higher recorded
    /// `SEQUENCE`, or the same one modified later (`LAST-MODIFIED`); nil when the source is as new or newer, or
    /// either side records no revision (services without revisions, copies made before they were recorded).
    static func newerRevision(of copy: Event, than source: OriginMarker?) -> String? {
        guard let recorded = copy.origin?.sourceSequence, let sequence = source?.sourceSequence else { return nil }
        if recorded > sequence { return "SEQUENCE \(recorded); the source has \(sequence)" }
        if recorded == sequence, let copied = copy.origin?.sourceModified, let modified = source?.sourceModified, copied > modified {
            let format = Date.ISO8601FormatStyle()
            return "LAST-MODIFIED \(Date(timeIntervalSince1970: TimeInterval(copied)).formatted(format)); the source has "
                + Date(timeIntervalSince1970: TimeInterval(modified)).formatted(format)
        }
        return nil
    }

    /// Whether the source revision `source` is a later `SEQUENCE` than the one `copied` records (the copy is
    /// re-marked even when what it shows did not change, so an older revision read later cannot win).
    static func isNewerRevision(_ source: OriginMarker?, than copied: OriginMarker?) -> Bool {
        guard let sequence = source?.sourceSequence, let recorded = copied?.sourceSequence else { return false }
        return sequence > recorded
    }

    /// Series copies whose source master was not listed (`plan.unlistedSeries`) but reads back by id:
    /// the master the probe returned is the source (its rule may have left the window), so each such
    /// copy is updated from it, exactly as a listed master's copy would be. Never a deletion: a copy
    /// whose source is gone or unreadable is `prunes(_:probes:plan:)`'s business.
    public func refreshes(probes: [String: EventProbe], plan: inout CopyPlan) {
        var order: [String] = []
        var copiesBySource: [String: [Event]] = [:]
        for copy in plan.unlistedSeries {
            guard let eventID = copy.origin?.eventID else { continue }
            if copiesBySource[eventID] == nil { order.append(eventID) }
            copiesBySource[eventID, default: []].append(copy)
        }
        for eventID in order {
            guard case .exists(let master)? = probes[eventID], master.id == eventID, master.seriesID == nil,
                master.origin == nil, master.status != .cancelled, let recurrence = master.recurrence,
                !plan.seriesCopiedSingly.contains(eventID),
                case .success(let rule) = SeriesFit.recurrence(for: recurrence, start: master.start, on: projection.target.recurrence),
                let copies = copiesBySource[eventID]
            else { continue }
            var u = unit(master, recurrence: rule)
            u.fallbackReason = nil
            bring(copies, upTo: u, into: &plan)
            plan.seriesCopiedWhole.insert(eventID)
        }
    }

    /// The deletions `--prune` makes among `orphans` (copies whose source was not listed): only where the
    /// source event, read by id, is gone. `probes` answers by source event id.
    /// - Returns: the delete entries, and one error per copy whose source could not be read (kept).
    /// A source that exists is still pruned when this run copies its occurrences in the other form
    /// (`plan`'s `seriesCopiedWhole`/`seriesCopiedSingly`): the copy is then a second copy of them.
    public func prunes(_ orphans: [Event], probes: [String: EventProbe], plan: CopyPlan = CopyPlan())
        -> (entries: [CopyPlan.Entry], errors: [CopyResult.ItemError])
    {
        var entries: [CopyPlan.Entry] = []
        var errors: [CopyResult.ItemError] = []
        for copy in orphans {
            guard let eventID = copy.origin?.eventID else { continue }
            if case .exists(let source)? = probes[eventID] {
                let form: String?
                if let seriesID = source.seriesID, plan.seriesCopiedWhole.contains(seriesID) {
                    form = "its series is now copied as a series"
                } else if source.recurrence != nil, plan.seriesCopiedSingly.contains(source.id) {
                    form = "its series is now copied as single events"
                } else {
                    form = nil
                }
                if let form {
                    entries.append(
                        .init(
                            item: CopyItem(
                                action: .delete, sourceEventID: eventID, targetEventID: copy.id, title: copy.title,
                                start: CopyItem.startText(copy.start), reason: "a second copy of the same occurrences: " + form,
                                duplicate: true),
                            write: .delete(id: copy.id)))
                }
                continue
            }
            switch probes[eventID] {
            case .gone?:
                entries.append(
                    .init(
                        item: CopyItem(
                            action: .delete, sourceEventID: eventID, targetEventID: copy.id, title: copy.title,
                            start: CopyItem.startText(copy.start), reason: "its source event is gone (read by id: not found)"),
                        write: .delete(id: copy.id)))
            case .exists?:
                continue
            case .unknown(let why)?:
                errors.append(
                    .init(
                        sourceEventID: eventID, targetEventID: copy.id, title: copy.title,
                        message: "kept: could not confirm that its source is gone: \(why)"))
            case nil:
                errors.append(
                    .init(sourceEventID: eventID, targetEventID: copy.id, title: copy.title, message: "kept: its source was not read"))
            }
        }
        return (entries, errors)
    }

    /// `--remove-copies`: a delete for every copy of this source calendar (series masters and single
    /// events; an occurrence goes with its series).
    public func removals(_ existingCopies: [Event]) -> [CopyPlan.Entry] {
        var seen = Set<String>()
        var entries: [CopyPlan.Entry] = []
        for copy in existingCopies where copy.seriesID == nil {
            guard let origin = copy.origin, isOfThisCalendar(origin), seen.insert(copy.id).inserted else { continue }
            entries.append(
                .init(
                    item: CopyItem(
                        action: .delete, sourceEventID: origin.eventID, targetEventID: copy.id, title: copy.title,
                        start: CopyItem.startText(copy.start), reason: "a copy of this source calendar (--remove-copies)"),
                    write: .delete(id: copy.id)))
        }
        return entries
    }

    func unit(_ source: Event, recurrence: Recurrence?) -> Unit {
        var copy = projection.copy(of: source, recurrence: recurrence)
        let hash = CopyProjection.contentHash(of: copy)
        copy.origin = marker(for: source, hash: hash)
        return Unit(source: source, copy: copy, hash: hash, asSeries: recurrence != nil)
    }

    func skip(_ source: Event, _ reason: String) -> CopyPlan.Entry {
        .init(
            item: CopyItem(
                action: .skip, status: .done, sourceEventID: source.id, title: source.title,
                start: CopyItem.startText(source.start), reason: reason, occurrence: source.seriesID != nil),
            write: nil)
    }

    func surplus(_ copy: Event) -> CopyPlan.Entry {
        let item = CopyItem(
            action: options.prune ? .delete : .duplicate, status: options.prune ? .planned : .done,
            sourceEventID: copy.origin?.eventID, targetEventID: copy.id, title: copy.title,
            start: CopyItem.startText(copy.start),
            reason: options.prune ? "a second copy of the same source event" : "a second copy of the same source event (--prune deletes it)",
            duplicate: true)
        return .init(item: item, write: options.prune ? .delete(id: copy.id) : nil)
    }

    /// Of several copies of one source event, the one to keep: the one already up to date, else the
    /// one with the deterministic id, else the oldest (marked with the account's identity before legacy
    /// markers); ties by id, so every run picks the same.
    static func keeper(_ copies: [Event], hash: String, googleID: String, account: String) -> Event {
        copies.min { a, b in
            func rank(_ e: Event) -> Int {
                (e.origin?.contentHash == hash ? 0 : 4) + (e.id == googleID ? 0 : 2) + (e.origin?.account == account ? 0 : 1)
            }
            if rank(a) != rank(b) { return rank(a) < rank(b) }
            let ca = a.created ?? .distantFuture
            let cb = b.created ?? .distantFuture
            if ca != cb { return ca < cb }
            return a.id < b.id
        } ?? copies[0]
    }

    /// Whether a copy may lie in the window (and so its source is asked about). A series counts when
    /// its occurrences can overlap the window: it starts before the window ends and has not ended
    /// before it starts. A series that ends after a count counts unless even its longest possible span
    /// (count × interval × the longest gap) ends before the window: its exact end is unknown without
    /// expanding it, and asking its source by id costs nothing extra (the reads are batched).
    func inWindow(_ copy: Event) -> Bool {
        let window = options.copyWindow
        guard let recurrence = copy.recurrence else { return window.contains(copy) }
        let start = copy.start.instant(allDayZone: options.zone)
        guard start < options.window.end else { return false }
        let duration = max(0, copy.end.instant(allDayZone: options.zone).timeIntervalSince(start))
        for rule in recurrence.rules {
            switch rule.until {
            case .instant(let until)? where until < options.window.start: return false
            case .date(let date)? where date.adding(days: 1).startInstant(in: options.zone) < options.window.start: return false
            default: break
            }
            if let count = rule.count, start < options.window.start {
                let day = 86_400.0
                // The longest gap between two occurrences: a month day or nth weekday that some months
                // lack (the 31st, a 5th Monday) can skip up to three months, Feb 29 up to eight years.
                let period: Double
                switch rule.frequency {
                case .weekly: period = 7 * day
                case .monthly: period = 124 * day
                case .yearly: period = 8 * 366 * day
                default: period = day
                }
                // Two days more for zone shifts and DST: an upper bound of the series' end.
                let span = period * Double(max(1, rule.interval)) * Double(max(1, count)) + 2 * day + duration
                if start.addingTimeInterval(span) < options.window.start { return false }
            }
        }
        return true
    }
}

/// What a copy shows of its event, for `CopyOptions.matchByContent` (and `sync` from a feed): the start
/// (instant, or date) and title; the location is compared apart (`CopyPlanner.sameLocation`).
public struct ContentKey: Hashable, Sendable {
    public var start: EventTime
    public var title: String

    public init(_ event: Event) {
        switch event.start {
        case .allDay: start = event.start
        case .timed(let instant, _): start = .timed(instant: instant, zone: "UTC")
        }
        title = event.title
    }
}
