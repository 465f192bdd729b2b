import Foundation

/// Copies the events of one calendar into another, on any two providers: idempotent (a second run
/// writes nothing), crash-safe (a rerun converges to one copy per source event) and without
/// invitations (attendees go into the body).
///
/// A run reads both sides, plans with `CopyPlanner` (pure), then writes through the target's
/// `applyWrites` in batches: single events and series masters first, then the occurrences of copied
/// series (moved ones patched, cancelled ones deleted). Per-item failures are collected; the rest is
/// still applied. A read-only target or an unknown calendar fails before anything is written.
///
/// Crash safety needs no local state: every copy carries an origin marker and content hash and is
/// created with a key derived from its origin (`IdempotencyKey.copy(of:toCalendar:)`), so a rerun finds
/// what an interrupted run wrote, leaves matching copies alone and updates the rest.
public struct CopyEngine: Sendable {
    /// One side of a copy: a provider and a calendar id, with the calendar when already resolved.
    public struct Endpoint: Sendable {
        public var provider: any CalendarProvider
        public var calendarID: String
        /// When nil, the engine lists the account's calendars to find it (and its access role).
        public var calendar: CalendarInfo?
        /// The account's stable identity at its provider (Graph: tenant and user object id; Google: the
        /// primary calendar id), which a source's markers and derived ids carry. Nil: the local account
        /// name (as versions before identities did).
        public var accountIdentity: String?

        public init(provider: any CalendarProvider, calendarID: String, accountIdentity: String? = nil) {
            self.provider = provider
            self.calendarID = calendarID
            self.accountIdentity = accountIdentity
        }

        public init(provider: any CalendarProvider, calendar: CalendarInfo, accountIdentity: String? = nil) {
            self.provider = provider
            self.calendarID = calendar.id
            self.calendar = calendar
            self.accountIdentity = accountIdentity
        }
    }

    /// How far a run is: writes done of writes known so far (the total grows when the occurrences of
    /// copied series are planned).
    public struct Progress: Sendable, Hashable {
        public var completed: Int
        public var total: Int
        public var failed: Int
    }

    public var source: Endpoint
    public var target: Endpoint
    public var options: CopyOptions

    public init(source: Endpoint, target: Endpoint, options: CopyOptions) {
        self.source = source
        self.target = target
        self.options = options
    }

    /// Runs the copy (or with `options.dryRun` only plans it).
    /// - Parameters:
    ///   - progress: called after each batch of writes (from any task).
    ///   - keeper: where both sides' listings go once planned, and the plan and its outcomes at the end,
    ///     when the caller is a process about to exit (`ExitKeeper`); nil frees them then.
    /// - Returns: the counts and items; per-item failures are in it, not thrown.
    /// - Throws: `CalendarError` when nothing could be done: an unknown calendar (`.notFound`), a
    ///   target the user cannot write to (`.readOnly`), an expired grant (`.unauthorized`), or a failed
    ///   read of either side. Nothing has been written then.
    public func run(progress: (@Sendable (Progress) -> Void)? = nil, keeping keeper: ExitKeeper? = nil) async throws
        -> CopyResult
    {
        // A target that shares its whole-calendar reads (CalDAV) reads the calendar once for the run: the
        // copies' lookups and the occurrences of copied series; the store goes with this run.
        guard let sharing = target.provider as? any ReadSharingProvider else {
            return try await runOnce(progress: progress, keeping: keeper)
        }
        var engine = self
        engine.target.provider = sharing.sharingReads()
        return try await engine.runOnce(progress: progress, keeping: keeper)
    }

