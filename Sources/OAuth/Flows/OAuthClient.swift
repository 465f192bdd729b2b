import Foundation
import HTTP
import LoopbackServer

/// Talks to one authorization server's token, device and revocation endpoints.
///
/// All traffic goes through the given `HTTPTransport`; nothing here prints, and errors carry the
/// server's error code and description but never a token.
public struct OAuthClient: Sendable {
    public let descriptor: ProviderDescriptor
    public let credentials: ClientCredentials
    public let transport: any HTTPTransport
    /// The clock that stamps token expiry times.
    public let now: @Sendable () -> Date

    public init(
        descriptor: ProviderDescriptor,
        credentials: ClientCredentials,
        transport: any HTTPTransport,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.descriptor = descriptor
        self.credentials = credentials
        self.transport = transport
        self.now = now
    }

    /// Exchanges an authorization code (RFC 6749 §4.1.3 with RFC 7636's `code_verifier`).
    public func exchange(code: String, verifier: String, redirectURI: String) async throws -> TokenSet {
        try await tokenRequest([
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirectURI),
            ("code_verifier", verifier),
        ])
    }

    /// Gets a new access token with a refresh token (RFC 6749 §6). The old refresh token is kept
    /// when the server does not send a new one.
    public func refresh(_ refreshToken: String) async throws -> TokenSet {
        try await tokenRequest(
            [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("scope", descriptor.scopeParameter)],
            previousRefreshToken: refreshToken
        )
    }

    /// Starts the device flow (RFC 8628 §3.1).
    public func startDeviceAuthorization() async throws -> DeviceAuthorization {
        guard let endpoint = descriptor.deviceAuthorizationEndpoint else {
            throw SignInError(
                .deviceFlowUnsupported,
                "\(descriptor.displayName) has no device sign-in; use --flow browser (with --no-browser over SSH)"
            )
        }
        let response = try await post(endpoint, [("scope", descriptor.scopeParameter)] + clientParameters)
        guard response.isSuccess else { throw OAuthError.from(response, endpoint: "device authorization endpoint") }
        guard let authorization = try DeviceAuthorization.parse(response.body, receivedAt: now()) else {
            throw OAuthError(
                code: .unexpectedResponse, errorDescription: "no device_code, user_code or verification_uri",
                status: response.status, endpoint: "device authorization endpoint"
            )
        }
        return authorization
    }

    /// One poll of the token endpoint with a device code (RFC 8628 §3.4). Pending, slow-down,
    /// expiry and denial come back as `OAuthError`s for the flow to act on.
    public func pollDeviceToken(_ deviceCode: String) async throws -> TokenSet {
        try await tokenRequest([
            ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
            ("device_code", deviceCode),
        ])
    }

    /// Revokes a token (RFC 7009). An answer that the token is already invalid counts as done.
    /// - Returns: false when the descriptor has no revocation endpoint (nothing was sent).
    @discardableResult
    public func revoke(_ token: String, hint: String? = nil) async throws -> Bool {
        guard let endpoint = descriptor.revocationEndpoint else { return false }
        var parameters = [("token", token)]
        if let hint { parameters.append(("token_type_hint", hint)) }
        let response = try await post(endpoint, parameters + clientParameters)
        if response.isSuccess { return true }
        let error = OAuthError.from(response, endpoint: "revocation endpoint")
        // Google answers 400 invalid_token for a token that is already revoked or expired.
        if error.code == .invalidToken || error.code == .invalidGrant { return true }
        throw error
    }

    // MARK: - Plumbing

    private var clientParameters: [(String, String)] {
        var parameters = [("client_id", credentials.clientId)]
        // client_secret_post: Google accepts it, and public clients simply have none.
        if let secret = credentials.clientSecret { parameters.append(("client_secret", secret)) }
        return parameters
    }

    private func tokenRequest(_ parameters: [(String, String)], previousRefreshToken: String? = nil) async throws -> TokenSet {
        let response = try await post(descriptor.tokenEndpoint, parameters + clientParameters)
        guard response.isSuccess else { throw OAuthError.from(response, endpoint: "token endpoint") }
        guard let tokens = try TokenSet.fromTokenResponse(response.body, receivedAt: now(), previousRefreshToken: previousRefreshToken)
        else {
            throw OAuthError(
                code: .unexpectedResponse, errorDescription: "a success answer without access_token",
                status: response.status, endpoint: "token endpoint"
            )
        }
        return tokens
    }

    private func post(_ url: URL, _ parameters: [(String, String)]) async throws -> HTTPResponse {
        let request = HTTPRequest(
            method: .post,
            url: url,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: Data(FormEncoding.encode(parameters).utf8),
            timeout: .seconds(30)
        )
        return try await transport.send(request)
    }
}
