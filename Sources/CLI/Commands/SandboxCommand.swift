import Dispatch
import Foundation
import Sandbox
#if canImport(Glibc)
import Glibc
#endif

/// `calbridge sandbox`: runs the Google Calendar, Microsoft Graph and OAuth emulator in the foreground.
public enum SandboxCommand: Command {
    public static let spec = CommandSpec(
        ["sandbox"],
        abstract: "Run the local emulator of Google Calendar, Microsoft Graph and both OAuth servers.",
        discussion: """
        Serves everything on one port of 127.0.0.1 under the real services' paths, until SIGINT or SIGTERM.
        The first line on stdout is one JSON object: "url", "accounts" (each seeded user with a ready
        accessToken and refreshToken) and "descriptors" (provider descriptors pointing at the sandbox).
        Faults (--fault-rate) and latency (--latency-ms) apply to API requests only, never to sign-in.
        """,
        options: [
            .value("port", "N", "Port on 127.0.0.1 (default: a free one)."),
            .value("seed", "FILE", "Seed data {\"google\": ..., \"microsoft\": ...} instead of the built-in one."),
            .value("latency-ms", "N", "Delay every API response by N milliseconds."),
            .value("fault-rate", "F", "Answer this fraction (0 to 1) of API requests with 429/403 or 503."),
            .value("fault-seed", "N", "Seed of the fault sequence (same seed, same faults; default 0)."),
            .value("token-lifetime", "SECONDS", "Access-token lifetime (default 3600)."),
            .value(
                "refuse-refresh", SandboxRefreshRefusal.allCases.map(\.rawValue).joined(separator: "|"),
                "Refuse every token refresh as the provider does when it wants a new sign-in (MFA, consent, expiry)."
            ),
            .value("state", "FILE", "Load state from FILE at start if it exists; write it at stop."),
            .value("log", "FILE", "Append one JSON line per request (method, path, status, durationMs, fault)."),
            .value("write-descriptors", "DIR", "Also write DIR/google.json and DIR/microsoft.json."),
            .flag("no-auto-approve", "Show consent and device-verification pages instead of approving at once."),
        ]
    )

    /// The options a command line asks for. Pure apart from reading `--seed`; bad values are usage errors.
    public static func options(from arguments: ParsedArguments) throws -> SandboxOptions {
        var options = SandboxOptions()
        if let port = try arguments.int("port", in: 0...65535) { options.port = UInt16(port) }
        if let latency = try arguments.int("latency-ms", in: 0...600_000) { options.latencyMs = latency }
        if let rate = try arguments.double("fault-rate", in: 0...1) { options.faultRate = rate }
        if let text = arguments.value("fault-seed") {
            guard let seed = UInt64(text) else {
                throw UsageError("--fault-seed takes a whole number from 0 to \(UInt64.max), not '\(text)'")
            }
            options.faultSeed = seed
        }
        if let lifetime = try arguments.int("token-lifetime", in: 1...31_536_000) { options.tokenLifetime = TimeInterval(lifetime) }
        if let kind = try arguments.choice("refuse-refresh", SandboxRefreshRefusal.allCases.map(\.rawValue)) {
            options.refreshRefusal = SandboxRefreshRefusal(rawValue: kind)
        }
        if let path = arguments.value("seed") {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw InputError("cannot read --seed file \(path): \((error as NSError).localizedDescription)")
            }
            do {
                options.seed = try SandboxSeed.parse(data)
            } catch {
                throw InputError("--seed file \(path): \(error.description)")
            }
        }
        options.stateFile = arguments.value("state").map { URL(fileURLWithPath: $0) }
        options.logFile = arguments.value("log").map { URL(fileURLWithPath: $0) }
        options.autoApprove = !arguments.flag("no-auto-approve")
        return options
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let options = try options(from: arguments)
        // Ignore the default handlers first, so that a signal arriving during start-up is not fatal; the
        // dispatch sources below still see it.
        let waiter = SignalWaiter(signals: [SIGINT, SIGTERM])
        let sandbox = try await SandboxServer.start(options)
        if let directory = arguments.value("write-descriptors") {
            do {
                try sandbox.info.writeDescriptors(to: URL(fileURLWithPath: directory))
            } catch {
                try? await sandbox.stop()
                throw error
            }
        }
        context.print(try sandbox.info.jsonLine())
        _ = await waiter.wait()
        try await sandbox.stop()
        return .success
    }
}

/// Waits for the first of some signals, with dispatch sources (the default handlers are ignored first).
final class SignalWaiter: @unchecked Sendable {
    private let lock = NSLock()
    private var sources: [any DispatchSourceSignal] = []
    private var received: Int32?
    private var continuation: CheckedContinuation<Int32, Never>?

    init(signals: [Int32]) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in fire(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit { for source in sources { source.cancel() } }

    /// The signal that arrived (returns at once if one already did).
    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let already: Int32? = lock.withLock {
                if let received { return received }
                self.continuation = continuation
                return nil
            }
            if let already { continuation.resume(returning: already) }
        }
    }

    private func fire(_ number: Int32) {
        let waiting: CheckedContinuation<Int32, Never>? = lock.withLock {
            guard received == nil else { return nil }
            received = number
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: number)
    }
}
