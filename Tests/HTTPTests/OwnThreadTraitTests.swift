import Foundation
import Testing
import TestSupport

/// `.ownThread` (TestSupport): CPU-bound tests run on a dedicated thread, off the cooperative pool.
@Suite("Tests on a thread of their own")
struct OwnThreadTraitTests {
    /// The name of the thread running the caller (a synchronous function: `Thread.current` is not for async code).
    static func threadName() -> String? { Thread.current.name }

    @Test("a synchronous test marked .ownThread runs on the dedicated thread", .ownThread)
    func synchronousTest() {
        #expect(Self.threadName() == "test-own-thread")
    }

    @Test("an unmarked test runs on the cooperative pool")
    func unmarked() {
        #expect(Self.threadName() != "test-own-thread")
    }

    @Test("a job arriving after the executor's thread ended still runs, on the global executor")
    func lateJob() async throws {
        let executor = DedicatedThreadExecutor(name: "test-late")
        executor.finish()
        let deadline = ContinuousClock.now + .seconds(30)
        while !executor.hasEnded, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        #expect(executor.hasEnded)
        // A task that outlives a test's scope and still prefers its executor must not wait forever.
        let name = await Task(executorPreference: executor) { Self.threadName() }.value
        #expect(name != "test-late")
    }
}
