import Foundation
import Testing
import TestSupport

/// `.ownThread` (TestSupport): CPU-bound tests run on a dedicated thread, off the cooperative pool.
@Suite("Tests on a thread of their own")
struct OwnThreadTraitTests {
    @Test("a synchronous test marked .ownThread runs on the dedicated thread", .ownThread)
    func synchronousTest() {
        #expect(DedicatedThreadExecutor.isCurrentThreadDedicated)
    }

    @Test("an unmarked test runs on the cooperative pool")
    func unmarked() {
        #expect(!DedicatedThreadExecutor.isCurrentThreadDedicated)
    }

    @Test("a job arriving after the executor's thread ended still runs, on the global executor")
    func lateJob() async throws {
        let executor = DedicatedThreadExecutor()
        executor.finish()
        let deadline = ContinuousClock.now + .seconds(30)
        while !executor.hasEnded, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        #expect(executor.hasEnded)
        // A task that outlives a test's scope and still prefers its executor must not wait forever.
        let dedicated = await Task(executorPreference: executor) { DedicatedThreadExecutor.isCurrentThreadDedicated }.value
        #expect(!dedicated)
    }
}
