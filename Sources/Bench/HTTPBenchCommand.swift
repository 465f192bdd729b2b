import CLI
import CalbridgeSupport
import Foundation
import HTTP
import HTTPCurl
import LoopbackServer

/// `calbridge-bench http`: CurlTransport's throughput and connection use against the loopback server,
/// next to the curl command-line tool doing the same work against the same server.
package enum HTTPBenchCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let requests = Option.int("requests", "N", "Requests per run (default 2000).", in: 1...1_000_000)
        package static let concurrency = Option.int("concurrency", "C", "Requests in flight at once (default 32).", in: 1...1024)
    }

    package static let path = ["http"]

    package static let spec = CommandSpec(
        path,
        abstract: "Measure CurlTransport against the curl CLI on a loopback server (no network).",
        discussion: """
            Starts a loopback HTTP/1.1 server with a small body, sends N GET requests through CurlTransport \
            with C in flight (and at most C connections), then runs `curl --parallel --parallel-max C` with \
            the same N URLs. Prints requests/s and connections opened for both, and their ratio.
            """,
        options: [Options.requests, Options.concurrency],
        program: "calbridge-bench"
    )

    /// What one run measured.
    struct Run {
        var requests: Int
        var seconds: Double
        var connections: Int
        var failures: Int
        var requestsPerSecond: Double { seconds > 0 ? Double(requests) / seconds : 0 }
    }

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let requests = arguments[Options.requests] ?? 2000
        let concurrency = arguments[Options.concurrency] ?? 32
        let body = Data(#"{"kind":"calendar#event","id":"bench","status":"confirmed"}"#.utf8)
        let server = LoopbackHTTPServer { _ in .json(200, body) }
        try server.start()
        defer { server.stop() }

        context.print("bench http: \(requests) GET requests, \(concurrency) in flight, server \(server.baseURL.absoluteString), libcurl \(CurlInfo.version)")
        let ours = await runTransport(server: server, requests: requests, concurrency: concurrency, expected: body)
        context.print(line("CurlTransport", ours) + " (limit \(concurrency))")

        guard let curl = findCurl(context.environment) else {
            context.print("curl CLI: not found on PATH, comparison skipped")
            return ours.failures == 0 ? .success : .failure
        }
        let theirs = try await runCurlCLI(curl, server: server, requests: requests, concurrency: concurrency)
        context.print(line("curl --parallel", theirs))
        let ratio = ours.requestsPerSecond > 0 ? theirs.requestsPerSecond / ours.requestsPerSecond : .infinity
        context.print("ratio: curl CLI is \(format(ratio))x CurlTransport's throughput (target: at most 3x); "
            + "connections \(ours.connections) vs \(theirs.connections) (target: at most \(concurrency))")
        return ours.failures == 0 && theirs.failures == 0 ? .success : .failure
    }

    private static func line(_ name: String, _ run: Run) -> String {
        name.padding(toLength: 16, withPad: " ", startingAt: 0)
            + ": \(run.requests) requests in \(format(run.seconds)) s = \(Int(run.requestsPerSecond.rounded())) req/s, "
            + "\(run.connections) connections opened, \(run.failures) failed"
    }

    private static func format(_ value: Double) -> String { String(format: "%.2f", value) }

    /// N requests through one CurlTransport, keeping `concurrency` in flight (a sliding window).
    private static func runTransport(server: LoopbackHTTPServer, requests: Int, concurrency: Int, expected: Data) async -> Run {
        let transport = CurlTransport(configuration: .init(maxConnectionsPerHost: concurrency, proxy: .direct))
        let connectionsBefore = server.connectionsAccepted
        let url = server.baseURL.appendingPathComponent("bench")
        let started = ContinuousClock.now
        let failures = await withTaskGroup(of: Bool.self) { group in
            var sent = 0
            var failed = 0
            func add() {
                let request = HTTPRequest(url: url.appendingPathComponent(String(sent)))
                sent += 1
                group.addTask {
                    guard let response = try? await transport.send(request) else { return false }
                    return response.status == 200 && response.body == expected
                }
            }
            while sent < min(concurrency, requests) { add() }
            for await ok in group {
                if !ok { failed += 1 }
                if sent < requests { add() }
            }
            return failed
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        return Run(requests: requests, seconds: seconds, connections: server.connectionsAccepted - connectionsBefore, failures: failures)
    }

    /// The same N URLs through `curl --parallel --parallel-max C -K config`.
    private static func runCurlCLI(_ curl: String, server: LoopbackHTTPServer, requests: Int, concurrency: Int) async throws -> Run {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calbridge-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("urls.curlrc")
        let base = server.baseURL.appendingPathComponent("bench").absoluteString
        var text = ""
        for index in 0..<requests { text += "url = \"\(base)/\(index)\"\noutput = \"/dev/null\"\n" }
        try Data(text.utf8).write(to: config)

        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: curl)
        process.arguments = ["--parallel", "--parallel-max", String(concurrency), "--silent", "--fail",
                             "--noproxy", "127.0.0.1", "--config", config.path]
        // Failures are counted on the server side; curl's parallel progress meter ignores --silent in 7.88.
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let served = server.requestsServed
        let connectionsBefore = server.connectionsAccepted
        let started = ContinuousClock.now
        // Wait for the child without blocking a cooperative thread (the server's handler needs them).
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        let answered = server.requestsServed - served
        return Run(
            requests: requests, seconds: seconds, connections: server.connectionsAccepted - connectionsBefore,
            failures: status == 0 ? requests - answered : max(1, requests - answered)
        )
    }

    private static func findCurl(_ environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/curl" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
