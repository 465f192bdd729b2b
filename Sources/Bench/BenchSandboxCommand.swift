import CLI
import Foundation
import HTTP
import Sandbox
import LoopbackServer

/// `calbridge-bench sandbox`: how many simple API requests per second the sandbox answers on loopback.
package enum BenchSandboxCommand: Command {
    /// The probe's path: under /calendar/v3, so it takes the whole API route (latency, faults, log, token check).
    static let probePath = "/calendar/v3/sandboxBenchProbe"

    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let connections = Option.int("connections", "N", "Keep-alive connections, one thread each (default 8).", in: 1...512)
        package static let duration = Option.number("duration", "SECONDS", "How long to drive the load (default 5).", in: 0.1...3600)
        package static let path = Option<String>("path", "PATH", "Request GET PATH instead of the built-in probe.")
        package static let format = Option.choice("format", "FMT", "table (default) or json.", among: ["table", "json"])
    }

    package static let path = ["sandbox"]

    package static let spec = CommandSpec(
        path,
        abstract: "Measure the sandbox's throughput with keep-alive connections on loopback.",
        discussion: """
        Starts the sandbox in-process and drives it with N keep-alive connections (one thread each) for a
        while, then prints requests per second and latency percentiles. The default target is a probe
        mounted under /calendar/v3 that checks its bearer token with the token authority and answers a
        small JSON body, so every request goes through the full API path of the sandbox (routing, fault
        and latency wrappers, request log, token check). --path targets another path instead (for example
        a real emulator endpoint), with the access token of the sandbox's first account of that provider.
        The goal is at least 5,000 requests/s.
        """,
        options: [Options.connections, Options.duration, Options.path, Options.format],
        program: "calbridge-bench"
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let connections = arguments[Options.connections] ?? 8
        let duration = arguments[Options.duration] ?? 5
        let format = arguments[Options.format] ?? "table"
        let path = arguments[Options.path] ?? probePath
        guard path.hasPrefix("/") else { throw UsageError("--path takes a path starting with '/', not '\(path)'") }

        var options = SandboxOptions()
        options.requestLogCapacity = 0
        let sandbox = try await SandboxServer.start(options) { seed, tokens, now in
            var api = try SandboxServices.makeAPIComponents(seed: seed, tokens: tokens, now: now)
            api.components.insert(SandboxNamedComponent(name: "benchProbe", component: BenchProbe(tokens: tokens)), at: 0)
            return api
        }
        let provider: SandboxProvider = path.hasPrefix("/v1.0") ? .microsoft : .google
        let token = if let account = sandbox.info.accounts.first(where: { $0.provider == provider }) {
            account.accessToken
        } else {
            await sandbox.tokens.issue(
                provider: provider, user: "bench@sandbox.example", clientId: "bench", scopes: ["bench"], offline: false
            ).accessToken
        }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(sandbox.port)\r\nAuthorization: Bearer \(token)\r\nAccept: application/json\r\n\r\n"
        let generator = LoopbackLoadGenerator(port: sandbox.port, connections: connections, duration: duration, request: Array(request.utf8))
        let result = await generator.run()
        try await sandbox.stop()

        let rate = (result.requestsPerSecond * 10).rounded() / 10
        if format == "json" {
            let object: [String: Any] = [
                "path": path, "connections": connections, "seconds": (result.seconds * 1000).rounded() / 1000,
                "requests": result.requests, "errors": result.errors, "non2xx": result.non2xx, "requestsPerSecond": rate,
                "latencyMs": ["p50": result.percentile(0.5), "p90": result.percentile(0.9), "p99": result.percentile(0.99)],
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            context.print(String(decoding: data, as: UTF8.self))
        } else {
            func ms(_ value: Double) -> String { String(format: "%.2f", value) }
            context.print("sandbox bench: GET \(path), \(connections) keep-alive connections, \(String(format: "%.1f", result.seconds)) s")
            context.print("requests:      \(result.requests) (\(result.non2xx) non-2xx, \(result.errors) connection errors)")
            context.print("requests/s:    \(String(format: "%.1f", rate))")
            context.print("latency (ms):  p50 \(ms(result.percentile(0.5)))  p90 \(ms(result.percentile(0.9)))  p99 \(ms(result.percentile(0.99)))")
        }
        return result.errors > 0 || result.non2xx > 0 ? .failure : .success
    }
}

/// The benchmark's target: checks the bearer token like an emulator would and answers a small JSON body.
struct BenchProbe: SandboxComponent {
    let tokens: any SandboxAccessTokenValidator
    private static let body = Data("{\"kind\":\"calendar#sandboxBenchProbe\",\"ok\":true}".utf8)

    func handle(_ request: ServerRequest) async -> ServerResponse? {
        guard request.rawPath == BenchSandboxCommand.probePath else { return nil }
        let header = request.headers["Authorization"] ?? ""
        let token = header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : ""
        guard case .valid = await tokens.check(accessToken: token, provider: .google) else {
            return .json(401, Data("{\"error\":{\"code\":401,\"message\":\"Request had invalid authentication credentials.\"}}".utf8))
        }
        return .json(200, Self.body)
    }

    func snapshot() async throws -> Data { Data("{}".utf8) }
    func restore(_ snapshot: Data) async throws {}
}
