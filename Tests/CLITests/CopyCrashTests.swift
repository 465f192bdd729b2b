import Accounts
import CLI
import CalbridgeSupport
import Foundation
import LoopbackServer
import OAuth
import Sandbox
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `calbridge copy` killed with SIGKILL at random moments while the sandbox injects faults into 10% of the
/// API requests, then rerun until it finishes: the target must hold exactly one copy per source event,
/// each equal to its source.
@Suite("calbridge copy survives SIGKILL and faults")
struct CopyCrashTests {
    static let events = 500
    static let kills = 4
    static let window = ["--from", "2027-03-01", "--to", "2027-11-30"]

    @Test("500 events, fault rate 0.1, killed 4 times at random moments, rerun until exit 0: exactly 500 copies, each equal to its source")
    func killAndRerun() async throws {
        let directory = try TemporaryDirectory(prefix: "calbridge-copy-crash")
        defer { directory.remove() }
        var options = SandboxOptions()
        options.seed = .withoutEvents
        options.faultRate = 0.1
        options.faultSeed = 8
        options.latencyMs = 0
        let gate = WriteGate()
        options.apiRequestGate = { request in await gate.admit(request) }
        try await Self.withSandbox(options) { sandbox in try await Self.check(sandbox, directory: directory, gate: gate) }
    }

    /// Runs `body` against a sandbox started with `options`, stopping it however `body` ends.
    static func withSandbox(_ options: SandboxOptions, _ body: (SandboxServer) async throws -> Void) async throws {
        let sandbox = try await SandboxServer.start(options)
        do {
            try await body(sandbox)
        } catch {
            try? await sandbox.stop()
            throw error
        }
        try await sandbox.stop()
    }

