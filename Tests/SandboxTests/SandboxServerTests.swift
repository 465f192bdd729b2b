import Foundation
import HTTP
import LoopbackServer
import Sandbox
import TestSupport
import Testing

/// A stand-in API emulator: checks the bearer token with the sandbox's validator, as the real emulators
/// do, and counts what it served (its snapshot), so composition, expiry and `--state` can be tested
/// without the real emulators.
actor FakeAPIComponent: SandboxComponent {
    let tokens: any SandboxAccessTokenValidator
    private(set) var served = 0

    init(tokens: any SandboxAccessTokenValidator) { self.tokens = tokens }

    nonisolated func handle(_ request: ServerRequest) async -> ServerResponse? {
        let provider: SandboxProvider
        switch request.path {
        case "/calendar/v3/users/me/calendarList": provider = .google
        case "/v1.0/me": provider = .microsoft
        default: return nil
        }
        let bearer = request.headers["Authorization"].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil } ?? ""
        switch await tokens.check(accessToken: bearer, provider: provider) {
        case .valid(let user):
            await count()
            return .json(200, Data("{\"user\":\"\(user)\"}".utf8))
        case .expired, .invalid, .application:
            return .json(401, Data("{\"error\":{\"code\":401}}".utf8), headers: ["WWW-Authenticate": "Bearer"])
        }
    }

    private func count() { served += 1 }
    func snapshot() async throws -> Data { Data("{\"served\":\(served)}".utf8) }
    func restore(_ snapshot: Data) async throws {
        guard let object = try JSONSerialization.jsonObject(with: snapshot) as? [String: Int], let value = object["served"] else {
            throw CocoaError(.coderReadCorrupt)
        }
        served = value
    }

    static let factory: SandboxComponentFactory = { _, tokens, _ in
        SandboxAPIComponents(
            components: [SandboxNamedComponent(name: "fake", component: FakeAPIComponent(tokens: tokens))],
            users: [SandboxTestRequests.googleUsers[0], SandboxTestRequests.microsoftUsers[0]]
        )
    }
}

/// One HTTP exchange with a running sandbox over a real socket (off the cooperative pool).
enum SandboxHTTP {
    typealias Response = (status: Int, headers: [String: String], body: String)

    static func send(_ port: UInt16, _ requests: [String]) async throws -> [Response?] {
        try await blocking {
            let client = try RawHTTPClient(port: port)
            return requests.map { text in
                client.send(text)
                return client.readResponse()
            }
        }
    }

    static func get(_ target: String, token: String? = nil) -> String {
        "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + (token.map { "Authorization: Bearer \($0)\r\n" } ?? "") + "\r\n"
    }

    static func post(_ target: String, form: String) -> String {
        "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\n\(form)"
    }

    static func json(_ response: Response?) -> [String: Any] {
        (response.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body.utf8)) } as? [String: Any]) ?? [:]
    }
}

@Suite("Sandbox composition")
struct SandboxServerTests {
    typealias H = SandboxHTTP

    func start(_ configure: (inout SandboxOptions) -> Void = { _ in }) async throws -> SandboxServer {
        var options = SandboxOptions()
        configure(&options)
        return try await SandboxServer.start(options, components: FakeAPIComponent.factory)
    }

    @Test("info: Microsoft's and Google's base URLs (two ports), one account per seeded user with working tokens, and both descriptors")
    func info() async throws {
        let sandbox = try await start()
        defer { Task { try? await sandbox.stop() } }
        let info = sandbox.info
        #expect(info.url == "http://127.0.0.1:\(sandbox.port)")
        #expect(info.googleURL == sandbox.googleBaseURL.absoluteString && info.googleURL != info.url)
        #expect(info.accounts.map(\.user) == ["ada@sandbox.example", "carol@sandbox.example"])
        #expect(info.descriptors["google"]?.tokenEndpoint == info.googleURL + "/token")
        #expect(info.descriptors["google"]?.apiBaseURL == info.googleURL)
        #expect(info.descriptors["microsoft"]?.apiBaseURL == info.url)
        #expect(info.descriptors["google"]?.clientSecret == "sandbox-google-secret")
        #expect(info.descriptors["microsoft"]?.deviceAuthorizationEndpoint == info.url + "/common/oauth2/v2.0/devicecode")
        #expect(info.descriptors["microsoft"]?.clientId == "00000000-0000-4000-8000-00000000c1b0")
        let google = try #require(info.accounts.first { $0.provider == .google })
        let microsoft = try #require(info.accounts.first { $0.provider == .microsoft })
        let responses = try await H.send(
            sandbox.port,
            [
                H.get("/calendar/v3/users/me/calendarList", token: google.accessToken),
                H.get("/v1.0/me", token: microsoft.accessToken),
                H.get("/v1.0/me", token: google.accessToken),
                H.get("/nowhere"),
            ])
        #expect(responses[0]?.status == 200)
        #expect(responses[0]?.body == "{\"user\":\"ada@sandbox.example\"}")
        #expect(responses[1]?.body == "{\"user\":\"carol@sandbox.example\"}")
        #expect(responses[2]?.status == 401)
        #expect(responses[3]?.status == 404)
        // Every path on both ports: Google's port answers Graph too.
        let googlePort = try #require(sandbox.googleBaseURL.port.flatMap { UInt16(exactly: $0) })
        #expect(try await H.send(googlePort, [H.get("/v1.0/me", token: microsoft.accessToken)])[0]?.status == 200)
        // The line is one JSON object that decodes back to the same info.
        let line = try info.jsonLine()
        #expect(!line.contains("\n"))
        #expect(try JSONDecoder().decode(SandboxInfo.self, from: Data(line.utf8)) == info)
    }

