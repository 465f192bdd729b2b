import Foundation
import HTTP
import Sandbox
import Testing
@testable import OAuth

@Suite("Sign-in flows end to end against an authorization server")
struct FlowTests {
    @Test("browser flow: PKCE, state, loopback redirect, code exchange, success page",
          arguments: ServerKind.allCases, SandboxProvider.allCases)
    func browserFlow(_ kind: ServerKind, _ provider: SandboxProvider) async throws {
        let server = try kind.start()
        defer { server.stop() }
        let descriptor = try ProviderDescriptor.parse(server.descriptorJSON(provider), source: "test")
        let client = OAuthClient(descriptor: descriptor, credentials: server.credentials(provider), transport: LoopbackTransport())
        let visit = VisitBox()
        let tokens = try await AuthorizationCodeFlow(client: client, timeout: .seconds(20), redirectHost: provider == .microsoft ? .localhost : .ipLiteral).run { url in
            let query = URLComponents(url: url, resolvingAgainstBaseURL: false)!.queryItems!
            func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
            #expect(value("code_challenge_method") == "S256")
            #expect(value("code_challenge")?.count == 43)
            #expect((value("state")?.count ?? 0) >= 22)
            // Entra matches the registered http://localhost by host; Google keeps the IP literal.
            #expect(value("redirect_uri")?.hasPrefix(provider == .microsoft ? "http://localhost:" : "http://127.0.0.1:") == true)
            #expect(value("scope") == descriptor.scopes.joined(separator: " "))
            if provider == .google { #expect(value("access_type") == "offline") }
            visit.run { try await BrowserStandIn.follow(url) }
        }
        #expect(tokens.accessToken.isEmpty == false)
        #expect(tokens.refreshToken != nil)
        #expect(tokens.expiresAt != nil)
        let page = try await visit.wait()
        #expect(page.pageStatus == 200)
        #expect(page.page.contains("Signed in"))
        // The token works at the API.
        let manager = SignedIn(server: server, provider: provider, client: client, tokens: tokens).manager()
        let api = AuthorizedTransport(base: LoopbackTransport(), tokens: manager)
        let me = SignedIn(server: server, provider: provider, client: client, tokens: tokens).profileURL
        #expect(try await api.send(HTTPRequest(url: me)).status == 200)
    }

    @Test("browser flow: requests with a wrong or no state get 400 and are ignored; the real redirect still signs in")
    func stateMismatch() async throws {
        let server = try ServerKind.fake.start()
        defer { server.stop() }
        let descriptor = try ProviderDescriptor.parse(server.descriptorJSON(.microsoft), source: "test")
        let client = OAuthClient(descriptor: descriptor, credentials: server.credentials(.microsoft), transport: LoopbackTransport())
        let forgedVisit = VisitBox(), stateless = VisitBox(), realVisit = VisitBox()
        let tokens = try await AuthorizationCodeFlow(client: client, timeout: .seconds(20), redirectHost: .localhost).run { url in
            // Forged redirects straight to the listener (another local process, a page probing ports),
            // then, only after both were answered, the real one.
            var parts = URLComponents(url: url, resolvingAgainstBaseURL: false)!
            let redirect = parts.queryItems!.first { $0.name == "redirect_uri" }!.value!
            parts = URLComponents(string: redirect)!
            parts.queryItems = [URLQueryItem(name: "code", value: "forged"), URLQueryItem(name: "state", value: "forged")]
            let forged = parts.url!
            parts.queryItems = [URLQueryItem(name: "code", value: "forged")]
            let noState = parts.url!
            forgedVisit.run { try await BrowserStandIn.open(forged) }
            stateless.run { try await BrowserStandIn.open(noState) }
            realVisit.run {
                _ = try await forgedVisit.wait()
                _ = try await stateless.wait()
                return try await BrowserStandIn.follow(url)
            }
        }
        #expect(!tokens.accessToken.isEmpty)
        for visit in [forgedVisit, stateless] {
            let page = try await visit.wait()
            #expect(page.pageStatus == 400)
            #expect(page.page.contains("Not this sign-in"))
        }
        let real = try await realVisit.wait()
        #expect(real.pageStatus == 200)
        #expect(real.page.contains("Signed in"))
    }

    @Test("browser flow: only a wrong-state request arrives, so the flow ends by its timeout, not by the request")
    func forgedThenTimeout() async throws {
        let server = try ServerKind.fake.start()
        defer { server.stop() }
        let descriptor = try ProviderDescriptor.parse(server.descriptorJSON(.google), source: "test")
        let client = OAuthClient(descriptor: descriptor, credentials: server.credentials(.google), transport: LoopbackTransport())
        let visit = VisitBox()
        let started = ContinuousClock.now
        await #expect {
            try await AuthorizationCodeFlow(client: client, timeout: .seconds(1)).run { url in
                var parts = URLComponents(url: url, resolvingAgainstBaseURL: false)!
                let redirect = parts.queryItems!.first { $0.name == "redirect_uri" }!.value!
                parts = URLComponents(string: redirect)!
                parts.queryItems = [URLQueryItem(name: "code", value: "x"), URLQueryItem(name: "state", value: "guess")]
                let forged = parts.url!
                visit.run { try await BrowserStandIn.open(forged) }
            }
        } throws: { ($0 as? SignInError)?.code == .timeout }
        #expect(ContinuousClock.now - started >= .milliseconds(900))
        #expect(try await visit.wait().pageStatus == 400)
    }

