import CalendarBridge
import Foundation

/// Runs stored pairs once through the engine, for a one-shot `sync`, each cycle of the watcher, or any
/// other caller that holds a store and can open a pair's sides: pairs side by side (a few at a time), one
/// pair's failure never stopping the others, each run recorded in the state.
public struct SyncPairRunner: Sendable {
    /// Pairs running at once: a quiet pair is two round trips, so this many pairs keep that many requests in
    /// flight. Each account's provider still limits its own (Graph: 4 per mailbox; both: the request quota).
    public static let concurrentPairs = 16

    public private(set) var engine: SyncEngine
    public let opener: any PairSideOpener
    public let dryRun: Bool
    /// Told what could not be stored (a run's record): a failure to record is reported, never fatal.
    public let warn: @Sendable (String) -> Void

    /// - Parameters:
    ///   - engine: the engine over the state the pairs live in (its clock times the runs).
    ///   - opener: opens each pair's sides; open accounts once per process and share them across pairs
    ///     (one token refresh and one request quota per account however many pairs name it).
    public init(engine: SyncEngine, opener: any PairSideOpener, dryRun: Bool, warn: @escaping @Sendable (String) -> Void) {
        self.engine = engine
        self.opener = opener
        self.dryRun = dryRun
        self.warn = warn
    }

    /// Tells `report` after each round of write batches of any pair how many writes landed and failed.
    public mutating func onWrites(_ report: @escaping @Sendable (_ landed: Int, _ failed: Int) -> Void) {
        engine.onWrites = report
    }

    /// How one pair's run ended.
    public struct Result: Sendable {
        public var pair: SyncPair
        public var report: SyncReport?
        /// Why the pair could not run (nil when it ran, partly or wholly).
        public var failure: SyncPairFailure?
        public var started: Date
        public var finished: Date

        public init(pair: SyncPair, report: SyncReport?, failure: SyncPairFailure?, started: Date, finished: Date) {
            self.pair = pair
            self.report = report
            self.failure = failure
            self.started = started
            self.finished = finished
        }

        public var outcome: SyncPairOutcome {
            if let failure { return failure.needsSignIn ? .needsSignIn : .failed }
            if report?.interrupted == true { return .interrupted }
            return report?.outcome == .partial ? .partial : .ok
        }

        /// The one-line error of a pair that could not run.
        public var error: String? { failure?.message }

        /// The account that must sign in again before this pair can run, when one must.
        public var signInAccount: String? { failure?.needsSignIn == true ? failure?.account : nil }

        /// Whether the pair ran (wholly or partly): the watcher keeps its interval then, and backs off otherwise.
        public var ran: Bool { failure == nil }
    }

    /// Runs `selected`, at most `concurrentPairs` at a time, starting a pair only while `keepGoing()` says so
    /// (a watcher told to stop lets the runs in flight finish and starts no more).
    /// - Parameter finished: called as each pair ends (the watcher logs it there).
    /// - Returns: the results of the pairs that ran, in the order of `selected`.
    public func run(
        _ selected: [SyncPair], keepGoing: @escaping @Sendable () -> Bool = { true },
        finished: @escaping @Sendable (Result) -> Void = { _ in }
    ) async -> [Result] {
        var results: [(Int, Result)] = []
        await forEachConcurrently(selected, limit: Self.concurrentPairs, shouldStart: keepGoing) { pair in
            let result = await runOne(pair)
            finished(result)
            return result
        } handle: { index, result in
            results.append((index, result))
        }
        return results.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// One pair: open both sides, run the engine, record the run. Never throws: a failure is its result.
    public func runOne(_ pair: SyncPair) async -> Result {
        let started = engine.now()
        var result: Result
        do {
            let a = try await opener.endpoint(pair.record.sideA, side: .a)
            let b = try await opener.endpoint(pair.record.sideB, side: .b)
            if !dryRun { try await engine.store.ensurePair(pair) }
            let report = try await engine.run(pair: pair.name, a: a, b: b, options: pair.options, dryRun: dryRun)
            result = Result(pair: pair, report: report, failure: nil, started: started, finished: engine.now())
        } catch {
            result = Result(pair: pair, report: nil, failure: opener.describe(error), started: started, finished: engine.now())
        }
        if !dryRun { await record(result) }
        return result
    }

    /// Records the pairs a signal stopped before their run ended as `interrupted` (for `sync status`).
    public func recordInterrupted(_ unfinished: [SyncPair], started: Date) async {
        for pair in unfinished {
            let run = SyncRunRecord(
                started: started, finished: engine.now(), outcome: SyncPairOutcome.interrupted.rawValue, counts: "{}",
                error: "interrupted by a signal before the run ended; the next run carries on")
            let name = pair.name
            do {
                try await engine.store.write { try $0.recordRun(run, pair: name) }
            } catch {
                warn("warning: sync pair '\(name)': its interruption could not be recorded: \(error)")
            }
        }
    }

    /// Stores how the run went (for `sync status`); a failure to store it is reported, not fatal.
    private func record(_ result: Result) async {
        let counts = SyncRunCounts(result.report).flatMap { try? $0.stored() } ?? "{}"
        let run = SyncRunRecord(
            started: result.started, finished: result.finished, outcome: result.outcome.rawValue, counts: counts,
            error: result.error ?? result.report.flatMap { $0.errors.first.map { "\($0.title.map { "'\($0)': " } ?? "")\($0.message)" } })
        let name = result.pair.name
        do {
            try await engine.store.write { try $0.recordRun(run, pair: name) }
        } catch {
            warn("warning: sync pair '\(name)': its run could not be recorded in sync.db: \(error)")
        }
    }
}

/// What the state keeps of a run and `sync status` shows: the counts per direction, conflicts and requests.
public struct SyncRunCounts: Codable, Sendable, Hashable {
    public var aToB: SyncCounts
    public var bToA: SyncCounts
    public var conflicts: Int
    public var requests: Int

    public init?(_ report: SyncReport?) {
        guard let report else { return nil }
        aToB = report.aToB
        bToA = report.bToA
        conflicts = report.conflicts.count
        requests = report.requests
    }

    /// As `SyncRunRecord.counts` stores it: compact JSON, keys sorted.
    public func stored() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
