import CalbridgeSupport
import Accounts
import CLI
import Foundation
import Sandbox
import Testing
import TestSupport

/// `calbridge sync` killed with SIGKILL at random moments (sync.db and the calendars left wherever the kill
/// found them) while the sandbox injects faults, then rerun until it finishes: a two-way pair must end with
/// exactly one copy per event, nothing copied back, and a quiet run after that writes nothing.
@Suite("calbridge sync survives SIGKILL and faults")
struct SyncCrashTests {
    static let events = 300
    static let kills = 3

    @Test("300 events, fault rate 0.2, killed 3 times soon after its first writes, rerun until exit 0: 300 copies, one each, none copied back")
    func killAndRerun() async throws {
        let directory = try TemporaryDirectory(prefix: "calbridge-sync-crash")
        defer { directory.remove() }
        var options = SandboxOptions()
        options.seed = .withoutEvents
        options.faultRate = 0.2
        options.faultSeed = 11
        options.latencyMs = 20  // so a kill soon after the first write lands among the writes
        try await CopyCrashTests.withSandbox(options) { sandbox in try await Self.check(sandbox, directory: directory) }
    }

    static func check(_ sandbox: SandboxServer, directory: TemporaryDirectory) async throws {
        let home = CalbridgeHome(directory: directory.url.appendingPathComponent("home"))
        let seeder = SandboxAccountSeeder(sandbox: sandbox, home: home)
        let api = SandboxAPI(sandbox: sandbox)
        let carol = try #require(sandbox.info.accounts.first { $0.provider == .microsoft })
        let ann = try #require(sandbox.info.accounts.first { $0.provider == .google })
        try seeder.store(user: carol.user, as: "carol")
        try seeder.store(user: ann.user, as: "ann")
        let environment = ["CALBRIDGE_HOME": home.directory.path, "TZ": "UTC"]

        let add = try await CalbridgeBinary.run(
            ["sync", "add", "crash", "--a", "carol:Calendar", "--b", "ann:Family", "--direction", "both"], environment: environment, timeout: 60)
        #expect(add.status == 0, "\(add.stderr)")

        // Each round adds a third of the events on Outlook (inside the pair's default window, 7 days back and
        // 60 ahead: timed in three zones, and all-day), then starts a sync and kills it soon after its first
        // write to Google, so every killed run has writes left to interrupt.
        let formatter = ISO8601DateFormatter()
        let today = Date()
        var random = SplitMix64(seed: 20261202)
        var killedWhileRunning = 0
        let log = sandbox.log
        for i in 0..<Self.events {
            let day = String(formatter.string(from: today.addingTimeInterval(Double(i % 50) * 86_400)).prefix(10))
            var event: [String: Any] = ["subject": "Sync crash event \(i)"]
            if i % 9 == 0 {
                let next = String(formatter.string(from: today.addingTimeInterval(Double(i % 50 + 1) * 86_400)).prefix(10))
                event["isAllDay"] = true
                event["start"] = ["dateTime": day + "T00:00:00", "timeZone": "UTC"]
                event["end"] = ["dateTime": next + "T00:00:00", "timeZone": "UTC"]
            } else {
                let zone = ["Pacific Standard Time", "W. Europe Standard Time", "Tokyo Standard Time"][i % 3]
                let hour = 8 + i % 10
                event["start"] = ["dateTime": day + "T\(CopyCrashTests.two(hour)):00:00", "timeZone": zone]
                event["end"] = ["dateTime": day + "T\(CopyCrashTests.two(hour)):45:00", "timeZone": zone]
            }
            _ = try await api.graphCreate(event)
            guard (i + 1) % (Self.events / Self.kills) == 0 else { continue }
            let delay = Double.random(in: 0...0.05, using: &random)
            let writesSoFar = CopyCrashTests.targetWrites(sandbox)
            let status = try await blocking {
                try CopyCrashTests.runAndKill(
                    ["sync"], environment: environment, after: delay, startingWhen: { CopyCrashTests.targetWrites(log) > writesSoFar })
            }
            if status == nil { killedWhileRunning += 1 }
        }
        #expect(killedWhileRunning >= 2, "the sync finished before most kills")

        var last: CalbridgeBinary.Result?
        for _ in 0..<10 {
            let run = try await CalbridgeBinary.run(["sync", "--format", "json"], environment: environment, timeout: 120)
            last = run
            if run.status == 0 { break }
            #expect(run.status == 4, "a rerun failed outright: \(run.stderr)")
        }
        let final = try #require(last)
        #expect(final.status == 0, "no rerun finished: \(final.stderr)")

        // A quiet run writes nothing (a fault only makes it repeat a read).
        let mark = sandbox.log.count
        let quiet = try await CalbridgeBinary.run(["sync", "--format", "json"], environment: environment, timeout: 60)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        let quietRequests = sandbox.requestLog.dropFirst(mark).filter { $0.path.hasPrefix("/calendar/v3") || $0.path.hasPrefix("/v1.0") || $0.path.hasPrefix("/batch") }
        #expect(quietRequests.allSatisfy { $0.method == "GET" }, "a quiet run wrote: \(quietRequests.map { "\($0.method) \($0.path)" })")

        // Exactly one copy per Outlook event on Google, by marker; nothing copied back to Outlook.
        let source = try await api.graphEvents()
        #expect(source.count == Self.events, "Outlook holds \(source.count) events")
        let targetID = try await api.googleCalendarID("Family")
        let copies = try await api.googleEvents(targetID, singleEvents: false, from: "2020-01-01T00:00:00Z", to: "2035-01-01T00:00:00Z")
        var bySource: [String: Int] = [:]
        for copy in copies {
            let origin = try #require(CopyCrashTests.origin(copy), "a Google event without an origin marker: \(copy["summary"] ?? "")")
            bySource[origin, default: 0] += 1
        }
        let sourceIDs = Set(source.compactMap { $0["id"] as? String })
        #expect(Set(bySource.keys) == sourceIDs)
        #expect(bySource.values.allSatisfy { $0 == 1 }, "duplicates: \(bySource.filter { $0.value > 1 }.count)")
        #expect(sandbox.requestLog.contains { $0.fault }, "no fault was injected in \(sandbox.requestLog.count) requests")
    }
}
