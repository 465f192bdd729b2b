import CalendarBridge
import Foundation
import Testing

/// The differential check against ctparse (PyPI; installed by .ci/install-deps into .build/test-python):
/// for every labelled phrase-moment, ctparse and calbridge read the date and time; the script reports
/// ctparse's exact rate, ours and the agreement, and lists the disagreements with who was right.
@Suite("Quick-add differential check against ctparse")
struct QuickAddCtparseTests {
    static let python = QuickAddTestSupport.packageRoot.appendingPathComponent(".build/test-python/bin/python")
    static let script = QuickAddTestSupport.corpusDirectory.appendingPathComponent("ctparse_diff.py")
    /// ctparse's recorded answers (a hashed key per phrase-moment): `CALBRIDGE_CTPARSE_RECORD=1` rewrites them.
    static let answers = QuickAddTestSupport.corpusDirectory.appendingPathComponent("ctparse-answers.jsonl")
    /// The hand-labelled files a reviewed disagreement is recorded in (the held-out ones are not reviewed).
    static let reviewed: Set<String> = ["moments-en", "moments-de"]

    @Test(
        "ctparse reads every labelled phrase; agreement and both exact rates are reported",
        .enabled(if: FileManager.default.isExecutableFile(atPath: python.path) || ProcessInfo.processInfo.environment["CI"] != nil))
    func differential() throws {
        var rows: [String] = []
        for name in [
            "moments-en", "moments-de", "heldout", "heldout-2026-12-05", "heldout-2026-12-05b", "heldout-2026-12-06", "heldout-2026-12-06b",
            "heldout-2026-12-06c", "heldout-2026-12-06d", "heldout-2026-12-06e", "dev-doubts-3", "dev-doubts-4", "dev-doubts-5",
            "dev-doubts-6",
            "en", "de",
        ] {
            let corpus = try QuickAddCorpus(contentsOf: QuickAddTestSupport.corpusDirectory.appendingPathComponent("\(name).jsonl"))
            rows += corpus.ctparseRows(group: name) { QuickAddTestSupport.windowsNames[$0] }
        }
        let record = ProcessInfo.processInfo.environment["CALBRIDGE_CTPARSE_RECORD"] == "1"
        let report = try #require(
            try QuickAddCtparseReport.run(
                python: Self.python, script: Self.script, rows: rows, answers: record ? .record(Self.answers) : .recorded(Self.answers)))
        let all = report.all
        print(
            "quick-add vs ctparse: \(all.total) phrase-moments; calbridge exact \(all.oursExact), ctparse exact \(all.ctparseExact), agree \(all.agree)"
        )
        print(
            "  ctparse read \(report.live) now; \(report.recorded) recorded answers used, \(report.checked) of them read again: \(report.stale.count) stale"
                + (!record && report.live > all.total / 10 ? " (CALBRIDGE_CTPARSE_RECORD=1 records the new rows' answers)" : ""))
        // A recorded answer is ctparse's own: every spot-checked one must still be what ctparse says.
        #expect(report.stale.isEmpty, "recorded ctparse answers it no longer gives: \(report.stale.prefix(5))")
        #expect(report.live + report.recorded == all.total)
        if report.recorded > 0 {
            #expect(report.checked * 16 >= report.recorded, "only \(report.checked) of \(report.recorded) recorded answers checked")
        }
        for (name, tally) in report.groups.sorted(by: { $0.key < $1.key }) {
            print("  \(name): \(tally.total); calbridge \(tally.oursExact), ctparse \(tally.ctparseExact), agree \(tally.agree)")
        }
        #expect(all.total >= 1_500)
        #expect(report.disagreements.count == all.total - all.agree)
        // Our reading of the date and time is the label's on the files the parser is fixed against.
        for name in ["moments-en", "moments-de", "en", "de"] {
            let tally = try #require(report.groups[name])
            #expect(tally.oursExact >= tally.total * 97 / 100, "\(name): calbridge read \(tally.oursExact) of \(tally.total) exactly")
        }
        // Every disagreement on the hand-labelled files is reviewed: the corpus line says who was right and why.
        let unreviewed = report.disagreements.filter { Self.reviewed.contains($0["group"] as? String ?? "") && $0["review"] == nil }
        for row in unreviewed.prefix(50) {
            print("  unreviewed: \(row["text"] ?? "") at \(row["now"] ?? ""): ctparse \(row["ctparse"] ?? ""), label \(row["label"] ?? "")")
        }
        #expect(unreviewed.isEmpty, "\(unreviewed.count) disagreements on the hand-labelled phrases have no review in the corpus")
    }
}
