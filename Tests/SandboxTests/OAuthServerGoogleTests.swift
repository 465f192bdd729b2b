import TestSupport
import Foundation
import HTTP
import Sandbox
import Testing
import LoopbackServer

@Suite("Google OAuth server")
struct OAuthServerGoogleTests {
    typealias R = SandboxTestRequests
    let clock = SandboxTestClock()
    let client = SandboxClientRegistration.google
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

    func make(autoApprove: Bool = true) -> (GoogleOAuthServer, SandboxTokenAuthority) {
        let tokens = SandboxTokenAuthority(accessTokenLifetime: 3600, now: clock.function)
        return (GoogleOAuthServer(tokens: tokens, users: R.users, autoApprove: autoApprove, now: clock.function), tokens)
    }

    func authorizeTarget(
        redirect: String = "http://127.0.0.1:53124/", challenge: String? = nil, method: String? = "S256",
        extra: [(String, String)] = []
    ) -> String {
        var items = [
            ("client_id", client.clientId), ("redirect_uri", redirect), ("response_type", "code"),
            ("scope", "https://www.googleapis.com/auth/calendar"), ("state", "xyz 123/?&"), ("access_type", "offline"),
        ]
        if let challenge {
            items.append(("code_challenge", challenge))
            if let method { items.append(("code_challenge_method", method)) }
        }
        return "/o/oauth2/v2/auth?" + R.query(items + extra)
    }

    func redeem(_ server: GoogleOAuthServer, code: String, redirect: String = "http://127.0.0.1:53124/", verifier: String?) async -> ServerResponse? {
        var form = [
            ("grant_type", "authorization_code"), ("code", code), ("client_id", client.clientId),
            ("client_secret", client.clientSecret!), ("redirect_uri", redirect),
        ]
        if let verifier { form.append(("code_verifier", verifier)) }
        return await server.handle(R.post("/token", form: form))
    }

    @Test("the RFC 7636 appendix B verifier gives its published S256 challenge")
    func s256Vector() async throws {
        let (server, _) = make()
        // The challenge from RFC 7636 appendix B, so the sandbox's SHA-256 is checked against the spec.
        let response = try #require(await server.handle(R.get(authorizeTarget(challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"))))
        let code = try #require(response.redirect?.parameters["code"])
        let token = try #require(await redeem(server, code: code, verifier: verifier))
        #expect(token.status == 200)
        #expect(token.jsonObject["token_type"] as? String == "Bearer")
        #expect(token.jsonObject["refresh_token"] is String)
        #expect(token.jsonObject["expires_in"] as? Int == 3600)
        #expect(token.jsonObject["scope"] as? String == "https://www.googleapis.com/auth/calendar")
    }

    @Test("state comes back unchanged on the redirect, with the code and the scope")
    func stateEcho() async throws {
        let (server, _) = make()
        let response = try #require(await server.handle(R.get(authorizeTarget())))
        let redirect = try #require(response.redirect)
        #expect(redirect.base == "http://127.0.0.1:53124/")
        #expect(redirect.parameters["state"] == "xyz 123/?&")
        #expect(redirect.parameters["code"]?.isEmpty == false)
        #expect(redirect.parameters["scope"] == "https://www.googleapis.com/auth/calendar")
    }

    @Test("plain PKCE verifies; a wrong verifier or a missing one is invalid_grant")
    func plainAndFailures() async throws {
        let (server, _) = make()
        let plain = try #require(await server.handle(R.get(authorizeTarget(challenge: verifier, method: "plain")))?.redirect?.parameters["code"])
        #expect(await redeem(server, code: plain, verifier: verifier)?.status == 200)

        let s256 = try await PKCEChallenge.s256(verifier)
        let wrongCode = try #require(await server.handle(R.get(authorizeTarget(challenge: s256)))?.redirect?.parameters["code"])
        let wrong = try #require(await redeem(server, code: wrongCode, verifier: String(repeating: "a", count: 43)))
        #expect(wrong.status == 400)
        #expect(wrong.jsonObject["error"] as? String == "invalid_grant")
        #expect(wrong.jsonObject["error_description"] as? String == "Invalid code verifier.")
        // The code is spent by the failed attempt: the right verifier no longer helps.
        #expect(await redeem(server, code: wrongCode, verifier: verifier)?.jsonObject["error"] as? String == "invalid_grant")

        let missingCode = try #require(await server.handle(R.get(authorizeTarget(challenge: s256)))?.redirect?.parameters["code"])
        let missing = try #require(await redeem(server, code: missingCode, verifier: nil))
        #expect(missing.jsonObject["error_description"] as? String == "Missing code verifier.")
    }

