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

    /// "YYYY-MM-DDTHH:MM" wall time in `zone`, or the date of an all-day value.
    static func wall(_ text: String, zone: QuickAddZone) -> String {
        guard text.count > 10, let instant = ISO8601DateFormatter().date(from: text) else { return text }
        return String(zone.rfc3339(Int(instant.timeIntervalSince1970)).prefix(16))
    }

    @Test("ctparse reads every labelled phrase; agreement and both exact rates are reported", .enabled(if: FileManager.default.isExecutableFile(atPath: python.path) || ProcessInfo.processInfo.environment["CI"] != nil))
    func differential() throws {
        var input = ""
        for name in ["moments-en", "moments-de", "heldout", "en", "de"] {
            let corpus = try QuickAddCorpus(contentsOf: QuickAddTestSupport.corpusDirectory.appendingPathComponent("\(name).jsonl"))
            for phrase in corpus.phrases {
                guard let expect = phrase.expect, let zone = QuickAddZone(identifier: phrase.zone),
                    let start = expect["start"], let end = expect["end"], expect["timeZone"] == phrase.zone
                else { continue }
                let parser = QuickAddTestSupport.parser(lang: phrase.lang, dateOrder: phrase.dateOrder?.rawValue)
                let ours = try? parser.parse(phrase.text, now: phrase.now, zone: zone)
                let nowWall = String(zone.rfc3339(Int(phrase.now.timeIntervalSince1970)).prefix(19))
                let allDay = expect["allDay"] == "true"
                // A range: an all-day event over several days, or a timed end that is not the one-hour default.
                let isRange: Bool = {
                    if allDay { return end != Self.dayAfter(start) }
                    guard let a = ISO8601DateFormatter().date(from: start), let b = ISO8601DateFormatter().date(from: end) else { return false }
                    return b.timeIntervalSince(a) != 3600
                }()
                let labelEnd = allDay ? Self.dayBefore(end) : Self.wall(end, zone: zone)
                let oursEnd = ours.map { $0.isAllDay ? Self.dayBefore($0.end.description) : Self.wall($0.end.description, zone: zone) }
                let row: [String: Any] = [
                    "text": phrase.text, "lang": phrase.lang, "now": nowWall, "range": isRange,
                    "label": [Self.wall(start, zone: zone), labelEnd],
                    "ours": [ours.map { Self.wall($0.start.description, zone: zone) as Any } ?? NSNull(), oursEnd.map { $0 as Any } ?? NSNull()],
                ]
                input += String(decoding: try JSONSerialization.data(withJSONObject: row), as: UTF8.self) + "\n"
            }
        }
        let process = Process()
        process.executableURL = Self.python
        process.arguments = [Self.script.path]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        let total = try #require(report["total"] as? Int)
        let ctparse = try #require(report["ctparseExact"] as? Int)
        let ours = try #require(report["oursExact"] as? Int)
        let agree = try #require(report["agree"] as? Int)
        let disagreements = report["disagreements"] as? [[String: Any]] ?? []
        print("quick-add vs ctparse: \(total) phrase-moments; calbridge exact \(ours), ctparse exact \(ctparse), agree \(agree)")
        for row in disagreements.prefix(400) { print("  disagree: \(row)") }
        #expect(total >= 550)
        // Our reading of the date and time is the label's on all the tuned files; ctparse is only compared.
        #expect(ours >= total * 97 / 100, "calbridge read \(ours) of \(total) dates and times exactly")
        #expect(disagreements.count == total - agree)
    }

    static func dayAfter(_ text: String) -> String { shift(text, 1) }
    static func dayBefore(_ text: String) -> String { shift(text, -1) }
    static func shift(_ text: String, _ days: Int) -> String {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return text }
        return QuickAddDate(year: parts[0], month: parts[1], day: parts[2]).adding(days: days).description
    }
}
