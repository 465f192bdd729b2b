import Foundation
import Sync

extension SyncPairRunner.Result {
    /// This pair's exit code on its own: 0 ran, 4 partly applied, 3 a grant to renew, else its failure's code.
    var exitCode: ExitCode {
        switch outcome {
        case .ok: .success
        case .partial, .interrupted: .partial
        case .needsSignIn: .reauthenticate
        case .failed: failure.map { ErrorReporting.exitCode(for: $0.error) } ?? .failure
        }
    }
}

extension SyncPairRunner {
    /// The exit code of a run of several pairs: 3 when an account must sign in again (whatever else
    /// happened); when every pair failed, the failure's own code (2 for a calendar gone, 1 for a provider
    /// failure); 4 when some pair failed or was partly applied; else 0.
    static func exitCode(_ results: [Result]) -> ExitCode {
        let codes = results.map(\.exitCode)
        if codes.contains(.reauthenticate) { return .reauthenticate }
        let failed = results.filter { $0.report == nil }
        if !failed.isEmpty, failed.count == results.count {
            return codes.contains(.failure) ? .failure : (codes.first ?? .failure)
        }
        return codes.allSatisfy { $0 == .success } ? .success : .partial
    }
}

extension SignalWaiter: SyncStopRequest {
    /// `SIGINT` or `SIGTERM`, once one arrived.
    var stopReason: String? { signalReceived.map(Self.name) }

    func waitForStop(timeout: Duration) async -> String? {
        await wait(timeout: timeout).map(Self.name)
    }

    static func name(_ signal: Int32) -> String {
        signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)"
    }
}
