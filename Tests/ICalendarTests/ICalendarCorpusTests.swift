import CalendarBridge
import Foundation
import ICalendar
import TestSupport
import Testing

/// calbridge's reading of every file of a real-world corpus, compared with an independent reader: Python's
/// `icalendar` parses and `recurring-ical-events` expands (neither uses libical). The corpus: the test
/// calendars both packages ship, RFC 5545's examples as files, and exports of the sandbox (Fixtures/ics-corpus,
/// docs/icalendar.md). For each file both sides give the occurrences starting in a fixed window (times as an
/// instant and the wall clock of their own zone, all-day events as dates, with UID and title); files one side
/// refuses are listed with the reason. Every file must agree, or both refuse it, or be in
/// Fixtures/ics-corpus/known-differences.tsv with what differs and why.
@Suite("iCalendar corpus: calbridge reads every file as an independent reader does")
struct ICalendarCorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let corpus = root.appendingPathComponent("Fixtures/ics-corpus")
    static let python = root.appendingPathComponent(".build/test-python/bin/python3")
    static let sitePackages = root.appendingPathComponent(".build/test-python/lib")
    /// Floating times are read in a zone with daylight saving, so a misread one shows.
    static let floating = "America/New_York"
    static let window = (from: LocalDate(year: 1995, month: 1, day: 1)!, to: LocalDate(year: 2035, month: 1, day: 1)!)
    static let utc = TimeZone(secondsFromGMT: 0)!

    /// One file of the corpus: its id (`icalendar/calendars/x.ics`, `recurring-ical-events/x.ics`,
    /// `rfc5545/x.ics`, `sandbox/x.ics`) and where it is.
    struct CorpusFile: Sendable {
        var id: String
        var url: URL
    }

    /// What one side read: the occurrences (one canonical line each, sorted) or why it refused the file.
    enum Reading: Equatable {
        case occurrences([String])
        case refused(String)
    }

    enum Outcome: String {
        case agree, differ
        case calbridgeRefuses = "calbridge-refuses"
        case oracleRefuses = "oracle-refuses"
        case bothRefuse = "both-refuse"
    }

    // MARK: the corpus

    /// The committed files, and recurring-ical-events' test calendars from its installed package (LGPL-3.0:
    /// read where pip put them, not copied into the repository; the version is pinned).
    static func files() throws -> [CorpusFile] {
        var found: [CorpusFile] = []
        for folder in ["icalendar", "rfc5545", "sandbox", "made"] {
            let base = corpus.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where url.pathExtension == "ics" {
                let relative = url.path.dropFirst(corpus.path.count + 1)
                found.append(CorpusFile(id: String(relative), url: url))
            }
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: sitePackages.path)) ?? []
        for version in versions where version.hasPrefix("python3") {
            let calendars = sitePackages.appendingPathComponent("\(version)/site-packages/recurring_ical_events/test/calendars")
            for name in (try? FileManager.default.contentsOfDirectory(atPath: calendars.path)) ?? [] where name.hasSuffix(".ics") {
                found.append(CorpusFile(id: "recurring-ical-events/" + name, url: calendars.appendingPathComponent(name)))
            }
        }
        return found.sorted { $0.id < $1.id }
    }

    /// The committed list of files whose readings differ: id → (outcome, reason).
    static func knownDifferences() throws -> [String: (outcome: Outcome, reason: String)] {
        let text = try String(contentsOf: corpus.appendingPathComponent("known-differences.tsv"), encoding: .utf8)
        var known: [String: (Outcome, String)] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", maxSplits: 2).map(String.init)
            guard fields.count == 3, let outcome = Outcome(rawValue: fields[1]) else {
                throw ICalendarError("known-differences.tsv: not 'id<TAB>outcome<TAB>reason': \(line.prefix(80))")
            }
            known[fields[0]] = (outcome, fields[2])
        }
        return known
    }

    /// The held-out fifth: chosen before any difference was looked at, never used to decide a fix.
    static func heldOut() throws -> Set<String> {
        let text = try String(contentsOf: corpus.appendingPathComponent("heldout.txt"), encoding: .utf8)
        return Set(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init))
    }

    // MARK: calbridge's side

    /// The occurrences calbridge shows: the file read as `import` reads it, each series expanded by the file
    /// provider (libical), cancelled occurrences left out.
    static func calbridge(_ file: CorpusFile) async -> Reading {
        guard let data = FileManager.default.contents(atPath: file.url.path) else { return .refused("unreadable") }
        let parsed: ICalendarFile
        do {
            parsed = try ICalendarReader.read(String(decoding: data, as: UTF8.self), floatingZone: TimeZone(identifier: floating)!)
        } catch {
            return .refused(error.message)
        }
        let provider = ICalendarFileProvider(file: parsed, account: "corpus")
        let range = TimeRange(
            start: window.from.adding(days: -2).startInstant(in: utc), end: window.to.adding(days: 2).startInstant(in: utc))
        do {
            let events = try await provider.listEvents(calendarID: ICalendarFileProvider.calendarID, range: range, expand: true)
            return .occurrences(
                events.filter { $0.status != .cancelled && inWindow($0.start) }
                    .map { line(uid: $0.iCalUID ?? "", title: $0.title, start: text($0.start), end: text($0.end, clock: false)) }.sorted())
        } catch {
            return .refused("\(error)")
        }
    }

    static func inWindow(_ time: EventTime) -> Bool {
        switch time {
        case .allDay(let date): return date >= window.from && date < window.to
        case .timed(let instant, _): return instant >= window.from.startInstant(in: utc) && instant < window.to.startInstant(in: utc)
        }
    }

    /// `2026-01-05` for a date; `1767600000 2026-01-05T09:00:00` (the instant, then its own zone's clock).
    /// Ends are compared as instants only: which zone an end is shown in is the reader's choice (an end in UTC
    /// after a start in Europe/London is shown in London by the oracle), not a different time.
    static func text(_ time: EventTime, clock: Bool = true) -> String {
        switch time {
        case .allDay(let date): return date.description
        case .timed(let instant, _):
            let seconds = "\(Int(instant.timeIntervalSince1970.rounded(.down)))"
            return clock ? "\(seconds) \(time.localText ?? "?")" : seconds
        }
    }

    /// Titles are compared without surrounding spaces: libical drops a value's trailing spaces (Google's
    /// holiday feeds end every SUMMARY with one), which changes no event.
    static func line(uid: String, title: String, start: String, end: String) -> String {
        "\(uid) | \(start) -> \(end) | \(title.trimmingCharacters(in: .whitespaces))"
    }

    // MARK: the oracle's side

    struct OracleCase: Codable {
        var path: String
        var floating: String
        var from: String
        var to: String
    }

    struct OracleTime: Codable {
        var date: String?
        var instant: Int?
        var local: String?

        var text: String { date ?? "\(instant ?? 0) \(local ?? "?")" }
        var instantText: String { date ?? "\(instant ?? 0)" }
    }

    struct OracleOccurrence: Codable {
        var uid: String
        var title: String
        var start: OracleTime
        var end: OracleTime
        var status: String
    }

    struct OracleAnswer: Codable {
        var path: String
        var occurrences: [OracleOccurrence]?
        var error: String?
    }

    /// The oracle's reading of every file (one Python process for the corpus), by path.
    static func oracle(_ files: [CorpusFile]) async throws -> [String: Reading] {
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw ICalendarError("the iCalendar oracle is not installed at \(python.path): run .ci/install-deps")
        }
        var input = Data()
        for file in files {
            let c = OracleCase(path: file.url.path, floating: floating, from: window.from.description, to: window.to.description)
            input += try JSONEncoder().encode(c) + Data("\n".utf8)
        }
        let script = root.appendingPathComponent("Tests/ICalendarTests/Oracle/ics_oracle.py")
        let result = try await ChildProcess.run(python, ["-W", "ignore", script.path], input: input)
        guard result.status == 0 else { throw ICalendarError("the oracle failed: \(result.stderr.prefix(400))") }
        var readings: [String: Reading] = [:]
        for line in result.stdout.split(separator: "\n") {
            let answer = try JSONDecoder().decode(OracleAnswer.self, from: Data(line.utf8))
            if let error = answer.error {
                readings[answer.path] = .refused(error)
            } else {
                readings[answer.path] = .occurrences(
                    (answer.occurrences ?? []).filter { $0.status != "CANCELLED" }
                        .map { Self.line(uid: $0.uid, title: $0.title, start: $0.start.text, end: $0.end.instantText) }.sorted())
            }
        }
        return readings
    }

    // MARK: the comparison

    static func outcome(_ calbridge: Reading, _ oracle: Reading) -> Outcome {
        switch (calbridge, oracle) {
        case (.occurrences(let a), .occurrences(let b)): a == b ? .agree : .differ
        case (.refused, .occurrences): .calbridgeRefuses
        case (.occurrences, .refused): .oracleRefuses
        case (.refused, .refused): .bothRefuse
        }
    }

    /// The first lines only one side has, for the failure message.
    static func difference(_ calbridge: Reading, _ oracle: Reading) -> String {
        switch (calbridge, oracle) {
        case (.occurrences(let a), .occurrences(let b)):
            let onlyCalbridge = a.filter { !b.contains($0) }, onlyOracle = b.filter { !a.contains($0) }
            return
                "\(a.count) vs \(b.count) occurrences; only calbridge: \(onlyCalbridge.prefix(3)); only the oracle: \(onlyOracle.prefix(3))"
        case (.refused(let why), _): return "calbridge refuses: \(why)"
        case (_, .refused(let why)): return "the oracle refuses: \(why)"
        }
    }

    @Test("every file agrees with the oracle, both refuse it, or is a listed difference; none crashes", .ownThread)
    func corpusAgrees() async throws {
        let files = try Self.files()
        #expect(files.count > 250, "the corpus: \(files.count) files (is .build/test-python installed?)")
        let known = try Self.knownDifferences()
        let heldOut = try Self.heldOut()
        let oracle = try await Self.oracle(files)
        var counts: [String: [Outcome: Int]] = [:]
        var unexplained: [String] = []
        var stale: [String] = []
        for file in files {
            let ours = await Self.calbridge(file)
            let theirs = try #require(oracle[file.url.path], "no oracle answer for \(file.id)")
            let outcome = Self.outcome(ours, theirs)
            counts[heldOut.contains(file.id) ? "held out" : "developed on", default: [:]][outcome, default: 0] += 1
            if let listed = known[file.id] {
                if listed.outcome != outcome { stale.append("\(file.id): listed as \(listed.outcome.rawValue), now \(outcome.rawValue)") }
            } else if outcome != .agree && outcome != .bothRefuse {
                unexplained.append("\(file.id) (\(outcome.rawValue)): \(Self.difference(ours, theirs))")
            }
        }
        for (part, count) in counts.sorted(by: { $0.key < $1.key }) {
            let line = [Outcome.agree, .differ, .calbridgeRefuses, .oracleRefuses, .bothRefuse].map { "\($0.rawValue) \(count[$0] ?? 0)" }
            print("ics corpus, \(part): \(count.values.reduce(0, +)) files: " + line.joined(separator: ", "))
        }
        #expect(unexplained.isEmpty, "\(unexplained.count) files differ without a listed reason:\n\(unexplained.joined(separator: "\n"))")
        #expect(stale.isEmpty, "listed differences that changed (update known-differences.tsv):\n\(stale.joined(separator: "\n"))")
        let missing = Set(known.keys).subtracting(files.map(\.id))
        #expect(missing.isEmpty, "listed files not in the corpus: \(missing.sorted())")
    }
}