    @Test("a code is single use and bound to its redirect URI")
    func codeRules() async throws {
        let (server, _) = make()
        let code = try #require(await server.handle(R.get(authorizeTarget()))?.redirect?.parameters["code"])
        let otherRedirect = try #require(await redeem(server, code: code, redirect: "http://127.0.0.1:9/", verifier: nil))
        #expect(otherRedirect.jsonObject["error"] as? String == "redirect_uri_mismatch")
        let code2 = try #require(await server.handle(R.get(authorizeTarget()))?.redirect?.parameters["code"])
        #expect(await redeem(server, code: code2, verifier: nil)?.status == 200)
        #expect(await redeem(server, code: code2, verifier: nil)?.jsonObject["error"] as? String == "invalid_grant")
        #expect(await redeem(server, code: "garbage", verifier: nil)?.jsonObject["error_description"] as? String == "Malformed auth code.")
    }

    @Test("an expired code is invalid_grant")
    func expiredCode() async throws {
        let (server, _) = make()
        let code = try #require(await server.handle(R.get(authorizeTarget()))?.redirect?.parameters["code"])
        clock.advance(601)
        #expect(await redeem(server, code: code, verifier: nil)?.jsonObject["error"] as? String == "invalid_grant")
    }

    @Test("loopback redirect URIs match on any port; anything else must match exactly", arguments: [
        ("http://127.0.0.1:1/", true), ("http://localhost:65000/", true), ("http://127.0.0.1/callback", true),
        ("http://[::1]:8080/", true), ("http://127.0.0.1:5000/other", false), ("https://127.0.0.1:5000/", false),
        ("http://evil.example/", false), ("http://127.0.0.1:5000/?x=1", false), ("http://127.0.0.1.evil.example/", false),
    ])
    func redirectRules(uri: String, accepted: Bool) async throws {
        let (server, _) = make()
        let response = try #require(await server.handle(R.get(authorizeTarget(redirect: uri))))
        if accepted {
            #expect(response.status == 302)
            #expect(response.redirect?.base == uri.split(separator: "?").first.map(String.init))
        } else {
            // Never redirect to an unregistered URI: an error page in the browser instead.
            #expect(response.status == 400)
            #expect(response.headers["Location"] == nil)
            #expect(response.text.contains("redirect_uri_mismatch"))
        }
    }

    @Test("an unknown client gets an error page; a bad response_type a redirect with error")
    func authorizeErrors() async throws {
        let (server, _) = make()
        let unknown = try #require(await server.handle(R.get("/o/oauth2/v2/auth?client_id=nope&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2F")))
        #expect(unknown.status == 401)
        #expect(unknown.headers["Location"] == nil)
        let token = try #require(await server.handle(R.get(authorizeTarget(extra: [("response_type", "token")]))))
        #expect(token.redirect?.parameters["error"] == "unsupported_response_type")
        #expect(token.redirect?.parameters["state"] == "xyz 123/?&")
    }

    @Test("login_hint chooses the account; an unknown one is refused")
    func loginHint() async throws {
        let (server, tokens) = make()
        let code = try #require(await server.handle(R.get(authorizeTarget(extra: [("login_hint", "BOB@sandbox.example")])))?.redirect?.parameters["code"])
        let access = try #require(await redeem(server, code: code, verifier: nil)?.jsonObject["access_token"] as? String)
        #expect(await tokens.check(accessToken: access, provider: .google) == .valid(user: "bob@sandbox.example"))
        #expect(await tokens.check(accessToken: access, provider: .microsoft) == .invalid)
        let unknown = try #require(await server.handle(R.get(authorizeTarget(extra: [("login_hint", "nobody@x.example")]))))
        #expect(unknown.redirect?.parameters["error"] == "access_denied")
    }

