import CLI
import Foundation
import Sandbox
import TestSupport
import Testing

/// The model-based test of `edit` and `delete` on a series: random edits of single occurrences (titles,
/// locations, moves), of the whole series (titles, locations and its time), and deletions of occurrences, each run
/// as the real command (in this process, against the sandbox), then the calendar listed and compared with an
/// independent model of what each provider lists.
///
/// Invariants after every step: no occurrence other than the one named changes; an edited occurrence stays
/// an exception (keeps its own values through later series edits); a series edit reaches every occurrence
/// that is not an exception, and reaches an exception only where the provider passes the change on (Google
/// and Outlook keep an exception's values; the sandbox's `exceptionsFollowSeries` variant passes a change
/// on to the exceptions that kept the old value and did not set that field themselves); a new time for the
/// series moves every occurrence that is not an exception by as much, and then Outlook drops the series'
/// exceptions and deletions (Exchange resets the series) while Google keeps each exception tied to its
/// original start (hidden while the series is elsewhere, back when it returns); an occurrence keeps its id while
/// its original start stays; a dry run changes nothing; a deleted occurrence stays deleted.
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

    /// What the model says one occurrence shows.
    struct Values: Equatable {
        var title: String
        var location: String
        /// Minutes from its slot's 09:00 Berlin time.
        var shift: Int
        var cancelled = false
        /// The fields set on the occurrence itself.
        var overridden: Set<String> = []
    }

    /// An occurrence by its slot (2027-05-03 + 7 × index) and its original start (the series' shift then).
    struct Key: Hashable {
        var index: Int
        var origin: Int
    }

    struct Model {
        static let slots = 6
        var title = "Weekly planning"
        var location = "Room 1"
        /// Minutes the series has been moved from 09:00.
        var seriesShift = 0
        /// The occurrences changed on their own (cancelled ones included), by original start.
        var exceptions: [Key: Values] = [:]
        let exceptionsFollow: Bool
        let keepsExceptionsWhenMoved: Bool

        func key(_ index: Int) -> Key { Key(index: index, origin: seriesShift) }

        /// What the provider lists in slot `index` (nil: deleted).
        func visible(_ index: Int) -> Values? {
            if let exception = exceptions[key(index)] { return exception.cancelled ? nil : exception }
            return Values(title: title, location: location, shift: seriesShift)
        }

        var live: [Int] { (0..<Self.slots).filter { visible($0) != nil } }

        mutating func editOccurrence(_ index: Int, field: String, value: String, shift: Int) {
            guard var o = visible(index) else { return }
            switch field {
            case "title": o.title = value
            case "location": o.location = value
            default: o.shift = shift
            }
            o.overridden.insert(field)
            exceptions[key(index)] = o
        }

        mutating func editSeries(field: String, value: String) {
            let old = field == "title" ? title : location
            if field == "title" { title = value } else { location = value }
            guard exceptionsFollow else { return }
            for (key, var o) in exceptions where !o.cancelled && !o.overridden.contains(field) {
                guard (field == "title" ? o.title : o.location) == old else { continue }
                if field == "title" { o.title = value } else { o.location = value }
                exceptions[key] = o
            }
        }

        mutating func moveSeries(to shift: Int) {
            if !keepsExceptionsWhenMoved { exceptions = [:] }
            seriesShift = shift
        }

        mutating func delete(_ index: Int) {
            guard var o = visible(index) else { return }
            o.cancelled = true
            exceptions[key(index)] = o
        }

        /// `2027-05-10T09:00:00+02:00` for slot 1 at `shift` 0.
        static func start(_ index: Int, shift: Int) -> String {
            let minutes = 9 * 60 + shift
            let day = 3 + 7 * index
            let (month, date) = day > 31 ? (6, day - 31) : (5, day)
            return String(format: "2027-%02d-%02dT%02d:%02d:00+02:00", month, date, minutes / 60, minutes % 60)
        }

        /// The same as typed for `--start` (read with `--tz Europe/Berlin`).
        static func typed(_ index: Int, shift: Int) -> String {
            String(start(index, shift: shift).prefix(16)).replacingOccurrences(of: "T", with: " ")
        }
    }

    static func seeds() -> [UInt64] {
        let env = ProcessInfo.processInfo.environment
        let count = env["CALBRIDGE_MODEL_SEQUENCES"].flatMap { Int($0) } ?? 3
        let first = env["CALBRIDGE_MODEL_FIRST_SEED"].flatMap { UInt64($0) } ?? 1
        return (0..<UInt64(max(0, count))).map { first + $0 }
    }

    static let steps = 12

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
        var model = Model(exceptionsFollow: variant == .outlookExceptionsFollow, keepsExceptionsWhenMoved: variant.isGoogle)
        var ids: [Key: String] = [:]
        var log = ["start"]
        guard compare(model, try await list(home, ref, seriesID: seriesID), ids: &ids, seed: seed, log: log) else { return 0 }
        log = []
        var random = Random(state: seed)
        for step in 0..<steps {
            let live = model.live
            let pick = live[random.below(live.count)]
            guard let id = ids[model.key(pick)], let shown = model.visible(pick) else {
                Issue.record("seed \(seed): slot \(pick) has no listed id\nsteps: \(log)")
                return step
            }
            let roll = random.below(12)
            var arguments: [String]
            if roll < 4 {
                let field = ["title", "location", "start"][random.below(3)]
                let value = "\(field.prefix(1).uppercased())\(step)"
                let shift = [-60, 0, 60, 120][random.below(4)]
                arguments = ["edit", ref, id]
                if field == "start" {
                    arguments += ["--start", Model.typed(pick, shift: shift), "--tz", "Europe/Berlin"]
                } else {
                    arguments += ["--\(field)", value]
                }
                model.editOccurrence(pick, field: field, value: value, shift: shift)
            } else if roll < 7 {
                let field = random.below(2) == 0 ? "title" : "location"
                let value = "Series \(field) \(step)"
                // Through an occurrence with --series, or by the series' own id.
                arguments = random.below(2) == 0 ? ["edit", ref, id, "--series"] : ["edit", ref, seriesID]
                arguments += ["--\(field)", value]
                model.editSeries(field: field, value: value)
            } else if roll < 9 {
                // A new time for the whole series, within the same day.
                let choices = [-120, -60, 0, 60, 120].filter { $0 != model.seriesShift }
                let target = choices[random.below(choices.count)]
                if random.below(2) == 0 {
                    // Through an occurrence: the series moves by as much as that occurrence is moved.
                    let moved = shown.shift + target - model.seriesShift
                    arguments = ["edit", ref, id, "--series", "--start", Model.typed(pick, shift: moved), "--tz", "Europe/Berlin"]
                } else {
                    // By the series' own id: its start is the first slot's.
                    arguments = ["edit", ref, seriesID, "--start", Model.typed(0, shift: target), "--tz", "Europe/Berlin"]
                }
                model.moveSeries(to: target)
            } else if roll < 11, live.count > 2 {
                arguments = ["delete", ref, id]
                model.delete(pick)
            } else {
                arguments = [
                    "edit", ref, id, "--series", "--title", "Never written", "--start", Model.typed(pick, shift: 180), "--tz",
                    "Europe/Berlin", "--dry-run",
                ]
            }
            log.append(arguments.dropFirst(2).joined(separator: " "))
            let (status, stderr) = await command(arguments, home: home)
            guard status == .success else {
                Issue.record("seed \(seed) (\(variant.rawValue)), step \(step): exit \(status.rawValue): \(stderr)\nsteps: \(log)")
                return step + 1
            }
            let listed = try await list(home, ref, seriesID: seriesID)
            guard compare(model, listed, ids: &ids, seed: seed, log: log) else { return step + 1 }
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

    /// Whether the listing is what the model says; records an issue naming the seed and steps when not. The
    /// listing is matched to slots by day (an occurrence moves by hours, never to another day); an occurrence's
    /// id is learned the first time its original start is listed and must stay the same after that.
    static func compare(_ model: Model, _ listed: [[String: Any]], ids: inout [Key: String], seed: UInt64, log: [String]) -> Bool {
        var problems: [String] = []
        var bySlot: [Int: [String: Any]] = [:]
        for event in listed {
            let start = event["start"] as? String ?? ""
            guard let index = (0..<Model.slots).first(where: { start.hasPrefix(Model.start($0, shift: 0).prefix(10)) }) else {
                problems.append("an occurrence on no slot's day: \(start)")
                continue
            }
            if bySlot[index] != nil { problems.append("two occurrences on slot \(index)'s day") }
            bySlot[index] = event
        }
        for index in 0..<Model.slots {
            let expected = model.visible(index)
            guard let event = bySlot[index] else {
                if let expected { problems.append("slot \(index) is missing, the model has \(expected)") }
                continue
            }
            guard let o = expected else {
                problems.append("deleted slot \(index) is listed: \(event["title"] ?? "")")
                continue
            }
            let got = ["title", "location", "start", "end"].map { event[$0] as? String ?? "" }
            let want = [o.title, o.location, Model.start(index, shift: o.shift), Model.start(index, shift: o.shift + 60)]
            if got != want { problems.append("slot \(index): listed \(got), model \(want)") }
            let id = event["id"] as? String ?? ""
            if let known = ids[model.key(index)], known != id {
                problems.append("slot \(index) changed its id (\(known) -> \(id)) although its original start stayed")
            }
            ids[model.key(index)] = id
        }
        guard problems.isEmpty else {
            Issue.record("seed \(seed): \(problems.joined(separator: "; "))\nsteps: \(log)")
            return false
        }
        return true
    }
}