    static func check(_ sandbox: SandboxServer, directory: TemporaryDirectory, gate: WriteGate) async throws {
        let home = CalbridgeHome(directory: directory.url.appendingPathComponent("home"))
        let seeder = SandboxAccountSeeder(sandbox: sandbox, home: home)
        let api = SandboxAPI(sandbox: sandbox)
        try seeder.store(user: sandbox.info.accounts.first { $0.provider == .microsoft }!.user, as: "carol")
        try seeder.store(user: sandbox.info.accounts.first { $0.provider == .google }!.user, as: "ann")
        let environment = ["CALBRIDGE_HOME": home.directory.path, "TZ": "UTC"]

        // The source: a mix of zones, all-day and multi-day events, with and without a location.
        let zones = [
            ("Pacific Standard Time", "America/Los_Angeles"), ("AUS Eastern Standard Time", "Australia/Sydney"),
            ("W. Europe Standard Time", "Europe/Berlin"), ("Tokyo Standard Time", "Asia/Tokyo"), ("UTC", "UTC"),
        ]
        for i in 0..<Self.events {
            let day = LocalDay(offset: i % 270)
            var event: [String: Any] = ["subject": "Crash test event \(i)"]
            if i % 7 == 0 {
                event["isAllDay"] = true
                event["start"] = ["dateTime": day.text + "T00:00:00", "timeZone": "UTC"]
                event["end"] = ["dateTime": LocalDay(offset: i % 270 + 1 + i % 3).text + "T00:00:00", "timeZone": "UTC"]
            } else {
                let zone = zones[i % zones.count].0
                let hour = 7 + i % 12
                event["start"] = ["dateTime": day.text + "T\(Self.two(hour)):\(i % 2 == 0 ? "00" : "30"):00", "timeZone": zone]
                event["end"] = ["dateTime": day.text + "T\(Self.two(hour + 1)):15:00", "timeZone": zone]
            }
            if i % 3 == 0 { event["location"] = ["displayName": "Room \(i)"] }
            _ = try await api.graphCreate(event)
        }

        // Kill the copy at random moments (a fixed generator, so a failure can be replayed): the first while
        // it is still reading, the others a random moment after a random number (1 to 3) of its batch writes
        // got through, while the next ones are held by the sandbox. A kill never misses however fast the
        // client is (with the kills timed from a run's first write alone, faster copies finished first).
        // Writes that were through when the kill came may have been applied with their answers lost.
        var random = SplitMix64(seed: 20270301)
        var killedWhileRunning = 0
        for kill in 0..<Self.kills {
            let delay = kill == 0 ? 0.05 : Double.random(in: 0...0.05, using: &random)
            gate.hold(after: kill == 0 ? 0 : Int(random.next() % 3) + 1)
            let status = try await blocking {
                try Self.runAndKill(
                    ["copy", "carol:Calendar", "ann:Family"] + Self.window, environment: environment, after: delay,
                    startingWhen: kill == 0 ? { true } : { gate.holding > 0 })
            }
            if status == nil { killedWhileRunning += 1 }
            try await gate.release()
        }
        gate.open()
        #expect(killedWhileRunning == Self.kills, "a copy finished before it was killed")
        // The killed runs had written (so the reruns had an interrupted job to finish, not a fresh one).
        let writesBeforeRerun = Self.targetWrites(sandbox)
        #expect(writesBeforeRerun > 0 && writesBeforeRerun < Self.events, "\(writesBeforeRerun) inserts before the reruns")
        // Rerun until a run reports nothing failed.
        var last: CalbridgeBinary.Result?
        for _ in 0..<10 {
            let run = try await CalbridgeBinary.run(["copy", "carol:Calendar", "ann:Family", "--format", "json"] + Self.window, environment: environment, timeout: 120)
            last = run
            if run.status == 0 { break }
            #expect(run.status == 4, "a rerun failed outright: \(run.stderr)")
        }
        let final = try #require(last)
        #expect(final.status == 0, "no rerun finished: \(final.stderr)")
        let summary = try JSONOutput.object(final.stdout)
        #expect(summary["failed"] as? Int == 0)
        #expect((summary["created"] as? Int ?? 0) + (summary["unchanged"] as? Int ?? 0) + (summary["updated"] as? Int ?? 0) == Self.events)

        // Exactly one copy per source event on the target, found by the origin marker, equal to its source.
        let source = try await api.graphEvents()
        #expect(source.count == Self.events)
        let targetID = try await api.googleCalendarID("Family")
        let copies = try await api.googleEvents(targetID, singleEvents: false, from: "2020-01-01T00:00:00Z", to: "2030-01-01T00:00:00Z")
        #expect(copies.count == Self.events, "the target holds \(copies.count) events")
        var bySource: [String: [[String: Any]]] = [:]
        for copy in copies {
            let origin = try #require(Self.origin(copy), "a target event without an origin marker: \(copy["summary"] ?? "")")
            bySource[origin, default: []].append(copy)
        }
        #expect(bySource.count == Self.events)
        let zoneByWindows = Dictionary(uniqueKeysWithValues: zones)
        var mismatches: [String] = []
        for event in source {
            let id = event["id"] as! String
            guard let found = bySource[id], found.count == 1, let copy = found.first else {
                mismatches.append("\(event["subject"] ?? id): \(bySource[id]?.count ?? 0) copies")
                continue
            }
            if let difference = Self.difference(source: event, copy: copy, zones: zoneByWindows) {
                mismatches.append("\(event["subject"] ?? id): \(difference)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        // The faults really happened.
        #expect(sandbox.requestLog.contains { $0.fault }, "no fault was injected")
    }

    /// Holds Google batch writes after a number of them: what lets the test kill a copy mid-write. Held
    /// writes are dropped when released (answered 503, not carried out): their client is dead by then.
    final class WriteGate: Sendable {
        private struct State {
            /// Batch writes let through before holding starts; nil: none is held.
            var allowed: Int?
            var seen = 0
            var held = 0
        }

        private let state = Mutex(State())

        /// Lets `count` more batch writes through, then holds the rest until `release`.
        func hold(after count: Int) { state.withLock { $0.allowed = $0.seen + count } }

        /// Lets every batch write through from now on.
        func open() { state.withLock { $0.allowed = nil } }

        /// Batch writes being held.
        var holding: Int { state.withLock { $0.held } }

        /// Drops the held writes and waits until they have been answered; holds nothing new.
        func release() async throws {
            state.withLock { $0.allowed = nil }
            let deadline = ContinuousClock.now + .seconds(30)
            while holding > 0 {
                guard ContinuousClock.now < deadline else { throw CancellationError() }
                try await Task.sleep(for: .milliseconds(5))
            }
        }

        /// Awaited by the sandbox before it answers any API request: nil lets the request through.
        func admit(_ request: ServerRequest) async -> ServerResponse? {
            guard request.method == "POST", request.rawPath.hasPrefix("/batch/calendar/v3") else { return nil }
            let held = state.withLock { state -> Bool in
                state.seen += 1
                guard let allowed = state.allowed, state.seen > allowed else { return false }
                state.held += 1
                return true
            }
            guard held else { return nil }
            while state.withLock({ $0.allowed != nil }) { try? await Task.sleep(for: .milliseconds(5)) }
            state.withLock { $0.held -= 1 }
            return .text(503, "held by the test until its client was killed\n")
        }
    }

    /// Successful Google writes the sandbox has seen (inserts, batches).
    static func targetWrites(_ sandbox: SandboxServer) -> Int { targetWrites(sandbox.log) }

    static func targetWrites(_ log: SandboxRequestLog) -> Int {
        log.entries.filter {
            $0.method != "GET" && ($0.path.hasPrefix("/calendar/v3") || $0.path.hasPrefix("/batch/calendar/v3")) && !$0.fault
        }.count
    }

    /// Runs the binary and SIGKILLs it `delay` seconds after `startingWhen` first holds; the exit status,
    /// or nil when it was killed.
    static func runAndKill(
        _ arguments: [String], environment: [String: String], after delay: TimeInterval,
        startingWhen ready: @escaping () -> Bool
    ) throws -> Int32? {
        let process = SpawnedProcess()
        process.executableURL = CalbridgeBinary.url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let timeout = Date().addingTimeInterval(60)
        while process.isRunning && !ready() && Date() < timeout { usleep(2_000) }
        let deadline = Date().addingTimeInterval(delay)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? nil : process.terminationStatus
    }

    /// The source event id in a Google copy's origin marker.
    static func origin(_ copy: [String: Any]) -> String? {
        guard let properties = (copy["extendedProperties"] as? [String: Any])?["private"] as? [String: Any],
            let marker = properties["calbridge.origin"] as? String,
            let object = try? JSONSerialization.jsonObject(with: Data(marker.utf8)) as? [String: Any]
        else { return nil }
        return object["eventID"] as? String
    }

    /// What differs between a Graph source event (times rendered in UTC) and its Google copy, or nil.
    static func difference(source: [String: Any], copy: [String: Any], zones: [String: String]) -> String? {
        if copy["summary"] as? String != source["subject"] as? String { return "title \(copy["summary"] ?? "")" }
        let location = (source["location"] as? [String: Any])?["displayName"] as? String ?? ""
        if (copy["location"] as? String ?? "") != location { return "location \(copy["location"] ?? "")" }
        let start = copy["start"] as? [String: Any] ?? [:]
        let end = copy["end"] as? [String: Any] ?? [:]
        let sourceStart = source["start"] as? [String: Any] ?? [:]
        let sourceEnd = source["end"] as? [String: Any] ?? [:]
        if source["isAllDay"] as? Bool == true {
            let day = { (t: [String: Any]) in String((t["dateTime"] as? String ?? "").prefix(10)) }
            if start["date"] as? String != day(sourceStart) || end["date"] as? String != day(sourceEnd) {
                return "all-day dates \(start) \(end)"
            }
            return nil
        }
        if start["date"] != nil { return "copied as all-day" }
        let zone = zones[source["originalStartTimeZone"] as? String ?? ""] ?? "?"
        if start["timeZone"] as? String != zone && !(zone == "UTC" && ["Etc/UTC", "GMT", "Etc/GMT"].contains(start["timeZone"] as? String ?? "")) {
            return "zone \(start["timeZone"] ?? "") instead of \(zone)"
        }
        let utc = { (t: [String: Any]) -> Date? in
            guard let text = t["dateTime"] as? String else { return nil }
            let formatter = ISO8601DateFormatter()
            if let date = formatter.date(from: text) { return date }
            return formatter.date(from: String(text.prefix(19)) + "Z")  // Graph: local time in the given zone (UTC here)
        }
        if utc(start) != utc(sourceStart) || utc(end) != utc(sourceEnd) { return "times \(start) \(end)" }
        return nil
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// A day counted from 2027-03-01.
    struct LocalDay {
        var text: String
        init(offset: Int) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(secondsFromGMT: 0)!
            let date = calendar.date(byAdding: .day, value: offset, to: calendar.date(from: DateComponents(year: 2027, month: 3, day: 1))!)!
            let c = calendar.dateComponents([.year, .month, .day], from: date)
            text = "\(c.year!)-\(CopyCrashTests.two(c.month!))-\(CopyCrashTests.two(c.day!))"
        }
    }
}
