import Foundation
import HTTP
import OAuth
import Sandbox
import Testing

/// The OAuth engine against the sandbox's own Google and Microsoft authorization servers: the servers are
/// written independently from the engine, so a misunderstanding on either side shows up here.
@Suite("OAuth engine against the sandbox's authorization servers")
struct SandboxFlowTests {
    @Test("browser flow with PKCE signs in, and the token works on the emulated API", arguments: SandboxProvider.allCases)
    func browserFlow(_ provider: SandboxProvider) async throws {
        let server = try await SandboxAuthServer.start()
        defer { server.stop() }
        let account = try await SignedIn.start(server, provider)
        #expect(account.tokens.refreshToken != nil)
        let api = AuthorizedTransport(base: LoopbackTransport(), tokens: account.manager())
        let response = try await api.send(HTTPRequest(url: account.profileURL))
        #expect(response.status == 200)
        #expect(response.bodyText.contains(server.user(provider)))
    }

    @Test("device flow: polls until the user approves at the verification page")
    func deviceFlow() async throws {
        // approveAfterPolls is high so that only the explicit approval below can end the wait.
        let server = try await SandboxAuthServer.start(devicePolicy: .init(approveAfterPolls: 1_000, interval: 1, expiresIn: 120))
        defer { server.stop() }
        let descriptor = try ProviderDescriptor.parse(server.descriptorJSON(.microsoft), source: "sandbox")
        let client = OAuthClient(descriptor: descriptor, credentials: server.credentials(.microsoft), transport: LoopbackTransport())
        let tokens = try await DeviceCodeFlow(client: client).run { authorization in
            Task { try await server.approveDevice(verificationURI: authorization.verificationURI, userCode: authorization.userCode) }
        }
        #expect(tokens.refreshToken != nil)
    }

