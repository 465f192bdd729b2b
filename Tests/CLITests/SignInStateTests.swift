import Foundation
import Sandbox
import Testing
import TestSupport

@Suite("expired and revoked sign-ins, end to end against the sandbox")
struct SignInStateTests {
    @Test("access tokens that expired (2 s lifetime) are refreshed transparently by every command")
    func expiredTokens() async throws {
        try await SandboxHome.with(tokenLifetime: 2) { home in
            try await Task.sleep(for: .milliseconds(2300))
            let refreshesBefore = home.sandbox.requestLog.filter { $0.path.hasSuffix("/token") }.count
            let calendars = try await home.run(["calendars"])
            #expect(calendars.status == 0, "\(calendars.stderr)")
            #expect(calendars.stderr.isEmpty)
            let events = try await home.run(["events", "carol:Calendar", "--format", "json"])
            #expect(events.status == 0, "\(events.stderr)")
            try await Task.sleep(for: .milliseconds(2300))
            let add = try await home.run(["add", "ann:Family", "--title", "After expiry"])
            #expect(add.status == 0, "\(add.stderr)")
            let refreshes = home.sandbox.requestLog.filter { $0.path.hasSuffix("/token") }.count
            #expect(refreshes >= refreshesBefore + 3, "expected refreshes at the token endpoints")
        }
    }

    @Test("a revoked grant: exit 3 and the exact command that signs the account in again", arguments: ["carol", "ann"])
    func revoked(_ account: String) async throws {
        try await SandboxHome.with { home in
            let provider: SandboxProvider = account == "carol" ? .microsoft : .google
            await home.sandbox.tokens.revokeAll(user: home.user(provider), provider: provider)
            let ref = account == "carol" ? "carol:Calendar" : "ann:primary"
            for arguments in [["events", ref], ["add", ref, "--title", "x"]] {
                let result = try await home.run(arguments)
                #expect(result.status == 3, "\(arguments): \(result.stderr)")
                #expect(result.stdout.isEmpty)
                #expect(result.stderr.split(separator: "\n").count == 1)
                let descriptor = home.signIn.descriptorFile(provider == .google ? "google" : "microsoft")
                #expect(result.stderr.contains("sign in again with: calbridge accounts add \(descriptor) --name \(account)"), "\(result.stderr)")
            }
        }
    }
}
