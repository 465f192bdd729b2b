import CalendarBridge
import CopyModel
import Foundation
import Testing

/// The model-based test of `copy` (issue 12) against the in-memory provider: seeded random source
/// calendars and operation sequences, every invariant checked after every step by an independent
/// oracle. See `ModelCheck` for replaying a seed and running more (`CALBRIDGE_MODEL_SEQUENCES`).
@Suite("Copy model: random calendars and operations, in memory")
struct CopyModelTests {
    @Test("300 seeded sequences (or CALBRIDGE_MODEL_SEQUENCES / CALBRIDGE_MODEL_SEED) keep every invariant")
    func inMemory() async throws {
        let seeds = ModelCheck.seeds(defaultCount: 300)
        let summary = await ModelCheck.run(seeds: seeds, backend: InMemoryModelBackend(), filter: "CopyModelTests")
        print("copy model (in memory): \(summary.sequences) sequences, \(summary.operations) operations, "
            + "\(summary.failures.count) failing, \(String(format: "%.1f", summary.seconds)) s")
        print(summary.report)
        for failure in summary.shrunk { Issue.record("\(failure)") }
        if summary.failures.count > summary.shrunk.count {
            Issue.record("\(summary.failures.count - summary.shrunk.count) more failing seeds: \(summary.failures.filter { !$0.isShrunk }.prefix(40).map { "\($0.scenario.seed) [\($0.problem.code)]" })")
        }
        #expect(summary.sequences == seeds.count)
    }

    @Test("the generator is replayable: a seed gives the same scenario every time")
    func replayable() {
        for seed: UInt64 in [1, 42, 977] {
            #expect(ModelScenario.generate(seed: seed) == ModelScenario.generate(seed: seed))
        }
        #expect(ModelScenario.generate(seed: 1) != ModelScenario.generate(seed: 2))
    }
}
