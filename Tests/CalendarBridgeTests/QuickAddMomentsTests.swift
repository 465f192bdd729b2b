import CalendarBridge
import Foundation
import Testing

/// The phrases labelled by hand for three reference moments (a weekday morning, a Friday evening, New
/// Year's Eve at 23:30), scored by the same function as `calbridge-bench quick-add`.
@Suite("Quick-add corpus at three reference moments (Fixtures/quickadd/moments-*.jsonl, heldout.jsonl)")
struct QuickAddMomentsTests {
    static func score(_ name: String) throws -> QuickAddCorpus.Score {
        let url = QuickAddTestSupport.corpusDirectory.appendingPathComponent("\(name).jsonl")
        return try QuickAddCorpus(contentsOf: url).score { QuickAddTestSupport.windowsNames[$0] }
    }

    @Test("every labelled phrase-moment is exactly right", arguments: ["moments-en", "moments-de"])
    func labelled(_ name: String) throws {
        let score = try Self.score(name)
        #expect(score.total >= 450)
        #expect(score.misses.isEmpty, Comment(rawValue: "\(score.right) of \(score.total) right:\n" + score.misses.map(\.description).joined(separator: "\n")))
    }

    /// The goal (97%) is measured by `calbridge-bench quick-add`; this floor only catches a collapse. The
    /// held-out file is run, never read while fixing the parser: only its rate is reported, not which
    /// phrases missed.
    @Test("the held-out part stays above a floor of 90%")
    func heldOut() throws {
        let score = try Self.score("heldout")
        #expect(score.total >= 270)
        #expect(score.rate >= 0.90, "\(score.right) of \(score.total) held-out phrase-moments right")
    }
}