    @Test("device flow: a declined sign-in ends with a clear 'declined' error")
    func deviceDeclined() async throws {
        let server = try await SandboxAuthServer.start(devicePolicy: .init(approveAfterPolls: 0, decline: true, interval: 1))
        defer { server.stop() }
        let descriptor = try ProviderDescriptor.parse(server.descriptorJSON(.microsoft), source: "sandbox")
        let client = OAuthClient(descriptor: descriptor, credentials: server.credentials(.microsoft), transport: LoopbackTransport())
        await #expect(throws: SignInError.self) {
            _ = try await DeviceCodeFlow(client: client).run { _ in }
        }
    }

    @Test("2-second tokens: calls keep working across expiry; Microsoft rotates the refresh token, Google keeps it",
          arguments: SandboxProvider.allCases)
    func shortLifetime(_ provider: SandboxProvider) async throws {
        // One clock for the servers and the client: expiry is a step of the clock, not a sleep, so a stall
        // of the machine cannot expire a token between its refresh and its use.
        let clock = TestClock()
        let server = try await SandboxAuthServer.start(tokenLifetime: 2, now: { clock.now })
        defer { server.stop() }
        let account = try await SignedIn.start(server, provider)
        let store = MemoryTokenStore()
        let manager = account.manager(store: store, now: { clock.now })
        let api = AuthorizedTransport(base: LoopbackTransport(), tokens: manager)
        for _ in 0..<2 {
            #expect(try await api.send(HTTPRequest(url: account.profileURL)).status == 200)
            clock.advance(2.1)
        }
        #expect(try await api.send(HTTPRequest(url: account.profileURL)).status == 200)
        #expect(await server.refreshCount() == 2)
        let stored = try #require(try store.load(account: "acct"))
        if provider == .microsoft {
            #expect(stored.refreshToken != account.tokens.refreshToken)
        } else {
            #expect(stored.refreshToken == account.tokens.refreshToken)
        }
    }

    @Test("50 concurrent calls after the server expired the token cause exactly one refresh")
    func singleFlight() async throws {
        let server = try await SandboxAuthServer.start()
        defer { server.stop() }
        let account = try await SignedIn.start(server, .microsoft)
        let manager = account.manager()
        await server.expireAccessTokens()
        let api = AuthorizedTransport(base: LoopbackTransport(), tokens: manager)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 { group.addTask { try await api.send(HTTPRequest(url: account.profileURL)).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 50)
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(await server.refreshCount() == 1)
    }

    @Test("a revoked grant becomes ReauthenticationRequired naming the sign-in command", arguments: SandboxProvider.allCases)
    func revoked(_ provider: SandboxProvider) async throws {
        let server = try await SandboxAuthServer.start()
        defer { server.stop() }
        let account = try await SignedIn.start(server, provider)
        await server.revokeGrants()
        await server.expireAccessTokens()
        let api = AuthorizedTransport(base: LoopbackTransport(), tokens: account.manager())
        do {
            _ = try await api.send(HTTPRequest(url: account.profileURL))
            Issue.record("expected ReauthenticationRequired")
        } catch let error as ReauthenticationRequired {
            #expect(error.description.contains("calbridge accounts add \(provider.rawValue) --name acct"))
        }
    }

    /// What each refusal must say: Entra's AADSTS code and the plain reason; Google's wording.
    static let refusals: [(SandboxProvider, SandboxRefreshRefusal, [String])] = [
        (.microsoft, .mfaRequired, ["multi-factor authentication is now required", "AADSTS50076", "invalid_grant"]),
        (.microsoft, .mfaEnrollment, ["enroll in multi-factor authentication", "AADSTS50079", "interaction_required"]),
        (.microsoft, .consentRequired, ["consent to the app is missing", "AADSTS65001"]),
        (.microsoft, .loginRequired, ["login_required", "AADSTS50058"]),
        (.microsoft, .expired, ["expired after a long time unused", "AADSTS70008"]),
        (.google, .expired, ["invalid_grant: Token has been expired or revoked.); publish the test app; then sign in"]),
        (.google, .mfaRequired, ["invalid_grant: reauth related error (invalid_rapt)); publish the test app"]),
    ]

    @Test("each refusal of a refresh becomes ReauthenticationRequired with the reason and the command", arguments: refusals)
    func refusedRefresh(_ provider: SandboxProvider, _ refusal: SandboxRefreshRefusal, _ expected: [String]) async throws {
        let server = try await SandboxAuthServer.start()
        defer { server.stop() }
        let account = try await SignedIn.start(server, provider)
        await server.sandbox.tokens.setRefreshRefusal(refusal)
        await server.expireAccessTokens()
        let manager = account.manager()
        let api = AuthorizedTransport(base: LoopbackTransport(), tokens: manager)
        for _ in 0..<2 {  // the second call is answered from the signed-out state, with the same error
            do {
                _ = try await api.send(HTTPRequest(url: account.profileURL))
                Issue.record("expected ReauthenticationRequired")
            } catch let error as ReauthenticationRequired {
                let text = error.description
                for part in expected { #expect(text.contains(part), "\(part) in \(text)") }
                #expect(text.hasSuffix("sign in again with: calbridge accounts add \(provider.rawValue) --name acct"))
                #expect(!text.contains("\n") && !text.contains("\r") && !text.contains("Trace ID"))
                #expect(error.advice != nil || provider == .microsoft)
            }
        }
        #expect(await manager.refreshCount == 1)
        // The switch off again, a new sign-in works (the refusal is the server's, not a broken grant store).
        await server.sandbox.tokens.setRefreshRefusal(nil)
        let again = try await SignedIn.start(server, provider)
        #expect(try await AuthorizedTransport(base: LoopbackTransport(), tokens: again.manager()).send(HTTPRequest(url: again.profileURL)).status == 200)
    }

    @Test("the four sign-in-again codes, as error or suberror, require a sign-in; others do not")
    func signInAgainCodes() {
        for code in ["invalid_grant", "interaction_required", "consent_required", "login_required"] {
            #expect(OAuthError(code: .init(code), endpoint: "token endpoint").requiresSignIn)
        }
        #expect(OAuthError(code: .invalidRequest, endpoint: "token endpoint", suberror: "consent_required").requiresSignIn)
        #expect(!OAuthError(code: .temporarilyUnavailable, endpoint: "token endpoint").requiresSignIn)
        #expect(!OAuthError(code: .invalidClient, endpoint: "token endpoint", suberror: "basic_action").requiresSignIn)
    }
}
