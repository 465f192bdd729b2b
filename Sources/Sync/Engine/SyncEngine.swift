import CalendarBridge
import Foundation

/// Runs sync pairs: reads what changed on both sides since the last run, compares each item three ways
/// (the state's hash against each side's current one) and carries changes across.
///
/// - changed on one side: applied to the other; changed on both: `SyncPairOptions.conflict` decides, and the
///   losing version is kept in the state (`conflicts`) and reported;
/// - deleted on one side (proof only: a change read reports it removed *and* a read by id answers gone): deleted
///   on the other unless that side changed, in which case the change wins and is copied back;
/// - new on either side (and not a copy: origin markers and the state's ids tell): becomes an item of the pair;
/// - series are copied as series (`SeriesFit`), their moved and cancelled occurrences with them (the copy
///   engine's occurrence planning, from the side whose occurrences changed).
///
/// Every write goes first, its state row right after; copies carry markers and derived ids, so a crash between
/// the two is repaired next run (the repeated create returns the first one's event, the copy's marker links it).
/// The change cursors are stored last, and a side's cursor is kept where it was when one of its changes could
/// not be applied, so that change is read again.
public struct SyncEngine: Sendable {
    /// One side of a pair: a provider that reads changes, and the calendar.
    public struct Endpoint: Sendable {
        public var provider: any ChangeReadingProvider
        /// The provider's calendar id (resolve the user's reference first; the engine does not list calendars,
        /// so a run with nothing changed costs one request per side).
        public var calendarID: String
        /// The account's stable identity (`AccountRecord`'s: Graph object id and tenant, Google primary
        /// calendar id): markers and derived ids use it; nil: the local account name.
        public var accountIdentity: String?
        /// The source may give its events new ids at any read (a subscribed feed: Outlook's published
        /// calendars are reported to rotate UIDs): an event of unknown id whose copy would be created, and a
        /// copy whose source id is gone that would be deleted, showing the same start, title and location,
        /// are one event: its copy is re-linked and updated, never deleted and created again.
        public var matchesByContent: Bool

        public init(
            provider: any ChangeReadingProvider, calendarID: String, accountIdentity: String? = nil, matchesByContent: Bool = false
        ) {
            self.provider = provider
            self.calendarID = calendarID
            self.accountIdentity = accountIdentity
            self.matchesByContent = matchesByContent
        }

        /// The identity markers use.
        public var identity: String { accountIdentity ?? provider.account }
    }

    public let store: any SyncStateStore
    /// The zone all-day dates of the window are read in.
    public var zone: TimeZone
    public var now: @Sendable () -> Date
    /// Writes per `applyWrites` call; nil: the receiving provider's `maxWritesPerBatch`.
    public var batchSize: Int?
    /// Asked before each round of write batches: true stops the run there (SIGINT, SIGTERM). The batches in
    /// flight finish with their state rows, no cursor of a written side is stored, and the report says
    /// `interrupted`; the next run carries on where this one stopped.
    public var shouldStop: @Sendable () -> Bool = { false }
    /// Told after each round of write batches how many writes landed and how many failed (a progress display).
    public var onWrites: @Sendable (_ landed: Int, _ failed: Int) -> Void = { _, _ in }

    public init(
        store: any SyncStateStore, zone: TimeZone = .current, batchSize: Int? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.zone = zone
        self.batchSize = batchSize
        self.now = now
    }

    /// Runs one pair once.
    /// - Parameters:
    ///   - pair: the pair's name in the state (it must have been added: `SyncStateStore.addPair`).
    ///   - a, b: the pair's two calendars, resolved from the pair's `sideA`/`sideB` references.
    ///   - options: the pair's options (`SyncPairOptions(decoding: record.options)`).
    ///   - dryRun: read and compare, report what would be written, write nothing (no calendar write, no state
    ///     change, cursors not stored).
    /// - Returns: the counts per direction, conflicts, requests, notices (cursor expiry) and per-item errors
    ///   (`outcome == .partial` when there are any).
    /// - Throws: `SyncError`: `.grantMustBeRenewed` (naming the account), `.calendarUnavailable`, `.unknownPair`,
    ///   `.provider` when a side cannot be read at all, `.state`. An expired cursor is not an error: that side is
    ///   read in full and reconciled against the state without duplicates (`SyncReport.notices`, `fullReads`).
    public func run(pair: String, a: Endpoint, b: Endpoint, options: SyncPairOptions, dryRun: Bool = false) async throws(SyncError)
        -> SyncReport
    {
        var run = try await SyncRun(engine: self, pair: pair, a: a, b: b, options: options, dryRun: dryRun)
        return try await run.execute()
    }

    /// `sync remove NAME --remove-copies`: deletes every event this pair created (the state's items whose
    /// origin is the other side, and events on either side carrying this pair's markers), nothing else.
    /// The pair's state is left for `SyncStateStore.removePair` to remove.
    /// - Returns: a report whose `deleted` counts are the copies removed from each side.
    public func removeCopies(pair: String, a: Endpoint, b: Endpoint, dryRun: Bool = false) async throws(SyncError) -> SyncReport {
        try await SyncRun.removeCopies(engine: self, pair: pair, a: a, b: b, dryRun: dryRun)
    }
}
