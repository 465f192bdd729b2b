import CLI
import Foundation
import Sandbox

/// `calbridge-bench agenda`: `agenda` over one account against six, with API latency, to show that
/// accounts (and each account's calendars) are read concurrently.
package enum BenchAgendaCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let latencyMs = Option.int("latency-ms", "N", "API latency in milliseconds (default 100).", in: 0...10_000)
        package static let runs = Option.int("runs", "N", "Timed runs per case (default 5).", in: 1...100)
        package static let format = OutputFormat.option("table|json", "Output format (default table).", allowed: [.table, .json])
    }

    package static let path = ["agenda"]

    package static let spec = CommandSpec(
        path,
        abstract: "Time 'agenda' for 1 account and for 6 against the sandbox with latency.",
        discussion: """
            Starts the sandbox in-process with --latency-ms (default 100) on every API response, stores six
            accounts in a temporary home (the sandbox's two Google and two Microsoft users, two of them under a
            second name), and runs 'calbridge agenda' (7 days of every calendar: each account's calendar list,
            then its calendars' events) in-process for one account and for all six, --runs
            times each (after one warm-up), reporting the median wall time. Goal: six accounts take no longer
            than 1.5 times one.
            """,
        options: [Options.latencyMs, Options.runs, Options.format],
        program: "calbridge-bench"
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let latency = arguments[Options.latencyMs] ?? 100
        let runs = arguments[Options.runs] ?? 5
        let format = arguments[Options.format] ?? .table
        return try await BenchSandbox.with(latencyMs: latency) { sandbox, directory in
            let accounts = try BenchAccountScaling(sandbox: sandbox, directory: directory, context: context)
            // The default window (today and the 6 days after it), in one zone whatever the machine's.
            let arguments = ["agenda", "--format", "tsv", "--tz", "UTC"]
            try await accounts.compare(arguments, latency: latency, runs: runs, goal: 1.5, format: format)
            return .success
        }
    }
}
