import Foundation

/// The occurrences of a series copied as a series, for `copy` and `sync` alike: the write that makes one
/// target occurrence what its source occurrence is (patched, cancelled, restored, or back to its series),
/// whether an occurrence follows its series, and the question to ask the source about one its listing did not
/// show. `copy` decides by comparing the two listings (`plan`, then `resolve` with the answers); `sync`
/// decides three ways against its state (`SyncPlanner.decideOccurrence`) and asks here for the write
/// (`carry`). Pure: no I/O. `CopyPlanner.occurrences` makes one for a copy's source and target; tests build
/// it directly.
public struct OccurrencePlanner: Sendable {
    /// The source calendar's coordinates (they go into every marker this planner writes).
    public var sourceProvider: ProviderKind
    public var sourceAccount: String
    public var sourceCalendarID: String
    public var targetCalendarID: String
    /// What a copy carries (`--fields`) onto the target's kind of calendar.
    public var projection: CopyProjection
    /// The zone all-day dates are read in.
    public var zone: TimeZone
    /// The `calendarKey` of every marker this planner makes.
    let sourceCalendarKey: String

    public init(
        sourceProvider: ProviderKind, sourceAccount: String, sourceCalendarID: String, targetCalendarID: String,
        projection: CopyProjection, zone: TimeZone
    ) {
        self.init(
            sourceProvider: sourceProvider, sourceAccount: sourceAccount, sourceCalendarID: sourceCalendarID,
            sourceCalendarKey: OriginMarker.calendarKey(provider: sourceProvider, account: sourceAccount, calendarID: sourceCalendarID),
            targetCalendarID: targetCalendarID, projection: projection, zone: zone)
    }

    init(
        sourceProvider: ProviderKind, sourceAccount: String, sourceCalendarID: String, sourceCalendarKey: String,
        targetCalendarID: String, projection: CopyProjection, zone: TimeZone
    ) {
        self.sourceProvider = sourceProvider
        self.sourceAccount = sourceAccount
        self.sourceCalendarID = sourceCalendarID
        self.sourceCalendarKey = sourceCalendarKey
        self.targetCalendarID = targetCalendarID
        self.projection = projection
        self.zone = zone
    }

    /// The marker a copy of `source` carries.
    func marker(for source: Event, hash: String) -> OriginMarker {
        OriginMarker.copy(
            of: source, provider: sourceProvider, account: sourceAccount, calendarID: sourceCalendarID, calendarKey: sourceCalendarKey,
            hash: hash)
    }

    // MARK: copy: occurrences compared between the two listings

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
    public func plan(
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
                entries.append(
                    cancellation(master: item.sourceMaster, target: item.target, why: "cancelled in the source series (read by id)"))
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
    public func query(for target: Event, master: Event) -> OccurrenceQuery? {
        let original = target.originalStart ?? target.start
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
        // An override copied from a later revision (iCalendar SEQUENCE) than this source's stays as it is.
        if s.sequence != nil, CopyPlanner.newerRevision(of: t, than: marker(for: s, hash: "")) != nil { return nil }
        let copy = projection.copy(of: s)
        // An occurrence the series made carries no marker: nothing to compare, no hash needed.
        if let marked = t.origin?.contentHash, marked == CopyProjection.contentHash(of: copy) { return nil }
        let isException = Self.signature(copy, anchor: s.originalStart ?? s.start) != masterSignature
        let patchedBefore = t.origin != nil && t.origin?.eventID != master.id
        guard isException || patchedBefore else { return nil }
        return patch(master: master, target: t, source: s, isException: isException)
    }

    // MARK: sync: occurrences decided three ways

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
    public func carry(master: Event, target t: Event, source s: Event?, targetMaster: Event, ontoOriginal: Bool = false) -> CopyPlan.Entry {
        guard let s else { return cancellation(master: master, target: t, why: "cancelled in the source series") }
        let copy = projection.copy(of: s)
        let follows = Self.followsMaster(
            copy, anchor: s.originalStart ?? s.start, masterCopy: projection.copy(of: master), masterStart: master.start)
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
            return restoring
                ? restoration(master: master, target: t, source: s) : patch(master: master, target: t, source: s, isException: !follows)
        }
        written.calendarID = targetCalendarID
        written.status = .confirmed
        written.recurrence = nil
        written.origin = ontoOriginal ? t.origin : marker(for: s, hash: CopyProjection.contentHash(of: copy))
        let reason =
            restoring
            ? "occurrence cancelled on the target but not in the source series: restored"
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
    public static func following(_ master: Event, at t: Event) -> Event? {
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

    /// Whether an occurrence (`copy`: its projection, originally at `anchor`) is what its series makes of
    /// it: its master's content (`masterCopy`, the master's projection starting `masterStart`) at its own
    /// time. An exception (moved or changed) does not.
    public static func followsMaster(_ copy: Event, anchor: EventTime, masterCopy: Event, masterStart: EventTime) -> Bool {
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
    public static func occurrenceKey(_ event: Event) -> OccurrenceKey { OccurrenceKey(event.originalStart ?? event.start) }

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
