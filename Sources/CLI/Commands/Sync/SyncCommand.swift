import Accounts
import Foundation
import Sync

/// `calbridge sync [NAME...]`: runs the named pairs (default all) once; with `--watch`, every pair each
/// interval until SIGINT or SIGTERM.
package enum SyncCommand: Command {
    package enum Options {
        package static let names = VariadicArgument("NAME", "The pairs to run (default: every pair).").completing(.pairs)
        package static let dryRun = Flag("dry-run", "Read both sides and say what would be written; write nothing (state included).")
        package static let format = OutputFormat.option(
            "table|json", "Output format (default table); with --watch, json makes the log NDJSON.", allowed: [.table, .json])
        package static let acceptShrink = Flag(
            "accept-shrink", "A feed side that came empty or lost over half its events: take it as it is, this once.")
        package static let watch = Flag("watch", "Keep running: every pair each --interval, until SIGINT or SIGTERM.")
        package static let interval = Option.duration(
            "interval", "DURATION", "With --watch: how often each pair runs, e.g. 30s, 5m, 1h (default 5m).",
            in: .seconds(1)...(.seconds(86_400)))
    }

    package static let path = ["sync"]

    package static let spec = CommandSpec(
        path,
        abstract: "Run sync pairs: bring both calendars of each pair up to date (once, or --watch).",
        discussion: """
            Pairs are managed with 'calbridge sync add', 'sync list', 'sync remove' and 'sync status'. A run \
            reads only what changed on each side since the last one (Google syncToken, Graph calendarView/delta) \
            and applies it to the other side as the pair's direction allows; an event changed on both sides is a \
            conflict, settled by the pair's --conflict rule, with the losing version kept in sync.db and reported. \
            Exit codes: 0 when every pair ran; 4 when some pair failed or was partly applied (the others still \
            ran); 3 when an account must sign in again (named on stderr); 2 for bad options or an unknown pair; \
            when every pair failed, that failure's code. With --watch, a failing pair is retried later and later \
            (jittered, at most an hour apart) without holding up the others; one log line per pair per cycle goes \
            to stderr (NDJSON with --format json); SIGINT or SIGTERM lets the runs in flight finish and exits 0. \
            Only one watcher runs per calbridge home: a second one refuses to start and names the first one's pid.
            """,
        options: [Options.dryRun, Options.format, Options.acceptShrink, Options.watch, Options.interval],
        positionals: [Options.names]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let names = arguments[Options.names]
        let format = arguments[Options.format] ?? .table
        let dryRun = arguments[Options.dryRun]
        if arguments[Options.acceptShrink], arguments[Options.watch] {
            throw UsageError("--accept-shrink is for one run, not --watch (run 'calbridge sync --accept-shrink' once)", command: spec.name)
        }
        if arguments[Options.watch] {
            if dryRun { throw UsageError("--watch writes every cycle; drop --dry-run (run 'calbridge sync --dry-run' once instead)", command: spec.name) }
            return try await watch(
                names, interval: arguments[Options.interval] ?? .seconds(300), json: format == .json,
                verbose: arguments[CommonOptions.verbose], context: context)
        }
        if arguments[Options.interval] != nil { throw UsageError("--interval goes with --watch", command: spec.name) }

        let pairs = try SyncPairs(context: context)
        let selected = try await pairs.select(names, command: spec.name)
        let accounts = AccountProviders(context: context, verbose: arguments[CommonOptions.verbose])
        if arguments[Options.acceptShrink] { try await acceptShrink(of: selected, accounts: accounts) }
        // SIGINT or SIGTERM: no pair starts any more, and those running send no new batch of writes: the
        // batches in flight finish with their state rows, the pair is recorded as interrupted (the next run
        // carries on where it stopped), the summary so far is printed; exit 4.
        let signals = SignalWaiter(signals: [SIGINT, SIGTERM])
        let line = context.stderrIsTerminal && !dryRun ? SyncProgressLine(sink: context.stderr, pairs: selected.count) : nil
        var runner = try pairs.runner(accounts: accounts, dryRun: dryRun, stop: signals)
        if let line { runner.onWrites { line.wrote($0, failed: $1) } }
        let run = runner
        let ended = EndedPairs()
        let started = context.now()
        let work = Task {
            defer {
                ended.markEnded()
                signals.finish()
            }
            return await run.run(
                selected, keepGoing: { signals.signalReceived == nil },
                finished: {
                    ended.add($0)
                    line?.pairEnded(failed: !$0.ran)
                })
        }
        var interruptedBy: Int32?
        if let signal = await signals.wait(timeout: nil) {
            signals.restoreDefaults()
            interruptedBy = signal
            if await !ended.waitForEnd(orUntil: .seconds(20)) {
                line?.finish()
                let finished = ended.results
                let unfinished = selected.filter { pair in !finished.contains { $0.pair.name == pair.name } }
                if !dryRun { await run.recordInterrupted(unfinished, started: started) }
                let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
                context.printError(
                    "sync interrupted (\(name)) after \(finished.count) of \(selected.count) pair\(selected.count == 1 ? "" : "s"); "
                        + "not finished: \(unfinished.map(\.name).joined(separator: ", ")); run it again to finish")
                report(finished, format: format, dryRun: dryRun, context: context)
                return .partial
            }
        }
        let results = await work.value
        line?.finish()
        report(results, format: format, dryRun: dryRun, context: context)
        if let signal = interruptedBy {
            // The summary of what landed before the stop, and the pairs left to finish.
            let skipped = selected.filter { pair in !results.contains { $0.pair.name == pair.name } }.map(\.name)
            let stopped = results.filter { $0.outcome == .interrupted }.map(\.pair.name)
            if !skipped.isEmpty || !stopped.isEmpty {
                let counts = results.compactMap(\.report).flatMap { [$0.aToB, $0.bToA] }
                func total(_ count: (SyncCounts) -> Int) -> Int { counts.reduce(0) { $0 + count($1) } }
                context.printError(
                    "sync interrupted (\(SignalWaiter.name(signal))) after \(total(\.created)) created, \(total(\.updated)) updated, "
                        + "\(total(\.deleted)) deleted, \(total(\.failed)) failed; not finished: \((stopped + skipped).joined(separator: ", ")); "
                        + "run it again to finish")
                return .partial
            }
        }
        return SyncPairRunner.exitCode(results)
    }

    /// `--accept-shrink`: every feed the selected pairs read takes its body as it is, for this run.
    private static func acceptShrink(of selected: [SyncPair], accounts: AccountProviders) async throws {
        var feeds = 0
        for pair in selected {
            for side in [pair.record.sideA, pair.record.sideB] {
                guard let reference = try? CopyCommand.parseRef(side), let provider = try? accounts.provider(for: reference),
                    FeedSource.matchesByContent(provider)
                else { continue }
                try await FeedSource.acceptShrink(of: provider, command: spec.name)
                feeds += 1
            }
        }
        if feeds == 0 {
            throw UsageError("--accept-shrink is for pairs that read a subscribed feed; none of these does", command: spec.name)
        }
    }

    /// `sync --watch`: the home's watcher lock, the pairs checked, then `SyncWatcher` until SIGINT or SIGTERM,
    /// one log line per event on stderr (NDJSON with --format json). Exit 0, or 3 when a pair's last run
    /// found a grant that must be renewed (the pairs of the other accounts kept running meanwhile).
    private static func watch(
        _ names: [String], interval: Duration, json: Bool, verbose: Bool, context: CommandContext
    ) async throws -> ExitCode {
        // First, so that a signal during start-up is remembered instead of killing the process.
        let signals = SignalWaiter(signals: [SIGINT, SIGTERM])
        let lock = try SyncWatchLock.acquire(home: CalbridgeHome(environment: context.environment))
        defer { lock.release() }
        let pairs = try SyncPairs(context: context)
        let first = try await pairs.select(names, command: spec.name)
        let watcher = SyncWatcher(
            runner: try pairs.runner(accounts: AccountProviders(context: context, verbose: verbose), dryRun: false, stop: signals),
            definitions: pairs.definitions, names: names, interval: interval)
        let log = SyncWatchLog(json: json, context: context)
        let accountsToSignIn = await watcher.run(holding: lock, first: first, until: signals) { log.write($0) }
        guard !accountsToSignIn.isEmpty else { return .success }
        log.line(
            event: "needsSignIn",
            text: "sign in again to \(accountsToSignIn.joined(separator: ", ")) ('calbridge accounts list' shows them); "
                + "their pairs did not run", fields: ["accounts": accountsToSignIn])
        return .reauthenticate
    }

    /// Prints the results (a document with --format json) and one stderr line per error.
    private static func report(_ results: [SyncPairRunner.Result], format: OutputFormat, dryRun: Bool, context: CommandContext) {
        if format == .json {
            let document = (try? SyncOutput.json(SyncOutput.Document(dryRun: dryRun, pairs: results.map(SyncOutput.Entry.init))))
            context.print(document ?? #"{"error":"the report could not be encoded"}"#)
        } else {
            for result in results { SyncOutput.describe(result, context: context) }
        }
        for result in results {
            if let error = result.error { context.printError("error: sync pair '\(result.pair.name)': \(error)") }
            for item in result.report?.errors ?? [] {
                context.printError("error: sync pair '\(result.pair.name)', side \(item.side.rawValue.uppercased()): "
                    + (item.title.map { "'\($0)': " } ?? "") + item.message)
            }
        }
    }
}

/// The pairs of a one-shot run that ended, as they end (shared by the pair runs' threads).
final class EndedPairs: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var ended: [SyncPairRunner.Result] = []
    private var runEnded = false

    func add(_ result: SyncPairRunner.Result) { lock.withLock { ended.append(result) } }

    /// Marks the whole run ended (no pair running, none to start).
    func markEnded() { lock.withLock { runEnded = true } }

    var results: [SyncPairRunner.Result] { lock.withLock { ended } }

    /// Waits until the run ended or `timeout` passed.
    /// - Returns: whether the run ended.
    func waitForEnd(orUntil timeout: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if lock.withLock({ runEnded }) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return lock.withLock { runEnded }
}
}

