import Foundation
import HTTP
import Sandbox
import Testing
import LoopbackServer

@Suite("Microsoft identity server")
struct OAuthServerMicrosoftTests {
    typealias R = SandboxTestRequests
    let clock = SandboxTestClock()
    let clientId = SandboxClientRegistration.microsoft.clientId
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    let scopes = "offline_access User.Read Calendars.ReadWrite"

    func make(
        autoApprove: Bool = true, policy: MicrosoftIdentityServer.DeviceFlowPolicy = .init()
    ) -> (MicrosoftIdentityServer, SandboxTokenAuthority) {
        let tokens = SandboxTokenAuthority(accessTokenLifetime: 3600, now: clock.function)
        let server = MicrosoftIdentityServer(
            tokens: tokens, users: R.users, autoApprove: autoApprove, devicePolicy: policy, now: clock.function
        )
        return (server, tokens)
    }

    func code(_ server: MicrosoftIdentityServer, tenant: String = "common", scope: String? = nil) async throws -> String {
        let target = "/\(tenant)/oauth2/v2.0/authorize?" + R.query([
            ("client_id", clientId), ("response_type", "code"), ("redirect_uri", "http://localhost:8400/"),
            ("scope", scope ?? scopes), ("state", "s1"), ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ])
        let response = try #require(await server.handle(R.get(target)))
        #expect(response.redirect?.parameters["state"] == "s1")
        return try #require(response.redirect?.parameters["code"])
    }

    func token(_ server: MicrosoftIdentityServer, _ form: [(String, String)], tenant: String = "common") async throws -> ServerResponse {
        try #require(await server.handle(R.post("/\(tenant)/oauth2/v2.0/token", form: [("client_id", clientId)] + form)))
    }

    /// Microsoft's error shape: AADSTS code first in the description, the same code in error_codes.
    func expectMicrosoftError(_ response: ServerResponse, _ error: String, code: Int) {
        #expect(response.status == 400)
        let body = response.jsonObject
        #expect(body["error"] as? String == error)
        #expect((body["error_description"] as? String)?.hasPrefix("AADSTS\(code): ") == true)
        #expect(body["error_codes"] as? [Int] == [code])
        #expect(body["timestamp"] is String && body["trace_id"] is String && body["correlation_id"] is String)
    }

    @Test("authorization code with PKCE under any tenant; a wrong verifier is invalid_grant", arguments: [
        "common", "organizations", "consumers", "72f988bf-86f1-41af-91ab-2d7cd011db47",
    ])
    func codeFlow(tenant: String) async throws {
        let (server, tokens) = make()
        let good = try await code(server, tenant: tenant)
        let response = try await token(server, [
            ("grant_type", "authorization_code"), ("code", good), ("redirect_uri", "http://localhost:8400/"),
            ("code_verifier", verifier), ("scope", scopes),
        ], tenant: tenant)
        #expect(response.status == 200)
        let body = response.jsonObject
        #expect(body["token_type"] as? String == "Bearer")
        #expect(body["scope"] as? String == scopes)
        #expect(body["ext_expires_in"] as? Int == 3600)
        let access = try #require(body["access_token"] as? String)
        #expect(await tokens.check(accessToken: access, provider: .microsoft) == .valid(user: "carol@sandbox.example"))

        let bad = try await code(server, tenant: tenant)
        let wrong = try await token(server, [
            ("grant_type", "authorization_code"), ("code", bad), ("redirect_uri", "http://localhost:8400/"),
            ("code_verifier", String(repeating: "b", count: 50)),
        ], tenant: tenant)
        expectMicrosoftError(wrong, "invalid_grant", code: 501481)
    }

    @Test("a redeemed code cannot be redeemed again")
    func codeReuse() async throws {
        let (server, _) = make()
        let good = try await code(server)
        let form = [("grant_type", "authorization_code"), ("code", good), ("redirect_uri", "http://localhost:8400/"), ("code_verifier", verifier)]
        #expect(try await token(server, form).status == 200)
        expectMicrosoftError(try await token(server, form), "invalid_grant", code: 54005)
    }

    @Test("the refresh refusal switch answers Entra's shapes (error, AADSTS code, suberror); off again, refresh works",
          arguments: [
              (SandboxRefreshRefusal.expired, "invalid_grant", 70008, nil), (.mfaRequired, "invalid_grant", 50076, "basic_action"),
              (.mfaEnrollment, "interaction_required", 50079, nil), (.consentRequired, "invalid_grant", 65001, "consent_required"),
              (.loginRequired, "login_required", 50058, nil),
          ] as [(SandboxRefreshRefusal, String, Int, String?)])
    func refusal(_ refusal: SandboxRefreshRefusal, _ error: String, _ aadsts: Int, _ suberror: String?) async throws {
        let (server, tokens) = make()
        let first = try await token(server, [
            ("grant_type", "authorization_code"), ("code", try await code(server)), ("redirect_uri", "http://localhost:8400/"),
            ("code_verifier", verifier),
        ]).jsonObject
        let refresh = try #require(first["refresh_token"] as? String)
        await tokens.setRefreshRefusal(refusal)
        let refused = try await token(server, [("grant_type", "refresh_token"), ("refresh_token", refresh)])
        expectMicrosoftError(refused, error, code: aadsts)
        #expect(refused.jsonObject["suberror"] as? String == suberror)
        await tokens.setRefreshRefusal(nil)
        #expect(try await token(server, [("grant_type", "refresh_token"), ("refresh_token", refresh)]).status == 200)
    }

