import Foundation
import HTTP
import OAuth
import Sandbox

/// A token store in memory, counting saves (the persistence of every new token set is asserted).
final class MemoryTokenStore: TokenStore, @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: [String: TokenSet] = [:]
    private var saves = 0

    func load(account: String) throws -> TokenSet? { lock.withLock { tokens[account] } }
    func save(_ tokens: TokenSet, account: String) throws {
        lock.withLock {
            self.tokens[account] = tokens
            saves += 1
        }
    }
    func delete(account: String) throws { _ = lock.withLock { tokens.removeValue(forKey: account) } }
    var saveCount: Int { lock.withLock { saves } }
}

/// Signs in at a server under test through the browser flow, with the stand-in browser.
struct SignedIn {
    let server: any AuthServerUnderTest
    let provider: SandboxProvider
    let client: OAuthClient
    let tokens: TokenSet

    static func start(_ server: any AuthServerUnderTest, _ provider: SandboxProvider, transport: LoopbackTransport = LoopbackTransport()) async throws -> SignedIn {
        let descriptor = try ProviderDescriptor.parse(server.descriptorJSON(provider), source: "test")
        let client = OAuthClient(descriptor: descriptor, credentials: server.credentials(provider), transport: transport)
        let flow = AuthorizationCodeFlow(
            client: client, timeout: .seconds(20), redirectHost: provider == .microsoft ? .localhost : .ipLiteral)
        let tokens = try await flow.run { url in
            Task { _ = try await BrowserStandIn.follow(url) }
        }
        return SignedIn(server: server, provider: provider, client: client, tokens: tokens)
    }

    func manager(store: any TokenStore = MemoryTokenStore(), tokens: TokenSet? = nil, now: @escaping @Sendable () -> Date = { Date() },
                 margin: TimeInterval = 60) -> TokenManager {
        TokenManager(
            tokens: tokens ?? self.tokens, client: client, store: store,
            identity: .init(account: "acct", providerName: client.descriptor.displayName,
                            signInCommand: "calbridge accounts add \(provider.rawValue) --name acct",
                            invalidGrantAdvice: provider == .google ? "publish the test app" : nil),
            now: now, refreshMargin: margin
        )
    }

    /// The API path that identifies the user at this provider.
    var profileURL: URL {
        let base = client.descriptor.apiBaseURL
        return provider == .google
            ? base.appendingPathComponent("calendar/v3/users/me/calendarList/primary")
            : base.appendingPathComponent("v1.0/me")
    }
}
