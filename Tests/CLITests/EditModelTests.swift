import CLI
import Foundation
import Sandbox
import TestSupport
import Testing

/// The model-based test of `edit` and `delete` on a series: random edits of single occurrences and of the
/// whole series, and deletions of occurrences, each run as the real command (in this process, against the
/// sandbox), then the calendar listed and compared with an independent model of what each provider lists.
///
/// Invariants after every step: no occurrence other than the one named changes; an edited occurrence stays
/// an exception (keeps its own values through later series edits); a series edit reaches every occurrence
/// that is not an exception, and reaches an exception only where the provider passes the change on (Google
/// and Outlook keep an exception's values; the sandbox's `exceptionsFollowSeries` variant passes a change
/// on to the exceptions that kept the old value and did not set that field themselves); a dry run changes
/// nothing; a deleted occurrence stays deleted.
///
/// Seeds: 3 per variant by default; `CALBRIDGE_MODEL_SEQUENCES=N` runs N from `CALBRIDGE_MODEL_FIRST_SEED`
/// (default 1); a failure names its seed and the operations so far, and the seed replays them exactly.
@Suite("edit/delete model: random series edits against an independent model of each provider", .serialized)
struct EditModelTests {
    enum Variant: String, CaseIterable, CustomTestStringConvertible {
        case google, outlook, outlookExceptionsFollow
        var testDescription: String { rawValue }
        var isGoogle: Bool { self == .google }
        var ref: String { isGoogle ? "ann:Family" : "carol:Calendar" }
    }

    /// SplitMix64, written out so the sequence of a seed never depends on another module.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    /// What the model says one occurrence is.
    struct Occurrence: Equatable {
        var id: String
        /// Its slot: 2027-05-03 + 7 × index, 09:00 Berlin time.
        var index: Int
        var title: String
        var location: String
        /// Minutes from its slot's 09:00.
        var shift = 0
        var exists = true
        var isException = false
        var overridden: Set<String> = []

        var start: String {
            let minutes = 9 * 60 + shift
            let day = 3 + 7 * index
            let (month, date) = day > 31 ? (6, day - 31) : (5, day)
            return String(format: "2027-%02d-%02dT%02d:%02d:00+02:00", month, date, minutes / 60, minutes % 60)
        }
    }

    struct Model {
        var title = "Weekly planning"
        var location = "Room 1"
        var occurrences: [Occurrence] = []
        let exceptionsFollow: Bool

        mutating func editOccurrence(_ index: Int, field: String, value: String, shift: Int) {
            var o = occurrences[index]
            switch field {
            case "title": o.title = value
            case "location": o.location = value
            default: o.shift = shift
            }
            o.isException = true
            o.overridden.insert(field)
            occurrences[index] = o
        }

        mutating func editSeries(field: String, value: String) {
            let old = field == "title" ? title : location
            if field == "title" { title = value } else { location = value }
            for i in occurrences.indices {
                var o = occurrences[i]
                let current = field == "title" ? o.title : o.location
                let follows = !o.isException || (exceptionsFollow && current == old && !o.overridden.contains(field))
                guard follows else { continue }
                if field == "title" { o.title = value } else { o.location = value }
                occurrences[i] = o
            }
        }
    }

    static func seeds() -> [UInt64] {
        let env = ProcessInfo.processInfo.environment
        let count = env["CALBRIDGE_MODEL_SEQUENCES"].flatMap { Int($0) } ?? 3
        let first = env["CALBRIDGE_MODEL_FIRST_SEED"].flatMap { UInt64($0) } ?? 1
        return (0..<UInt64(max(0, count))).map { first + $0 }
    }

    static let steps = 10

    @Test("seeded sequences keep every invariant", arguments: Variant.allCases)
    func sequences(variant: Variant) async throws {
        let following: SandboxComponentFactory = { seed, tokens, now in
            try SandboxServices.makeAPIComponents(seed: seed, tokens: tokens, now: now, graphExceptionsFollowSeries: true)
        }
        let components = variant == .outlookExceptionsFollow ? following : SandboxServices.standard
        var operations = 0
        for seed in Self.seeds() {
            operations += try await SandboxHome.with(components: components) { home in
                try await Self.run(seed: seed, variant: variant, home: home)
            }
        }
        print("edit model (\(variant.rawValue)): \(Self.seeds().count) sequences, \(operations) operations")
    }