    @Test("refresh rotates the refresh token; the old one becomes invalid_grant")
    func rotation() async throws {
        let (server, tokens) = make()
        let good = try await code(server)
        let first = try await token(server, [
            ("grant_type", "authorization_code"), ("code", good), ("redirect_uri", "http://localhost:8400/"), ("code_verifier", verifier),
        ]).jsonObject
        let refresh1 = try #require(first["refresh_token"] as? String)
        let second = try await token(server, [("grant_type", "refresh_token"), ("refresh_token", refresh1), ("scope", scopes)])
        #expect(second.status == 200)
        let refresh2 = try #require(second.jsonObject["refresh_token"] as? String)
        #expect(refresh2 != refresh1)
        let access = try #require(second.jsonObject["access_token"] as? String)
        #expect(await tokens.check(accessToken: access, provider: .microsoft) == .valid(user: "carol@sandbox.example"))
        expectMicrosoftError(try await token(server, [("grant_type", "refresh_token"), ("refresh_token", refresh1)]), "invalid_grant", code: 70000)
        #expect(try await token(server, [("grant_type", "refresh_token"), ("refresh_token", refresh2)]).status == 200)
    }

    @Test("without offline_access there is no refresh token")
    func noOfflineAccess() async throws {
        let (server, _) = make()
        let good = try await code(server, scope: "User.Read")
        let body = try await token(server, [
            ("grant_type", "authorization_code"), ("code", good), ("redirect_uri", "http://localhost:8400/"), ("code_verifier", verifier),
        ]).jsonObject
        #expect(body["access_token"] is String)
        #expect(body["refresh_token"] == nil)
    }

    @Test("client checks: missing client_id, unknown client, a secret from a public client")
    func clientChecks() async throws {
        let (server, _) = make()
        let missing = try #require(await server.handle(R.post("/common/oauth2/v2.0/token", form: [("grant_type", "refresh_token")])))
        expectMicrosoftError(missing, "invalid_request", code: 900144)
        let unknown = try #require(await server.handle(R.post("/common/oauth2/v2.0/token", form: [("client_id", "x"), ("grant_type", "refresh_token")])))
        expectMicrosoftError(unknown, "unauthorized_client", code: 700016)
        let secret = try await token(server, [("client_secret", "s"), ("grant_type", "refresh_token")])
        #expect(secret.status == 401)
        #expect(secret.jsonObject["error"] as? String == "invalid_client")
        expectMicrosoftError(try await token(server, [("grant_type", "password")]), "unsupported_grant_type", code: 70003)
    }

    @Test("an unregistered redirect URI gets an error page, never a redirect")
    func redirectMismatch() async throws {
        let (server, _) = make()
        let target = "/common/oauth2/v2.0/authorize?" + R.query([
            ("client_id", clientId), ("response_type", "code"), ("redirect_uri", "https://evil.example/cb"), ("scope", scopes),
        ])
        let response = try #require(await server.handle(R.get(target)))
        #expect(response.status == 400)
        #expect(response.headers["Location"] == nil)
        #expect(response.text.contains("AADSTS50011"))
    }