    @Test("descriptor files: Providers/*.json format with explicit nulls")
    func descriptors() async throws {
        let sandbox = try await start()
        defer { Task { try? await sandbox.stop() } }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try sandbox.info.writeDescriptors(to: directory.url.appendingPathComponent("d"))
        let google =
            try JSONSerialization.jsonObject(with: Data(contentsOf: directory.url.appendingPathComponent("d/google.json")))
            as? [String: Any]
        #expect(google?["deviceAuthorizationEndpoint"] is NSNull)
        #expect(google?["apiBaseURL"] as? String == sandbox.info.googleURL)
        #expect(
            Set(google?.keys.map { $0 } ?? []) == [
                "id", "api", "displayName", "authorizationEndpoint", "tokenEndpoint", "deviceAuthorizationEndpoint",
                "revocationEndpoint", "apiBaseURL", "scopes", "authorizationParameters", "clientId", "clientSecret",
            ])
        let microsoft =
            try JSONSerialization.jsonObject(with: Data(contentsOf: directory.url.appendingPathComponent("d/microsoft.json")))
            as? [String: Any]
        #expect(microsoft?["revocationEndpoint"] is NSNull)
        #expect(microsoft?["clientSecret"] is NSNull)
    }

    @Test("an expired access token gets 401 from the API; a refresh over HTTP gives a working one")
    func expiry() async throws {
        let clock = SandboxTestClock()
        let sandbox = try await start {
            $0.now = clock.function
            $0.tokenLifetime = 60
        }
        defer { Task { try? await sandbox.stop() } }
        let account = try #require(sandbox.info.accounts.first { $0.provider == .microsoft })
        #expect(try await H.send(sandbox.port, [H.get("/v1.0/me", token: account.accessToken)])[0]?.status == 200)
        clock.advance(61)
        #expect(await sandbox.tokens.check(accessToken: account.accessToken, provider: .microsoft) == .expired)
        let form = FormEncoding.encode([
            ("client_id", SandboxClientRegistration.microsoft.clientId), ("grant_type", "refresh_token"),
            ("refresh_token", account.refreshToken),
        ])
        let responses = try await H.send(
            sandbox.port,
            [
                H.get("/v1.0/me", token: account.accessToken), H.post("/organizations/oauth2/v2.0/token", form: form),
            ])
        #expect(responses[0]?.status == 401)
        let fresh = try #require(H.json(responses[1])["access_token"] as? String)
        #expect(H.json(responses[1])["expires_in"] as? Int == 60)
        #expect(try await H.send(sandbox.port, [H.get("/v1.0/me", token: fresh)])[0]?.status == 200)
    }

    /// The statuses of `count` alternating Google/Graph API requests under a fault rate and seed.
    func faultSequence(seed: UInt64, count: Int = 40) async throws -> [Int] {
        let sandbox = try await start {
            $0.faultRate = 0.5
            $0.faultSeed = seed
        }
        defer { Task { try? await sandbox.stop() } }
        let google = sandbox.info.accounts[0].accessToken, microsoft = sandbox.info.accounts[1].accessToken
        let requests = (0..<count).map {
            $0.isMultiple(of: 2) ? H.get("/calendar/v3/users/me/calendarList", token: google) : H.get("/v1.0/me", token: microsoft)
        }
        return try await H.send(sandbox.port, requests).map { $0?.status ?? -1 }
    }

    @Test("faults: the same seed gives the same sequence, another seed another; about the asked fraction")
    func deterministicFaults() async throws {
        let first = try await faultSequence(seed: 42)
        let second = try await faultSequence(seed: 42)
        let other = try await faultSequence(seed: 7)
        #expect(first == second)
        #expect(first != other)
        let faulted = first.filter { $0 != 200 }.count
        #expect((8...32).contains(faulted))
        // Google requests (even positions) only get Google's faults, Graph's only Graph's.
        for (index, status) in first.enumerated() where status != 200 {
            #expect(index.isMultiple(of: 2) ? [403, 429, 503].contains(status) : [429, 503].contains(status))
        }
    }

    @Test("fault bodies: Google's error shape; Graph's with Retry-After and innerError")
    func faultBodies() async throws {
        let sandbox = try await start { $0.faultRate = 1 }
        defer { Task { try? await sandbox.stop() } }
        let responses = try await H.send(
            sandbox.port,
            (0..<12).map {
                $0 < 6 ? H.get("/calendar/v3/users/me/calendarList") : H.get("/v1.0/me")
            } + [H.post("/token", form: "grant_type=nope")])
        for response in responses.prefix(6) {
            let error = try #require(H.json(response)["error"] as? [String: Any])
            #expect(error["code"] as? Int == response?.status)
            let item = try #require((error["errors"] as? [[String: Any]])?.first)
            let expected = response?.status == 503 ? ("global", "backendError") : ("usageLimits", "rateLimitExceeded")
            #expect(item["domain"] as? String == expected.0)
            #expect(item["reason"] as? String == expected.1)
            #expect(error["status"] is String && error["message"] is String)
        }
        for response in responses[6..<12] {
            #expect(response?.headers["retry-after"] == "1")
            let error = try #require(H.json(response)["error"] as? [String: Any])
            #expect(error["code"] as? String == (response?.status == 429 ? "TooManyRequests" : "serviceNotAvailable"))
            let inner = try #require(error["innerError"] as? [String: Any])
            #expect(inner["request-id"] is String && inner["client-request-id"] is String)
            #expect((inner["date"] as? String)?.count == 19)
        }
        // OAuth endpoints never get faults.
        #expect(responses[12]?.status == 400)
        #expect(sandbox.requestLog.filter(\.fault).count == 12)
    }

    @Test("latency delays API responses, not OAuth ones")
    func latency() async throws {
        // 1 s: an OAuth answer on a loaded machine stays well below it, so the two are told apart.
        let sandbox = try await start { $0.latencyMs = 1000 }
        defer { Task { try? await sandbox.stop() } }
        _ = try await H.send(sandbox.port, [H.get("/v1.0/me"), H.post("/token", form: "")])
        let log = sandbox.requestLog
        #expect(log.count == 2)
        #expect(log[0].durationMs >= 1000)
        #expect(log[1].durationMs < 1000)
    }

    @Test("--log writes one JSON line per request, without the query string")
    func logLines() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("requests.log")
        let sandbox = try await start { $0.logFile = file }
        _ = try await H.send(
            sandbox.port,
            [
                H.get("/calendar/v3/users/me/calendarList"), H.post("/revoke?token=secret-value", form: ""), H.get("/v1.0/me"),
            ])
        try await sandbox.stop()
        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(!text.contains("secret-value"))
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.map { $0["path"] as? String } == ["/calendar/v3/users/me/calendarList", "/revoke", "/v1.0/me"])
        #expect(objects.map { $0["status"] as? Int } == [401, 400, 401])
        #expect(objects.map { $0["method"] as? String } == ["GET", "POST", "GET"])
        #expect(objects.allSatisfy { $0["durationMs"] is Double && $0["fault"] as? Bool == false && $0["time"] is String })
    }

    @Test("--state: tokens and component snapshots survive a restart; the file is replaced atomically")
    func statePersistence() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("state.json")
        let first = try await start { $0.stateFile = file }
        let account = first.info.accounts[0]
        _ = try await H.send(first.port, [H.get("/calendar/v3/users/me/calendarList", token: account.accessToken)])
        try await first.stop()
        try await first.stop()  // idempotent
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(saved["tokens"] is [String: Any])
        #expect((saved["fake"] as? [String: Int])?["served"] == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["state.json"])

        let second = try await start { $0.stateFile = file }
        defer { Task { try? await second.stop() } }
        #expect(second.info.accounts[0].refreshToken == account.refreshToken)
        let responses = try await H.send(second.port, [H.get("/calendar/v3/users/me/calendarList", token: account.accessToken)])
        #expect(responses[0]?.status == 200)
        let fake = try #require(second.apiComponents.first?.component as? FakeAPIComponent)
        #expect(await fake.served == 2)
    }

    @Test("a state file that is not one is refused with a message naming it")
    func badState() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("state.json")
        try Data("[1,2".utf8).write(to: file)
        await #expect(throws: SandboxError.badState(path: file.path, reason: "unreadable JSON")) {
            _ = try await start { $0.stateFile = file }
        }
        try Data("{\"fake\": 3}".utf8).write(to: file)
        await #expect(throws: SandboxError.badState(path: file.path, reason: "its \"fake\" entry does not fit")) {
            _ = try await start { $0.stateFile = file }
        }
    }

    @Test("seed files: both halves or one; anything else is a clear error")
    func seeds() throws {
        let both = try SandboxSeed.parse(Data("{\"google\": {\"users\": [1]}, \"microsoft\": {}}".utf8))
        #expect(String(decoding: both.google, as: UTF8.self) == "{\"users\":[1]}")
        let one = try SandboxSeed.parse(Data("{\"microsoft\": {\"users\": []}}".utf8))
        #expect(one.google == SandboxSeed.builtIn.google)
        #expect(throws: SandboxError.self) { try SandboxSeed.parse(Data("[]".utf8)) }
        #expect(throws: SandboxError.self) { try SandboxSeed.parse(Data("{\"outlook\": {}}".utf8)) }
        #expect(throws: SandboxError.self) { try SandboxSeed.parse(Data("{\"google\": 3}".utf8)) }
    }

    @Test("malformed requests get an error and the sandbox keeps serving")
    func malformed() async throws {
        let sandbox = try await start()
        defer { Task { try? await sandbox.stop() } }
        let garbage = [
            "\u{0}\u{1}\u{2} garbage\r\n\r\n",
            "GET\r\n\r\n",
            "POST /token HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
            H.post("/token", form: "%%%%&&=="),
            H.post("/common/oauth2/v2.0/token", form: "client_id=%FF%FE&grant_type=\u{7F}"),
            H.get("/o/oauth2/v2/auth?client_id=sandbox-google-client.apps.googleusercontent.com&redirect_uri=%"),
            H.post("/revoke", form: "token="),
            H.get("/v1.0/me", token: String(repeating: "x", count: 5000)),
        ]
        for request in garbage {
            let response = try await H.send(sandbox.port, [request])[0]
            if let response { #expect((400..<500).contains(response.status)) }
        }
        let ok = try await H.send(sandbox.port, [H.get("/v1.0/me", token: sandbox.info.accounts[1].accessToken)])
        #expect(ok[0]?.status == 200)
    }

    @Test("an authorization-code sign-in over HTTP through the composed sandbox")
    func signInOverHTTP() async throws {
        let sandbox = try await start()
        defer { Task { try? await sandbox.stop() } }
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let authorize =
            "/o/oauth2/v2/auth?"
            + FormEncoding.encode([
                ("client_id", SandboxClientRegistration.google.clientId), ("redirect_uri", "http://127.0.0.1:4321/"),
                ("response_type", "code"), ("scope", "https://www.googleapis.com/auth/calendar"), ("state", "st"),
                ("code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"), ("code_challenge_method", "S256"),
                ("access_type", "offline"),
            ])
        let redirect = try #require(try await H.send(sandbox.port, [H.get(authorize)])[0])
        #expect(redirect.status == 302)
        let location = try #require(redirect.headers["location"])
        let query = FormEncoding.decode(String(location.split(separator: "?")[1]))
        let code = try #require(query.first { $0.name == "code" }?.value)
        let token = try await H.send(
            sandbox.port,
            [
                H.post(
                    "/token",
                    form: FormEncoding.encode([
                        ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "http://127.0.0.1:4321/"),
                        ("client_id", SandboxClientRegistration.google.clientId), ("client_secret", "sandbox-google-secret"),
                        ("code_verifier", verifier),
                    ]))
            ])[0]
        let access = try #require(H.json(token)["access_token"] as? String)
        let api = try await H.send(sandbox.port, [H.get("/calendar/v3/users/me/calendarList", token: access)])[0]
        #expect(api?.body == "{\"user\":\"ada@sandbox.example\"}")
    }
}