/// `sync: 2/5 pairs, 340 written, 1 failed` on a terminal's stderr, redrawn as writes land and pairs end
/// (a first sync of thousands of events takes minutes).
final class SyncProgressLine: @unchecked Sendable {
    private let sink: any TextSink
    private let pairs: Int
    private let lock = NSLock()
    // Guarded by `lock`.
    private var ended = 0
    private var written = 0
    private var failed = 0
    private var failedPairs = 0
    private var drawn = false

    init(sink: any TextSink, pairs: Int) {
        self.sink = sink
        self.pairs = pairs
    }

    func wrote(_ landed: Int, failed: Int) {
        lock.withLock {
            written += landed
            self.failed += failed
            draw()
        }
    }

    func pairEnded(failed: Bool) {
        lock.withLock {
            ended += 1
            if failed { failedPairs += 1 }
            draw()
        }
    }

    func finish() {
        lock.withLock { if drawn { sink.write("\r\u{1B}[K") } }
    }

    /// The line as drawn.
    static func text(ended: Int, pairs: Int, written: Int, failed: Int, failedPairs: Int) -> String {
        var text = "sync: \(ended)/\(pairs) pair\(pairs == 1 ? "" : "s"), \(written) written"
        if failed > 0 { text += ", \(failed) failed" }
        if failedPairs > 0 { text += ", \(failedPairs) pair\(failedPairs == 1 ? "" : "s") could not run" }
        return text
    }

    // Called holding `lock`.
    private func draw() {
        sink.write("\r" + Self.text(ended: ended, pairs: pairs, written: written, failed: failed, failedPairs: failedPairs) + "\u{1B}[K")
        drawn = true
    }
}
