import CalendarBridge
import Foundation
import Testing

/// The phrases labelled by hand for three reference moments (a weekday morning, a Friday evening, New
/// Year's Eve at 23:30), scored by the same function as `calbridge-bench quick-add`.
@Suite("Quick-add corpus at three reference moments (Fixtures/quickadd/moments-*.jsonl, heldout*.jsonl)")
struct QuickAddMomentsTests {
    static func score(_ name: String) throws -> QuickAddCorpus.Score {
        let url = QuickAddTestSupport.corpusDirectory.appendingPathComponent("\(name).jsonl")
        return try QuickAddCorpus(contentsOf: url).score { QuickAddTestSupport.windowsNames[$0] }
    }

    @Test("every labelled phrase-moment is exactly right", arguments: ["moments-en", "moments-de"])
    func labelled(_ name: String) throws {
        let score = try Self.score(name)
        #expect(score.total >= 450)
        #expect(
            score.misses.isEmpty,
            Comment(rawValue: "\(score.right) of \(score.total) right:\n" + score.misses.map(\.description).joined(separator: "\n")))
    }

    /// The goal (97%) is measured by `calbridge-bench quick-add`; these floors only catch a collapse. The
    /// held-out files are run, never read while fixing the parser: only their rates are reported, not which
    /// phrases missed. `heldout-2026-12-06c` and `-06e` were written by sessions that had read neither the parser nor the
    /// other held-out sets (their first rates are in docs/quick-add.md).
    @Test(
        "the held-out parts stay above their floors", arguments: [("heldout-2026-12-06c", 520, 0.80), ("heldout-2026-12-06e", 560, 0.80)])
    func heldOut(_ name: String, size: Int, floor: Double) throws {
        let score = try Self.score(name)
        #expect(score.total >= size)
        #expect(score.rate >= floor, "\(score.right) of \(score.total) \(name) phrase-moments right")
        print(
            "\(name): \(score.right) of \(score.total) right, \(score.silentlyWrong) wrong without a word, \(score.flaggedWrong) wrong but flagged, "
                + "\(score.flaggedRight) right but flagged")
    }

    /// The first five held-out sets are spent: their misses were read and fixed on 2026-12-06; so is the seventh, whose
    /// one missed phrase was seen while checking a later rule. What they still
    /// guard is the goal "no wrong event without a word": a miss there may be refused or flagged, never silent.
    @Test(
        "the spent held-out parts: no phrase-moment wrong without a word",
        arguments: [
            ("heldout", 270), ("heldout-2026-12-05", 450), ("heldout-2026-12-05b", 450), ("heldout-2026-12-06", 500),
            ("heldout-2026-12-06b", 520), ("heldout-2026-12-06d", 520),
        ])
    func spent(_ name: String, size: Int) throws {
        let score = try Self.score(name)
        #expect(score.total >= size)
        let silent = score.misses.filter { !$0.refused && !$0.flagged }
        let listed = silent.map(\.description).joined(separator: "\n")
        #expect(silent.isEmpty, Comment(rawValue: "\(silent.count) of \(score.total) wrong without a word:\n" + listed))
        #expect(score.rate >= 0.95, "\(score.right) of \(score.total) \(name) phrase-moments right")
    }
}