    func runOnce(progress: (@Sendable (Progress) -> Void)?, keeping keeper: ExitKeeper?) async throws -> CopyResult {
        let (sourceCalendar, targetCalendar) = try await resolveCalendars()
        guard targetCalendar.accessRole.canWrite else {
            throw CalendarError(
                .readOnly, "the target calendar is \(targetCalendar.accessRole.rawValue)-only for this account",
                provider: target.provider.provider, account: target.provider.account, calendar: targetCalendar.name)
        }
        if sourceCalendar.id == targetCalendar.id && source.provider.account == target.provider.account
            && source.provider.provider == target.provider.provider
        {
            throw CalendarError(
                .invalidRequest, "source and target are the same calendar", provider: target.provider.provider,
                account: target.provider.account, calendar: targetCalendar.name)
        }
        let planner = CopyPlanner(
            sourceProvider: source.provider.provider, sourceAccount: source.accountIdentity ?? source.provider.account,
            legacySourceAccount: source.provider.account, sourceCalendarID: sourceCalendar.id,
            targetCalendarID: targetCalendar.id, target: target.provider.capabilities, options: options)
        let label = { (c: CalendarInfo) in "\(c.account):\(c.name)" }
        let sourceProvider = source.provider
        let targetProvider = target.provider
        if options.removeCopies {
            let existing = try await Self.findCopies(targetProvider, lookups: planner.copiesLookups, in: targetCalendar.id)
            let entries = planner.removals(existing)
            let done =
                options.dryRun
                ? entries
                : await execute(entries, in: targetCalendar.id, counter: ProgressCounter(total: entries.count, report: progress))
            return CopyResult(
                source: label(sourceCalendar), target: label(targetCalendar), dryRun: options.dryRun,
                items: done.map(\.item), fallbacks: [])
        }

        // Read both sides at once, over the same instants, and cut both listings with the same rule
        // (`CopyWindow`). Of the source's expanded listing only the occurrences of series are ever used
        // (its single events are the series listing's again), and the listings are dropped once planned,
        // which keeps the peak memory of a large copy down.
        let seriesMode = options.recurrence == .series
        let window = options.copyWindow
        let range = window.listingRange
        var plan: CopyPlan
        let sourceOccurrences: [Event]
        let sourceExceptions: [Event]
        do {
            let sourceID = sourceCalendar.id, targetID = targetCalendar.id, lookups = planner.copiesLookups
            let (listed, existing) = try await concurrently(
                { try await Self.sourceListing(sourceProvider, calendarID: sourceID, range: range, seriesMode: seriesMode) },
                { try await Self.findCopies(targetProvider, lookups: lookups, in: targetID) })
            let (sourceEvents, allOccurrences) = listed
            sourceOccurrences = allOccurrences.filter(window.contains)
            sourceExceptions = sourceEvents.filter { $0.seriesID != nil }
            plan = planner.plan(
                sourceEvents: Self.cut(sourceEvents, to: window, occurrences: allOccurrences, kept: sourceOccurrences),
                sourceOccurrences: sourceOccurrences, existingCopies: existing)
            // Kept until exit (freeing them costs CPU the exit does for nothing), at some peak memory.
            keeper?.keep([sourceEvents, allOccurrences, existing])
        }
        var extraErrors: [CopyResult.ItemError] = []

        // Copies whose source was not listed, read by id in one batch: --prune deletes a copy only when
        // its source is gone; a series copy whose master reads back is updated from that master (its
        // rule may have left the window, so the listing had no reason to show it).
        if !plan.orphans.isEmpty || !plan.unlistedSeries.isEmpty {
            let ids = Array(Set((plan.orphans + plan.unlistedSeries).compactMap { $0.origin?.eventID })).sorted()
            let answers = await sourceProvider.probeEvents(ids: ids, calendarID: sourceCalendar.id)
            let probes = Dictionary(zip(ids, answers), uniquingKeysWith: { a, _ in a })
            let pruned = planner.prunes(plan.orphans, probes: probes, plan: plan)
            planner.refreshes(probes: probes, plan: &plan)
            plan.entries += pruned.entries
            extraErrors += pruned.errors
        }

        if options.dryRun {
            // Occurrences can only be compared for series that already have a copy.
            let linked = plan.series.compactMap { s in s.targetMasterID.map { (sourceMaster: s.sourceMaster, targetMasterID: $0) } }
            if !linked.isEmpty {
                let targetOccurrences = try await targetProvider.listOccurrences(
                    calendarID: targetCalendar.id, range: range, ofSeries: Set(linked.map(\.targetMasterID))
                ).filter(window.contains)
                plan.entries += await occurrenceEntries(
                    planner, series: linked, sourceOccurrences: sourceOccurrences, sourceExceptions: sourceExceptions,
                    targetOccurrences: targetOccurrences, sourceCalendarID: sourceCalendar.id)
            }
            return CopyResult(
                source: label(sourceCalendar), target: label(targetCalendar), dryRun: true,
                items: plan.entries.map(\.item), fallbacks: plan.fallbacks, extraErrors: extraErrors)
        }

        let counter = ProgressCounter(total: plan.writes.count, report: progress)
        var entries = await execute(plan.entries, in: targetCalendar.id, counter: counter)

        // Phase 2: occurrences of series copied as series, against the masters as now stored.
        let linked: [(sourceMaster: Event, targetMasterID: String)] = plan.series.compactMap { s in
            let item = entries[s.entryIndex].item
            guard item.status != .failed, let id = s.targetMasterID ?? item.targetEventID else { return nil }
            return (s.sourceMaster, id)
        }
        if !linked.isEmpty {
            do {
                let targetOccurrences = try await targetProvider.listOccurrences(
                    calendarID: targetCalendar.id, range: range, ofSeries: Set(linked.map(\.targetMasterID))
                ).filter(window.contains)
                let occurrenceEntries = await occurrenceEntries(
                    planner, series: linked, sourceOccurrences: sourceOccurrences, sourceExceptions: sourceExceptions,
                    targetOccurrences: targetOccurrences, sourceCalendarID: sourceCalendar.id)
                await counter.add(total: occurrenceEntries.compactMap(\.write).count)
                entries += await execute(occurrenceEntries, in: targetCalendar.id, counter: counter)
            } catch {
                extraErrors.append(
                    .init(message: "occurrences of copied series not compared: \(Self.describe(error))"))
            }
        }
        // What the run is done with, freed at exit instead of piece by piece.
        keeper?.keep((plan, entries, sourceOccurrences, sourceExceptions))
        return CopyResult(
            source: label(sourceCalendar), target: label(targetCalendar), dryRun: false,
            items: entries.map(\.item), fallbacks: plan.fallbacks, extraErrors: extraErrors)
    }

