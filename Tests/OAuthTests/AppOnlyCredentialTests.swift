import CalbridgeSupport
import Foundation
import HTTP
import LoopbackServer
import Sandbox
import TestSupport
import Testing

@testable import OAuth

/// App-only credentials against the sandbox's token endpoints, which check the assertions as Entra and
/// Google do: Microsoft's client credentials (certificate or secret), Google's service account with
/// domain-wide delegation. Keys are made for each test by openssl.
@Suite("App-only credentials against the sandbox")
struct AppOnlyCredentialTests {
    static let tenant = "contoso.sandbox"
    static let clientId = "6f1c2f1e-0000-4000-8000-00000000a991"
    static let serviceAccount = "calbridge-sync@contoso-project.iam.gserviceaccount.com"

    /// A sandbox that knows one app registration (its certificate, a secret) and one service account.
    struct Setup {
        let sandbox: SandboxServer
        let keys: ThrowawayKeys
        let transport = LoopbackTransport()

        var tokenEndpoint: URL { URL(string: sandbox.info.url + "/\(AppOnlyCredentialTests.tenant)/oauth2/v2.0/token")! }
        var graph: URL { URL(string: sandbox.info.url)! }
        var googleAPI: URL { URL(string: sandbox.info.googleURL)! }

        func microsoft(_ proof: MicrosoftClientCredentialsGrant.Proof, environment: [String: String] = [:])
            -> MicrosoftClientCredentialsGrant
        {
            MicrosoftClientCredentialsGrant(
                tenant: AppOnlyCredentialTests.tenant, clientId: AppOnlyCredentialTests.clientId, tokenEndpoint: tokenEndpoint,
                apiBaseURL: graph, proof: proof, environment: environment
            )
        }

        /// Removes the keys at once (a `defer` cannot wait) and stops the sandbox in the background.
        func stop() {
            keys.directory.remove()
            let sandbox = self.sandbox
            Task { try? await sandbox.stop() }
        }
    }

    static func start(
        acceptedAlgorithms: Set<String> = ["PS256", "RS256"], mailboxScope: Set<String>? = nil,
        delegatedScopes: [String] = [GoogleServiceAccountGrant.calendarScope],
        tokenLifetime: TimeInterval = 3600
    ) async throws -> Setup {
        // The key file's token_uri is only known once the sandbox runs; the grant is given the endpoint.
        let keys = try await ThrowawayKeys(clientEmail: serviceAccount, tokenURI: "https://oauth2.googleapis.com/token")
        var options = SandboxOptions()
        options.tokenLifetime = tokenLifetime
        options.appOnly = SandboxAppOnlyDirectory(
            applications: [
                .init(
                    tenant: tenant, clientId: clientId, certificatePEM: keys.certificatePEM, secret: "s3cret-value~not-printed",
                    acceptedAlgorithms: acceptedAlgorithms, mailboxScope: mailboxScope
                )
            ],
            serviceAccounts: [
                .init(
                    clientEmail: serviceAccount, publicKeyPEM: keys.serviceAccountPublicPEM, domain: "gmail.sandbox",
                    delegatedScopes: delegatedScopes)
            ]
        )
        return Setup(sandbox: try await SandboxServer.start(options), keys: keys)
    }

    /// The form fields of a request body.
    static func form(_ request: HTTPRequest) -> [String: String] {
        Dictionary(
            FormEncoding.decode(String(decoding: request.body ?? Data(), as: UTF8.self)).map { ($0.name, $0.value) },
            uniquingKeysWith: { a, _ in a })
    }

