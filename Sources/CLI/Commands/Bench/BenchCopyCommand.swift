import Accounts
import CalendarBridge
import Foundation
import OAuth
import Sandbox

/// `calbridge-bench copy`: an Outlook → Google copy of N seeded events against the in-process sandbox with
/// API latency, run twice (first copy, then the no-change rerun), against a naive one-request-at-a-time copy.
package enum BenchCopyCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let events = Option.int("events", "N", "Events to seed in the Outlook calendar (default 1000).", in: 1...200_000)
        package static let latencyMs = Option.int("latency-ms", "L", "API latency in milliseconds (default 20).", in: 0...10_000)
        package static let clientProcess = Flag("client-process", "Run each copy as a child 'calbridge copy' process and report its own peak memory.")
        package static let format = OutputFormat.option("table|json", "Output format (default table).", allowed: [.table, .json])
    }

    package static let spec = CommandSpec(
        ["copy"],
        abstract: "Time 'copy' Outlook -> Google twice against the sandbox with latency.",
        discussion: """
            Starts the sandbox in-process with --latency-ms (default 20) on every API response, stores an \
            Outlook and a Google account in a temporary home (the sandbox's ready tokens), seeds --events \
            (default 1000) events into the Outlook calendar 'Project Falcon' (several zones, all-day single \
            and multi-day, weekly and monthly series, private, with attendees; all within the next 30 days; \
            not timed), then runs 'calbridge copy outlook:Project Falcon google:primary' in-process twice. \
            For each run: wall time, API requests the sandbox answered, and the ratio to a naive copy, \
            naive = (items + 2) x latency: one request per copied item (its write, or the request that finds \
            its copy unchanged) plus one listing of each side. Goals at 1000 events and 20 ms: first run \
            <= 0.1 x naive, second run <= 0.05 x naive. Also prints the process's peak resident memory (VmHWM).
            """,
        options: [Options.events, Options.latencyMs, Options.clientProcess, Options.format],
        program: "calbridge-bench"
    )

    static let sourceRef = "outlook:Project Falcon"
    static let targetRef = "google:primary"

    /// One timed copy.
    struct Run {
        var wallMs: Double
        var requests: Int
        var items: Int
        var counts: [String: Int]
        var naiveMs: Double
        /// Requests by method and path shape ("GET /v1.0/me/events/{id}").
        var breakdown: [String: Int]
        /// The sandbox's time answering them (latency included), by the same key, in ms.
        var serverMs: [String: Double]
        /// With --client-process: the child's own peak resident memory (its VmHWM at exit), in KiB.
        var clientPeakKB: Int?
        var ratio: Double { naiveMs > 0 ? wallMs / naiveMs : 0 }
    }

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let count = arguments[Options.events] ?? 1000
        let latency = arguments[Options.latencyMs] ?? 20
        let format = (arguments[Options.format] ?? .table)
        let clientProcess = arguments[Options.clientProcess]

        return try await BenchSandbox.with(latencyMs: latency) { sandbox, directory in
            try await measure(
                sandbox: sandbox, directory: directory, count: count, latency: latency, format: format,
                clientProcess: clientProcess, context: context)
        }
    }

    private static func measure(
        sandbox: SandboxServer, directory: URL, count: Int, latency: Int, format: OutputFormat, clientProcess: Bool,
        context: CommandContext
    ) async throws -> ExitCode {
        let seeder = SandboxAccountSeeder(sandbox: sandbox, home: CalbridgeHome(directory: directory))
        guard let outlookUser = sandbox.info.accounts.first(where: { $0.provider == .microsoft })?.user,
            let googleUser = sandbox.info.accounts.first(where: { $0.provider == .google })?.user
        else {
            throw InputError("the sandbox seeds no Outlook or no Google user", exitCode: .failure)
        }
        try seeder.store(user: outlookUser, as: "outlook")
        try seeder.store(user: googleUser, as: "google")
        var environment = context.environment
        environment["CALBRIDGE_HOME"] = directory.path
        let sub = CommandContext(stdout: BufferSink(), stderr: BufferSink(), environment: environment, now: context.now)

        let seeded = try await seed(count: count, context: sub)
        // The sandbox runs in this process: its state (every seeded event, later every copy) is part of the peak.
        let afterSeedMB = Double(peakResidentKB() ?? 0) / 1024
        let first = try await copy(sandbox: sandbox, environment: environment, latency: latency, clientProcess: clientProcess, context: context)
        let second = try await copy(sandbox: sandbox, environment: environment, latency: latency, clientProcess: clientProcess, context: context)
        let peakMB = Double(peakResidentKB() ?? 0) / 1024
        // With --client-process: the larger of the two copy processes' own peaks (calbridge without the sandbox).
        let clientPeakMB: Double? = clientProcess ? Double(max(first.clientPeakKB ?? 0, second.clientPeakKB ?? 0)) / 1024 : nil
        let firstMet = first.ratio <= 0.1
        let secondMet = second.ratio <= 0.05

        if format == .json {
            func object(_ run: Run) -> [String: Any] {
                [
                    "wallMs": (run.wallMs * 10).rounded() / 10, "requests": run.requests, "items": run.items,
                    "naiveMs": run.naiveMs, "ratio": (run.ratio * 1000).rounded() / 1000, "result": run.counts,
                    "requestsByKind": run.breakdown,
                ]
            }
            context.print(try JSONText.render([
                "events": count, "seededEvents": seeded, "latencyMs": latency, "naiveFormula": "(items + 2) * latencyMs",
                "first": object(first), "second": object(second), "firstGoalMet": firstMet, "secondGoalMet": secondMet,
                "peakMemoryMB": (peakMB * 10).rounded() / 10, "peakMemoryAfterSeedMB": (afterSeedMB * 10).rounded() / 10,
                "clientPeakMemoryMB": clientPeakMB.map { ($0 * 10).rounded() / 10 } as Any,
            ] as [String: Any], pretty: false))
        } else {
            context.print("copy \(sourceRef) -> \(targetRef): \(count) events seeded, \(latency) ms API latency")
            context.print("naive = (items + 2) x \(latency) ms: one request per item plus one listing of each side")
            func line(_ name: String, _ run: Run, goal: Double, met: Bool) {
                let c = run.counts
                context.print(
                    "  \(name): \(String(format: "%8.1f", run.wallMs)) ms, \(run.requests) requests, naive "
                        + "\(String(format: "%.0f", run.naiveMs)) ms, ratio \(String(format: "%.3f", run.ratio)) "
                        + "(goal <= \(goal): \(met ? "met" : "NOT met")); created \(c["created"] ?? 0), updated "
                        + "\(c["updated"] ?? 0), unchanged \(c["unchanged"] ?? 0), failed \(c["failed"] ?? 0)")
                for (shape, n) in run.breakdown.sorted(by: { $0.value > $1.value }) {
                    let ms = run.serverMs[shape] ?? 0
                    context.print("      \(String(format: "%5d", n)) \(shape)  (server \(String(format: "%.0f", ms)) ms in all)")
                }
            }
            line("first run ", first, goal: 0.1, met: firstMet)
            line("second run", second, goal: 0.05, met: secondMet)
            if let clientPeakMB {
                context.print(
                    "  peak memory of calbridge copy (its own process, max RSS): \(String(format: "%.1f", clientPeakMB)) MB "
                        + "(goal at 10,000 events: < 100 MB); the sandbox process: \(String(format: "%.1f", peakMB)) MB")
            } else {
                context.print(
                    "  peak memory (VmHWM, sandbox included): \(String(format: "%.1f", peakMB)) MB at the end, "
                        + "\(String(format: "%.1f", afterSeedMB)) MB after seeding (goal at 10,000 events: < 100 MB; "
                        + "--client-process measures calbridge alone)")
            }
        }
        return .success
    }

    /// Writes the mix into the Outlook calendar (`reference`, default the copy's source) through the
    /// provider's batch writes (not timed).
    /// - Returns: how many events were written.
    static func seed(count: Int, into reference: String = sourceRef, context: CommandContext) async throws -> Int {
        let accounts = AccountProviders(context: context, verbose: false)
        let ref = try CalendarRef(parsing: reference)
        let provider = try accounts.provider(for: ref)
        let calendar = try ref.resolve(in: try await provider.listCalendars())
        let zone = TimeZone(identifier: "UTC")!
        let mix = BenchCopySeed(today: LocalDate(instant: context.now(), in: zone))
        var written = 0
        // Chunks keep the seed's own memory small at large N.
        for chunk in stride(from: 0, to: count, by: 400) {
            let writes = (chunk..<min(chunk + 400, count)).map { EventWrite.create(mix.event($0), idempotencyKey: nil) }
            let results = await provider.applyWrites(writes, in: calendar.id, maxConcurrent: 4)
            for result in results {
                if case .failure(let error) = result {
                    throw InputError("seeding the Outlook calendar failed: \(error)", exitCode: .failure)
                }
            }
            written += results.count
        }
        return written
    }

    /// Runs `calbridge copy SOURCE TARGET` (in-process, or as a child process) and measures it.
    static func copy(
        _ source: String = sourceRef, _ target: String = targetRef,
        sandbox: SandboxServer, environment: [String: String], latency: Int, clientProcess: Bool, context: CommandContext
    ) async throws -> Run {
        let out = BufferSink()
        let err = BufferSink()
        let sub = CommandContext(stdout: out, stderr: err, environment: environment, now: context.now)
        let arguments = ["copy", source, target, "--format", "json"]
        let mark = sandbox.log.count
        let started = ContinuousClock.now
        var clientPeakKB: Int?
        let code: ExitCode
        if clientProcess {
            (code, clientPeakKB) = try await runChild(arguments, environment: environment, stdout: out, stderr: err)
        } else {
            code = await CalbridgeCLI.run(arguments, context: sub)
        }
        let elapsed = ContinuousClock.now - started
        let counted = BenchRequests(since: mark, in: sandbox)
        guard code == .success else {
            throw InputError("'calbridge \(arguments.joined(separator: " "))' failed (\(code)): \(err.text.prefix(500))", exitCode: .failure)
        }
        let (requests, breakdown, serverMs) = (counted.total, counted.byKind, counted.serverMs)
        guard let object = try JSONSerialization.jsonObject(with: Data(out.text.utf8)) as? [String: Any] else {
            throw InputError("'calbridge copy' printed no JSON result", exitCode: .failure)
        }
        var counts: [String: Int] = [:]
        for key in ["created", "updated", "unchanged", "deleted", "skipped", "failed"] { counts[key] = object[key] as? Int ?? 0 }
        let items = counts.values.reduce(0, +)
        let wall = BenchRequests.milliseconds(elapsed)
        return Run(wallMs: wall, requests: requests, items: items, counts: counts, naiveMs: Double((items + 2) * latency),
            breakdown: breakdown, serverMs: serverMs, clientPeakKB: clientPeakKB)
    }

    /// Runs the user's `calbridge` with `arguments` as a child process and collects its output and its
    /// own peak memory. The child writes that itself (`peakMemoryFileVariable`): getrusage's
    /// RUSAGE_CHILDREN cannot tell it, since Linux charges a child spawned with vfork semantics
    /// (posix_spawn) the parent's high-water mark at exec, here the whole sandbox's.
    private static func runChild(
        _ arguments: [String], environment: [String: String], stdout: BufferSink, stderr: BufferSink
    ) async throws -> (ExitCode, Int?) {
        let process = Process()
        process.executableURL = try CalbridgeExecutable.url()
        process.arguments = arguments
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calbridge-bench-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let peakURL = directory.appendingPathComponent("peak")
        var environment = environment
        environment[peakMemoryFileVariable] = peakURL.path
        process.environment = environment
        let outURL = directory.appendingPathComponent("out"), errURL = directory.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        stdout.write(String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self))
        stderr.write(String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
        let peak = (try? String(contentsOf: peakURL, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return (ExitCode(rawValue: status) ?? .failure, peak)
    }

    /// The environment variable naming a file where `calbridge` writes its peak resident memory in KiB
    /// when it exits (set by this benchmark for its child processes only).
    package static let peakMemoryFileVariable = "CALBRIDGE_BENCH_PEAK_MEMORY_FILE"

    /// Writes this process's peak resident memory to the file named by `peakMemoryFileVariable`, if set.
    package static func writePeakMemoryIfAsked() {
        guard let path = ProcessInfo.processInfo.environment[peakMemoryFileVariable], let peak = peakResidentKB() else { return }
        try? Data("\(peak)\n".utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The process's peak resident set size in KiB (`VmHWM` in /proc/self/status), nil where unreadable.
    static func peakResidentKB() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }
}
