import Foundation
import HTTP
import LoopbackServer

/// A way to get an access token without a person: the Microsoft client-credentials grant, Google's JWT bearer
/// grant for a service account. Tokens come without refresh tokens; `AppTokenCache` asks again before expiry.
///
/// A test double returns a token per subject:
/// ```swift
/// struct FixedGrant: AppTokenGrant {
///     func cacheKey(subject: String) -> String { subject }
///     func requestToken(subject: String, transport: any HTTPTransport, now: Date) async throws -> TokenSet {
///         TokenSet(accessToken: "t-\(subject)", expiresAt: now.addingTimeInterval(3600), issuedAt: now)
///     }
/// }
/// ```
public protocol AppTokenGrant: Sendable {
    /// Which subjects share a token: Microsoft's app token serves every mailbox of its tenant; Google's
    /// delegated token is one user's.
    func cacheKey(subject: String) -> String
    /// A new token for `subject` (the mailbox's address), asked of the token endpoint through `transport`.
    /// - Throws: `AppCredentialError` (a refusal, unreadable key material), or the transport's error.
    func requestToken(subject: String, transport: any HTTPTransport, now: Date) async throws -> TokenSet
}

/// Form posts to a token endpoint, shared by both grants.
enum TokenEndpointRequest {
    static func post(_ url: URL, _ parameters: [(String, String)], transport: any HTTPTransport) async throws -> HTTPResponse {
        let request = HTTPRequest(
            method: .post, url: url,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: Data(FormEncoding.encode(parameters).utf8), timeout: .seconds(30)
        )
        return try await transport.send(request)
    }

    /// The token in a success answer, or the answer as an `OAuthError`.
    static func tokens(from response: HTTPResponse, now: Date) throws -> TokenSet {
        guard response.isSuccess else { throw OAuthError.from(response, endpoint: "token endpoint") }
        guard let tokens = try TokenSet.fromTokenResponse(response.body, receivedAt: now) else {
            throw OAuthError(
                code: .unexpectedResponse, errorDescription: "a success answer without access_token", status: response.status,
                endpoint: "token endpoint"
            )
        }
        return tokens
    }
}
