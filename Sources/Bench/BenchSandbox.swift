import CLI
import Foundation
import LoopbackServer
import Sandbox

/// The in-process sandbox a benchmark runs against, with a temporary calbridge home beside it.
enum BenchSandbox {
    /// Starts a sandbox with `latencyMs` on every API response, runs `body` with it and a fresh temporary
    /// directory for CALBRIDGE_HOME, then stops the sandbox and removes the directory, whatever happened.
    /// `observer` sees every API request before it is answered (see `SandboxOptions.apiRequestObserver`);
    /// `seed` replaces the built-in seed data.
    static func with<T>(
        latencyMs: Int, seed: SandboxSeed? = nil, observer: (@Sendable (ServerRequest) -> Void)? = nil,
        _ body: (SandboxServer, URL) async throws -> T
    ) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calbridge-bench-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        var options = SandboxOptions()
        options.latencyMs = latencyMs
        options.seed = seed
        options.apiRequestObserver = observer
        let sandbox = try await SandboxServer.start(options)
        do {
            let result = try await body(sandbox, directory)
            try await sandbox.stop()
            return result
        } catch {
            try? await sandbox.stop()
            throw error
        }
    }
}
