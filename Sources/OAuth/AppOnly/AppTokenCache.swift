import Foundation
import HTTP

/// App-only access tokens, cached per tenant (Microsoft) or per user (Google) and asked for again before they
/// expire; at most one request per cache key at a time, however many mailboxes wait for it.
public actor AppTokenCache {
    private enum Entry {
        case valid(TokenSet)
        case fetching(Task<TokenSet, any Error>)
    }

    private let grant: any AppTokenGrant
    private let transport: any HTTPTransport
    private let now: @Sendable () -> Date
    private let renewMargin: TimeInterval
    private var entries: [String: Entry] = [:]
    /// Tokens asked of the token endpoint (tests, status).
    public private(set) var requestCount = 0

    /// - Parameters:
    ///   - transport: the network, unauthenticated.
    ///   - renewMargin: ask for a new token this long before expiry (default 5 minutes).
    public init(
        grant: any AppTokenGrant, transport: any HTTPTransport, renewMargin: TimeInterval = 300,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.grant = grant
        self.transport = transport
        self.renewMargin = renewMargin
        self.now = now
    }

    /// A token for `subject` valid for at least the margin.
    public func accessToken(for subject: String) async throws -> String {
        let key = grant.cacheKey(subject: subject)
        switch entries[key] {
        case .valid(let tokens) where !tokens.needsRefresh(at: now(), margin: renewMargin):
            return tokens.accessToken
        case .fetching(let task):
            return try await task.value.accessToken
        default:
            return try await fetch(key: key, subject: subject).accessToken
        }
    }

    /// After the API answered 401 to `rejected`: a new token, unless another caller already has one.
    public func accessToken(for subject: String, replacingRejected rejected: String) async throws -> String {
        let key = grant.cacheKey(subject: subject)
        switch entries[key] {
        case .valid(let tokens) where tokens.accessToken != rejected:
            return tokens.accessToken
        case .fetching(let task):
            return try await task.value.accessToken
        default:
            return try await fetch(key: key, subject: subject).accessToken
        }
    }

    private func fetch(key: String, subject: String) async throws -> TokenSet {
        requestCount += 1
        let grant = self.grant, transport = self.transport, time = now()
        let task = Task { try await grant.requestToken(subject: subject, transport: transport, now: time) }
        entries[key] = .fetching(task)
        do {
            let tokens = try await task.value
            entries[key] = .valid(tokens)
            return tokens
        } catch {
            entries[key] = nil
            throw error
        }
    }
}

/// Signs each request with an app-only token for one mailbox, and on a 401 gets a new token once and sends
/// the request again (the server refused it before doing anything).
public struct AppOnlyAuthentication: HTTPMiddleware {
    public let tokens: AppTokenCache
    /// The mailbox's address: Google's `sub`; for Microsoft any mailbox of the tenant shares the token.
    public let subject: String

    public init(tokens: AppTokenCache, subject: String) {
        self.tokens = tokens
        self.subject = subject
    }

    public func intercept(_ request: HTTPRequest, next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        var signed = request
        let token = try await tokens.accessToken(for: subject)
        signed.headers["Authorization"] = "Bearer \(token)"
        let response = try await next(signed)
        guard response.status == 401 else { return response }
        signed.headers["Authorization"] = "Bearer \(try await tokens.accessToken(for: subject, replacingRejected: token))"
        return try await next(signed)
    }
}
