import Foundation

/// The differential check against ctparse (an independent parser, PyPI; run by
/// `Fixtures/quickadd/ctparse_diff.py`): the input rows, and the report read back. One implementation
/// for `QuickAddCtparseTests` and `calbridge-bench quick-add`.
extension QuickAddCorpus {
    /// One JSON line per labelled phrase-moment read in the user's zone (refusals and events in a
    /// named foreign zone are left out: ctparse reads neither): the text, the reference wall time, the
    /// label's date and time (start, and end of a range), calbridge's reading, `group` (the caller's
    /// name for this corpus, reported separately) and any review recorded in the corpus.
    public func ctparseRows(group: String, windowsZoneResolver resolver: (@Sendable (String) -> String?)? = nil) -> [String] {
        var rows: [String] = []
        var parsers: [String: QuickAddParser] = [:]
        for phrase in phrases {
            guard let expect = phrase.expect, let zone = QuickAddZone(identifier: phrase.zone),
                let locale = QuickAddLocale.named(phrase.lang),
                let start = expect["start"], let end = expect["end"], expect["timeZone"] == phrase.zone
            else { continue }
            let key = "\(phrase.lang)/\(phrase.dateOrder?.rawValue ?? "")"
            let parser =
                parsers[key]
                ?? QuickAddParser(options: QuickAddOptions(locale: locale, dateOrder: phrase.dateOrder, windowsZoneResolver: resolver))
            parsers[key] = parser
            let ours = try? parser.parse(phrase.text, now: phrase.now, zone: zone)
            let nowWall = String(zone.rfc3339(Int(phrase.now.timeIntervalSince1970)).prefix(19))
            let allDay = expect["allDay"] == "true"
            // A range: an all-day event over several days, or a timed end that is not the one-hour default.
            let isRange: Bool = {
                if allDay { return end != Self.shifted(start, days: 1) }
                guard let a = ISO8601DateFormatter().date(from: start), let b = ISO8601DateFormatter().date(from: end) else {
                    return false
                }
                return b.timeIntervalSince(a) != 3600
            }()
            let labelEnd = allDay ? Self.shifted(end, days: -1) : Self.wall(end, zone: zone)
            let oursEnd = ours.map { $0.isAllDay ? Self.shifted($0.end.description, days: -1) : Self.wall($0.end.description, zone: zone) }
            var row: [String: Any] = [
                "text": phrase.text, "lang": phrase.lang, "now": nowWall, "range": isRange, "group": group,
                "label": [Self.wall(start, zone: zone), labelEnd],
                "ours": [
                    ours.map { Self.wall($0.start.description, zone: zone) as Any } ?? NSNull(), oursEnd.map { $0 as Any } ?? NSNull(),
                ],
            ]
            if let review = phrase.ctparseReview { row["review"] = review }
            guard let data = try? JSONSerialization.data(withJSONObject: row, options: [.sortedKeys]) else { continue }
            rows.append(String(decoding: data, as: UTF8.self))
        }
        return rows
    }

    /// "YYYY-MM-DDTHH:MM" wall time in `zone`, or the date of an all-day value.
    static func wall(_ text: String, zone: QuickAddZone) -> String {
        guard text.count > 10, let instant = ISO8601DateFormatter().date(from: text) else { return text }
        return String(zone.rfc3339(Int(instant.timeIntervalSince1970)).prefix(16))
    }

    /// A `YYYY-MM-DD` text moved by `days`.
    static func shifted(_ text: String, days: Int) -> String {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return text }
        return QuickAddDate(year: parts[0], month: parts[1], day: parts[2]).adding(days: days).description
    }
}

/// What `ctparse_diff.py` reports: per group and in all, how many phrase-moments, how many each parser
/// read exactly as labelled, how many the two read alike; and every disagreement.
public struct QuickAddCtparseReport: Sendable {
    public struct Tally: Sendable {
        public var total = 0
        public var ctparseExact = 0
        public var oursExact = 0
        public var agree = 0
    }

    public var all: Tally
    public var groups: [String: Tally]
    /// Rows ctparse read now, rows whose recorded answer was used, and how many of those it read again as a
    /// spot check (`ctparse_diff.py --answers`).
    public var live = 0
    public var recorded = 0
    public var checked = 0
    /// The texts of spot-checked rows whose recorded answer ctparse no longer gives.
    public var stale: [String] = []
    /// Each disagreement as the script wrote it (text, now, label, ours, ctparse, right, review).
    public var disagreements: [[String: Any]] { disagreementRows.map(\.value) }
    private var disagreementRows: [UncheckedRow]

    private struct UncheckedRow: @unchecked Sendable { var value: [String: Any] }

    /// What `run` does with the recorded answers (`ctparse-answers.jsonl`).
    public enum Answers: Sendable {
        /// Ask ctparse for every row.
        case live
        /// Use the answers recorded in the file, asking ctparse for the rows not in it and for a spot check.
        case recorded(URL)
        /// Ask ctparse for every row and write its answers to the file.
        case record(URL)
    }

    /// Runs `script` (ctparse_diff.py) with `python` on `rows`; nil when the script fails or says nothing
    /// readable.
    public static func run(python: URL, script: URL, rows: [String], answers: Answers = .live) throws -> QuickAddCtparseReport? {
        let process = Process()
        process.executableURL = python
        switch answers {
        case .live: process.arguments = [script.path]
        case .recorded(let file): process.arguments = [script.path, "--answers", file.path]
        case .record(let file): process.arguments = [script.path, "--record", file.path]
        }
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        // ctparse logs every text it finds nothing in; the report carries what matters.
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The rows are written on another thread so that a full output pipe cannot stall the writer.
        let text = Data(rows.joined(separator: "\n").utf8)
        let writer = input.fileHandleForWriting
        Thread.detachNewThread {
            writer.write(text)
            try? writer.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return QuickAddCtparseReport(json: data)
    }

    /// Reads the script's JSON output; nil when it is not the report.
    public init?(json: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else { return nil }
        func tally(_ value: Any?) -> Tally? {
            guard let dictionary = value as? [String: Any], let total = dictionary["total"] as? Int,
                let ct = dictionary["ctparseExact"] as? Int, let ours = dictionary["oursExact"] as? Int,
                let agree = dictionary["agree"] as? Int
            else { return nil }
            return Tally(total: total, ctparseExact: ct, oursExact: ours, agree: agree)
        }
        guard let all = tally(object) else { return nil }
        self.all = all
        var groups: [String: Tally] = [:]
        for (name, value) in object["groups"] as? [String: Any] ?? [:] { groups[name] = tally(value) }
        self.groups = groups
        disagreementRows = (object["disagreements"] as? [[String: Any]] ?? []).map(UncheckedRow.init)
        live = object["live"] as? Int ?? 0
        recorded = object["recorded"] as? Int ?? 0
        checked = object["checked"] as? Int ?? 0
        stale = object["stale"] as? [String] ?? []
    }
}
