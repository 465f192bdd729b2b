import Dispatch
import Foundation
import Sandbox
#if canImport(Glibc)
import Glibc
#endif

/// `calbridge sandbox`: runs the Google Calendar, Microsoft Graph, OAuth and CalDAV emulators in the foreground.
package enum SandboxCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let port = Option.int("port", "N", "Microsoft's port on 127.0.0.1, Google's is N+1 (default: two free ones).", in: 0...65534)
        package static let seed = Option<String>("seed", "FILE", "Seed data {\"google\": ..., \"microsoft\": ...} instead of the built-in one.")
        package static let latencyMs = Option.int("latency-ms", "N", "Delay every API response by N milliseconds.", in: 0...600_000)
        package static let faultRate = Option.number("fault-rate", "F", "Answer this fraction (0 to 1) of API requests with 429/403 or 503.", in: 0...1)
        package static let faultSeed = Option<String>("fault-seed", "N", "Seed of the fault sequence (same seed, same faults; default 0).")
        package static let tokenLifetime = Option.int("token-lifetime", "SECONDS", "Access-token lifetime (default 3600).", in: 1...31_536_000)
        package static let refuseRefresh = Option.choice("refuse-refresh", SandboxRefreshRefusal.allCases.map(\.rawValue).joined(separator: "|"), "Refuse every token refresh as the provider does when it wants a new sign-in (MFA, consent, expiry).", among: SandboxRefreshRefusal.allCases.map(\.rawValue))
        package static let state = Option<String>("state", "FILE", "Load state from FILE at start if it exists; write it at stop.")
        package static let log = Option<String>("log", "FILE", "Append one JSON line per request (method, path, status, durationMs, fault).")
        package static let writeDescriptors = Option<String>(
            "write-descriptors", "DIR", "Also write DIR/google.json, DIR/microsoft.json and DIR/caldav.json.")
        package static let noAutoApprove = Flag("no-auto-approve", "Show consent and device-verification pages instead of approving at once.")
    }

    package static let path = ["sandbox"]

    package static let spec = CommandSpec(
        path,
        abstract: "Run the local emulator of Google Calendar, Microsoft Graph, both OAuth servers and a CalDAV service.",
        discussion: """
            Serves everything under the real services' paths on two ports of 127.0.0.1, until SIGINT or SIGTERM:
            Microsoft's descriptor points at the first, Google's at the second, as the real services are two
            hosts (a client's connections are counted per host). The first line on stdout is one JSON object:
            "url" (Microsoft's port), "googleURL", "accounts" (each seeded user with a ready accessToken and
            refreshToken), "passwordAccounts" (the CalDAV service's users and their made-up app passwords) and
            "descriptors" (provider descriptors pointing at the sandbox; caldav.json is added with
            `calbridge accounts add DIR/caldav.json --user USER`, the password in $CALBRIDGE_PASSWORD).
            Faults (--fault-rate) and latency (--latency-ms) apply to API requests only, never to sign-in.
            """,
        options: [Options.port, Options.seed, Options.latencyMs, Options.faultRate, Options.faultSeed, Options.tokenLifetime, Options.refuseRefresh, Options.state, Options.log, Options.writeDescriptors, Options.noAutoApprove]
    )

    /// The options a command line asks for. Pure apart from reading `--seed`; bad values are usage errors.
    package static func options(from arguments: ParsedArguments) throws -> SandboxOptions {
        var options = SandboxOptions()
        if let port = arguments[Options.port] { options.port = UInt16(port) }
        if let latency = arguments[Options.latencyMs] { options.latencyMs = latency }
        if let rate = arguments[Options.faultRate] { options.faultRate = rate }
        if let text = arguments[Options.faultSeed] {
            guard let seed = UInt64(text) else {
                throw UsageError("--fault-seed takes a whole number from 0 to \(UInt64.max), not '\(text)'")
            }
            options.faultSeed = seed
        }
        if let lifetime = arguments[Options.tokenLifetime] { options.tokenLifetime = TimeInterval(lifetime) }
        if let kind = arguments[Options.refuseRefresh] {
            options.refreshRefusal = SandboxRefreshRefusal(rawValue: kind)
        }
        if let path = arguments[Options.seed] {
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
        options.stateFile = arguments[Options.state].map { URL(fileURLWithPath: $0) }
        options.logFile = arguments[Options.log].map { URL(fileURLWithPath: $0) }
        options.autoApprove = !arguments[Options.noAutoApprove]
        return options
    }

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let options = try options(from: arguments)
        // Ignore the default handlers first, so that a signal arriving during start-up is not fatal; the
        // dispatch sources below still see it.
        let waiter = SignalWaiter(signals: [SIGINT, SIGTERM])
        let sandbox = try await SandboxServer.start(options)
        if let directory = arguments[Options.writeDescriptors] {
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
