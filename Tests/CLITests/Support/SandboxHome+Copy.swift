import Accounts
import Foundation
import OAuth
import Sandbox
import TestSupport

/// What the copy tests do with a home: run a copy over the fixtures' window, and see which API requests
/// it sent.
extension SandboxHome {
    struct CopyFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// `calbridge copy SOURCE TARGET --format json` over `CopyFixtures`' window, plus `options`; the result
    /// document of a run that must exit 0.
    @discardableResult
    func copy(_ source: String, _ target: String, _ options: [String] = []) async throws -> [String: Any] {
        let result = try await run(["copy", source, target, "--format", "json"] + CopyFixtures.windowOptions + options)
        guard result.status == 0 else {
            throw CopyFailed(description: "copy \(source) \(target) \(options) exited \(result.status): \(result.stderr)")
        }
        return try JSONOutput.object(result.stdout)
    }

    /// The API requests (not the OAuth ones) the sandbox answered since log entry `mark`, oldest first.
    func apiRequests(since mark: Int) -> [SandboxRequestLogEntry] {
        let new = sandbox.log.count - mark
        return sandbox.requestLog.suffix(new).filter {
            $0.path.hasPrefix("/calendar") || $0.path.hasPrefix("/v1.0") || $0.path.hasPrefix("/batch")
        }
    }

    /// The distinct methods of the API requests since log entry `mark`; reads also travel inside batches
    /// (POST /v1.0/$batch of GETs), so a batch counts as the methods it holds.
    func apiMethods(since mark: Int) -> Set<String> {
        Set(apiRequests(since: mark).flatMap { $0.batchMethods ?? [$0.method] })
    }

    /// Replaces the refresh token calbridge stored for `account` with one the sandbox never issued, as
    /// after a password change or a refresh token rotated away by another client: the next refresh is
    /// refused with `invalid_grant`.
    func spoilRefreshToken(of account: String) throws {
        guard let path = environment["CALBRIDGE_HOME"] else { throw CopyFailed(description: "no CALBRIDGE_HOME") }
        let store = FileTokenStore(home: CalbridgeHome(directory: URL(fileURLWithPath: path)))
        guard var tokens = try store.load(account: account) else {
            throw CopyFailed(description: "no tokens stored for \(account)")
        }
        tokens.refreshToken = "spoiled-" + (tokens.refreshToken ?? "none")
        try store.save(tokens, account: account)
    }
}