    @Test("without auto-approve a consent page lists the Google users and its form approves or denies")
    func consentPage() async throws {
        let (server, tokens) = make(autoApprove: false)
        let page = try #require(await server.handle(R.get(authorizeTarget())))
        #expect(page.status == 200)
        #expect(page.text.contains("ada@sandbox.example") && page.text.contains("bob@sandbox.example"))
        #expect(!page.text.contains("carol@sandbox.example"))
        let consentID = try #require(page.text.firstMatch(of: /name="consent_id" value="([^"]+)"/)?.1)
        let approved = try #require(await server.handle(R.post("/o/oauth2/v2/auth/consent", form: [("consent_id", String(consentID)), ("user", "bob@sandbox.example")])))
        #expect(approved.redirect?.parameters["state"] == "xyz 123/?&")
        let code = try #require(approved.redirect?.parameters["code"])
        let access = try #require(await redeem(server, code: code, verifier: nil)?.jsonObject["access_token"] as? String)
        #expect(await tokens.check(accessToken: access, provider: .google) == .valid(user: "bob@sandbox.example"))

        let again = try #require(await server.handle(R.get(authorizeTarget())))
        let secondID = try #require(again.text.firstMatch(of: /name="consent_id" value="([^"]+)"/)?.1)
        let denied = try #require(await server.handle(R.post("/o/oauth2/v2/auth/consent", form: [("consent_id", String(secondID)), ("action", "deny")])))
        #expect(denied.redirect?.parameters["error"] == "access_denied")
    }

