/// One cross-cutting behaviour (auth, retry, logging) wrapped around a transport.
///
/// A middleware receives the request and `next`, the rest of the chain; it may change the request,
/// call `next` zero or more times, and change the response.
public protocol HTTPMiddleware: Sendable {
    func intercept(
        _ request: HTTPRequest,
        next: @Sendable (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse
}

/// A transport that runs a request through middlewares (first listed = outermost) and then a base transport.
public struct MiddlewareTransport: HTTPTransport {
    public let base: any HTTPTransport
    public let middlewares: [any HTTPMiddleware]

    public init(base: any HTTPTransport, middlewares: [any HTTPMiddleware]) {
        self.base = base
        self.middlewares = middlewares
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await Self.run(request, middlewares[...], base)
    }

    private static func run(
        _ request: HTTPRequest,
        _ rest: ArraySlice<any HTTPMiddleware>,
        _ base: any HTTPTransport
    ) async throws -> HTTPResponse {
        guard let first = rest.first else { return try await base.send(request) }
        let tail = rest.dropFirst()
        return try await first.intercept(request) { try await run($0, tail, base) }
    }
}
