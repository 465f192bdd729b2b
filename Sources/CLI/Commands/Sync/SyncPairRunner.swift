import Accounts
import CalendarBridge
import Foundation
import Sync

/// Runs stored pairs once through the engine, for `sync` and each cycle of `sync --watch`: pairs side by
/// side (a few at a time), one pair's failure never stopping the others, each run recorded in sync.db.
struct SyncPairRunner {
    /// Pairs running at once: a quiet pair is two round trips, so this many pairs keep that many requests in
    /// flight. Each account's provider still limits its own (Graph: 4 per mailbox; both: the request quota).
    static let concurrentPairs = 16

    let pairs: SyncPairs
    let engine: SyncEngine
    let resolver: SyncCalendarResolver
    let context: CommandContext
    let dryRun: Bool

    /// - Parameter accounts: the process's open accounts (one session and provider per account, so one
    ///   token refresh and one request quota per account however many pairs name it).
    init(pairs: SyncPairs, accounts: AccountProviders, context: CommandContext, dryRun: Bool) {
        self.pairs = pairs
        self.engine = Self.engine(store: pairs.store, context: context)
        self.resolver = SyncCalendarResolver(accounts: accounts)
        self.context = context
        self.dryRun = dryRun
    }

    /// The engine over the home's state, in the user's zone ($TZ, else the system zone): the pair's window
    /// is whole days in it.
    static func engine(store: SyncStateStore, context: CommandContext) -> SyncEngine {
        SyncEngine(store: store, zone: ZoneOptions.localZone(context.environment), batchSize: nil, now: context.now)
    }

    /// How one pair's run ended.
    struct Result: Sendable {
        var pair: SyncPairs.Pair
        var report: SyncReport?
        /// The one-line error of a pair that could not run (nil when it ran, partly or wholly).
        var error: String?
        /// This pair's exit code on its own.
        var exitCode: ExitCode
        /// The account that must sign in again before this pair can run (exit 3), when one must.
        var signInAccount: String? = nil
        var started: Date
        var finished: Date

        var outcome: String {
            switch exitCode {
            case .success: "ok"
            case .partial: "partial"
            case .reauthenticate: "needsSignIn"
            default: "failed"
            }
        }
    }

    /// Runs `selected`, at most `concurrentPairs` at a time, starting a pair only while `keepGoing()` says so
    /// (a watcher told to stop lets the runs in flight finish and starts no more).
    /// - Parameter finished: called as each pair ends (the watcher logs it there).
    /// - Returns: the results of the pairs that ran, in the order of `selected`.
    func run(
        _ selected: [SyncPairs.Pair], keepGoing: @escaping @Sendable () -> Bool = { true },
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
    func runOne(_ pair: SyncPairs.Pair) async -> Result {
        let started = context.now()
        var result: Result
        do {
            let a = try await resolver.endpoint(pair.record.sideA, side: .a)
            let b = try await resolver.endpoint(pair.record.sideB, side: .b)
            let report = try await engine.run(pair: pair.name, a: a, b: b, options: pair.options, dryRun: dryRun)
            result = Result(
                pair: pair, report: report, error: nil, exitCode: report.outcome == .partial ? .partial : .success,
                started: started, finished: context.now())
        } catch {
            let message = ErrorReporting.message(for: error, environment: context.environment)
            result = Result(
                pair: pair, report: nil, error: message, exitCode: ErrorReporting.exitCode(for: error),
                signInAccount: ErrorReporting.accountToSignIn(for: error), started: started, finished: context.now())
        }
        if !dryRun { await record(result) }
        return result
    }

    /// Records the pairs a signal stopped before their run ended as `interrupted` (for `sync status`).
    func recordInterrupted(_ unfinished: [SyncPairs.Pair], started: Date) async {
        for pair in unfinished {
            let run = SyncRunRecord(
                started: started, finished: context.now(), outcome: "interrupted", counts: "{}",
                error: "interrupted by a signal before the run ended; the next run carries on")
            let name = pair.name
            do {
                try await pairs.store.write { try $0.recordRun(run, pair: name) }
            } catch {
                context.printError("warning: sync pair '\(name)': its interruption could not be recorded: \(ErrorReporting.message(for: error))")
            }
        }
    }

    /// Stores how the run went (for `sync status`); a failure to store it is reported, not fatal.
    private func record(_ result: Result) async {
        let counts = SyncRunCounts(result.report).flatMap { try? SyncOutput.json($0, pretty: false) } ?? "{}"
        let run = SyncRunRecord(
            started: result.started, finished: result.finished, outcome: result.outcome, counts: counts,
            error: result.error ?? result.report.flatMap { $0.errors.first.map { "\($0.title.map { "'\($0)': " } ?? "")\($0.message)" } })
        let name = result.pair.name
        do {
            try await pairs.store.write { try $0.recordRun(run, pair: name) }
        } catch {
            context.printError("warning: sync pair '\(name)': its run could not be recorded in sync.db: \(ErrorReporting.message(for: error))")
        }
    }

    /// The exit code of a run of several pairs: 3 when an account must sign in again (whatever else
    /// happened); when every pair failed, the failure's own code (2 for a calendar gone, 1 for a provider
    /// failure); 4 when some pair failed or was partly applied; else 0.
    static func exitCode(_ results: [Result]) -> ExitCode {
        let codes = results.map(\.exitCode)
        if codes.contains(.reauthenticate) { return .reauthenticate }
        let failed = results.filter { $0.report == nil }
        if !failed.isEmpty, failed.count == results.count {
            return codes.contains(.failure) ? .failure : (codes.first ?? .failure)
        }
        return codes.allSatisfy { $0 == .success } ? .success : .partial
    }
}

/// What `sync status` shows of a run: the counts per direction, conflicts and requests.
struct SyncRunCounts: Codable, Sendable {
    var aToB: SyncCounts
    var bToA: SyncCounts
    var conflicts: Int
    var requests: Int

    init?(_ report: SyncReport?) {
        guard let report else { return nil }
        aToB = report.aToB
        bToA = report.bToA
        conflicts = report.conflicts.count
        requests = report.requests
    }
}
