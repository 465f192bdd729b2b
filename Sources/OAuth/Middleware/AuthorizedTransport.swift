import HTTP

/// A transport for one account's API calls: bearer token, proactive refresh, one refresh-and-retry
/// on 401, and the single-flight refresh of `TokenManager`. Providers take one of these as their
/// `HTTPTransport` and never see a token.
public struct AuthorizedTransport: HTTPTransport {
    public let tokens: TokenManager
    private let chain: MiddlewareTransport

    /// - Parameters:
    ///   - base: the network transport (also used, unauthenticated, by the token manager's client).
    ///   - tokens: the account's token manager.
    ///   - middlewares: more middleware (retry, logging) placed inside authentication, so a retried
    ///     or logged request already carries its token.
    public init(base: any HTTPTransport, tokens: TokenManager, middlewares: [any HTTPMiddleware] = []) {
        self.tokens = tokens
        self.chain = MiddlewareTransport(base: base, middlewares: [BearerAuthentication(tokens: tokens)] + middlewares)
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await chain.send(request)
    }
}
