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
    static let events = TerminalInterruptTests.events

    @Test("SIGINT mid-copy: 'interrupted after N written', exit 4, N copies on the target; the rerun ends with exactly one copy each")
    func interruptAndRerun() async throws {
        // The terminal tests' world: a slow sandbox, carol's Outlook calendar full, carol and ann at home.
        try await TerminalInterruptTests.withWorld { sandbox, environment, api in
            let window = TerminalInterruptTests.window
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
            // What the summary counts is there (writes in flight when it was printed may have landed too).
            #expect(try await TerminalInterruptTests.familyCopies(api).count >= written)

            let rerun = try await CalbridgeBinary.run(
                ["copy", "carol:Calendar", "ann:Family", "--format", "json"] + window, environment: environment, timeout: 300)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            let copies = try await TerminalInterruptTests.familyCopies(api)
            #expect(copies.count == Self.events && copies.origins == Self.events, "a source event with two copies, or one without")
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