    /// Phase 2's entries: what the listings show, then what the source answers about the target
    /// occurrences it did not list (one batched round of proof reads).
    func occurrenceEntries(
        _ planner: CopyPlanner, series: [(sourceMaster: Event, targetMasterID: String)], sourceOccurrences: [Event],
        sourceExceptions: [Event], targetOccurrences: [Event], sourceCalendarID: String
    ) async -> [CopyPlan.Entry] {
        let occurrences = planner.occurrences.plan(
            series: series, sourceOccurrences: sourceOccurrences, sourceExceptions: sourceExceptions,
            targetOccurrences: targetOccurrences)
        guard !occurrences.open.isEmpty else { return occurrences.entries }
        let probes = await source.provider.probeOccurrences(occurrences.open.map(\.query), calendarID: sourceCalendarID)
        return occurrences.entries + planner.occurrences.resolve(occurrences.open, probes: probes)
    }

    /// The source listing cut to the window: single events that lie in it; series masters with an
    /// occurrence in it (or, when the expansion had none of theirs at all, as the provider listed them);
    /// exceptions as listed (the planner needs moved and cancelled ones wherever they are).
    /// With `--recurrence instances` (no masters listed) every occurrence is cut like a single event.
    static func cut(_ events: [Event], to window: CopyWindow, occurrences: [Event], kept: [Event]) -> [Event] {
        let expandedSeries = Set(occurrences.compactMap(\.seriesID))
        let seriesInWindow = Set(kept.compactMap(\.seriesID))
        let masters = events.filter { master in
            guard master.recurrence != nil, master.seriesID == nil else { return false }
            if expandedSeries.contains(master.id) || seriesInWindow.contains(master.id) { return seriesInWindow.contains(master.id) }
            return true
        }
        let masterIDs = Set(masters.map(\.id))
        return events.filter { event in
            if event.recurrence != nil && event.seriesID == nil { return masterIDs.contains(event.id) }
            if let seriesID = event.seriesID, masterIDs.contains(seriesID) { return true }
            return window.contains(event)
        }
    }

    /// Every copy the lookups find (by identity and by legacy name), each once.
    static func findCopies(_ provider: any CalendarProvider, lookups: [OriginLookup], in calendarID: String) async throws -> [Event] {
        // The lookups at once: the legacy one costs a request, not a round trip.
        let found = try await withThrowingTaskGroup(of: (Int, [Event]).self) { group in
            for (index, lookup) in lookups.enumerated() {
                group.addTask { (index, try await provider.findCopies(origin: lookup, in: calendarID)) }
            }
            var byIndex: [Int: [Event]] = [:]
            for try await (index, events) in group { byIndex[index] = events }
            return lookups.indices.flatMap { byIndex[$0] ?? [] }
        }
        // Room ahead, so that the set is not rehashed at every doubling.
        var seen = Set<String>(minimumCapacity: found.count)
        return found.filter { seen.insert($0.id).inserted }
    }

