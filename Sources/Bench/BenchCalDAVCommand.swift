import Accounts
import CLI
import CalbridgeSupport
import CalendarBridge
import Foundation
import HTTP
import HTTPCurl
import Sandbox

#if canImport(Glibc)
import Glibc
#endif

/// `calbridge-bench caldav`: `copy` of N Outlook events (the sandbox, with latency) to a CalDAV calendar on a
/// local Radicale, the no-change rerun, and an idle two-way sync of an Outlook <-> CalDAV pair; requests
/// counted on both sides (the sandbox's log, Radicale's own log of every request).
package enum BenchCalDAVCommand: Command {
    package enum Options {
        package static let events = Option.int("events", "N", "Events to seed in the Outlook calendar (default 1000).", in: 1...20_000)
        package static let latencyMs = Option.int(
            "latency-ms", "L", "The sandbox's API latency in milliseconds (default 20).", in: 0...10_000)
        package static let radicale = Option<String>(
            "radicale", "PATH",
            "Radicale's executable (default: .build/test-python/bin/radicale above this program, as .ci/install-deps makes it).")
        package static let server = Option.choice(
            "server", "radicale|sandbox",
            "The CalDAV server: a local Radicale (default), or the sandbox's own CalDAV service (with the same latency as Outlook's).",
            among: ["radicale", "sandbox"])
        package static let mtimeCache = Flag(
            "radicale-mtime-cache",
            "Start Radicale with use_mtime_and_size_for_item_cache (its documented setting for large collections: "
                + "the item cache checked by mtime and size instead of SHA-256).")
        package static let format = OutputFormat.option("table|json", "Output format (default table).", allowed: [.table, .json])
    }

    package static let path = ["caldav"]

    package static let spec = CommandSpec(
        path,
        abstract: "Time 'copy' Outlook -> CalDAV (a local Radicale) twice, and an idle two-way Outlook <-> CalDAV sync.",
        discussion: """
            Starts the sandbox in-process with --latency-ms (default 20) and a Radicale (PyPI's, from the test \
            venv or --radicale) on 127.0.0.1 with throwaway storage and no authentication, adds both accounts \
            to a temporary home ('accounts add caldav', as a user would), seeds --events (1000) events into the \
            Outlook calendar 'Project Falcon' (the mix of 'calbridge-bench copy'), then runs 'calbridge copy' to \
            the CalDAV calendar twice in-process: wall time against naive = (items + 2) x latency (goal <= 0.2), \
            and the rerun's requests per side (goal: at most 2 per calendar side plus the reads). Then a two-way \
            pair of Outlook's 'Calendar' and a second CalDAV calendar is synced until quiet and one idle run is \
            counted (goal <= 3 requests). Requests are counted from the sandbox's log and from Radicale's log of \
            every request (discovery included). With --server sandbox the CalDAV side is the sandbox's own \
            CalDAV service, at the same latency, which takes concurrent writes: what calbridge's side achieves \
            where the server allows it.
            """,
        options: [Options.events, Options.latencyMs, Options.server, Options.radicale, Options.mtimeCache, Options.format],
        program: "calbridge-bench"
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let count = arguments[Options.events] ?? 1000
        let latency = arguments[Options.latencyMs] ?? 20
        let format = arguments[Options.format] ?? .table
        let onSandbox = arguments[Options.server] == "sandbox"
        let radicale =
            onSandbox
            ? nil
            : try await LocalRadicale.start(
                try radicaleExecutable(arguments[Options.radicale]),
                extraArguments: arguments[Options.mtimeCache] ? ["--storage-use-mtime-and-size-for-item-cache", "True"] : [])
        defer { radicale?.stop() }
        return try await BenchSandbox.with(latencyMs: latency) { sandbox, directory in
            let server: any BenchCalDAVServer = try radicale ?? SandboxCalDAV(sandbox: sandbox)
            let seeder = SandboxAccountSeeder(sandbox: sandbox, home: CalbridgeHome(directory: directory))
            guard let outlookUser = sandbox.info.accounts.first(where: { $0.provider == .microsoft })?.user else {
                throw InputError("the sandbox seeds no Outlook user", exitCode: .failure)
            }
            try seeder.store(user: outlookUser, as: "outlook")
            var environment = context.environment
            environment["CALBRIDGE_HOME"] = directory.path
            environment["CALBRIDGE_PASSWORD"] = server.password
            let sub = CommandContext(stdout: BufferSink(), stderr: BufferSink(), environment: environment, now: context.now)
            for calendar in ["bench", "pair"] { try await server.makeCalendar(calendar) }
            try await cli(["accounts", "add", "caldav", server.url.absoluteString, "--user", server.user, "--name", "dav"], sub)
            _ = try await BenchCopyCommand.seed(count: count, context: sub)

            let first = try await copy(sandbox: sandbox, server: server, environment: environment, latency: latency, context: context)
            let rerun = try await copy(sandbox: sandbox, server: server, environment: environment, latency: latency, context: context)

            try await cli(["sync", "add", "bench-pair", "--a", "outlook:Calendar", "--b", "dav:pair", "--direction", "both"], sub)
            for _ in 0..<2 { _ = try await sync(sandbox: sandbox, server: server, environment: environment, context: context) }
            let idle = try await sync(sandbox: sandbox, server: server, environment: environment, context: context)

            let firstMet = first.ratio <= 0.2
            let rerunMet = rerun.written == 0 && rerun.davWrites == 0
            let idleMet = idle.total <= 3
            if format == .json {
                let object: [String: Any] = [
                    "events": count, "latencyMs": latency, "server": server.name, "first": first.json, "rerun": rerun.json,
                    "idleSync": idle.json,
                    "goals": ["firstRatio": firstMet, "rerunWritesNothing": rerunMet, "idleSyncRequests": idleMet],
                ]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
                context.stdout.write(String(decoding: data, as: UTF8.self) + "\n")
            } else {
                var text = "calbridge-bench caldav: \(count) Outlook events (sandbox, \(latency) ms) -> \(server.name)\n"
                text += "first copy: \(first.line)  \(firstMet ? "meets" : "misses") <= 0.2 x naive\n"
                text += "rerun:      \(rerun.line)  \(rerunMet ? "writes nothing" : "WRITES")\n"
                text += "idle sync:  \(idle.line)  \(idleMet ? "meets" : "misses") <= 3 requests\n"
                context.stdout.write(text)
            }
            return .success
        }
    }

    /// One measured command: wall time, requests to each side by method.
    struct Measured {
        var wallMs: Double
        var items: Int
        var latency: Int
        var outlook: [String: Int]
        var dav: [String: Int]
        /// The CalDAV server's own CPU seconds meanwhile, where it is a process of its own (Radicale).
        var serverCPU: Double?
        /// This process's CPU seconds meanwhile: calbridge and the in-process sandbox.
        var benchCPU: Double
        var naiveMs: Double { Double((items + 2) * latency) }
        var ratio: Double { naiveMs > 0 ? wallMs / naiveMs : 0 }
        var total: Int { outlook.values.reduce(0, +) + dav.values.reduce(0, +) }
        var davWrites: Int { dav.filter { ["PUT", "DELETE"].contains($0.key) }.values.reduce(0, +) }
        /// What the command reported written (created, updated, deleted); Graph's `$batch` POSTs are reads too.
        var written = 0
        /// What the command printed.
        var output = ""

        var line: String {
            func text(_ counts: [String: Int]) -> String { counts.keys.sorted().map { "\($0) \(counts[$0]!)" }.joined(separator: ", ") }
            var line = String(format: "%8.1f ms", wallMs)
            if items > 0 { line += String(format: " (%.3f x naive %.0f ms, %d items)", ratio, naiveMs, items) }
            line +=
                "; requests: Outlook \(outlook.values.reduce(0, +)) (\(text(outlook))), CalDAV \(dav.values.reduce(0, +)) (\(text(dav)))"
            line += String(format: "; CPU: calbridge + sandbox %.1f s", benchCPU)
            if let serverCPU { line += String(format: ", the CalDAV server %.1f s (%.0f%% of the wall time)", serverCPU, share * 100) }
            return line
        }

        /// The server's CPU time over the wall time: near 1 when it is busy all along on one core.
        var share: Double { wallMs > 0 ? (serverCPU ?? 0) * 1000 / wallMs : 0 }

        var json: [String: Any] {
            [
                "wallMs": (wallMs * 10).rounded() / 10, "items": items, "naiveMs": naiveMs, "ratio": (ratio * 1000).rounded() / 1000,
                "outlookRequests": outlook, "caldavRequests": dav, "benchCPUSeconds": (benchCPU * 100).rounded() / 100,
                "serverCPUSeconds": serverCPU.map { ($0 * 100).rounded() / 100 } ?? NSNull(),
            ]
        }
    }

    static func copy(
        sandbox: SandboxServer, server: any BenchCalDAVServer, environment: [String: String], latency: Int, context: CommandContext
    )
        async throws -> Measured
    {
        var measured = try await measured(
            ["copy", BenchCopyCommand.sourceRef, "dav:bench", "--format", "json"], sandbox: sandbox, server: server,
            environment: environment, context: context)
        let object = (try? JSONSerialization.jsonObject(with: Data(measured.output.utf8))) as? [String: Any] ?? [:]
        measured.items = ["created", "updated", "unchanged", "deleted", "skipped", "failed"].reduce(0) { $0 + (object[$1] as? Int ?? 0) }
        measured.latency = latency
        measured.written = ["created", "updated", "deleted"].reduce(0) { $0 + (object[$1] as? Int ?? 0) }
        return measured
    }

    static func sync(sandbox: SandboxServer, server: any BenchCalDAVServer, environment: [String: String], context: CommandContext)
        async throws -> Measured
    {
        try await measured(["sync", "--format", "json"], sandbox: sandbox, server: server, environment: environment, context: context)
    }

    /// Runs one command in-process: its wall time, output, CPU (this process's and the server's), and the
    /// requests each server logged meanwhile.
    static func measured(
        _ arguments: [String], sandbox: SandboxServer, server: any BenchCalDAVServer, environment: [String: String], context: CommandContext
    ) async throws -> Measured {
        let out = BufferSink(), err = BufferSink()
        let sub = CommandContext(stdout: out, stderr: err, environment: environment, now: context.now)
        let mark = sandbox.log.count
        let davMark = server.requests().count
        let serverCPU = server.cpuSeconds()
        let benchCPU = BenchChildUsage.current()?.cpuSeconds ?? 0
        let started = ContinuousClock.now
        let code = await CalbridgeCLI.run(arguments, context: sub)
        let wall = BenchRequests.milliseconds(ContinuousClock.now - started)
        let benchSpent = (BenchChildUsage.current()?.cpuSeconds ?? 0) - benchCPU
        let serverSpent = server.cpuSeconds().flatMap { after in serverCPU.map { after - $0 } }
        guard code == .success else {
            throw InputError(
                "'calbridge \(arguments.joined(separator: " "))' failed (\(code)): \(err.text.prefix(500))", exitCode: .failure)
        }
        var outlook: [String: Int] = [:]
        for entry in sandbox.requestLog.suffix(sandbox.log.count - mark) where BenchRequests.isAPI(entry.path) {
            outlook[entry.method, default: 0] += 1
        }
        var dav: [String: Int] = [:]
        for method in server.requests().dropFirst(davMark) { dav[method, default: 0] += 1 }
        var measured = Measured(
            wallMs: wall, items: 0, latency: 0, outlook: outlook, dav: dav, serverCPU: serverSpent, benchCPU: benchSpent)
        measured.output = out.text
        return measured
    }

    /// Runs a setup command in-process (not measured).
    static func cli(_ arguments: [String], _ context: CommandContext) async throws {
        let err = BufferSink()
        let code = await CalbridgeCLI.run(
            arguments, context: CommandContext(stdout: BufferSink(), stderr: err, environment: context.environment, now: context.now))
        guard code == .success else {
            throw InputError(
                "'calbridge \(arguments.joined(separator: " "))' failed (\(code)): \(err.text.prefix(500))", exitCode: .failure)
        }
    }

    /// `--radicale`, or the test venv's above this program (`<package>/.build/test-python/bin/radicale`).
    static func radicaleExecutable(_ given: String?) throws -> URL {
        if let given {
            guard FileManager.default.isExecutableFile(atPath: given) else {
                throw UsageError("--radicale: no executable file at \(given); give the path of Radicale's 'radicale' program")
            }
            return URL(fileURLWithPath: given)
        }
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            if folder.lastPathComponent == ".build" {
                let venv = folder.appendingPathComponent("test-python/bin/radicale")
                if FileManager.default.isExecutableFile(atPath: venv.path) { return venv }
            }
            folder = folder.deletingLastPathComponent()
        }
        throw UsageError(
            "no Radicale found in .build/test-python (run .ci/install-deps) and no --radicale PATH given; "
                + "'pip install radicale==3.9.0' in a venv gives one")
    }
}

