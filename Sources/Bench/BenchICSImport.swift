import Accounts
import CLI
import CalendarBridge
import Foundation
import Sandbox

/// `calbridge-bench ics`'s second part: the generated file imported into a Google calendar of the sandbox, and
/// the same events copied from an Outlook calendar into another Google calendar, side by side.
enum BenchICSImport {
    static let importTarget = "google:Family"
    static let copyTarget = "google:primary"

    /// - Parameter clientProcess: run each import and copy as a `calbridge` child process (the one beside this
    ///   program) and report its own CPU and peak memory, apart from the in-process sandbox's.
    static func measure(file: URL, events: [Event], latency: Int, clientProcess: Bool, context: CommandContext) async throws {
        // The copy's source holds the file's events, put there by the sandbox's seed (its ids and UIDs are the
        // service's own). Outlook stores no EXDATE in a pattern (it deletes the occurrences): the source has the
        // series without them, a few occurrences more than the file.
        let source = events.map { event -> Event in
            var event = event
            if let recurrence = event.recurrence {
                event.recurrence = Recurrence(lines: recurrence.lines.filter { !$0.uppercased().hasPrefix("EXDATE") })
            }
            return event
        }
        let seed = try BenchOutlookSeed.seed(source, calendar: String(BenchCopyCommand.sourceRef.split(separator: ":")[1]))
        try await BenchSandbox.with(latencyMs: latency, seed: seed) { sandbox, directory in
            let seeder = SandboxAccountSeeder(sandbox: sandbox, home: CalbridgeHome(directory: directory))
            guard let outlookUser = sandbox.info.accounts.first(where: { $0.provider == .microsoft })?.user,
                let googleUser = sandbox.info.accounts.first(where: { $0.provider == .google })?.user
            else { throw InputError("the sandbox seeds no Outlook or no Google user", exitCode: .failure) }
            try seeder.store(user: outlookUser, as: "outlook")
            try seeder.store(user: googleUser, as: "google")
            var environment = context.environment
            environment["CALBRIDGE_HOME"] = directory.path
            context.print(
                "import \(file.lastPathComponent) -> \(importTarget) beside copy \(BenchCopyCommand.sourceRef) -> \(copyTarget), \(latency) ms API latency"
            )
            let span = ["--from", BenchICSCommand.first.description, "--to", BenchICSCommand.last.description]
            let runs: [(String, [String])] = [
                ("import", ["import", file.path, importTarget, "--format", "json"]),
                ("import again", ["import", file.path, importTarget, "--format", "json"]),
                ("copy", ["copy", BenchCopyCommand.sourceRef, copyTarget, "--format", "json"] + span),
                ("copy again", ["copy", BenchCopyCommand.sourceRef, copyTarget, "--format", "json"] + span),
            ]
            for (name, arguments) in runs {
                let run = try await BenchCopyCommand.copy(
                    sandbox: sandbox, environment: environment, latency: latency, child: clientProcess ? .plain : nil, name: name,
                    arguments: arguments, context: context)
                let c = run.counts
                let usage = run.client.map {
                    String(
                        format: "; calbridge's own CPU %.2f s (user %.2f, system %.2f), peak %.0f MB", $0.cpuSeconds, $0.userSeconds,
                        $0.systemSeconds, Double($0.peakKB) / 1024)
                }
                context.print(
                    "  \(name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(String(format: "%8.1f", run.wallMs)) ms, \(run.requests) requests; "
                        + "created \(c["created"] ?? 0), updated \(c["updated"] ?? 0), unchanged \(c["unchanged"] ?? 0), failed \(c["failed"] ?? 0)"
                        + (usage ?? "")
                )
            }
        }
    }
}
