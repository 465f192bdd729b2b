import CalendarBridge
import Foundation

/// How far a command that writes many events has got: writes done (failed ones included) of all it plans.
struct WriteProgress: Sendable, Hashable {
    var completed: Int
    var total: Int
    var failed: Int

    init(completed: Int, total: Int, failed: Int) {
        self.completed = completed
        self.total = total
        self.failed = failed
    }

    init(_ progress: CopyEngine.Progress) {
        self.init(completed: progress.completed, total: progress.total, failed: progress.failed)
    }
}

/// The commands that write many events one batch after another (`copy`, `import`, `delete --all`), stopped by
/// SIGINT or SIGTERM the same way: no new write starts, the writes in flight finish (the next batch to end, at
/// most `grace`), the summary so far is printed ("copy interrupted (SIGINT) after 394 written, 0 failed of
/// 3000; run it again to finish") and the command exits 4. A rerun finishes the job: copies carry origin
/// markers, so nothing is written twice. A second signal ends the process at once.
enum InterruptibleWrites {
    /// How long the writes in flight may take to finish after a signal.
    static let grace: Duration = .seconds(20)

    /// How the work ended.
    enum Outcome<Value> {
        /// It ran to its end (a signal after its last write changes nothing).
        case finished(Value)
        /// A signal stopped it; the summary is printed. The command exits 4.
        case interrupted
    }

    /// Runs `work`, which tells `progress` after each batch of writes and asks `shouldStop` before starting one.
    /// - Parameters:
    ///   - command: the command's name, as the summary starts.
    ///   - verb: what a write did, for the summary (`written`, `deleted`).
    ///   - bar: the progress bar on a terminal, finished before the summary is printed.
    static func run<Value: Sendable>(
        _ command: String, verb: String = "written", context: CommandContext, bar: ProgressBar?,
        work:
            @escaping @Sendable (_ progress: @escaping @Sendable (WriteProgress) -> Void, _ shouldStop: @escaping @Sendable () -> Bool)
            async throws -> Value
    ) async throws -> Outcome<Value> {
        let signals = SignalWaiter(signals: [SIGINT, SIGTERM])
        let tracker = ProgressTracker()
        let report: @Sendable (WriteProgress) -> Void = { update in
            bar?.update(update)
            tracker.update(update)
        }
        let task = Task {
            defer {
                tracker.markEnded()
                signals.finish()
            }
            return try await work(report, { signals.signalReceived != nil })
        }
        guard let signal = await signals.wait(timeout: nil) else { return .finished(try await task.value) }
        signals.restoreDefaults()
        if await tracker.waitForBatchOrEnd(timeout: grace) {
            let value = try await task.value
            // Ended because it was told to stop, with writes left: interrupted all the same.
            guard let latest = tracker.latest, latest.completed < latest.total else { return .finished(value) }
        }
        bar?.finish()
        let summary =
            tracker.latest.map { done in "after \(done.completed - done.failed) \(verb), \(done.failed) failed of \(done.total)" }
            ?? "before anything was written"
        context.printError("\(command) interrupted (\(SignalWaiter.name(signal))) \(summary); run it again to finish")
        return .interrupted
    }
}

/// The latest progress of a run of writes, and a way to wait for the writes in flight once it is told to stop.
final class ProgressTracker: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var progress: WriteProgress?
    private var batches = 0
    private var ended = false

    func update(_ update: WriteProgress) {
        lock.withLock {
            progress = update
            batches += 1
        }
    }

    /// The last progress reported (nil before the first write).
    var latest: WriteProgress? { lock.withLock { progress } }

    /// Marks the work ended (called from its own task as it returns, result or error).
    func markEnded() { lock.withLock { ended = true } }

    /// Waits until the next batch of writes ends or the work ends, up to `timeout`.
    /// - Returns: true when the work ended (its result is then whole), false otherwise.
    func waitForBatchOrEnd(timeout: Duration) async -> Bool {
        let start = lock.withLock { batches }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            let (batchEnded, workEnded) = lock.withLock { (batches != start, ended) }
            if workEnded { return true }
            if batchEnded {
                // The work may end with its last batch: a moment for it to return.
                try? await Task.sleep(for: .milliseconds(50))
                return lock.withLock { ended }
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return lock.withLock { ended }
    }
}