    func startDevice(_ server: MicrosoftIdentityServer) async throws -> [String: Any] {
        let response = try #require(await server.handle(R.post("/common/oauth2/v2.0/devicecode", form: [
            ("client_id", clientId), ("scope", scopes),
        ], headers: ["Host": "127.0.0.1:9999"])))
        #expect(response.status == 200)
        return response.jsonObject
    }

    func poll(_ server: MicrosoftIdentityServer, _ deviceCode: String) async throws -> ServerResponse {
        try await token(server, [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", deviceCode)])
    }

    @Test("device flow: the code response, authorization_pending, then tokens after the configured polls")
    func deviceSuccess() async throws {
        let (server, tokens) = make(policy: .init(approveAfterPolls: 2, interval: 5))
        let start = try await startDevice(server)
        #expect(start["verification_uri"] as? String == "http://127.0.0.1:9999/common/oauth2/deviceauth")
        #expect(start["interval"] as? Int == 5)
        #expect(start["expires_in"] as? Int == 900)
        let userCode = try #require(start["user_code"] as? String)
        #expect((start["message"] as? String)?.contains(userCode) == true)
        let deviceCode = try #require(start["device_code"] as? String)
        for _ in 0..<2 {
            expectMicrosoftError(try await poll(server, deviceCode), "authorization_pending", code: 70016)
            clock.advance(5)
        }
        let done = try await poll(server, deviceCode)
        #expect(done.status == 200)
        let access = try #require(done.jsonObject["access_token"] as? String)
        #expect(done.jsonObject["refresh_token"] is String)
        #expect(await tokens.check(accessToken: access, provider: .microsoft) == .valid(user: "carol@sandbox.example"))
        // The device code is spent.
        #expect(try await poll(server, deviceCode).jsonObject["error"] as? String == "bad_verification_code")
    }

    @Test("device flow: polling faster than the interval is slow_down, and the interval grows by 5 s")
    func slowDown() async throws {
        let (server, _) = make(policy: .init(approveAfterPolls: 10, interval: 1))
        let deviceCode = try #require(try await startDevice(server)["device_code"] as? String)
        expectMicrosoftError(try await poll(server, deviceCode), "authorization_pending", code: 70016)
        clock.advance(0.5)
        #expect(try await poll(server, deviceCode).jsonObject["error"] as? String == "slow_down")
        clock.advance(2) // more than the old interval, less than the new 6 s
        #expect(try await poll(server, deviceCode).jsonObject["error"] as? String == "slow_down")
        clock.advance(11)
        #expect(try await poll(server, deviceCode).jsonObject["error"] as? String == "authorization_pending")
    }

    @Test("device flow: expired_token after expires_in")
    func expired() async throws {
        let (server, _) = make(policy: .init(approveAfterPolls: 10, interval: 0, expiresIn: 60))
        let deviceCode = try #require(try await startDevice(server)["device_code"] as? String)
        clock.advance(61)
        expectMicrosoftError(try await poll(server, deviceCode), "expired_token", code: 70020)
    }

    @Test("device flow: a declining user ends polling with authorization_declined")
    func declined() async throws {
        let (server, _) = make(policy: .init(approveAfterPolls: 0, decline: true, interval: 0))
        let deviceCode = try #require(try await startDevice(server)["device_code"] as? String)
        expectMicrosoftError(try await poll(server, deviceCode), "authorization_declined", code: 70000)
    }

    @Test("device flow without auto-approve: the verification page approves as the chosen user")
    func verificationPage() async throws {
        let (server, tokens) = make(autoApprove: false, policy: .init(interval: 0))
        let start = try await startDevice(server)
        let deviceCode = try #require(start["device_code"] as? String), userCode = try #require(start["user_code"] as? String)
        let page = try #require(await server.handle(R.get("/common/oauth2/deviceauth")))
        #expect(page.text.contains("dan@sandbox.example"))
        expectMicrosoftError(try await poll(server, deviceCode), "authorization_pending", code: 70016)
        let wrong = try #require(await server.handle(R.post("/common/oauth2/deviceauth", form: [("otc", "NOPE"), ("user", "dan@sandbox.example")])))
        #expect(wrong.text.contains("not recognised"))
        let approved = try #require(await server.handle(R.post("/common/oauth2/deviceauth", form: [("otc", userCode.lowercased()), ("user", "dan@sandbox.example")])))
        #expect(approved.text.contains("You have signed in"))
        let done = try await poll(server, deviceCode)
        let access = try #require(done.jsonObject["access_token"] as? String)
        #expect(await tokens.check(accessToken: access, provider: .microsoft) == .valid(user: "dan@sandbox.example"))
    }

    @Test("device flow without auto-approve: Cancel on the page declines")
    func verificationPageDecline() async throws {
        let (server, _) = make(autoApprove: false, policy: .init(interval: 0))
        let start = try await startDevice(server)
        let deviceCode = try #require(start["device_code"] as? String), userCode = try #require(start["user_code"] as? String)
        _ = await server.handle(R.post("/common/oauth2/deviceauth", form: [("otc", userCode), ("action", "deny")]))
        #expect(try await poll(server, deviceCode).jsonObject["error"] as? String == "authorization_declined")
    }

    @Test("garbage to every endpoint gets an answer, never a crash", arguments: [
        "/common/oauth2/v2.0/token", "/common/oauth2/v2.0/devicecode", "/common/oauth2/v2.0/authorize",
        "/x/oauth2/v2.0/consent", "/common/oauth2/deviceauth",
    ])
    func garbage(path: String) async throws {
        let (server, _) = make()
        for body in ["", "%%%&&&==", "grant_type=urn:ietf:params:oauth:grant-type:device_code&client_id=\(clientId)", "\u{0}\u{1}\u{FFFF}"] {
            let response = await server.handle(ServerRequest(method: "POST", target: path, body: Data(body.utf8)))
            #expect(response != nil)
            #expect((200..<500).contains(response?.status ?? 0))
        }
    }
}
