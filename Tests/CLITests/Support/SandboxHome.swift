import Foundation
import Sandbox
import TestSupport
import CLI

/// A sandbox started in this test process, and a calbridge home with two accounts signed in through
/// the real flows: `ann` (Google, browser flow) and `carol` (Outlook, device flow).
struct SandboxHome: Sendable {
    let sandbox: SandboxServer
    let directory: TemporaryDirectory
    let signIn: SandboxSignIn
    /// `CALBRIDGE_HOME` and `TZ=UTC` (tests that need another zone pass `TZ` to `run`).
    let environment: [String: String]

    struct SignInFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `body` with a fresh sandbox and home, then stops and removes both.
    static func with<T: Sendable>(
        tokenLifetime: TimeInterval = 3600, seed: SandboxSeed? = nil,
        components: @escaping SandboxComponentFactory = SandboxServices.standard,
        _ body: (SandboxHome) async throws -> T
    ) async throws -> T {
        var options = SandboxOptions()
        options.tokenLifetime = tokenLifetime
        options.seed = seed
        options.devicePolicy = .init(approveAfterPolls: 0, interval: 0)
        // The sandbox's clock stands still while the accounts sign in, so that short-lived tokens (a
        // 2-second lifetime) cannot expire between their issue and the profile request on a busy machine;
        // afterwards it is the real clock again.
        let clock = SignInClock()
        options.now = { clock.now() }
        let sandbox = try await SandboxServer.start(options, components: components)
        let directory = try TemporaryDirectory(prefix: "calbridge-cli-test")
        defer { directory.remove() }
        do {
            let environment = ["CALBRIDGE_HOME": directory.url.appendingPathComponent("home").path, "TZ": "UTC"]
            let signIn = try SandboxSignIn(
                sandbox: sandbox, environment: environment,
                descriptorDirectory: directory.url.appendingPathComponent("descriptors"))
            clock.freeze()
            for outcome in [await signIn.google(name: "ann"), await signIn.microsoft(name: "carol")] {
                guard outcome.exitCode == .success else { throw SignInFailed(description: outcome.stderr) }
            }
            clock.resume()
            let home = SandboxHome(sandbox: sandbox, directory: directory, signIn: signIn, environment: environment)
            let result = try await body(home)
            try await sandbox.stop()
            return result
        } catch {
            try? await sandbox.stop()
            throw error
        }
    }

    /// Runs the built binary with this home (on a thread of its own: the sandbox needs the pool), its
    /// stderr on a pseudo-terminal when `stderrOnTerminal`.
    func run(
        _ arguments: [String], environment extra: [String: String] = [:], stderrOnTerminal: Bool = false,
        stdoutTerminalColumns: Int? = nil
    ) async throws -> CalbridgeBinary.Result {
        let environment = self.environment.merging(extra) { $1 }
        return try await CalbridgeBinary.run(
            arguments, environment: environment, stderrOnTerminal: stderrOnTerminal, stdoutTerminalColumns: stdoutTerminalColumns)
    }

    /// The Graph emulator (for what it recorded, such as invitation mails).
    var graph: GraphEmulator { sandbox.apiComponents.compactMap { $0.component as? GraphEmulator }[0] }
    /// The Google Calendar emulator.
    var google: GoogleCalendarEmulator { sandbox.apiComponents.compactMap { $0.component as? GoogleCalendarEmulator }[0] }

    /// The sandbox's APIs, reached directly (for seeding and checking).
    var api: SandboxAPI { SandboxAPI(sandbox: sandbox) }

    /// The sandbox's seeded user behind a provider (ann = first Google user, carol = first Microsoft user).
    func user(_ provider: SandboxProvider) -> String {
        sandbox.info.accounts.first { $0.provider == provider }!.user
    }
}

/// The real clock, or the instant it was frozen at.
final class SignInClock: @unchecked Sendable {
    private let lock = NSLock()
    private var frozen: Date?

    func now() -> Date { lock.withLock { frozen ?? Date() } }
    func freeze() { lock.withLock { frozen = Date() } }
    func resume() { lock.withLock { frozen = nil } }
}

/// JSON helpers for the binary's output.
enum JSONOutput {
    static func object(_ text: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw SandboxHome.SignInFailed(description: "not a JSON object: \(text)")
        }
        return object
    }

    static func array(_ text: String) throws -> [[String: Any]] {
        guard let array = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else {
            throw SandboxHome.SignInFailed(description: "not a JSON array: \(text)")
        }
        return array
    }
}
