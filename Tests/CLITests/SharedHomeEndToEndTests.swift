import Accounts
import Foundation
import Sandbox
import Testing
import TestSupport

/// Several calbridge processes on one home at once: the binary, the sandbox, real files and locks.
@Suite("Shared home, end to end: several calbridge processes at once")
struct SharedHomeEndToEndTests {
    @Test("8 processes add accounts to one accounts.json at once: none is lost")
    func concurrentAdds() async throws {
        try await SandboxHome.with { home in
            let results = try await withThrowingTaskGroup(of: (String, CalbridgeBinary.Result).self) { group in
                for index in 0..<8 {
                    group.addTask {
                        let name = "parallel-\(index)"
                        return (name, try await home.run(home.signIn.microsoftArguments(name: name)))
                    }
                }
                return try await group.reduce(into: [(String, CalbridgeBinary.Result)]()) { $0.append($1) }
            }
            for (name, result) in results { #expect(result.status == 0, "\(name): \(result.stderr)") }
            let list = try await home.run(["accounts", "list", "--format", "json"])
            let names = try JSONOutput.array(list.stdout).compactMap { $0["name"] as? String }
            #expect(Set(names) == Set(["ann", "carol"] + (0..<8).map { "parallel-\($0)" }), "\(names)")
        }
    }

    /// The issue's stress test: `CALBRIDGE_STRESS_SECONDS` long (default 15 in CI; 60 for the full run).
    static var stressSeconds: Double {
        ProcessInfo.processInfo.environment["CALBRIDGE_STRESS_SECONDS"].flatMap(Double.init) ?? 15
    }

    @Test("8 processes run calendars and copy for the whole time, tokens expiring every 2 s, Microsoft's rotating: all exit 0")
    func stress() async throws {
        try await SandboxHome.with(tokenLifetime: 2) { home in
            let seconds = Self.stressSeconds
            let deadline = Date().addingTimeInterval(seconds)
            let refreshesBefore = await home.sandbox.tokens.refreshCount
            let commands: [[String]] = [
                ["calendars"], ["calendars", "--format", "json"], ["calendars", "--account", "carol"], ["calendars", "--account", "ann"],
                ["copy", "carol:Calendar", "ann:Family"], ["copy", "carol:Calendar", "ann:Family", "--format", "json"],
                ["copy", "ann:primary", "carol:Calendar"], ["copy", "ann:primary", "carol:Calendar", "--fields", "busy"],
            ]
            let environment = home.environment
            let runs = try await withThrowingTaskGroup(of: [(arguments: [String], result: CalbridgeBinary.Result)].self) { group in
                for arguments in commands {
                    group.addTask {
                        // Each worker is a thread of its own that starts one process after the other.
                        try await blocking {
                            var done: [(arguments: [String], result: CalbridgeBinary.Result)] = []
                            while Date() < deadline {
                                done.append((arguments, try CalbridgeBinary.runBlocking(arguments, environment: environment, timeout: 120)))
                            }
                            return done
                        }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let refreshes = await home.sandbox.tokens.refreshCount - refreshesBefore
            let failures = runs.filter { $0.result.status != 0 }
            let byStatus = Dictionary(grouping: runs, by: { $0.result.status }).mapValues(\.count)
            print("stress: 8 processes, \(Int(seconds)) s, \(runs.count) commands (\(runs.filter { $0.arguments[0] == "copy" }.count) copy), "
                + "\(refreshes) refreshes at the token endpoints, exit codes \(byStatus)")
            #expect(runs.count >= 16, "every worker ran at least twice")
            #expect(failures.isEmpty, "\(failures.prefix(3).map { "\($0.arguments): \($0.result.status) \($0.result.stderr)" })")
            #expect(refreshes >= Int(seconds / 2), "tokens expired and were refreshed throughout")
            // The account still works afterwards, after its tokens expired once more.
            try await Task.sleep(for: .milliseconds(2100))
            for arguments in [["calendars"], ["events", "carol:Calendar"], ["events", "ann:primary"]] {
                let after = try await home.run(arguments)
                #expect(after.status == 0, "\(arguments): \(after.stderr)")
            }
        }
    }
}
