import Foundation

/// Adds `Authorization: Basic base64(user:password)` (RFC 7617) to every request: how a password
/// account's requests are authenticated. The header is redacted wherever requests are logged.
public struct BasicAuthentication: HTTPMiddleware {
    private let header: String

    public init(userName: String, password: String) {
        header = "Basic " + Data("\(userName):\(password)".utf8).base64EncodedString()
    }

    public func intercept(_ request: HTTPRequest, next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws
        -> HTTPResponse
    {
        var request = request
        request.headers["Authorization"] = header
        return try await next(request)
    }
}
