import Accounts
import Foundation
import Sync

/// `calbridge sync --watch`: runs the pairs each interval until SIGINT or SIGTERM.
///
/// The accounts stay open for the whole watch (one session, one token refresh and one request quota per
/// account across cycles). Each cycle runs the pairs that are due (`SyncSchedule`: a failing pair waits
/// longer and longer, the others keep their interval), logs one line per pair on stderr, and sleeps until
/// the next pair is due. A signal stops new runs from starting; those in flight finish their writes and
/// the watcher exits 0, or 3 when a pair's last run found a grant that must be renewed (the pairs of the
/// other accounts kept running meanwhile). The home's watcher lock keeps a second watcher from starting.
struct SyncWatcher {
    var names: [String]
    var interval: Duration
    var json: Bool
    var verbose: Bool
    var context: CommandContext

    func run() async throws -> ExitCode {
        // First, so that a signal during start-up is remembered instead of killing the process.
        let signals = SignalWaiter(signals: [SIGINT, SIGTERM])
        let lock = try SyncWatchLock.acquire(home: CalbridgeHome(environment: context.environment))
        defer { lock.release() }
        let pairs = try SyncPairs(context: context)
        let first = try await pairs.select(names, command: "sync")
        let accounts = AccountProviders(context: context, verbose: verbose)
        let schedule = LockedSchedule(SyncSchedule(interval: interval))
        let signIns = SignInsNeeded()
        log(
            event: "start", text: "watching \(first.count) sync pair\(first.count == 1 ? "" : "s") every \(DurationText.format(interval)) "
                + "(pid \(getpid())); SIGINT or SIGTERM stops it",
            fields: ["pid": Int(getpid()), "pairs": first.map(\.name), "intervalSeconds": Int(interval.components.seconds)])

        while signals.signalReceived == nil {
            let current = await configuredPairs(pairs)
            await cycle(current, pairs: pairs, accounts: accounts, schedule: schedule, signIns: signIns, signals: signals)
            if signals.signalReceived != nil { break }
            _ = await signals.wait(timeout: sleep(schedule.snapshot, pairs: current.map(\.name)))
        }
        let name = signals.signalReceived == SIGINT ? "SIGINT" : "SIGTERM"
        log(event: "stop", text: "stopping on \(name): the runs in flight finished", fields: ["signal": name])
        let accountsToSignIn = signIns.accounts
        guard !accountsToSignIn.isEmpty else { return .success }
        log(
            event: "needsSignIn",
            text: "sign in again to \(accountsToSignIn.joined(separator: ", ")) ('calbridge accounts list' shows them); "
                + "their pairs did not run", fields: ["accounts": accountsToSignIn])
        return .reauthenticate
    }

    /// Runs the pairs that are due, logging each as it ends; starts none once a signal has arrived.
    private func cycle(
        _ current: [SyncPairs.Pair], pairs: SyncPairs, accounts: AccountProviders, schedule: LockedSchedule,
        signIns: SignInsNeeded, signals: SignalWaiter
    ) async {
        schedule.keep(only: Set(current.map(\.name)))
        let due = schedule.due(current.map(\.name), at: context.now())
        let run = SyncPairRunner(pairs: pairs, accounts: accounts, context: context, dryRun: false)
        let json = json
        let context = context
        _ = await run.run(
            current.filter { due.contains($0.name) }, keepGoing: { signals.signalReceived == nil },
            finished: { result in
                let succeeded = result.exitCode == .success || result.exitCode == .partial
                let next = schedule.record(result.pair.name, succeeded: succeeded, at: context.now())
                signIns.record(result.pair.name, account: result.signInAccount)
                context.printError(SyncOutput.logLine(result, next: next, asJSON: json))
            })
    }

    /// The pairs to run this cycle: the named ones still configured, or every pair. A state that cannot be
    /// read this time (another process holds it) is logged and means no pairs this cycle.
    private func configuredPairs(_ pairs: SyncPairs) async -> [SyncPairs.Pair] {
        do {
            let all = try await pairs.all()
            return names.isEmpty ? all : all.filter { names.contains($0.name) }
        } catch {
            log(event: "error", text: "cannot read the sync pairs: " + ErrorReporting.message(for: error), fields: [:])
            return []
        }
    }

    /// Until the next pair is due: at most one interval, at least a second (a clock step never spins).
    private func sleep(_ schedule: SyncSchedule, pairs: [String]) -> Duration {
        let now = context.now()
        let dues = pairs.compactMap { schedule.entries[$0]?.due }
        guard let soonest = dues.min() else { return interval }
        let seconds = min(max(soonest.timeIntervalSince(now), 1), interval.seconds)
        return .milliseconds(Int64(seconds * 1000))
    }

    /// A line about the watcher itself (not a pair): text, or an NDJSON object with `event`.
    private func log(event: String, text: String, fields: [String: Any]) {
        let time = SyncOutput.timestamp(context.now())
        guard json else {
            context.printError("\(time) sync --watch: \(text)")
            return
        }
        var object = fields
        object["time"] = time
        object["event"] = event
        object["message"] = text
        context.printError((try? JSONText.render(object, pretty: false)) ?? #"{"event":"\#(event)"}"#)
    }
}

/// The accounts whose grant must be renewed, by the pair whose last run found it (a pair that ran since
/// drops out), shared by the pair runs of a cycle.
final class SignInsNeeded: @unchecked Sendable {
    private let lock = NSLock()
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