    /// The source as the planner reads it. With `.series`: the series listing, and the occurrences of
    /// series from the expanded one (its single events are the series listing's again), both from one
    /// `listEventViews`. With `.instances`: the expanded listing, and no occurrences apart.
    static func sourceListing(_ provider: any CalendarProvider, calendarID: String, range: TimeRange, seriesMode: Bool)
        async throws -> (events: [Event], occurrences: [Event])
    {
        guard seriesMode else { return (try await provider.listEvents(calendarID: calendarID, range: range, expand: true), []) }
        let views = try await provider.listEventViews(calendarID: calendarID, range: range)
        return (views.series, views.occurrences.filter { $0.seriesID != nil })
    }

    /// Finds both calendars (listing an account only when its calendar is not given).
    func resolveCalendars() async throws -> (CalendarInfo, CalendarInfo) {
        let s = source
        let t = target
        return try await concurrently({ try await Self.resolve(s) }, { try await Self.resolve(t) })
    }

    static func resolve(_ endpoint: Endpoint) async throws -> CalendarInfo {
        if let calendar = endpoint.calendar { return calendar }
        let calendars = try await endpoint.provider.listCalendars()
        if let found = calendars.first(where: { $0.id == endpoint.calendarID }) { return found }
        throw CalendarError(
            .notFound, "no calendar with that id", provider: endpoint.provider.provider,
            account: endpoint.provider.account, calendar: endpoint.calendarID, candidates: calendars.map(\.name))
    }

    /// Applies the entries' writes in batches, at most `maxConcurrentBatches` at once, and returns the
    /// entries with their status (and new ids) filled in.
    func execute(_ entries: [CopyPlan.Entry], in calendarID: String, counter: ProgressCounter) async -> [CopyPlan.Entry] {
        var result = entries
        let indexes = entries.indices.filter { entries[$0].write != nil }
        let size = options.batchSize ?? target.provider.capabilities.maxWritesPerBatch
        let batches = stride(from: 0, to: indexes.count, by: size).map {
            Array(indexes[$0..<min($0 + size, indexes.count)])
        }
        guard !batches.isEmpty else { return result }
        let provider = target.provider
        let perBatch = options.maxConcurrentPerBatch
        let writes = entries.map(\.write)
        await forEachConcurrently(batches, limit: options.maxConcurrentBatches) { batch in
            await provider.applyWrites(batch.compactMap { writes[$0] }, in: calendarID, maxConcurrent: perBatch)
        } handle: { batchIndex, outcomes in
            let batch = batches[batchIndex]
            var failures = 0
            for (position, index) in batch.enumerated() {
                let outcome: EventWriteResult =
                    position < outcomes.count
                    ? outcomes[position]
                    : .failure(CalendarError(.invalidResponse, "the batch returned no outcome for this write"))
                switch outcome {
                case .success(.created(let event)):
                    result[index].item.status = .done
                    result[index].item.targetEventID = event.id
                case .success:
                    result[index].item.status = .done
                case .failure(let error):
                    result[index].item.status = .failed
                    result[index].item.error = Self.describe(error)
                    failures += 1
                }
            }
            await counter.advance(by: batch.count, failed: failures)
        }
        return result
    }

    static func describe(_ error: any Error) -> String {
        (error as? CalendarError)?.description ?? String(describing: error)
    }
}

/// Counts finished writes and reports them.
actor ProgressCounter {
    private var progress: CopyEngine.Progress
    private let report: (@Sendable (CopyEngine.Progress) -> Void)?

    init(total: Int, report: (@Sendable (CopyEngine.Progress) -> Void)?) {
        progress = .init(completed: 0, total: total, failed: 0)
        self.report = report
    }

    func add(total: Int) {
        progress.total += total
        if total > 0 { report?(progress) }
    }

    func advance(by count: Int, failed: Int) {
        progress.completed += count
        progress.failed += failed
        report?(progress)
    }
}
