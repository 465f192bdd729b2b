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
        var marker = OriginMarker(
            provider: sourceProvider, account: sourceAccount, calendarID: sourceCalendarID, eventID: source.id,
            contentHash: hash)
        marker.knownCalendarKey = sourceCalendarKey
        return marker
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
        if keeper.origin?.contentHash == u.hash && isCurrent(keeper) && !matchedByContent {
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
                        : keeper.origin?.contentHash == u.hash ? "re-marked with the account's identity" : "the source changed"))
            item.matchedByContent = matchedByContent
            plan.entries.append(.init(item: item, write: .update(update)))
        }
        if u.asSeries { plan.series.append(.init(sourceMaster: u.source, targetMasterID: keeper.id, entryIndex: plan.entries.count - 1)) }
        for extra in copies where extra.id != keeper.id {
            plan.entries.append(surplus(extra))
        }
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

    // MARK: phase 2: occurrences of series copied as series

    /// A target occurrence whose source occurrence was not listed and is not known cancelled: the source
    /// must be asked (`query`) before anything is done to it.
    public struct OpenOccurrence: Sendable {
        public var sourceMaster: Event
        public var target: Event
        public var query: OccurrenceQuery
    }

    /// The occurrence-level changes of series copied as series, and the occurrences that need proof.
    public struct OccurrencePlan: Sendable {
        public var entries: [CopyPlan.Entry] = []
        /// Target occurrences absent from the source listing: ask the source (`probeOccurrences`), then
        /// `resolve(_:probes:)`.
        public var open: [OpenOccurrence] = []
    }

    /// Plans the occurrence-level changes of series copied as series: an occurrence moved or changed
    /// in the source is patched on the target's occurrence with the same original start; one the source
    /// says is cancelled (a cancelled exception in its listing) is deleted on the target. Absence from
    /// the source listing proves nothing: such occurrences come back in `open`.
    /// - Parameters:
    ///   - series: each source master with its copy's id on the target.
    ///   - sourceOccurrences: the source listed with `expand: true`, cut to the window (`CopyWindow`).
    ///   - sourceExceptions: exceptions from the `expand: false` listing (moved, changed or cancelled
    ///     occurrences), so an occurrence moved out of the window is still known.
    ///   - targetOccurrences: the target listed with `expand: true`, cut to the same window.
    ///   - targetCancelled: cancelled exceptions of the target's series (Google lists them with `expand:
    ///     false`): one whose occurrence the source lists, live, is restored from it. `sync` passes them: a
    ///     series copied back after the user deleted its copy comes back under its old id (Google) with the
    ///     occurrences cancelled before still cancelled. `copy` passes none.
    public func planOccurrences(
        series: [(sourceMaster: Event, targetMasterID: String)], sourceOccurrences: [Event], sourceExceptions: [Event],
        targetOccurrences: [Event], targetCancelled: [Event] = []
    ) -> OccurrencePlan {
        var plan = OccurrencePlan()
        // Each listing grouped by series once (in listing order, which decides ties): filtering every
        // listing for each series was quadratic, 500 series by 3,000 occurrences at 10,000 events.
        let exceptionsOf = sourceExceptions.groupedBySeries()
        let occurrencesOf = sourceOccurrences.groupedBySeries { $0.status != .cancelled }
        let targetsOf = targetOccurrences.groupedBySeries { $0.status != .cancelled }
        let cancelledTargetsOf = targetCancelled.groupedBySeries { $0.status == .cancelled }
        for (master, targetID) in series {
            var source: [OccurrenceKey: Event] = [:]
            var cancelled = Set<OccurrenceKey>()
            for e in exceptionsOf[master.id] ?? [] {
                if e.status == .cancelled { cancelled.insert(Self.occurrenceKey(e)) } else { source[Self.occurrenceKey(e)] = e }
            }
            for e in occurrencesOf[master.id] ?? [] {
                source[Self.occurrenceKey(e)] = e
            }
            // Keyed once: the sort made two keys (two strings) per comparison.
            let targets = (targetsOf[targetID] ?? []).map { (key: Self.occurrenceKey($0), event: $0) }.sorted { $0.key < $1.key }
            var signature: String?
            for (key, t) in targets {
                if let s = source[key] {
                    let masterSignature = signature ?? masterSignature(master)
                    signature = masterSignature
                    if let entry = occurrenceEntry(master: master, masterSignature: masterSignature, target: t, source: s) {
                        plan.entries.append(entry)
                    }
                } else if cancelled.contains(key) {
                    plan.entries.append(cancellation(master: master, target: t, why: "cancelled in the source series"))
                } else if let query = query(for: t, master: master) {
                    plan.open.append(OpenOccurrence(sourceMaster: master, target: t, query: query))
                }
            }
            let live = Set(targets.map(\.key))
            for t in cancelledTargetsOf[targetID] ?? [] {
                let key = Self.occurrenceKey(t)
                guard !live.contains(key), let s = source[key], !cancelled.contains(key) else { continue }
                plan.entries.append(restoration(master: master, target: t, source: s))
            }
        }
        return plan
    }

    /// The write that brings back a target occurrence cancelled there while the source still has it: the
    /// source occurrence's content, confirmed, on the target's occurrence id.
    func restoration(master: Event, target t: Event, source s: Event) -> CopyPlan.Entry {
        var copy = projection.copy(of: s)
        let hash = CopyProjection.contentHash(of: copy)
        copy.id = t.id
        copy.calendarID = targetCalendarID
        copy.seriesID = t.seriesID
        copy.originalStart = t.originalStart
        copy.status = .confirmed
        copy.origin = marker(for: s, hash: hash)
        return .init(
            item: CopyItem(
                action: .update, sourceEventID: s.id, targetEventID: t.id, title: s.title, start: CopyItem.startText(s.start),
                reason: "occurrence cancelled on the target but not in the source series: restored", occurrence: true),
            write: .update(copy))
    }

    /// The entries for open occurrences once the source has answered (`probes` in the order of `open`):
    /// cancelled where it says cancelled, patched where it lists the occurrence changed, nothing otherwise.
    public func resolve(_ open: [OpenOccurrence], probes: [OccurrenceProbe]) -> [CopyPlan.Entry] {
        var entries: [CopyPlan.Entry] = []
        var signatures: [String: String] = [:]
        for (item, probe) in zip(open, probes) {
            switch probe {
            case .cancelled:
                entries.append(cancellation(master: item.sourceMaster, target: item.target, why: "cancelled in the source series (read by id)"))
            case .exists(let s):
                let master = item.sourceMaster
                let signature = signatures[master.id] ?? masterSignature(master)
                signatures[master.id] = signature
                if let entry = occurrenceEntry(master: master, masterSignature: signature, target: item.target, source: s) {
                    entries.append(entry)
                }
            case .seriesGone, .unknown:
                // The series' own copy is the master's business (--prune, on proof); unknown is no proof.
                continue
            }
        }
        return entries
    }

    /// The question to ask the source about a target occurrence it did not list: over the occurrence's
    /// own time, widened by one period of the series either way (an occurrence cannot move past its
    /// neighbours in Outlook). Nil when the occurrence lies outside the source series' range (before
    /// its start or after its end date): a shortened rule is the master's update, not a cancellation.
    func query(for target: Event, master: Event) -> OccurrenceQuery? {
        let original = target.originalStart ?? target.start
        let zone = options.zone
        let instant = original.instant(allDayZone: zone)
        if instant < master.start.instant(allDayZone: zone) { return nil }
        let rule = master.recurrence?.rules.first
        switch rule?.until {
        case .instant(let until)? where instant > until: return nil
        case .date(let date)? where instant >= date.adding(days: 1).startInstant(in: zone): return nil
        default: break
        }
        let day = 86_400.0
        let period: Double
        switch rule?.frequency {
        case .weekly?: period = 7 * day
        case .monthly?: period = 31 * day
        case .yearly?: period = 366 * day
        default: period = day
        }
        let span = period * Double(max(1, rule?.interval ?? 1)) + 2 * day
        let duration = max(0, target.end.instant(allDayZone: zone).timeIntervalSince(target.start.instant(allDayZone: zone)))
        return OccurrenceQuery(
            seriesID: master.id, originalStart: original,
            range: TimeRange(start: instant.addingTimeInterval(-span), end: instant.addingTimeInterval(span + duration)))
    }

    func cancellation(master: Event, target t: Event, why: String) -> CopyPlan.Entry {
        .init(
            item: CopyItem(
                action: .update, sourceEventID: master.id, targetEventID: t.id, title: t.title,
                start: CopyItem.startText(t.originalStart ?? t.start), reason: "occurrence " + why, occurrence: true),
            write: .delete(id: t.id))
    }

    /// The patch that makes target occurrence `t` match source occurrence `s`, or nil when it does.
    /// - Parameter masterSignature: `masterSignature(master)`, computed once per series (the master's
    ///   projection renders its body again, which per occurrence would cost more than the comparison).
    func occurrenceEntry(master: Event, masterSignature: String, target t: Event, source s: Event) -> CopyPlan.Entry? {
        let copy = projection.copy(of: s)
        // An occurrence the series made carries no marker: nothing to compare, no hash needed.
        if let marked = t.origin?.contentHash, marked == CopyProjection.contentHash(of: copy) { return nil }
        let isException = Self.signature(copy, anchor: s.originalStart ?? s.start) != masterSignature
        let patchedBefore = t.origin != nil && t.origin?.eventID != master.id
        guard isException || patchedBefore else { return nil }
        return patch(master: master, target: t, source: s, isException: isException)
    }

    // MARK: occurrences decided by sync

    /// For `sync`, whose three-way comparison of an occurrence decided that the source's version wins: the
    /// write that makes target occurrence `t` what the source holds, whatever the target holds now. `s` nil:
    /// the source's occurrence is cancelled (`t` is cancelled). `s` following its series: `t` follows the
    /// target's series (`targetMaster`), restored if cancelled. Else `t` cancelled (listed so, as Google does)
    /// is restored from `s`, and a live `t` is patched to `s`.
    ///
    /// A following occurrence takes the target master's content, not the source's: where the target holds
    /// the original, its master keeps what a copy's edits do not carry back (reminders, body), and an
    /// occurrence given the source's would not follow it. Google keeps an exception's content when its
    /// series changes, so such an occurrence would also be left behind by every later change of the series.
    /// - Parameter ontoOriginal: the target holds the original series: as for an item carried back
    ///   (`SyncWriter.mergedIntoOriginal`), only title, times and location are carried (and only they are
    ///   written), onto the occurrence as the original holds it (its guests, notes and reminders stay; a
    ///   cancelled one comes back as its series makes it), and no copy marker is written into it.
    package func carryOccurrence(master: Event, target t: Event, source s: Event?, targetMaster: Event, ontoOriginal: Bool = false) -> CopyPlan.Entry {
        guard let s else { return cancellation(master: master, target: t, why: "cancelled in the source series") }
        let copy = projection.copy(of: s)
        let follows = Self.followsMaster(copy, anchor: s.originalStart ?? s.start, masterCopy: projection.copy(of: master), masterStart: master.start)
        let restoring = t.status == .cancelled
        // What the target's series makes of the occurrence, on the occurrence as the target holds it; a cancelled
        // one (Google lists it with its ids alone) gets the series' guests.
        let asSeries = Self.following(targetMaster, at: t).map { e -> Event in
            var e = e
            if restoring { e.attendees = targetMaster.attendees }
            return e
        }
        let held = restoring ? asSeries : t
        var written: Event
        if follows, let asSeries {
            written = asSeries
        } else if ontoOriginal, var merged = held {
            merged.title = copy.title
            merged.start = copy.start
            merged.end = copy.end
            merged.location = copy.location
            written = merged
        } else {
            return restoring ? restoration(master: master, target: t, source: s) : patch(master: master, target: t, source: s, isException: !follows)
        }
        written.calendarID = targetCalendarID
        written.status = .confirmed
        written.recurrence = nil
        written.origin = ontoOriginal ? t.origin : marker(for: s, hash: CopyProjection.contentHash(of: copy))
        let reason =
            restoring ? "occurrence cancelled on the target but not in the source series: restored"
            : follows ? "occurrence restored to the series" : "occurrence moved or changed in the source series"
        // Onto a live occurrence of the original, only what is carried is written; the rest stays as the
        // service stores it. A restored one needs its status written too, one following its series all of it.
        let fields: EventFields = ontoOriginal && !restoring && !follows ? [.title, .times, .location] : .all
        return .init(
            item: CopyItem(
                action: .update, sourceEventID: s.id, targetEventID: t.id, title: written.title, start: CopyItem.startText(written.start),
                reason: reason, occurrence: true),
            write: .update(written, fields: fields))
    }

    /// Occurrence `t` as its series makes it: `master`'s content at `t`'s original time, keeping what `t`
    /// holds besides (its ids, attendees, properties). Nil without an original time, or when it and the
    /// master's times are not of one kind (a series switched between all-day and timed).
    package static func following(_ master: Event, at t: Event) -> Event? {
        let length = distance(master.start, master.end)
        var e = t
        switch (t.originalStart, master.start, master.end) {
        case (.allDay(let day)?, .allDay, .allDay):
            e.start = .allDay(date: day)
            e.end = .allDay(date: day.adding(days: length / 86_400))
        case (.timed(let at, _)?, .timed(_, let zone), .timed(_, let endZone)):
            e.start = .timed(instant: at, zone: zone)
            e.end = .timed(instant: at.addingTimeInterval(TimeInterval(length)), zone: endZone)
        default:
            return nil
        }
        e.title = master.title
        e.body = master.body
        e.location = master.location
        e.showAs = master.showAs
        e.sensitivity = master.sensitivity
        e.reminders = master.reminders
        e.categories = master.categories
        return e
    }

    /// The question `probeOccurrences` answers about occurrence `occurrence` (of another calendar's copy of
    /// the series) in `master`'s series; nil outside the series' range (see `query(for:master:)`).
    package func occurrenceQuery(for occurrence: Event, master: Event) -> OccurrenceQuery? { query(for: occurrence, master: master) }

    /// Whether an occurrence (`copy`: its projection, originally at `anchor`) is what its series makes of
    /// it: its master's content (`masterCopy`, the master's projection starting `masterStart`) at its own
    /// time. An exception (moved or changed) does not.
    package static func followsMaster(_ copy: Event, anchor: EventTime, masterCopy: Event, masterStart: EventTime) -> Bool {
        signature(copy, anchor: anchor) == signature(masterCopy, anchor: masterStart)
    }

    /// The signature an occurrence that follows `master` has (`followsMaster`'s right-hand side).
    func masterSignature(_ master: Event) -> String { Self.signature(projection.copy(of: master), anchor: master.start) }

    /// The patch of target occurrence `t` with source occurrence `s`'s content (and a marker naming `s`).
    func patch(master: Event, target t: Event, source s: Event, isException: Bool) -> CopyPlan.Entry {
        var copy = projection.copy(of: s)
        let hash = CopyProjection.contentHash(of: copy)
        copy.id = t.id
        copy.calendarID = targetCalendarID
        copy.seriesID = t.seriesID
        copy.originalStart = t.originalStart
        copy.origin = marker(for: s, hash: hash)
        return .init(
            item: CopyItem(
                action: .update, sourceEventID: s.id, targetEventID: t.id, title: s.title, start: CopyItem.startText(s.start),
                reason: isException ? "occurrence moved or changed in the source series" : "occurrence restored to the series",
                occurrence: true),
            write: .update(copy))
    }

    /// An occurrence's identity within its series: its original start as an instant (or date).
    static func occurrenceKey(_ event: Event) -> OccurrenceKey { OccurrenceKey(event.originalStart ?? event.start) }

    /// The copied content with the times made relative (offset from `anchor`, duration), so an
    /// unmoved, unchanged occurrence has its master's signature.
    static func signature(_ copy: Event, anchor: EventTime) -> String {
        var neutral = copy
        let day = LocalDate(year: 2000, month: 1, day: 1)!
        neutral.start = .allDay(date: day)
        neutral.end = .allDay(date: day)
        neutral.recurrence = nil
        return CopyProjection.contentHash(of: neutral) + "|\(distance(anchor, copy.start))|\(distance(copy.start, copy.end))"
    }

    /// Seconds between two times (days × 86400 between all-day dates).
    static func distance(_ a: EventTime, _ b: EventTime) -> Int {
        switch (a, b) {
        case (.allDay(let x), .allDay(let y)): return x.days(to: y) * 86_400
        default:
            let utc = TimeZone(secondsFromGMT: 0)!
            return Int(b.instant(allDayZone: utc).timeIntervalSince(a.instant(allDayZone: utc)).rounded())
        }
    }
}

/// What a copy shows of its event, for `CopyOptions.matchByContent`: the start (instant, or date) and title;
/// the location is compared apart (`CopyPlanner.sameLocation`).
struct ContentKey: Hashable {
    var start: EventTime
    var title: String

    init(_ event: Event) {
        switch event.start {
        case .allDay: start = event.start
        case .timed(let instant, _): start = .timed(instant: instant, zone: "UTC")
        }
        title = event.title
    }
}
