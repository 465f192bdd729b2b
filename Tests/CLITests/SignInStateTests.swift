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

    @Test("the provider wants a new sign-in (MFA, consent, login, expiry): exit 3, the reason and the exact command",
          arguments: [
              ("carol", SandboxRefreshRefusal.mfaRequired, "(multi-factor authentication is now required; invalid_grant: AADSTS50076"),
              ("carol", .mfaEnrollment, "interaction_required: AADSTS50079"),
              ("carol", .consentRequired, "consent to the app is missing or was withdrawn; invalid_grant: AADSTS65001"),
              ("carol", .loginRequired, "login_required: AADSTS50058"),
              ("carol", .expired, "AADSTS70008"),
              ("ann", .expired, "invalid_grant: Token has been expired or revoked.); if your Google Cloud app's OAuth consent screen is in \"Testing\" status, Google expires its refresh tokens after 7 days"),
          ])
    func providerWantsSignIn(_ account: String, _ refusal: SandboxRefreshRefusal, _ reason: String) async throws {
        try await SandboxHome.with { home in
            let provider: SandboxProvider = account == "carol" ? .microsoft : .google
            await home.sandbox.tokens.setRefreshRefusal(refusal)
            await home.sandbox.tokens.expireAllAccessTokens()
            let ref = account == "carol" ? "carol:Calendar" : "ann:primary"
            for arguments in [["calendars", "--account", account], ["events", ref]] {
                let result = try await home.run(arguments)
                #expect(result.status == 3, "\(arguments): \(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
                #expect(result.stderr.contains(reason), "\(result.stderr)")
                let descriptor = home.signIn.descriptorFile(provider == .google ? "google" : "microsoft")
                #expect(result.stderr.hasSuffix("sign in again with: calbridge accounts add \(descriptor) --name \(account)\n"), "\(result.stderr)")
            }
        }
    }
}
