import Foundation
import HTTP
import Sandbox
import Testing
@testable import OAuth

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ start: Date = Date()) { current = start }
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

@Suite("Refresh: proactive, on 401, single flight, rotation, revoked grants")
struct RefreshTests {
    @Test("with a 2-second token lifetime, calls keep working as tokens expire",
          arguments: ServerKind.allCases, SandboxProvider.allCases)
    func shortLifetime(_ kind: ServerKind, _ provider: SandboxProvider) async throws {
        let server = try kind.start(.init(tokenLifetime: 2))
        defer { server.stop() }
        let account = try await SignedIn.start(server, provider)
        let store = MemoryTokenStore()
        // Margin 0: the token is used until the client itself sees it expired.
        let manager = account.manager(store: store, margin: 0)
        let api = AuthorizedTransport(base: LoopbackTransport(), tokens: manager)
        #expect(try await api.send(HTTPRequest(url: account.profileURL)).status == 200)
        #expect(await server.refreshCount() == 0)
        try await Task.sleep(for: .milliseconds(2300))
        #expect(try await api.send(HTTPRequest(url: account.profileURL)).status == 200)
        // At least one refresh; on a loaded machine the 2-second token can expire again mid-call, so a
        // second refresh is legitimate. Every refresh must have been persisted.
        let refreshes = await server.refreshCount()
        #expect(refreshes >= 1)
        #expect(store.saveCount == refreshes)
        #expect(try store.load(account: "acct")?.accessToken != account.tokens.accessToken)
    }

    @Test("proactive: a token within a minute of expiry is refreshed before the request goes out")
    func proactive() async throws {
        let server = try ServerKind.fake.start()
        defer { server.stop() }
        let account = try await SignedIn.start(server, .google)
        let clock = TestClock()
        let manager = account.manager(now: { clock.now })
        let api = AuthorizedTransport(base: LoopbackTransport(), tokens: manager)
        #expect(try await api.send(HTTPRequest(url: account.profileURL)).status == 200)
        #expect(await server.refreshCount() == 0)
        clock.advance(3600 - 59)  // 59 s left: inside the one-minute margin
        #expect(try await api.send(HTTPRequest(url: account.profileURL)).status == 200)
        #expect(await server.refreshCount() == 1)
        #expect(await (server as! FakeAuthorizationServer).unauthorizedCount() == 0)
    }

    @Test("a 401 from the API triggers one refresh and one retry of the same request")
    func retryAfter401() async throws {
        let server = try ServerKind.fake.start()
        defer { server.stop() }
        let account = try await SignedIn.start(server, .microsoft)
        let base = LoopbackTransport()
        let api = AuthorizedTransport(base: base, tokens: account.manager())
        await server.expireAccessTokens()
        #expect(try await api.send(HTTPRequest(url: account.profileURL)).status == 200)
        #expect(await server.refreshCount() == 1)
        let sent = base.requests.filter { $0.url == account.profileURL }
        #expect(sent.count == 2)
        #expect(sent[0].headers["Authorization"] != sent[1].headers["Authorization"])
    }

