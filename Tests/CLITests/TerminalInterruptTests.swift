import Accounts
import CLI
import CalbridgeSupport
import Foundation
import Sandbox
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C typed at a terminal, as a user presses it: `calbridge` runs in a session of its own on a
/// pseudo-terminal (stdin, stdout and stderr), and the typed ^C makes the kernel send SIGINT to its
/// foreground process group. The summary so far is printed, the exit code is 4, and a rerun finishes
/// without a duplicate.
@Suite("Ctrl-C at a terminal: copy, sync and import")
struct TerminalInterruptTests {
    static let events = 240
    static let window = ["--from", "2027-04-01", "--to", "2027-04-30"]

    /// A sandbox slow enough that the run is still writing when ^C comes, carol's Outlook calendar holding
    /// `events` events in April 2027, and a home with carol and ann.
    static func withWorld(
        events: Int = TerminalInterruptTests.events, _ body: (SandboxServer, [String: String], SandboxAPI) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory(prefix: "calbridge-terminal-interrupt")
        defer { directory.remove() }
        var options = SandboxOptions()
        options.seed = .withoutEvents
        options.latencyMs = 150
        try await CopyCrashTests.withSandbox(options) { sandbox in
            let home = CalbridgeHome(directory: directory.url.appendingPathComponent("home"))
            let seeder = SandboxAccountSeeder(sandbox: sandbox, home: home)
            try seeder.store(user: sandbox.info.accounts.first { $0.provider == .microsoft }!.user, as: "carol")
            try seeder.store(user: sandbox.info.accounts.first { $0.provider == .google }!.user, as: "ann")
            let api = SandboxAPI(sandbox: sandbox)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<events {
                    group.addTask {
                        let start = "2027-04-\(CopyCrashTests.two(1 + i % 28))T\(CopyCrashTests.two(8 + i % 9)):00:00"
                        _ = try await api.graphCreate([
                            "subject": "Terminal test \(i)", "start": ["dateTime": start, "timeZone": "UTC"],
                            "end": ["dateTime": start.replacingOccurrences(of: ":00:00", with: ":30:00"), "timeZone": "UTC"],
                        ])
                    }
                    if i % 16 == 15 { try await group.waitForAll() }
                }
                try await group.waitForAll()
            }
            try await body(sandbox, ["CALBRIDGE_HOME": home.directory.path, "TZ": "UTC"], api)
        }
    }

    /// Runs `arguments` at a terminal, types Ctrl-C once the Google calendar got its first write, and returns
    /// the exit status and everything printed.
    static func interrupted(_ arguments: [String], environment: [String: String], sandbox: SandboxServer) async throws -> (
        status: Int32, output: String
    ) {
        let before = CopyCrashTests.targetWrites(sandbox)
        return try await blocking {
            let session = try TerminalSession(arguments, environment: environment, columns: 100)
            let deadline = Date().addingTimeInterval(120)
            while CopyCrashTests.targetWrites(sandbox) <= before && Date() < deadline { usleep(2_000) }
            session.type("\u{3}")
            return session.finish(seconds: 120)
        }
    }

    /// The copies on Family in April 2027 and how many distinct source events they come from.
    static func familyCopies(_ api: SandboxAPI) async throws -> (count: Int, origins: Int) {
        let family = try await api.googleCalendarID("Family")
        let copies = try await api.googleEvents(family, singleEvents: false, from: "2027-01-01T00:00:00Z", to: "2028-01-01T00:00:00Z")
        return (copies.count, Set(copies.compactMap(CopyCrashTests.origin)).count)
    }

    @Test("copy: ^C prints 'copy interrupted (SIGINT) after N written', exits 4; the rerun ends with exactly one copy each")
    func copy() async throws {
        try await Self.withWorld { sandbox, environment, api in
            let run = try await Self.interrupted(
                ["copy", "carol:Calendar", "ann:Family"] + Self.window, environment: environment, sandbox: sandbox)
            #expect(run.status == 4, "\(run.output)")
            let pattern = #/copy interrupted \(SIGINT\) after (\d+) written, 0 failed of (\d+); run it again to finish/#
            let match = try #require(run.output.firstMatch(of: pattern), "\(run.output)")
            let written = try #require(Int(match.output.1))
            #expect(written > 0 && written < Self.events, "\(written) written before ^C took effect")
            #expect(try await Self.familyCopies(api).count >= written)

            let rerun = try await CalbridgeBinary.run(
                ["copy", "carol:Calendar", "ann:Family"] + Self.window, environment: environment, timeout: 300)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            let copies = try await Self.familyCopies(api)
            #expect(copies.count == Self.events && copies.origins == Self.events, "a source event with two copies, or one without")
        }
    }

    @Test(
        "sync: ^C prints 'sync interrupted (SIGINT) after N created', exits 4, status says interrupted; the rerun finishes without duplicates"
    )
    func sync() async throws {
        // Sync sends 4 Google batches of 50 at a time: 600 events are three rounds, so ^C after the first write
        // always finds one left to skip.
        let events = 600
        try await Self.withWorld(events: events) { sandbox, environment, api in
            let add = try await CalbridgeBinary.run(
                ["sync", "add", "t", "--a", "carol:Calendar", "--b", "ann:Family", "--direction", "a-to-b", "--future", "730"],
                environment: environment)
            #expect(add.status == 0, "\(add.stderr)")
            let run = try await Self.interrupted(["sync"], environment: environment, sandbox: sandbox)
            #expect(run.status == 4, "\(run.output)")
            let pattern =
                #/sync interrupted \(SIGINT\) after (\d+) created, 0 updated, 0 deleted, 0 failed; not finished: t; run it again to finish/#
            let match = try #require(run.output.firstMatch(of: pattern), "\(run.output)")
            let created = try #require(Int(match.output.1))
            #expect(created > 0 && created < events, "\(created) created before ^C took effect")

            let status = try JSONOutput.object(
                try await CalbridgeBinary.run(["sync", "status", "--format", "json"], environment: environment).stdout)
            let lastRun = (status["pairs"] as? [[String: Any]])?.first?["lastRun"] as? [String: Any]
            #expect(lastRun?["outcome"] as? String == "interrupted", "\(status)")

            let rerun = try await CalbridgeBinary.run(["sync"], environment: environment, timeout: 300)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            let copies = try await Self.familyCopies(api)
            #expect(copies.count == events && copies.origins == events, "a source event with two copies, or one without")
        }
    }

    @Test("import: ^C prints 'import interrupted (SIGINT) after N written', exits 4; importing again finishes without duplicates")
    func importFile() async throws {
        try await Self.withWorld { sandbox, environment, api in
            let directory = try TemporaryDirectory(prefix: "calbridge-terminal-import")
            defer { directory.remove() }
            var ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calbridge tests//EN\r\n"
            for i in 0..<Self.events {
                let day = CopyCrashTests.two(1 + i % 28), hour = CopyCrashTests.two(8 + i % 9)
                ics += "BEGIN:VEVENT\r\nUID:terminal-\(i)@tests\r\nDTSTAMP:20270101T000000Z\r\nSUMMARY:Imported \(i)\r\n"
                ics += "DTSTART:202704\(day)T\(hour)0000Z\r\nDTEND:202704\(day)T\(hour)3000Z\r\nEND:VEVENT\r\n"
            }
            ics += "END:VCALENDAR\r\n"
            let file = directory.url.appendingPathComponent("big.ics")
            try Data(ics.utf8).write(to: file)
            let run = try await Self.interrupted(["import", file.path, "ann:Family"], environment: environment, sandbox: sandbox)
            #expect(run.status == 4, "\(run.output)")
            let pattern = #/import interrupted \(SIGINT\) after (\d+) written, 0 failed of (\d+); run it again to finish/#
            let match = try #require(run.output.firstMatch(of: pattern), "\(run.output)")
            #expect(Int(match.output.2) == Self.events)

            let rerun = try await CalbridgeBinary.run(["import", file.path, "ann:Family"], environment: environment, timeout: 300)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            let copies = try await Self.familyCopies(api)
            #expect(copies.count == Self.events, "\(copies.count) events on Family after the rerun")
        }
    }
}
