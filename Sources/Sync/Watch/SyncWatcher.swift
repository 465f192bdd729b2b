import Accounts
import Foundation

/// Asks a watcher (or a one-shot run) to stop: a signal on the command line, a shutdown in a worker.
public protocol SyncStopRequest: Sendable {
    /// Why a stop was asked for (`SIGTERM`), nil while none was.
    var stopReason: String? { get }
    /// Waits until a stop is asked for (returning its reason at once if one already was) or `timeout` passes
    /// (nil).
    func waitForStop(timeout: Duration) async -> String?
}

/// What a watcher reports as it goes, for its caller to log.
public enum SyncWatchEvent: Sendable {
    /// Watching started: the pairs selected first, and the interval.
    case started(pairs: [String], interval: Duration)
    /// A pair's run ended; it runs again after `next`.
    case pairFinished(SyncPairRunner.Result, next: Duration)
    /// The stored pairs could not be read this cycle (another process holds the state): no pairs ran.
    case cannotReadPairs(any Error)
    /// A stop was asked for (`reason`) and the runs in flight finished.
    case stopped(reason: String)
}

/// Runs pairs each interval until asked to stop.
///
/// The accounts stay open for the whole watch (the runner's opener keeps one session, one token refresh and
/// one request quota per account across cycles). Each cycle runs the pairs that are due (`SyncSchedule`: a
/// failing pair waits longer and longer, the others keep their interval), reports each as it ends, and
/// sleeps until the next pair is due. A stop request keeps new runs from starting; those in flight finish
/// their writes. Pairs added or removed while it runs are picked up at the next cycle.
public struct SyncWatcher: Sendable {
    /// Runs the pairs (not a dry run).
    public var runner: SyncPairRunner
    /// The pairs to run: these names when they are still stored, or every pair when empty.
    public var names: [String]
    public var interval: Duration
    /// Where the pairs are defined: read again each cycle, so pairs added or removed meanwhile are picked up.
    public var definitions: SyncPairDefinitions

    public init(runner: SyncPairRunner, definitions: SyncPairDefinitions, names: [String], interval: Duration) {
        self.runner = runner
        self.definitions = definitions
        self.names = names
        self.interval = interval
    }

    /// Watches until `stop` asks to stop.
    /// - Parameters:
    ///   - lock: the home's watcher lock (`SyncWatchLock.acquire`), which the caller holds for as long as this
    ///     runs: one watcher per home.
    ///   - first: the pairs selected at start (the caller has checked the names), for the `started` event.
    ///   - report: told what happens, in order per pair.
    /// - Returns: the accounts (sorted) whose grant must be renewed: those of pairs whose last run found so.
    public func run(
        holding lock: HeldFileLock, first: [SyncPair], until stop: any SyncStopRequest,
        report: @escaping @Sendable (SyncWatchEvent) -> Void
    ) async -> [String] {
        let schedule = LockedSchedule(SyncSchedule(interval: interval))
        let signIns = SignInsNeeded()
        report(.started(pairs: first.map(\.name), interval: interval))
        while stop.stopReason == nil {
            let current = await configuredPairs(report: report)
            await cycle(current, schedule: schedule, signIns: signIns, stop: stop, report: report)
            if stop.stopReason != nil { break }
            _ = await stop.waitForStop(timeout: sleep(schedule.snapshot, pairs: current.map(\.name)))
        }
        report(.stopped(reason: stop.stopReason ?? "stop"))
        return signIns.accounts
    }

    /// Runs the pairs that are due, reporting each as it ends; starts none once a stop was asked for.
    private func cycle(
        _ current: [SyncPair], schedule: LockedSchedule, signIns: SignInsNeeded, stop: any SyncStopRequest,
        report: @escaping @Sendable (SyncWatchEvent) -> Void
    ) async {
        schedule.keep(only: Set(current.map(\.name)))
        let now = runner.engine.now
        let due = schedule.due(current.map(\.name), at: now())
        _ = await runner.run(
            current.filter { due.contains($0.name) }, keepGoing: { stop.stopReason == nil },
            finished: { result in
                let next = schedule.record(result.pair.name, succeeded: result.ran, at: now())
                signIns.record(result.pair.name, account: result.signInAccount)
                report(.pairFinished(result, next: next))
            })
    }

    /// The pairs to run this cycle: the named ones still stored, or every pair. A state that cannot be read
    /// this time (another process holds it) is reported and means no pairs this cycle.
    private func configuredPairs(report: @Sendable (SyncWatchEvent) -> Void) async -> [SyncPair] {
        do {
            let all = try await definitions.pairs(migratingFrom: runner.engine.store)
            return names.isEmpty ? all : all.filter { names.contains($0.name) }
        } catch {
            report(.cannotReadPairs(error))
            return []
        }
    }

    /// Until the next pair is due: at most one interval, at least a second (a clock step never spins).
    private func sleep(_ schedule: SyncSchedule, pairs: [String]) -> Duration {
        let now = runner.engine.now()
        let dues = pairs.compactMap { schedule.entries[$0]?.due }
        guard let soonest = dues.min() else { return interval }
        let seconds = min(max(soonest.timeIntervalSince(now), 1), interval.seconds)
        return .milliseconds(Int64(seconds * 1000))
    }
}

/// The accounts whose grant must be renewed, by the pair whose last run found it (a pair that ran since
/// drops out), shared by the pair runs of a cycle.
final class SignInsNeeded: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var byPair: [String: String] = [:]

    func record(_ pair: String, account: String?) {
        lock.withLock { byPair[pair] = account }
    }

    /// The accounts, sorted, each once.
    var accounts: [String] { lock.withLock { Set(byPair.values).sorted() } }
}

/// The watcher's schedule, shared by the pair runs of a cycle (they finish on several threads); the
/// jitter comes from the system's random generator.
final class LockedSchedule: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var schedule: SyncSchedule

    init(_ schedule: SyncSchedule) { self.schedule = schedule }

    var snapshot: SyncSchedule { lock.withLock { schedule } }

    func due(_ pairs: [String], at now: Date) -> [String] {
        lock.withLock { schedule.due(pairs, at: now) }
    }

    func record(_ pair: String, succeeded: Bool, at now: Date) -> Duration {
        let random = Double.random(in: 0..<1)
        return lock.withLock { schedule.record(pair, succeeded: succeeded, at: now, random: random) }
    }

    func keep(only pairs: Set<String>) {
        lock.withLock { schedule.keep(only: pairs) }
    }
}
