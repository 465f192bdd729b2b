import CopyModel
import SyncModel
import Foundation
import Testing

/// The two-way sync model test over a fixed set of seeds (more: `CALBRIDGE_MODEL_SEQUENCES=5000`).
@Suite("Sync model")
struct SyncModelTests {
    @Test("random two-way edits, killed runs and expired cursors converge without loss or duplicates")
    func modelSequences() async {
        let seeds = ModelCheck.seeds(defaultCount: 300)
        var failures: [String] = []
        for seed in seeds {
            if let failure = await SyncModel.run(seed: seed, calendars: InMemorySyncCalendars()) {
                failures.append(failure)
                if failures.count >= 3 { break }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failing sequences of \(seeds.count):\n\(failures.joined(separator: "\n"))")
    }
}
