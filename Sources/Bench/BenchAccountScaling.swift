import Accounts
import CLI
import Foundation
import Sandbox

/// Six accounts stored in a temporary home against the in-process sandbox, and the median wall time of a
/// `calbridge` command over one of them and over all six: what `calbridge-bench calendars` and
/// `calbridge-bench agenda` compare, to show that accounts are read concurrently.
struct BenchAccountScaling {
    /// The six account names (the sandbox's users, then the first ones again under a second name).
    let names: [String]
    let environment: [String: String]
    let context: CommandContext

    /// Stores six accounts for the sandbox's users in `directory` (a fresh CALBRIDGE_HOME).
    init(sandbox: SandboxServer, directory: URL, context: CommandContext) throws {
        let seeder = SandboxAccountSeeder(sandbox: sandbox, home: CalbridgeHome(directory: directory))
        let users = sandbox.info.accounts.map(\.user)
        var names: [String] = []
        for (index, user) in users.enumerated() {
            let name = "user\(index + 1)"
            try seeder.store(user: user, as: name)
            names.append(name)
        }
        for (index, user) in users.prefix(6 - users.count).enumerated() {
            let name = "again\(index + 1)"
            try seeder.store(user: user, as: name)
            names.append(name)
        }
        guard names.count == 6 else {
            throw InputError("the sandbox seeds \(users.count) users; 6 accounts need at least 3", exitCode: .failure)
        }
        self.names = names
        var environment = context.environment
        environment["CALBRIDGE_HOME"] = directory.path
        self.environment = environment
        self.context = context
    }

    /// The median wall time in milliseconds of `calbridge ARGUMENTS --account A...` run in-process, `runs`
    /// times after one warm-up (connections, token files, code paths).
    func medianMilliseconds(_ arguments: [String], accounts: [String], runs: Int) async throws -> Double {
        let full = arguments + accounts.flatMap { ["--account", $0] }
        func time() async throws -> Double {
            let sink = BufferSink()
            let sub = CommandContext(stdout: sink, stderr: sink, environment: environment, now: context.now)
            let started = ContinuousClock.now
            let code = await CalbridgeCLI.run(full, context: sub)
            let elapsed = ContinuousClock.now - started
            guard code == .success else {
                throw InputError("'calbridge \(full.joined(separator: " "))' failed: \(sink.text)", exitCode: .failure)
            }
            return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        }
        _ = try await time()
        var samples: [Double] = []
        for _ in 0..<runs { samples.append(try await time()) }
        samples.sort()
        return samples[samples.count / 2]
    }

    /// Times `arguments` over one account and over six, and prints the comparison against `goal` (the
    /// ratio six may take at most) as a table or one JSON line.
    func compare(_ arguments: [String], latency: Int, runs: Int, goal: Double, format: OutputFormat) async throws {
        let one = try await medianMilliseconds(arguments, accounts: [names[0]], runs: runs)
        let six = try await medianMilliseconds(arguments, accounts: names, runs: runs)
        let ratio = six / one
        let met = ratio <= goal
        if format == .json {
            let document: [String: Any] = [
                "latencyMs": latency, "runs": runs, "oneAccountMs": (one * 10).rounded() / 10,
                "sixAccountsMs": (six * 10).rounded() / 10, "ratio": (ratio * 100).rounded() / 100, "goalMet": met,
            ]
            context.print(try JSONText.render(document, pretty: false))
        } else {
            context.print("\(arguments[0]) with \(latency) ms API latency (median of \(runs) runs):")
            context.print("  1 account:  \(String(format: "%7.1f", one)) ms")
            context.print("  6 accounts: \(String(format: "%7.1f", six)) ms")
            context.print("  ratio:      \(String(format: "%.2f", ratio))x (goal <= \(goal)x: \(met ? "met" : "NOT met"))")
        }
    }
}