    static func decode(_ part: Substring) throws -> [String: Any] {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let data = try #require(Data(base64Encoded: text))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("certificate: a PS256 client assertion (x5t#S256, aud, iss = sub, jti, 10 minutes at most) gets a token that reads /users/{upn}")
    func certificateAssertion() async throws {
        let setup = try await Self.start()
        defer { setup.stop() }
        let grant = setup.microsoft(.certificate(.file(setup.keys.combinedPEM.path)))
        let tokens = try await grant.requestToken(subject: "carol.diaz@contoso.sandbox", transport: setup.transport, now: Date())
        #expect(tokens.refreshToken == nil)
        #expect(tokens.expiresAt != nil)
        #expect(await grant.scheme == .ps256)

        let sent = try #require(setup.transport.requests.last)
        let form = Self.form(sent)
        #expect(form["grant_type"] == "client_credentials")
        #expect(form["scope"] == setup.graph.absoluteString + "/.default")
        #expect(form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        let parts = try #require(form["client_assertion"]).split(separator: ".")
        let header = try Self.decode(parts[0]), claims = try Self.decode(parts[1])
        #expect(header["alg"] as? String == "PS256")
        #expect(header["x5t#S256"] as? String != nil)
        #expect(claims["aud"] as? String == setup.tokenEndpoint.absoluteString)
        #expect(claims["iss"] as? String == Self.clientId)
        #expect(claims["sub"] as? String == Self.clientId)
        let exp = try #require(claims["exp"] as? Int), nbf = try #require(claims["nbf"] as? Int)
        #expect(exp - nbf > 0 && exp - nbf <= 600)
        #expect((claims["jti"] as? String)?.isEmpty == false)

        let cache = AppTokenCache(grant: grant, transport: setup.transport)
        let api = MiddlewareTransport(
            base: setup.transport, middlewares: [AppOnlyAuthentication(tokens: cache, subject: "carol.diaz@contoso.sandbox")])
        let calendars = try await api.send(
            HTTPRequest(url: setup.graph.appendingPathComponent("v1.0/users/carol.diaz@contoso.sandbox/calendars")))
        #expect(calendars.status == 200)
        let dan = try await api.send(HTTPRequest(url: setup.graph.appendingPathComponent("v1.0/users/dan.wu@contoso.sandbox/calendar")))
        #expect(dan.status == 200)
        // One token served both mailboxes of the tenant.
        #expect(await cache.requestCount == 1)
        #expect(await setup.sandbox.tokens.appOnlyIssueCount == 2)
    }

    @Test("a token endpoint that refuses PS256 gets RS256 with x5t, and the credential keeps that choice")
    func rs256Fallback() async throws {
        let setup = try await Self.start(acceptedAlgorithms: ["RS256"])
        defer { setup.stop() }
        let grant = setup.microsoft(.certificate(.file(setup.keys.combinedPEM.path)))
        _ = try await grant.requestToken(subject: "", transport: setup.transport, now: Date())
        #expect(await grant.scheme == .rs256)
        let assertions = setup.transport.requests.compactMap { Self.form($0)["client_assertion"] }
        #expect(assertions.count == 2)
        let header = try Self.decode(try #require(assertions.last?.split(separator: ".").first))
        #expect(header["alg"] as? String == "RS256")
        #expect(header["x5t"] as? String != nil)
        _ = try await grant.requestToken(subject: "", transport: setup.transport, now: Date())
        #expect(setup.transport.requests.count == 3)
    }

    @Test("an assertion sent twice is refused the second time (jti replay), and a stale one is refused")
    func replayAndExpiry() async throws {
        let setup = try await Self.start()
        defer { setup.stop() }
        let grant = setup.microsoft(.certificate(.file(setup.keys.combinedPEM.path)))
        _ = try await grant.requestToken(subject: "", transport: setup.transport, now: Date())
        let first = try #require(setup.transport.requests.last)
        let replay = try await setup.transport.send(first)
        #expect(replay.status == 401)
        #expect(OAuthError.from(replay, endpoint: "token endpoint").code == .invalidClient)
        await #expect(throws: AppCredentialError.self) {
            _ = try await grant.requestToken(subject: "", transport: setup.transport, now: Date().addingTimeInterval(-3600))
        }
    }

    @Test("a client secret from an environment variable works; a wrong one is refused without the secret in the message")
    func clientSecret() async throws {
        let setup = try await Self.start()
        defer { setup.stop() }
        let good = setup.microsoft(.secret(.environment("APP_SECRET")), environment: ["APP_SECRET": "s3cret-value~not-printed\n"])
        #expect(try await good.requestToken(subject: "", transport: setup.transport, now: Date()).accessToken.isEmpty == false)
        let bad = setup.microsoft(.secret(.environment("APP_SECRET")), environment: ["APP_SECRET": "wrong-secret-value"])
        do {
            _ = try await bad.requestToken(subject: "", transport: setup.transport, now: Date())
            Issue.record("a wrong secret was accepted")
        } catch let error as AppCredentialError {
            #expect(error.oauth?.code == .invalidClient)
            #expect(!error.description.contains("wrong-secret-value"))
        }
        let unset = setup.microsoft(.secret(.environment("APP_SECRET")))
        await #expect(throws: AppCredentialError("the environment variable APP_SECRET is not set in this worker's environment")) {
            _ = try await unset.requestToken(subject: "", transport: setup.transport, now: Date())
        }
    }

