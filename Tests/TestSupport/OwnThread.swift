// Swift Testing is on the module path only when tests are built: `swift build -c release` builds this
// target too (calbridge-bench shares the package), and must not fail for want of it.
#if canImport(Testing)
import Foundation
import Testing

/// Runs a test on a thread of its own instead of Swift's cooperative pool: `@Test(.ownThread)`.
///
/// The pool has one thread per core (two on CI), shared by every test of the process. A CPU-bound test
/// (thousands of seeded inputs, an oracle comparison) holds a pool thread for seconds without a suspension
/// point; with two such tests running, every async test waits, and one that measures a timeout, sleeps
/// before checking a state or keeps a connection idle sees that wait as its own. On a thread of its own, such
/// a test shares the cores with the rest through the kernel's scheduler, a time slice at a time.
///
/// Meant for synchronous tests: an async one comes back to the thread after `Task.yield()`, but after
/// `Task.sleep` the runtime here resumes it on the pool.
package struct OwnThreadTrait: TestTrait, TestScoping {
    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let executor = DedicatedThreadExecutor()
        defer { executor.finish() }
        try await withTaskExecutorPreference(executor) {
            // The preference takes effect at the task's next enqueue (the runtime does not hop at once): a
            // yield makes that happen here, so a synchronous test cannot begin on the pool thread that called.
            await Task.yield()
            try await function()
        }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// The test runs on a dedicated thread, not on the cooperative pool (see `OwnThreadTrait`).
    package static var ownThread: Self { Self() }
}

/// A task executor with one thread: jobs run in the order they come. After `finish`, the thread ends once
/// its queue is empty, and a job that still arrives (a task that outlived the test's scope) goes to the
/// global concurrent executor rather than waiting forever.
package final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false
    private var running = true

    package init() {
        let thread = Thread { [self] in run() }
        thread.threadDictionary[Self.marker] = true
        thread.start()
    }

    private static let marker = "calbridge.DedicatedThreadExecutor"

    /// Whether the caller runs on the thread of a `DedicatedThreadExecutor`. (Not by a thread name: on Linux,
    /// Foundation's name set before `start` does not reach the thread, which keeps its creator's, and one set
    /// from inside it was seen read back as the creator's in about one run of seven.)
    package static var isCurrentThreadDedicated: Bool { Thread.current.threadDictionary[marker] != nil }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let accepted = condition.withLock {
            guard running else { return false }
            jobs.append(job)
            condition.signal()
            return true
        }
        if !accepted { globalConcurrentExecutor.enqueue(job) }
    }

    /// The thread has ended: jobs now go to the global concurrent executor.
    package var hasEnded: Bool { condition.withLock { !running } }

    /// Lets the thread end when its queue is empty.
    package func finish() {
        condition.withLock {
            finished = true
            condition.signal()
        }
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            guard !jobs.isEmpty else {
                running = false
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
#endif
