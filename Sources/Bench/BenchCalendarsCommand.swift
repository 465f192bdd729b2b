import CLI
import Accounts
import Foundation
import OAuth
import Sandbox

/// `calbridge-bench calendars`: `calendars` for one account against six, with API latency, to show
/// that accounts are asked concurrently (six should take about as long as one).
package enum BenchCalendarsCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let latencyMs = Option.int("latency-ms", "N", "API latency in milliseconds (default 100).", in: 0...10_000)
        package static let runs = Option.int("runs", "N", "Timed runs per case (default 5).", in: 1...100)
        package static let format = OutputFormat.option("table|json", "Output format (default table).", allowed: [.table, .json])
    }

    package static let path = ["calendars"]

    package static let spec = CommandSpec(
        path,
        abstract: "Time 'calendars' for 1 account and for 6 against the sandbox with latency.",
        discussion: """
        Starts the sandbox in-process with --latency-ms (default 100) on every API response, stores six
        accounts in a temporary home (the sandbox's two Google and two Microsoft users, two of them
        under a second name), and runs 'calbridge calendars' in-process for one account and for all six,
        --runs times each (after one warm-up), reporting the median wall time. Goal: six accounts take
        less than 1.5 times as long as one.
        """,
        options: [Options.latencyMs, Options.runs, Options.format],
        program: "calbridge-bench"
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let latency = arguments[Options.latencyMs] ?? 100
        let runs = arguments[Options.runs] ?? 5
        let format = (arguments[Options.format] ?? .table)

        return try await BenchSandbox.with(latencyMs: latency) { sandbox, directory in
            try await measure(sandbox: sandbox, directory: directory, latency: latency, runs: runs, format: format, context: context)
        }
    }

    private static func measure(
        sandbox: SandboxServer, directory: URL, latency: Int, runs: Int, format: OutputFormat, context: CommandContext
    ) async throws -> ExitCode {

        let home = CalbridgeHome(directory: directory)
        let seeder = SandboxAccountSeeder(sandbox: sandbox, home: home)
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
        var environment = context.environment
        environment["CALBRIDGE_HOME"] = directory.path

        func time(_ accounts: [String]) async throws -> Double {
            let arguments = ["calendars", "--format", "tsv"] + accounts.flatMap { ["--account", $0] }
            let sink = BufferSink()
            let sub = CommandContext(stdout: sink, stderr: sink, environment: environment, now: context.now)
            let started = ContinuousClock.now
            let code = await CalbridgeCLI.run(arguments, context: sub)
            let elapsed = ContinuousClock.now - started
            guard code == .success else {
                throw InputError("'calbridge \(arguments.joined(separator: " "))' failed: \(sink.text)", exitCode: .failure)
            }
            return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        }
        func median(_ accounts: [String]) async throws -> Double {
            _ = try await time(accounts)  // warm-up: connections, token files, code paths
            var samples: [Double] = []
            for _ in 0..<runs { samples.append(try await time(accounts)) }
            samples.sort()
            return samples[samples.count / 2]
        }
        let one = try await median([names[0]])
        let six = try await median(names)
        let ratio = six / one
        let met = ratio < 1.5

        if format == .json {
            context.print(try JSONText.render([
                "latencyMs": latency, "runs": runs, "oneAccountMs": (one * 10).rounded() / 10,
                "sixAccountsMs": (six * 10).rounded() / 10, "ratio": (ratio * 100).rounded() / 100, "goalMet": met,
            ] as [String: Any], pretty: false))
        } else {
            context.print("calendars with \(latency) ms API latency (median of \(runs) runs):")
            context.print("  1 account:  \(String(format: "%7.1f", one)) ms")
            context.print("  6 accounts: \(String(format: "%7.1f", six)) ms")
            context.print("  ratio:      \(String(format: "%.2f", ratio))x (goal < 1.5x: \(met ? "met" : "NOT met"))")
        }
        return .success
    }
}