/// The CalDAV server a run copies to: its URL and user, and every request it answered so far (by method).
protocol BenchCalDAVServer {
    var name: String { get }
    var url: URL { get }
    var user: String { get }
    var password: String { get }
    func makeCalendar(_ segment: String) async throws
    func requests() -> [String]
    /// The server process's CPU seconds so far (user + system), nil when it runs in this process.
    func cpuSeconds() -> Double?
}

/// The sandbox's own CalDAV service (same process, same latency as its Outlook), as its seeded user.
struct SandboxCalDAV: BenchCalDAVServer {
    let sandbox: SandboxServer
    let user: String
    let password: String
    var name: String { "the sandbox's CalDAV service" }
    var url: URL { URL(string: sandbox.info.url + "/")! }

    init(sandbox: SandboxServer) throws {
        guard let account = sandbox.info.passwordAccounts.first(where: { $0.service == "caldav" }) else {
            throw InputError("the sandbox seeds no CalDAV user", exitCode: .failure)
        }
        self.sandbox = sandbox
        user = account.user
        password = account.password
    }

    func makeCalendar(_ segment: String) async throws {
        let request = HTTPRequest(
            method: HTTPMethod("MKCALENDAR"), url: url.appendingPathComponent("caldav/\(try await home())/calendars/\(segment)/"),
            headers: ["Authorization": "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()])
        let response = try await CurlTransport().send(request)
        guard response.status == 201 else {
            throw InputError("the sandbox's CalDAV service refused MKCALENDAR \(segment): HTTP \(response.status)", exitCode: .failure)
        }
    }

    /// The user's id in the service's paths (`/caldav/<id>/calendars/`), from its principal.
    func home() async throws -> String {
        let request = HTTPRequest(
            method: HTTPMethod("PROPFIND"), url: url.appendingPathComponent("caldav/"),
            headers: ["Authorization": "Basic " + Data("\(user):\(password)".utf8).base64EncodedString(), "Depth": "0"])
        let text = (try await CurlTransport().send(request)).bodyText
        guard let end = text.range(of: "/principal/"), let start = text[..<end.lowerBound].range(of: "/caldav/", options: .backwards)
        else { throw InputError("the sandbox's CalDAV service named no principal", exitCode: .failure) }
        return String(text[start.upperBound..<end.lowerBound])
    }

    func cpuSeconds() -> Double? { nil }

    func requests() -> [String] {
        sandbox.requestLog.filter { $0.path.hasPrefix("/caldav") || $0.path.hasPrefix("/.well-known/caldav") }.map(\.method)
    }
}

/// A Radicale on 127.0.0.1 with throwaway storage, no authentication and its request log kept (`requests`).
final class LocalRadicale: BenchCalDAVServer {
    static let user = "bench"
    var name: String { "Radicale" }
    var user: String { Self.user }
    var password: String { "bench" }
    let url: URL
    let port: UInt16
    let storage: URL
    let log: URL
    private let process: SpawnedProcess

    private init(url: URL, port: UInt16, storage: URL, log: URL, process: SpawnedProcess) {
        self.url = url
        self.port = port
        self.storage = storage
        self.log = log
        self.process = process
    }

    static func start(_ executable: URL, extraArguments: [String] = []) async throws -> LocalRadicale {
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "calbridge-bench-radicale-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
        let port = try freePort()
        let log = storage.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let process = SpawnedProcess()
        process.executableURL = executable
        process.arguments =
            [
                "--config", "", "--server-hosts", "127.0.0.1:\(port)", "--auth-type", "none", "--storage-filesystem-folder",
                storage.appendingPathComponent("collections").path, "--logging-level", "info",
            ] + extraArguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = storage.path
        process.environment = environment
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? handle.close()
        let server = LocalRadicale(url: URL(string: "http://127.0.0.1:\(port)/")!, port: port, storage: storage, log: log, process: process)
        let deadline = Date().addingTimeInterval(60)
        while !(await server.answers()) {
            guard process.isRunning, Date() < deadline else {
                server.stop()
                throw InputError("Radicale did not start on port \(port) (see its log above)", exitCode: .failure)
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return server
    }

    /// Whether the server answers HTTP (any status).
    func answers() async -> Bool {
        (try? await CurlTransport().send(HTTPRequest(url: url))) != nil
    }

    /// MKCALENDAR of a calendar named `segment` in the user's home.
    func makeCalendar(_ segment: String) async throws {
        let request = HTTPRequest(
            method: HTTPMethod("MKCALENDAR"), url: url.appendingPathComponent("\(Self.user)/\(segment)/"),
            headers: ["Authorization": "Basic " + Data("\(Self.user):bench".utf8).base64EncodedString()])
        let response = try await CurlTransport().send(request)
        guard response.status == 201 else {
            throw InputError("Radicale refused MKCALENDAR \(segment): HTTP \(response.status)", exitCode: .failure)
        }
    }

    /// The method of every request Radicale logged so far, in order.
    func requests() -> [String] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "] [INFO] "), line.contains(" request for '") else { return nil }
            return line[range.upperBound...].split(separator: " ").first.map(String.init)
        }
    }

    /// Radicale's user + system time so far, from /proc/PID/stat (fields 14 and 15, in clock ticks).
    func cpuSeconds() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)" come the fields from the 3rd on; utime and stime are the 14th and 15th.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: storage)
    }

    /// A port nothing listens on now (the kernel's choice for port 0).
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw InputError("socket() failed", exitCode: .failure) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard named else { throw InputError("no free port on 127.0.0.1", exitCode: .failure) }
        return UInt16(bigEndian: address.sin_port)
    }
}
