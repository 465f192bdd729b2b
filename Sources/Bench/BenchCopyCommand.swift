import CLI
import CalbridgeSupport
import Accounts
import CalendarBridge
import Foundation
import LoopbackServer
import OAuth
import Sandbox

/// `calbridge-bench copy`: an Outlook → Google copy of N seeded events against the in-process sandbox with
/// API latency, run twice (first copy, then the no-change rerun), against a naive one-request-at-a-time copy.
package enum BenchCopyCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let events = Option.int("events", "N", "Events to seed in the Outlook calendar (default 1000).", in: 1...200_000)
        package static let latencyMs = Option.int("latency-ms", "L", "API latency in milliseconds (default 20).", in: 0...10_000)
        package static let clientProcess = Flag(
            "client-process", "Run each copy as a child 'calbridge copy' process and report its own peak memory and CPU time.")
        package static let instructions = Flag(
            "instructions", "Run each child copy under valgrind's callgrind and report its instruction count (implies --client-process).")
        package static let callgrindDirectory = Option<String>(
            "callgrind-dir", "DIR", "With --instructions: keep the profiles there (first.callgrind, second.callgrind).")
        package static let reruns = Option.int(
            "reruns", "K", "With --client-process: run the no-change copy K times (default 1) and report its median and lowest CPU time.",
            in: 1...100)
        package static let compareWith = Option<String>(
            "compare-with", "PATH",
            "With --reruns: run each no-change copy also with the calbridge at PATH (another build), the two back to back in turn, and compare their CPU times pair by pair.")
        package static let firstRuns = Option.int(
            "first-runs", "K",
            "With --compare-with: also pair K first copies by each build, the sandbox's calendars put back as seeded before each.",
            in: 1...100)
        package static let requestTranscript = Option<String>(
            "request-transcript", "FILE", "Write every API request the copies sent (sorted, tokens and boundaries left out) to FILE.")
        package static let format = OutputFormat.option("table|json", "Output format (default table).", allowed: [.table, .json])
    }

    package static let path = ["copy"]

    package static let spec = CommandSpec(
        path,
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
            <= 0.1 x naive, second run <= 0.05 x naive. Also prints the process's peak resident memory (VmHWM). \
            With --client-process, each copy's own peak memory and CPU time (user + system, getrusage); \
            goals at 1000 events: first run <= 0.15 s, second <= 0.05 s. --instructions counts the copies' \
            instructions under callgrind (slow; repeatable where CPU time is not); --reruns K runs the \
            no-change copy K times for the median and lowest of its CPU times, which other load on the machine \
            spreads; with --compare-with PATH each of those copies is paired with one by another calbridge build, \
            run back to back (which goes first alternates), so that a drift of the machine's speed cancels out in \
            the pairs' differences; --first-runs K pairs K first copies the same way, the sandbox's calendars \
            restored to their state after seeding (no copies) before each. Two --request-transcript \
            files of the same code are identical, so diff shows whether a change sends other requests.
            """,
        options: [
            Options.events, Options.latencyMs, Options.clientProcess, Options.instructions, Options.callgrindDirectory,
            Options.reruns, Options.compareWith, Options.firstRuns, Options.requestTranscript, Options.format,
        ],
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
        /// With --client-process: the child's own peak memory and CPU time, as it wrote them at exit.
        var client: BenchChildUsage?
        /// With --instructions: the child's instructions under callgrind.
        var instructions: Int?
        var ratio: Double { naiveMs > 0 ? wallMs / naiveMs : 0 }
    }

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let count = arguments[Options.events] ?? 1000
        let latency = arguments[Options.latencyMs] ?? 20
        let format = (arguments[Options.format] ?? .table)
        let instructions = arguments[Options.instructions]
        let child: ChildMode? =
            instructions
            ? .callgrind(keepIn: arguments[Options.callgrindDirectory].map { URL(fileURLWithPath: $0) })
            : (arguments[Options.clientProcess] ? .plain : nil)
        if arguments[Options.callgrindDirectory] != nil && !instructions {
            throw UsageError("--callgrind-dir keeps the profiles of --instructions; add --instructions")
        }
        let reruns = arguments[Options.reruns] ?? 1
        if reruns > 1 && child == nil {
            throw UsageError("--reruns times the child process's CPU; add --client-process")
        }
        let baseline = try arguments[Options.compareWith].map { path -> URL in
            guard case .plain? = child else {
                throw UsageError("--compare-with times both builds' CPU; add --client-process (and no --instructions)")
            }
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw UsageError("--compare-with: no executable file at \(path); give the path of another build's calbridge")
            }
            return URL(fileURLWithPath: path)
        }
        let firstRuns = arguments[Options.firstRuns] ?? 0
        if firstRuns > 0 && baseline == nil {
            throw UsageError("--first-runs pairs first copies with another build's; add --compare-with PATH")
        }
        let transcript = arguments[Options.requestTranscript].map { _ in BenchRequestTranscript() }
        var observer: (@Sendable (ServerRequest) -> Void)?
        if let transcript { observer = { @Sendable request in transcript.record(request) } }
        let code = try await BenchSandbox.with(latencyMs: latency, observer: observer) { sandbox, directory in
            try await measure(
                sandbox: sandbox, directory: directory, count: count, latency: latency, format: format,
                child: child, reruns: reruns, baseline: baseline, firstRuns: firstRuns, transcript: transcript, context: context)
        }
        if let transcript, let path = arguments[Options.requestTranscript] {
            try transcript.write(to: URL(fileURLWithPath: path))
        }
        return code
    }

    /// How a copy runs when not in-process.
    enum ChildMode {
        /// A child `calbridge copy`.
        case plain
        /// The child under `valgrind --tool=callgrind`; the profiles are kept in the directory when given.
        case callgrind(keepIn: URL?)
    }

    private static func measure(
        sandbox: SandboxServer, directory: URL, count: Int, latency: Int, format: OutputFormat, child: ChildMode?,
        reruns: Int, baseline: URL?, firstRuns: Int, transcript: BenchRequestTranscript?, context: CommandContext
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

        let seededIDs = try await seed(count: count, context: sub)
        let seeded = seededIDs.count
        // The transcript is of the copies, not of the seeding; the sandbox gave the seeded events random ids.
        for (index, id) in seededIDs.enumerated() { transcript?.alias(id, as: "outlook-\(index)") }
        transcript?.start()
        // The sandbox runs in this process: its state (every seeded event, later every copy) is part of the peak.
        let afterSeedMB = Double(BenchChildUsage.peakResidentKB() ?? 0) / 1024
        // The calendars as seeded, for first copies paired later (--first-runs).
        let seededState = firstRuns > 0 ? try await SeededState(sandbox) : nil
        let first = try await copy(sandbox: sandbox, environment: environment, latency: latency, child: child, name: "first", context: context)
        let second = try await copy(sandbox: sandbox, environment: environment, latency: latency, child: child, name: "second", context: context)
        if let transcript {
            transcript.stop()
            try await aliasCopies(in: transcript, seededIDs: seededIDs, context: sub)
        }
        // More no-change copies, for the spread of the rerun's CPU time (after the transcript: same requests);
        // with a baseline, each paired with one of the other build's.
        var rerunUsages = [second.client].compactMap { $0 }
        var comparison: BenchCPUComparison?
        if let baseline {
            let pairs = try await compare(
                with: baseline, pairs: reruns, sandbox: sandbox, environment: environment, latency: latency, context: context)
            rerunUsages = pairs.own
            comparison = pairs
        }
        var firstComparison: BenchCPUComparison?
        if let baseline, let seededState {
            firstComparison = try await compare(
                with: baseline, pairs: firstRuns, sandbox: sandbox, environment: environment, latency: latency,
                before: { try await seededState.restore() }, expectCreated: seeded, context: context)
        }
        if baseline == nil {
            for index in 1..<reruns {
                let rerun = try await copy(
                    sandbox: sandbox, environment: environment, latency: latency, child: child, name: "rerun-\(index + 1)", context: context)
                if let usage = rerun.client { rerunUsages.append(usage) }
            }
        }
        let rerunCPU = rerunUsages.map(\.cpuSeconds).sorted()
        let peakMB = Double(BenchChildUsage.peakResidentKB() ?? 0) / 1024
        // With --client-process: the larger of the two copy processes' own peaks (calbridge without the sandbox).
        let clientPeakMB: Double? = child != nil ? Double(max(first.client?.peakKB ?? 0, second.client?.peakKB ?? 0)) / 1024 : nil
        let firstMet = first.ratio <= 0.1
        let secondMet = second.ratio <= 0.05

        if format == .json {
            func object(_ run: Run) -> [String: Any] {
                var object: [String: Any] = [
                    "wallMs": (run.wallMs * 10).rounded() / 10, "requests": run.requests, "items": run.items,
                    "naiveMs": run.naiveMs, "ratio": (run.ratio * 1000).rounded() / 1000, "result": run.counts,
                    "requestsByKind": run.breakdown,
                ]
                if let client = run.client {
                    object["clientCPUSeconds"] = (client.cpuSeconds * 1000).rounded() / 1000
                    object["clientUserSeconds"] = (client.userSeconds * 1000).rounded() / 1000
                    object["clientSystemSeconds"] = (client.systemSeconds * 1000).rounded() / 1000
                    object["clientPeakMemoryMB"] = (Double(client.peakKB) / 1024 * 10).rounded() / 10
                    object["clientPageFaults"] = client.pageFaults
                }
                if let instructions = run.instructions { object["clientInstructions"] = instructions }
                return object
            }
            context.print(try JSONText.render([
                "events": count, "seededEvents": seeded, "latencyMs": latency, "naiveFormula": "(items + 2) * latencyMs",
                "first": object(first), "second": object(second), "firstGoalMet": firstMet, "secondGoalMet": secondMet,
                "peakMemoryMB": (peakMB * 10).rounded() / 10, "peakMemoryAfterSeedMB": (afterSeedMB * 10).rounded() / 10,
                "clientPeakMemoryMB": clientPeakMB.map { ($0 * 10).rounded() / 10 } as Any,
                "rerunCPUSeconds": rerunCPU.map { ($0 * 1000).rounded() / 1000 },
                "comparison": comparison.map { $0.json } as Any,
                "firstRunComparison": firstComparison.map { $0.json } as Any,
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
                if let client = run.client {
                    let instructions = run.instructions.map { ", \($0) instructions (callgrind)" } ?? ""
                    context.print(
                        "      calbridge copy's own CPU: \(String(format: "%.3f", client.cpuSeconds)) s (user "
                            + "\(String(format: "%.3f", client.userSeconds)), system \(String(format: "%.3f", client.systemSeconds)))"
                            + "\(instructions), peak \(String(format: "%.1f", Double(client.peakKB) / 1024)) MB, "
                            + "\(client.pageFaults) page faults")
                }
                for (shape, n) in run.breakdown.sorted(by: { $0.value > $1.value }) {
                    let ms = run.serverMs[shape] ?? 0
                    context.print("      \(String(format: "%5d", n)) \(shape)  (server \(String(format: "%.0f", ms)) ms in all)")
                }
            }
            line("first run ", first, goal: 0.1, met: firstMet)
            line("second run", second, goal: 0.05, met: secondMet)
            if rerunCPU.count > 1 {
                context.print(
                    "      \(rerunCPU.count) no-change copies: CPU median \(String(format: "%.3f", rerunCPU[rerunCPU.count / 2])) s, "
                        + "lowest \(String(format: "%.3f", rerunCPU[0])) s, highest \(String(format: "%.3f", rerunCPU[rerunCPU.count - 1])) s")
            }
            if let comparison { context.print("      no-change copies, " + comparison.summary) }
            if let firstComparison { context.print("      first copies, " + firstComparison.summary) }
            if case .callgrind = child {
                context.print("  (under callgrind: CPU time and wall time are valgrind's, the instruction counts are the measure)")
            } else if let a = first.client, let b = second.client {
                context.print(
                    "  client CPU goals at 1000 events: first <= 0.15 s (\(a.cpuSeconds <= 0.15 ? "met" : "NOT met")), "
                        + "second <= 0.05 s (\(b.cpuSeconds <= 0.05 ? "met" : "NOT met"))")
            }
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

    /// Names the copies in the transcript after their sources: their ids and origin keys derive from the
    /// source's random id (read back from the target's listing, after the copies).
    private static func aliasCopies(in transcript: BenchRequestTranscript, seededIDs: [String], context: CommandContext) async throws {
        let names = Dictionary(seededIDs.enumerated().map { ($1, "outlook-\($0)") }, uniquingKeysWith: { a, _ in a })
        let ref = try CalendarRef(parsing: targetRef)
        let provider = try AccountProviders(context: context, verbose: false).provider(for: ref)
        let calendar = try ref.resolve(in: try await provider.listCalendars())
        let now = context.now()
        let range = TimeRange(start: now.addingTimeInterval(-400 * 86_400), end: now.addingTimeInterval(800 * 86_400))
        for event in try await provider.listEvents(calendarID: calendar.id, range: range, expand: false) {
            guard let origin = event.origin, let name = names[origin.eventID] else { continue }
            transcript.alias(event.id, as: "copy-of-\(name)")
            transcript.alias(origin.eventKey, as: "key-of-\(name)")
        }
    }

    /// Writes the mix into the Outlook calendar (`reference`, default the copy's source) through the
    /// provider's batch writes (not timed).
    /// - Returns: the ids of the events written, in the mix's order.
    static func seed(count: Int, into reference: String = sourceRef, context: CommandContext) async throws -> [String] {
        let mix = BenchCopySeed(today: LocalDate(instant: context.now(), in: TimeZone(identifier: "UTC")!))
        return try await seed(count: count, event: mix.event, into: reference, context: context)
    }

    /// Writes `event(0)`...`event(count - 1)` into the Outlook calendar `reference` through the provider's batch
    /// writes (not timed). - Returns: the ids of the events written, in order.
    static func seed(count: Int, event: (Int) -> Event, into reference: String, context: CommandContext) async throws -> [String] {
        let accounts = AccountProviders(context: context, verbose: false)
        let ref = try CalendarRef(parsing: reference)
        let provider = try accounts.provider(for: ref)
        let calendar = try ref.resolve(in: try await provider.listCalendars())
        var written: [String] = []
        // Chunks keep the seed's own memory small at large N.
        for chunk in stride(from: 0, to: count, by: 400) {
            let writes = (chunk..<min(chunk + 400, count)).map { EventWrite.create(event($0), idempotencyKey: nil) }
            let results = await provider.applyWrites(writes, in: calendar.id, maxConcurrent: 4)
            for result in results {
                switch result {
                case .failure(let error): throw InputError("seeding the Outlook calendar failed: \(error)", exitCode: .failure)
                case .success(.created(let event)), .success(.updated(let event)): written.append(event.id)
                case .success(.deleted(let id)): written.append(id)
                }
            }
        }
        return written
    }

    /// Runs `calbridge copy SOURCE TARGET` (or the command `arguments` give, such as an import) in-process or as a
    /// child process, and measures it.
    static func copy(
        _ source: String = sourceRef, _ target: String = targetRef,
        sandbox: SandboxServer, environment: [String: String], latency: Int, child: ChildMode?, name: String,
        executable: URL? = nil, arguments: [String]? = nil, context: CommandContext
    ) async throws -> Run {
        let out = BufferSink()
        let err = BufferSink()
        let sub = CommandContext(stdout: out, stderr: err, environment: environment, now: context.now)
        let arguments = arguments ?? ["copy", source, target, "--format", "json"]
        let mark = sandbox.log.count
        let started = ContinuousClock.now
        var client: BenchChildUsage?
        var instructions: Int?
        let code: ExitCode
        if let child {
            (code, client, instructions) = try await runChild(
                arguments, mode: child, name: name, executable: executable, environment: environment, stdout: out, stderr: err)
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
            throw InputError("'calbridge \(arguments[0])' printed no JSON result", exitCode: .failure)
        }
        var counts: [String: Int] = [:]
        for key in ["created", "updated", "unchanged", "deleted", "skipped", "failed"] { counts[key] = object[key] as? Int ?? 0 }
        let items = counts.values.reduce(0, +)
        let wall = BenchRequests.milliseconds(elapsed)
        return Run(wallMs: wall, requests: requests, items: items, counts: counts, naiveMs: Double((items + 2) * latency),
            breakdown: breakdown, serverMs: serverMs, client: client, instructions: instructions)
    }

    /// Runs the user's `calbridge` (or `executable`, another build) with `arguments` as a child process
    /// (under callgrind in that mode) and collects its output, its own usage (`BenchChildUsage`) and, under
    /// callgrind, its instruction count.
    private static func runChild(
        _ arguments: [String], mode: ChildMode, name: String, executable: URL?, environment: [String: String],
        stdout: BufferSink, stderr: BufferSink
    ) async throws -> (ExitCode, BenchChildUsage?, Int?) {
        let process = SpawnedProcess()
        let calbridge = try executable ?? CalbridgeExecutable.url()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calbridge-bench-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var profile: URL?
        switch mode {
        case .plain:
            process.executableURL = calbridge
            process.arguments = arguments
        case .callgrind(let keepIn):
            let out = (keepIn ?? directory).appendingPathComponent("\(name).callgrind")
            if let keepIn { try FileManager.default.createDirectory(at: keepIn, withIntermediateDirectories: true) }
            process.executableURL = try valgrind(environment)
            process.arguments = ["--tool=callgrind", "--callgrind-out-file=\(out.path)", calbridge.path] + arguments
            profile = out
        }
        let usageURL = directory.appendingPathComponent("usage")
        var environment = environment
        environment[BenchChildUsage.fileVariable] = usageURL.path
        if case .callgrind = mode {
            // libcrypto's SHA-256 with the SHA extensions (CPUID leaf 7, EBX bit 29) masked off: valgrind
            // reports them but cannot run them.
            environment["OPENSSL_ia32cap"] = "~0:~0x20000000"
        }
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
        let errors = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        // valgrind's own report goes to stderr too ("==123== ..."): keep only the child's lines.
        stderr.write(errors.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("==") }.joined(separator: "\n"))
        let instructions = try profile.map { url -> Int in
            guard let count = callgrindTotal(url) else {
                throw InputError("callgrind wrote no instruction total to \(url.path)", exitCode: .failure)
            }
            return count
        }
        return (ExitCode(rawValue: status) ?? .failure, BenchChildUsage.read(usageURL), instructions)
    }

    /// `pairs` copies by this build and as many by `baseline`, back to back, which one first alternating
    /// from pair to pair; `before` runs ahead of each copy (the first copies' restore).
    private static func compare(
        with baseline: URL, pairs: Int, sandbox: SandboxServer, environment: [String: String], latency: Int,
        before: () async throws -> Void = {}, expectCreated: Int = 0, context: CommandContext
    ) async throws -> BenchCPUComparison {
        /// One copy by `executable` (nil: this build's calbridge) after `before`, and what it used.
        func usage(_ executable: URL?, pair index: Int) async throws -> BenchChildUsage {
            try await before()
            let run = try await copy(
                sandbox: sandbox, environment: environment, latency: latency, child: .plain, name: "pair-\(index + 1)",
                executable: executable, context: context)
            // A first copy that created less than every seeded event did not start from the seeded state.
            guard run.counts["created"] ?? 0 >= expectCreated else {
                throw InputError(
                    "a paired first copy created \(run.counts["created"] ?? 0) of \(expectCreated) events: the sandbox's "
                        + "calendars were not as seeded", exitCode: .failure)
            }
            guard let usage = run.client else {
                throw InputError(
                    "\(executable?.path ?? "this build's calbridge") wrote no usage file; compare builds that write "
                        + "\(BenchChildUsage.fileVariable)", exitCode: .failure)
            }
            return usage
        }
        var comparison = BenchCPUComparison(baseline: baseline.path)
        for index in 0..<pairs {
            if index % 2 == 0 {
                let own = try await usage(nil, pair: index)
                comparison.append(own: own, other: try await usage(baseline, pair: index))
            } else {
                let other = try await usage(baseline, pair: index)
                comparison.append(own: try await usage(nil, pair: index), other: other)
            }
        }
        return comparison
    }

    /// `valgrind` on PATH, or a clear error naming the package.
    private static func valgrind(_ environment: [String: String]) throws -> URL {
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("valgrind")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw InputError("--instructions needs valgrind on PATH (Debian: apt-get install valgrind)", exitCode: .usage)
    }

    /// The instruction total of a callgrind profile (its `summary:` or `totals:` line).
    static func callgrindTotal(_ url: URL) -> Int? {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("summary:") || line.hasPrefix("totals:") {
            if let count = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) { return count }
        }
        return nil
    }
}

/// The sandbox's API state right after seeding (every calendar, no copies), put back before each paired
/// first copy so that both builds copy into the same empty target.
private struct SeededState {
    let sandbox: SandboxServer
    let snapshots: [Data]

    init(_ sandbox: SandboxServer) async throws {
        self.sandbox = sandbox
        var snapshots: [Data] = []
        for named in sandbox.apiComponents { snapshots.append(try await named.component.snapshot()) }
        self.snapshots = snapshots
    }

    func restore() async throws {
        for (named, snapshot) in zip(sandbox.apiComponents, snapshots) { try await named.component.restore(snapshot) }
    }
}
