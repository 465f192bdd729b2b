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

/// Ctrl-C during a long `copy`, as a user would press it: the summary so far is printed, the exit code is
/// 4, what the summary counts as written is on the target, and a rerun finishes without a duplicate.
@Suite("calbridge copy interrupted by SIGINT")
struct CopyInterruptTests {
    static let events = 240

    @Test("SIGINT mid-copy: 'interrupted after N written', exit 4, N copies on the target; the rerun ends with exactly one copy each")
    func interruptAndRerun() async throws {
        let directory = try TemporaryDirectory(prefix: "calbridge-copy-interrupt")
        defer { directory.remove() }
        var options = SandboxOptions()
        options.seed = .withoutEvents
        // Slow enough that the copy is still writing when the signal comes, on any machine.
        options.latencyMs = 150
        try await CopyCrashTests.withSandbox(options) { sandbox in
            let home = CalbridgeHome(directory: directory.url.appendingPathComponent("home"))
            let seeder = SandboxAccountSeeder(sandbox: sandbox, home: home)
            try seeder.store(user: sandbox.info.accounts.first { $0.provider == .microsoft }!.user, as: "carol")
            try seeder.store(user: sandbox.info.accounts.first { $0.provider == .google }!.user, as: "ann")
            let environment = ["CALBRIDGE_HOME": home.directory.path, "TZ": "UTC"]
            let api = SandboxAPI(sandbox: sandbox)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<Self.events {
                    group.addTask {
                        let day = 1 + i % 28
                        let start = "2027-04-\(CopyCrashTests.two(day))T\(CopyCrashTests.two(8 + i % 9)):00:00"
                        _ = try await api.graphCreate([
                            "subject": "Interrupt test \(i)", "start": ["dateTime": start, "timeZone": "UTC"],
                            "end": ["dateTime": start.replacingOccurrences(of: ":00:00", with: ":30:00"), "timeZone": "UTC"],
                        ])
                    }
                    if i % 16 == 15 { try await group.waitForAll() }
                }
                try await group.waitForAll()
            }
            let window = ["--from", "2027-04-01", "--to", "2027-04-30"]
            let before = CopyCrashTests.targetWrites(sandbox)
            let interrupted = try await blocking {
                try Self.runAndSignal(
                    ["copy", "carol:Calendar", "ann:Family"] + window, environment: environment, signal: SIGINT,
                    when: { CopyCrashTests.targetWrites(sandbox) > before })
            }
            #expect(interrupted.status == 4, "\(interrupted.stderr)")
            let pattern = #/copy interrupted \(SIGINT\) after (\d+) written, 0 failed of (\d+); run it again to finish/#
            let match = try #require(interrupted.stderr.firstMatch(of: pattern), "\(interrupted.stderr)")
            let written = try #require(Int(match.output.1))
            #expect(Int(match.output.2) == Self.events)
            #expect(written > 0 && written < Self.events, "\(written) written before the signal took effect")
            let familyID = try await api.googleCalendarID("Family")
            let range = (from: "2027-01-01T00:00:00Z", to: "2028-01-01T00:00:00Z")
            let afterSignal = try await api.googleEvents(familyID, singleEvents: false, from: range.from, to: range.to)
            // What the summary counts is there (writes in flight when it was printed may have landed too).
            #expect(afterSignal.count >= written)

            let rerun = try await CalbridgeBinary.run(
                ["copy", "carol:Calendar", "ann:Family", "--format", "json"] + window, environment: environment, timeout: 300)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            let copies = try await api.googleEvents(familyID, singleEvents: false, from: range.from, to: range.to)
            let origins = copies.compactMap(CopyCrashTests.origin)
            #expect(copies.count == Self.events)
            #expect(Set(origins).count == Self.events, "a source event with two copies, or a copy without a marker")
        }
    }

    /// Runs the binary, sends `signal` once `when` holds, and returns how it ended.
    static func runAndSignal(
        _ arguments: [String], environment: [String: String], signal: Int32, when ready: @escaping () -> Bool
    ) throws -> (status: Int32, stderr: String) {
        let process = SpawnedProcess()
        process.executableURL = CalbridgeBinary.url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let timeout = Date().addingTimeInterval(120)
        while process.isRunning && !ready() && Date() < timeout { usleep(2_000) }
        if process.isRunning { kill(process.processIdentifier, signal) }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        _ = output
        return (process.terminationStatus, String(decoding: errors, as: UTF8.self))
    }
}