    @Test("refresh keeps the refresh token (none in the response) and gives a new working access token")
    func refreshWithoutRotation() async throws {
        let (server, tokens) = make()
        let code = try #require(await server.handle(R.get(authorizeTarget()))?.redirect?.parameters["code"])
        let first = try #require(await redeem(server, code: code, verifier: nil)?.jsonObject)
        let refresh = try #require(first["refresh_token"] as? String)
        for _ in 0..<2 {
            let response = try #require(await server.handle(R.post("/token", form: [
                ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", client.clientId),
                ("client_secret", client.clientSecret!),
            ])))
            #expect(response.status == 200)
            #expect(response.jsonObject["refresh_token"] == nil)
            let access = try #require(response.jsonObject["access_token"] as? String)
            #expect(access != first["access_token"] as? String)
            #expect(await tokens.check(accessToken: access, provider: .google) == .valid(user: "ada@sandbox.example"))
        }
    }

    @Test("client authentication: HTTP Basic works; a wrong secret is 401 invalid_client; no secret is invalid_request")
    func clientAuthentication() async throws {
        let (server, _) = make()
        let code = try #require(await server.handle(R.get(authorizeTarget()))?.redirect?.parameters["code"])
        let basic = "Basic " + Data("\(client.clientId):\(client.clientSecret!)".utf8).base64EncodedString()
        let ok = try #require(await server.handle(R.post("/token", form: [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "http://127.0.0.1:53124/"),
        ], headers: ["Authorization": basic])))
        #expect(ok.status == 200)
        let wrong = try #require(await server.handle(R.post("/token", form: [
            ("grant_type", "refresh_token"), ("refresh_token", "x"), ("client_id", client.clientId), ("client_secret", "no"),
        ])))
        #expect(wrong.status == 401)
        #expect(wrong.jsonObject["error"] as? String == "invalid_client")
        let none = try #require(await server.handle(R.post("/token", form: [
            ("grant_type", "refresh_token"), ("refresh_token", "x"), ("client_id", client.clientId),
        ])))
        #expect(none.jsonObject["error_description"] as? String == "client_secret is missing.")
        let grant = try #require(await server.handle(R.post("/token", form: [
            ("grant_type", "password"), ("client_id", client.clientId), ("client_secret", client.clientSecret!),
        ])))
        #expect(grant.jsonObject["error"] as? String == "unsupported_grant_type")
    }

    @Test("the refresh refusal switch: Google only ever says invalid_grant (RAPT wording for reauthentication)",
          arguments: SandboxRefreshRefusal.allCases)
    func refusal(_ refusal: SandboxRefreshRefusal) async throws {
        let (server, tokens) = make()
        let code = try #require(await server.handle(R.get(authorizeTarget()))?.redirect?.parameters["code"])
        let refresh = try #require(await redeem(server, code: code, verifier: nil)?.jsonObject["refresh_token"] as? String)
        await tokens.setRefreshRefusal(refusal)
        let form = [
            ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", client.clientId),
            ("client_secret", client.clientSecret!),
        ]
        let refused = try #require(await server.handle(R.post("/token", form: form)))
        #expect(refused.status == 400)
        #expect(refused.jsonObject["error"] as? String == "invalid_grant")
        #expect(refused.jsonObject["error_description"] as? String
            == (refusal == .mfaRequired ? "reauth related error (invalid_rapt)" : "Token has been expired or revoked."))
        await tokens.setRefreshRefusal(nil)
        #expect(try #require(await server.handle(R.post("/token", form: form))).status == 200)
    }

    @Test("revoking the access token ends the grant: the refresh token is invalid_grant and the access token invalid")
    func revoke() async throws {
        let (server, tokens) = make()
        let code = try #require(await server.handle(R.get(authorizeTarget()))?.redirect?.parameters["code"])
        let body = try #require(await redeem(server, code: code, verifier: nil)?.jsonObject)
        let access = try #require(body["access_token"] as? String), refresh = try #require(body["refresh_token"] as? String)
        let revoked = try #require(await server.handle(R.post("/revoke", form: [("token", access)])))
        #expect(revoked.status == 200)
        #expect(await tokens.check(accessToken: access, provider: .google) == .invalid)
        let again = try #require(await server.handle(R.post("/token", form: [
            ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", client.clientId),
            ("client_secret", client.clientSecret!),
        ])))
        #expect(again.status == 400)
        #expect(again.jsonObject["error"] as? String == "invalid_grant")
        #expect(again.jsonObject["error_description"] as? String == "Token has been expired or revoked.")
        let twice = try #require(await server.handle(R.post("/revoke", form: [("token", refresh)])))
        #expect(twice.status == 400)
        #expect(twice.jsonObject["error"] as? String == "invalid_token")
    }

    @Test("revoking the refresh token (token= in the query) also kills the access token")
    func revokeRefresh() async throws {
        let (server, tokens) = make()
        let code = try #require(await server.handle(R.get(authorizeTarget()))?.redirect?.parameters["code"])
        let body = try #require(await redeem(server, code: code, verifier: nil)?.jsonObject)
        let access = try #require(body["access_token"] as? String), refresh = try #require(body["refresh_token"] as? String)
        let response = try #require(await server.handle(ServerRequest(method: "POST", target: "/revoke?" + R.query([("token", refresh)]))))
        #expect(response.status == 200)
        #expect(await tokens.check(accessToken: access, provider: .google) == .invalid)
    }

    @Test("online access gives no refresh token")
    func onlineAccess() async throws {
        let (server, _) = make()
        let code = try #require(await server.handle(R.get(authorizeTarget(extra: [("access_type", "online")])))?.redirect?.parameters["code"])
        let body = try #require(await redeem(server, code: code, verifier: nil)?.jsonObject)
        #expect(body["access_token"] is String)
        #expect(body["refresh_token"] == nil)
    }

    @Test("paths that are not Google's OAuth endpoints are left to other components")
    func notMine() async {
        let (server, _) = make()
        #expect(await server.handle(R.get("/calendar/v3/users/me/calendarList")) == nil)
        #expect(await server.handle(R.get("/common/oauth2/v2.0/token")) == nil)
        #expect(await server.handle(R.get("/token"))?.status == 405)
    }
}

/// The S256 transform computed independently of the sandbox (by Python's hashlib), for the test vector.
enum PKCEChallenge {
    static func s256(_ verifier: String) async throws -> String {
        let script = """
        import base64, hashlib, sys
        print(base64.urlsafe_b64encode(hashlib.sha256(sys.argv[1].encode()).digest()).decode().rstrip('='))
        """
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, verifier])
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