    /// One sequence; returns how many operations it ran. A failing step is recorded with the seed and the log.
    static func run(seed: UInt64, variant: Variant, home: SandboxHome) async throws -> Int {
        let ref = variant.ref
        let seriesID = try await EditFixtures.series(home, google: variant.isGoogle, title: "Weekly planning")
        var model = Model(exceptionsFollow: variant == .outlookExceptionsFollow)
        let listed = try await list(home, ref, seriesID: seriesID)
        model.occurrences = listed.enumerated().map { index, event in
            Occurrence(id: event["id"] as! String, index: index, title: "Weekly planning", location: "Room 1")
        }
        guard compare(model, listed, seed: seed, log: ["start"]) else { return 0 }
        var random = Random(state: seed)
        var log: [String] = []
        for step in 0..<steps {
            let live = model.occurrences.indices.filter { model.occurrences[$0].exists }
            let pick = live[random.below(live.count)]
            let occurrence = model.occurrences[pick]
            let roll = random.below(10)
            var arguments: [String]
            if roll < 4 {
                let field = ["title", "location", "start"][random.below(3)]
                let value = "\(field.prefix(1).uppercased())\(step)"
                let shift = [-60, 0, 60, 120][random.below(4)]
                arguments = ["edit", ref, occurrence.id]
                if field == "start" {
                    var moved = occurrence
                    moved.shift = shift
                    arguments += [
                        "--start", String(moved.start.prefix(16)).replacingOccurrences(of: "T", with: " "), "--tz", "Europe/Berlin",
                    ]
                } else {
                    arguments += ["--\(field)", value]
                }
                model.editOccurrence(pick, field: field, value: value, shift: shift)
            } else if roll < 7 {
                let field = random.below(2) == 0 ? "title" : "location"
                let value = "Series \(field) \(step)"
                // Through an occurrence with --series, or by the series' own id.
                arguments = random.below(2) == 0 ? ["edit", ref, occurrence.id, "--series"] : ["edit", ref, seriesID]
                arguments += ["--\(field)", value]
                model.editSeries(field: field, value: value)
            } else if roll < 9, live.count > 2 {
                arguments = ["delete", ref, occurrence.id]
                model.occurrences[pick].exists = false
            } else {
                arguments = ["edit", ref, occurrence.id, "--series", "--title", "Never written", "--dry-run"]
            }
            log.append(arguments.dropFirst(2).joined(separator: " "))
            let (status, stderr) = await command(arguments, home: home)
            guard status == .success else {
                Issue.record("seed \(seed) (\(variant.rawValue)), step \(step): exit \(status.rawValue): \(stderr)\nsteps: \(log)")
                return step + 1
            }
            guard compare(model, try await list(home, ref, seriesID: seriesID), seed: seed, log: log) else { return step + 1 }
        }
        return steps
    }

    /// Runs one command line in this process with the home's environment.
    static func command(_ arguments: [String], home: SandboxHome) async -> (ExitCode, String) {
        let out = BufferSink(), err = BufferSink()
        let context = CommandContext(stdout: out, stderr: err, environment: home.environment)
        let status = await CalbridgeCLI.run(arguments, context: context)
        return (status, err.text + out.text)
    }

    /// The series' occurrences as `events --format json` lists them, in start order.
    static func list(_ home: SandboxHome, _ ref: String, seriesID: String) async throws -> [[String: Any]] {
        let out = BufferSink(), err = BufferSink()
        let context = CommandContext(stdout: out, stderr: err, environment: home.environment)
        let status = await CalbridgeCLI.run(["events", ref, "--format", "json"] + EditFixtures.window, context: context)
        guard status == .success else { throw SandboxAPI.Failed(description: err.text) }
        let events = try JSONOutput.object(out.text)["events"] as? [[String: Any]] ?? []
        return events.filter { $0["seriesId"] as? String == seriesID }
    }

    /// Whether the listing is what the model says; records an issue naming the seed and steps when not.
    static func compare(_ model: Model, _ listed: [[String: Any]], seed: UInt64, log: [String]) -> Bool {
        var problems: [String] = []
        let byID = Dictionary(listed.map { ($0["id"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        let live = model.occurrences.filter(\.exists)
        if listed.count != live.count { problems.append("\(listed.count) occurrences listed, the model has \(live.count)") }
        for o in live {
            guard let event = byID[o.id] else {
                problems.append("occurrence \(o.index) (\(o.id)) is missing")
                continue
            }
            let got = (event["title"] as? String ?? "", event["location"] as? String ?? "", event["start"] as? String ?? "")
            if got != (o.title, o.location, o.start) {
                problems.append("occurrence \(o.index): listed \(got), model (\(o.title), \(o.location), \(o.start))")
            }
        }
        for o in model.occurrences where !o.exists && byID[o.id] != nil { problems.append("deleted occurrence \(o.index) is listed") }
        guard problems.isEmpty else {
            Issue.record("seed \(seed): \(problems.joined(separator: "; "))\nsteps: \(log)")
            return false
        }
        return true
    }
}