    @Test("outside the app's RBAC scope a mailbox answers 403; inside it, 200")
    func rbacScope() async throws {
        let setup = try await Self.start(mailboxScope: ["carol.diaz@contoso.sandbox"])
        defer { setup.stop() }
        let cache = AppTokenCache(grant: setup.microsoft(.certificate(.file(setup.keys.combinedPEM.path))), transport: setup.transport)
        let api = MiddlewareTransport(base: setup.transport, middlewares: [AppOnlyAuthentication(tokens: cache, subject: "x")])
        #expect(
            try await api.send(HTTPRequest(url: setup.graph.appendingPathComponent("v1.0/users/carol.diaz@contoso.sandbox/calendar")))
                .status == 200)
        let outside = try await api.send(HTTPRequest(url: setup.graph.appendingPathComponent("v1.0/users/dan.wu@contoso.sandbox/calendar")))
        #expect(outside.status == 403)
        #expect(outside.bodyText.contains("ErrorAccessDenied"))
    }

    @Test("tokens are renewed before they expire: one request while fresh, a new one inside the margin")
    func renewalBeforeExpiry() async throws {
        let setup = try await Self.start(tokenLifetime: 600)
        defer { setup.stop() }
        // Starts 400 s in the past: the sandbox checks assertions against the real time (5 minutes' skew), and
        // the last request below is made 100 s ahead of it.
        let clock = TestClock(Date().addingTimeInterval(-400))
        let cache = AppTokenCache(
            grant: setup.microsoft(.certificate(.file(setup.keys.combinedPEM.path))), transport: setup.transport, renewMargin: 120,
            now: { clock.now }
        )
        let first = try await cache.accessToken(for: "a@contoso.sandbox")
        clock.advance(300)
        #expect(try await cache.accessToken(for: "b@contoso.sandbox") == first)
        #expect(await cache.requestCount == 1)
        clock.advance(200)  // 100 s left, inside the 120 s margin.
        #expect(try await cache.accessToken(for: "a@contoso.sandbox") != first)
        #expect(await cache.requestCount == 2)
    }

    @Test("Google: a service account acts as a user of its domain with the calendar scope alone; the token is that user's")
    func serviceAccount() async throws {
        let setup = try await Self.start()
        defer { setup.stop() }
        let grant = GoogleServiceAccountGrant(
            keyFile: .file(setup.keys.serviceAccountFile.path), tokenEndpoint: URL(string: setup.sandbox.info.googleURL + "/token")!)
        let cache = AppTokenCache(grant: grant, transport: setup.transport)
        let api = MiddlewareTransport(
            base: setup.transport, middlewares: [AppOnlyAuthentication(tokens: cache, subject: "ann.lee@gmail.sandbox")])
        let list = try await api.send(HTTPRequest(url: setup.googleAPI.appendingPathComponent("calendar/v3/users/me/calendarList")))
        #expect(list.status == 200)
        #expect(list.bodyText.contains("ann.lee@gmail.sandbox"))
        let sent = try #require(setup.transport.requests.first)
        let form = Self.form(sent)
        #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
        let parts = try #require(form["assertion"]).split(separator: ".")
        let header = try Self.decode(parts[0]), claims = try Self.decode(parts[1])
        #expect(header["alg"] as? String == "RS256")
        #expect(header["kid"] as? String == "0123456789abcdef")
        #expect(claims["sub"] as? String == "ann.lee@gmail.sandbox")
        #expect(claims["scope"] as? String == "https://www.googleapis.com/auth/calendar")
        #expect((claims["exp"] as? Int ?? 0) - (claims["iat"] as? Int ?? 0) == 3600)

        // Each user has a token of their own.
        _ = try await cache.accessToken(for: "bob.kim@gmail.sandbox")
        #expect(await cache.requestCount == 2)
        // A user outside the delegated domain is refused.
        do {
            _ = try await grant.requestToken(subject: "carol.diaz@example.com", transport: setup.transport, now: Date())
            Issue.record("a user outside the domain got a token")
        } catch let error as AppCredentialError {
            #expect(error.oauth?.code == .invalidGrant)
        }
    }

    @Test("Google refuses scopes the admin console did not delegate, and an assertion that lives over an hour")
    func serviceAccountLimits() async throws {
        let setup = try await Self.start(delegatedScopes: ["https://www.googleapis.com/auth/calendar.readonly"])
        defer { setup.stop() }
        let endpoint = URL(string: setup.sandbox.info.googleURL + "/token")!
        let grant = GoogleServiceAccountGrant(keyFile: .file(setup.keys.serviceAccountFile.path), tokenEndpoint: endpoint)
        do {
            _ = try await grant.requestToken(subject: "ann.lee@gmail.sandbox", transport: setup.transport, now: Date())
            Issue.record("an undelegated scope got a token")
        } catch let error as AppCredentialError {
            #expect(error.oauth?.code == .unauthorizedClient)
        }
        // Hand-made: two hours' life.
        let key = try ServiceAccountKey.parse(try Data(contentsOf: setup.keys.serviceAccountFile), source: "test")
        let now = Int(Date().timeIntervalSince1970)
        let assertion = try JSONWebToken.sign(
            header: [:],
            claims: [
                "iss": .string(Self.serviceAccount), "sub": .string("ann.lee@gmail.sandbox"), "aud": .string(endpoint.absoluteString),
                "scope": .string("https://www.googleapis.com/auth/calendar.readonly"), "iat": .integer(now), "exp": .integer(now + 7200),
            ],
            key: try RSAPrivateKey(pem: Data(key.privateKey.utf8), source: "test"), scheme: .rs256
        )
        let response = try await setup.transport.send(
            HTTPRequest(
                method: .post, url: endpoint, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data(
                    FormEncoding.encode([("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion)]).utf8)
            ))
        #expect(response.status == 400)
        #expect(response.bodyText.contains("short-lived"))
    }

    @Test("keys: RS256 and PS256 signatures verify with the certificate's key and fail when one byte changes")
    func signatures() async throws {
        let keys = try await ThrowawayKeys(tokenURI: "https://oauth2.googleapis.com/token")
        defer { keys.directory.remove() }
        let pem = try Data(contentsOf: keys.combinedPEM)
        let key = try RSAPrivateKey(pem: pem, source: "test")
        let certificate = try X509Certificate(pem: pem, source: "test")
        let publicKey = try #require(certificate.publicKey)
        #expect(certificate.sha1Thumbprint.count == 20)
        #expect(certificate.sha256Thumbprint.count == 32)
        #expect(key.bits == 2048)
        #expect(!key.description.contains("BEGIN"))
        let message = Array("header.claims".utf8)
        for scheme in RSASignatureScheme.allCases {
            var signature = try key.sign(message, scheme: scheme)
            #expect(signature.count == 256)
            #expect(publicKey.verify(signature, of: message, scheme: scheme))
            #expect(!publicKey.verify(signature, of: Array("header.claimz".utf8), scheme: scheme))
            signature[10] ^= 1
            #expect(!publicKey.verify(signature, of: message, scheme: scheme))
        }
        #expect(throws: RSAKeyError.self) { _ = try RSAPrivateKey(pem: keys.certificatePEM, source: "cert only") }
        #expect(throws: RSAKeyError.self) { _ = try RSAPrivateKey(pem: Data("not a key".utf8), source: "junk") }
    }
}
