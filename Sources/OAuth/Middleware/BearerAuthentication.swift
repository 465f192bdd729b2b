import HTTP

/// Middleware that signs every request with `Authorization: Bearer <token>` from a `TokenManager`,
/// and on a 401 refreshes once and sends the original request once more.
///
/// Retrying after a 401 is safe even for a POST: the server refused it before doing anything.
public struct BearerAuthentication: HTTPMiddleware {
    public let tokens: TokenManager

    public init(tokens: TokenManager) {
        self.tokens = tokens
    }

    public func intercept(
        _ request: HTTPRequest,
        next: @Sendable (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        var signed = request
        let token = try await tokens.accessToken()
        signed.headers["Authorization"] = "Bearer \(token)"
        let response = try await next(signed)
        guard response.status == 401 else { return response }
        let fresh = try await tokens.accessToken(replacingRejected: token)
        signed.headers["Authorization"] = "Bearer \(fresh)"
        return try await next(signed)
    }
}