    @Test("browser flow: nobody signs in, the flow gives up after its timeout")
    func timeout() async throws {
        let server = try ServerKind.fake.start()
        defer { server.stop() }
        let descriptor = try ProviderDescriptor.parse(server.descriptorJSON(.google), source: "test")
        let client = OAuthClient(descriptor: descriptor, credentials: server.credentials(.google), transport: LoopbackTransport())
        await #expect {
            try await AuthorizationCodeFlow(client: client, timeout: .milliseconds(300)).run { _ in }
        } throws: { ($0 as? SignInError)?.code == .timeout }
    }

    @Test("device flow: shows the code, polls, honours slow_down, gets tokens",
          arguments: ServerKind.allCases)
    func deviceFlow(_ kind: ServerKind) async throws {
        let server = try kind.start(.init(deviceInterval: 1, slowDownFirstPoll: true))
        defer { server.stop() }
        let descriptor = try ProviderDescriptor.parse(server.descriptorJSON(.microsoft), source: "test")
        let client = OAuthClient(descriptor: descriptor, credentials: server.credentials(.microsoft), transport: LoopbackTransport())
        let sleeps = SleepLog()
        let flow = DeviceCodeFlow(client: client) { duration in
            sleeps.append(duration)
            try await Task.sleep(for: .milliseconds(20))
        }
        let tokens = try await flow.run { authorization in
            #expect(!authorization.userCode.isEmpty)
            Task { try await server.approveDevice(verificationURI: authorization.verificationURI, userCode: authorization.userCode) }
        }
        #expect(tokens.refreshToken != nil)
        // The first wait is the server's interval, and every wait after slow_down is 5 s longer.
        #expect(sleeps.values.first == .seconds(1))
        #expect(sleeps.values.dropFirst().allSatisfy { $0 == .seconds(6) })
        #expect(sleeps.values.count >= 2)
    }

    @Test("device flow: access_denied and expired_token end with a clear message")
    func deviceFlowFailures() async throws {
        let denying = try ServerKind.fake.start(.init(denyDevice: true))
        defer { denying.stop() }
        for (server, expected) in [(denying, SignInError.Code.denied)] {
            let descriptor = try ProviderDescriptor.parse(server.descriptorJSON(.microsoft), source: "test")
            let client = OAuthClient(descriptor: descriptor, credentials: server.credentials(.microsoft), transport: LoopbackTransport())
            let flow = DeviceCodeFlow(client: client) { _ in try await Task.sleep(for: .milliseconds(50)) }
            await #expect {
                try await flow.run { authorization in
                    try await server.approveDevice(verificationURI: authorization.verificationURI, userCode: authorization.userCode)
                }
            } throws: { ($0 as? SignInError)?.code == expected && "\($0)".contains("declined") }
        }
        let expiring = try ServerKind.fake.start(.init(deviceCodeLifetime: 0))
        defer { expiring.stop() }
        let descriptor = try ProviderDescriptor.parse(expiring.descriptorJSON(.microsoft), source: "test")
        let client = OAuthClient(descriptor: descriptor, credentials: expiring.credentials(.microsoft), transport: LoopbackTransport())
        await #expect {
            try await DeviceCodeFlow(client: client) { _ in }.run { _ in }
        } throws: { ($0 as? SignInError)?.code == .deviceCodeExpired && "\($0)".contains("run the command again") }
    }

    @Test("device flow: a descriptor without a device endpoint says to use the browser flow")
    func deviceUnsupported() async throws {
        let server = try ServerKind.fake.start()
        defer { server.stop() }
        let descriptor = try ProviderDescriptor.parse(server.descriptorJSON(.google), source: "test")
        let client = OAuthClient(descriptor: descriptor, credentials: server.credentials(.google), transport: LoopbackTransport())
        await #expect {
            try await DeviceCodeFlow(client: client).run { _ in }
        } throws: { ($0 as? SignInError)?.code == .deviceFlowUnsupported }
    }
}

/// Collects what a stand-in browser saw, from a detached task.
final class VisitBox: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<BrowserStandIn.Visit, any Error>?

    /// Runs the visit in a task of its own (the flow must not wait for the browser) and keeps the outcome.
    func run(_ visit: @escaping @Sendable () async throws -> BrowserStandIn.Visit) {
        Task {
            let value: Result<BrowserStandIn.Visit, any Error>
            do { value = .success(try await visit()) } catch { value = .failure(error) }
            lock.withLock { result = value }
        }
    }

    func wait() async throws -> BrowserStandIn.Visit {
        for _ in 0..<500 {
            if let result = lock.withLock({ result }) { return try result.get() }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw BrowserStandIn.Failure(description: "the stand-in browser never finished")
    }
}

final class SleepLog: @unchecked Sendable {
    private let lock = NSLock()
    private var log: [Duration] = []
    func append(_ duration: Duration) { lock.withLock { log.append(duration) } }
    var values: [Duration] { lock.withLock { log } }
}