    @Test("a second 401 right after a refresh is returned, not retried again")
    func onlyOneRetry() async throws {
        let transport = RecordingAnswers { request in
            if request.url.path.hasSuffix("/token") {
                return HTTPResponse(status: 200, body: Data(#"{"access_token":"new","expires_in":3600}"#.utf8))
            }
            return HTTPResponse(status: 401)
        }
        let descriptor = try ProviderDescriptor.parse(
            FakeAuthorizationServer.descriptorTemplate(base: "http://127.0.0.1:1"), source: "t")
        let client = OAuthClient(descriptor: descriptor, credentials: .init(clientId: "c"), transport: transport)
        let manager = TokenManager(tokens: TokenSet(accessToken: "old", refreshToken: "r"), client: client,
                                   store: MemoryTokenStore(), identity: .init(account: "a", providerName: "P", signInCommand: "c"))
        let response = try await AuthorizedTransport(base: transport, tokens: manager)
            .send(HTTPRequest(url: URL(string: "http://127.0.0.1:1/v1.0/me")!))
        #expect(response.status == 401)
        #expect(transport.count { !$0.url.path.hasSuffix("/token") } == 2)
        #expect(transport.count { $0.url.path.hasSuffix("/token") } == 1)
    }

    @Test("50 concurrent calls with an expired token cause exactly one refresh",
          arguments: ServerKind.allCases, [true, false])
    func singleFlight(_ kind: ServerKind, _ clientKnowsExpiry: Bool) async throws {
        let server = try kind.start(.init(tokenDelay: .milliseconds(200)))
        defer { server.stop() }
        let account = try await SignedIn.start(server, .microsoft)
        let clock = TestClock()
        let store = MemoryTokenStore()
        let manager = account.manager(store: store, now: { clock.now })
        await server.expireAccessTokens()
        // Either the client sees the expiry itself (proactive path), or only the server knows (401 path).
        if clientKnowsExpiry { clock.advance(7200) }
        let api = AuthorizedTransport(base: LoopbackTransport(), tokens: manager)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 { group.addTask { try await api.send(HTTPRequest(url: account.profileURL)).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 50)
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(await server.refreshCount() == 1)
        #expect(await manager.refreshCount == 1)
        #expect(store.saveCount == 1)
    }

    @Test("refresh token rotation: a new refresh token replaces the old; none returned keeps the old",
          arguments: [true, false])
    func rotation(_ rotate: Bool) async throws {
        let server = try ServerKind.fake.start(.init(rotateRefreshTokens: rotate))
        defer { server.stop() }
        let account = try await SignedIn.start(server, .google)
        let store = MemoryTokenStore()
        let manager = account.manager(store: store)
        let api = AuthorizedTransport(base: LoopbackTransport(), tokens: manager)
        for round in 1...2 {
            await server.expireAccessTokens()
            #expect(try await api.send(HTTPRequest(url: account.profileURL)).status == 200)
            #expect(await server.refreshCount() == round)
        }
        let stored = try #require(try store.load(account: "acct"))
        if rotate {
            #expect(stored.refreshToken != account.tokens.refreshToken)
        } else {
            #expect(stored.refreshToken == account.tokens.refreshToken)
        }
    }

    @Test("a revoked grant becomes ReauthenticationRequired with the sign-in command, for every caller")
    func revoked() async throws {
        let server = try ServerKind.fake.start()
        defer { server.stop() }
        let account = try await SignedIn.start(server, .google)
        let manager = account.manager()
        let api = AuthorizedTransport(base: LoopbackTransport(), tokens: manager)
        await server.revokeGrants()
        for _ in 0..<2 {
            await #expect {
                try await api.send(HTTPRequest(url: account.profileURL))
            } throws: { error in
                guard let error = error as? ReauthenticationRequired else { return false }
                return error.command == "calbridge accounts add google --name acct" && error.reason.contains("invalid_grant")
                    && "\(error)".contains("calbridge accounts add google --name acct")
            }
        }
        #expect(await server.refreshCount() == 1)
    }

    @Test("a failed refresh (server down) keeps the old tokens so a later call can try again")
    func transientFailure() async throws {
        let failing = RecordingAnswers { _ in HTTPResponse(status: 503, body: Data("busy".utf8)) }
        let descriptor = try ProviderDescriptor.parse(
            FakeAuthorizationServer.descriptorTemplate(base: "http://127.0.0.1:1"), source: "t")
        let client = OAuthClient(descriptor: descriptor, credentials: .init(clientId: "c"), transport: failing)
        let old = TokenSet(accessToken: "old", refreshToken: "r", expiresAt: Date(timeIntervalSinceNow: -10))
        let manager = TokenManager(tokens: old, client: client, store: MemoryTokenStore(),
                                   identity: .init(account: "a", providerName: "P", signInCommand: "c"))
        await #expect { try await manager.accessToken() } throws: { ($0 as? OAuthError)?.status == 503 }
        #expect(try await manager.tokens == old)
        await #expect { try await manager.accessToken() } throws: { $0 is OAuthError }
        #expect(await manager.refreshCount == 2)
    }
}

/// Answers through a closure and counts requests (a local twin of TestSupport's RecordingTransport).
final class RecordingAnswers: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var sent: [HTTPRequest] = []
    private let answer: @Sendable (HTTPRequest) async throws -> HTTPResponse
    init(_ answer: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) { self.answer = answer }
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        lock.withLock { sent.append(request) }
        return try await answer(request)
    }
    func count(where predicate: (HTTPRequest) -> Bool) -> Int { lock.withLock { sent.filter(predicate).count } }
}

extension FakeAuthorizationServer {
    /// A Microsoft-shaped descriptor for a base URL, for tests that need no running server.
    static func descriptorTemplate(base: String) -> Data {
        Data("""
        {"id":"t","api":"microsoft-graph-v1","displayName":"T","authorizationEndpoint":"\(base)/common/oauth2/v2.0/authorize",
         "tokenEndpoint":"\(base)/common/oauth2/v2.0/token","apiBaseURL":"\(base)","scopes":["offline_access"]}
        """.utf8)
    }
}
