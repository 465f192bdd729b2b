import CalbridgeSupport
import Foundation
import HTTP
import LoopbackServer

/// Google's OAuth 2.0 server for installed applications, on the sandbox's port: `/o/oauth2/v2/auth`
/// (accounts.google.com), `/token` and `/revoke` (oauth2.googleapis.com).
///
/// Authorization code with PKCE (`S256` or `plain`, checked at the token endpoint), `state` passed back,
/// `access_type=offline` for a refresh token, `login_hint` to choose the account, and refresh tokens that
/// stay the same across refreshes. Errors use Google's shapes: an error page (not a redirect) for an
/// unknown client or an unregistered redirect URI, `error=` on the redirect otherwise, and
/// `{"error", "error_description"}` with 400 (401 for client authentication) at the token endpoint.
package actor GoogleOAuthServer: SandboxComponent {
    private let tokens: SandboxTokenAuthority
    private let users: [SandboxUser]
    private let clients: [SandboxClientRegistration]
    private let autoApprove: Bool
    private let now: @Sendable () -> Date
    private var codes = AuthorizationCodeStore()
    private var pending = PendingConsents()

    /// - Parameters:
    ///   - tokens: issues and revokes the tokens.
    ///   - users: every seeded user; only the Google ones can sign in here.
    ///   - clients: registered clients (default: the sandbox's Google client).
    ///   - autoApprove: redirect at once (as the `login_hint` user, else the first seeded one) instead of
    ///     showing the consent page.
    package init(
        tokens: SandboxTokenAuthority,
        users: [SandboxUser],
        clients: [SandboxClientRegistration] = [.google],
        autoApprove: Bool = true,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.tokens = tokens
        self.users = users.filter { $0.provider == .google }
        self.clients = clients
        self.autoApprove = autoApprove
        self.now = now
    }

    /// Nonisolated so that requests for other components never queue behind this actor.
    package nonisolated func handle(_ request: ServerRequest) async -> ServerResponse? {
        let segments = request.pathSegments
        switch segments {
        case ["o", "oauth2", "v2", "auth"], ["o", "oauth2", "auth"]:
            guard request.method == "GET" || request.method == "POST" else { return methodNotAllowed() }
            return await authorize(OAuthParameters(request.method == "GET" ? request.query : request.formBody))
        case ["o", "oauth2", "v2", "auth", "consent"]:
            guard request.method == "POST" else { return methodNotAllowed() }
            return await consent(OAuthParameters(request.formBody))
        case ["token"], ["oauth2", "v4", "token"]:
            guard request.method == "POST" else { return methodNotAllowed() }
            return await token(request)
        case ["revoke"], ["o", "oauth2", "revoke"]:
            guard request.method == "POST" || request.method == "GET" else { return methodNotAllowed() }
            let parameters = OAuthParameters(request.query + (request.method == "POST" ? request.formBody : []))
            guard let token = parameters["token"] else {
                return OAuthPages.json(400, ["error": "invalid_request", "error_description": "Bad Request"])
            }
            guard await tokens.revoke(token: token) else {
                return OAuthPages.json(400, ["error": "invalid_token", "error_description": "Token expired or revoked"])
            }
            return OAuthPages.json(200, [:])
        default:
            return nil
        }
    }

    /// Codes and consent requests are short-lived; the grants live in the token authority's snapshot.
    package func snapshot() async throws -> Data { Data("{}".utf8) }
    package func restore(_ snapshot: Data) async throws {}

    // MARK: - Authorization endpoint

    private func authorize(_ parameters: OAuthParameters) -> ServerResponse {
        guard let clientId = parameters["client_id"], let client = clients.first(where: { $0.clientId == clientId }) else {
            return OAuthPages.error(
                status: 401, title: "Access blocked: authorization error", code: "invalid_client",
                detail: "The OAuth client was not found."
            )
        }
        guard let redirectURI = parameters["redirect_uri"] else {
            return OAuthPages.error(
                status: 400, title: "Access blocked: authorization error", code: "invalid_request",
                detail: "Missing required parameter: redirect_uri"
            )
        }
        guard client.accepts(redirectURI: redirectURI) else {
            return OAuthPages.error(
                status: 400, title: "Access blocked: this app's request is invalid", code: "redirect_uri_mismatch",
                detail: "You can't sign in to this app because it doesn't comply with Google's OAuth 2.0 policy. "
                    + "redirect_uri=\(redirectURI) is not registered for this client."
            )
        }
        let state = parameters["state"]
        func fail(_ error: String) -> ServerResponse { OAuthPages.redirect(redirectURI, [("error", error), ("state", state)]) }
        guard parameters["response_type"] == "code" else { return fail("unsupported_response_type") }
        let scopes = parameters.scopes
        guard !scopes.isEmpty else { return fail("invalid_request") }
        let method = parameters["code_challenge_method"] ?? (parameters["code_challenge"] == nil ? nil : "plain")
        if let method, method != "S256" && method != "plain" { return fail("invalid_request") }
        if parameters["code_challenge_method"] != nil, parameters["code_challenge"] == nil { return fail("invalid_request") }
        if let accessType = parameters["access_type"], accessType != "online" && accessType != "offline" {
            return fail("invalid_request")
        }
        let request = AuthorizationGrantRequest(
            clientId: clientId, redirectURI: redirectURI, scopes: scopes, state: state,
            codeChallenge: parameters["code_challenge"], codeChallengeMethod: method,
            offline: parameters["access_type"] == "offline", loginHint: parameters["login_hint"]
        )
        return pending.begin(
            request, prompt: parameters["prompt"], users: users, autoApprove: autoApprove, now: now(),
            pageTitle: "Sign in with Google (sandbox)", action: "/o/oauth2/v2/auth/consent",
            refused: { _ in fail("access_denied") }, approved: approve
        )
    }

    private func consent(_ parameters: OAuthParameters) -> ServerResponse {
        pending.answer(
            parameters, users: users, now: now(), pageTitle: "Sign in with Google (sandbox)",
            denied: { OAuthPages.redirect($0.redirectURI, [("error", "access_denied"), ("state", $0.state)]) },
            approved: approve
        )
    }

    private func approve(_ request: AuthorizationGrantRequest, user: String) -> ServerResponse {
        let code = codes.issue(request, user: user, now: now(), prefix: "4/sandbox-")
        return OAuthPages.redirect(request.redirectURI, [
            ("state", request.state), ("code", code), ("scope", request.scopes.joined(separator: " ")),
        ])
    }

    // MARK: - Token endpoint

    private func token(_ request: ServerRequest) async -> ServerResponse {
        let parameters = OAuthParameters(request.formBody)
        var clientId = parameters["client_id"]
        var clientSecret = parameters["client_secret"]
        if let basic = Self.basicCredentials(request.headers["Authorization"]) {
            clientId = clientId ?? basic.id
            clientSecret = clientSecret ?? basic.secret
        }
        guard let grantType = parameters["grant_type"] else {
            return Self.error(400, "unsupported_grant_type", "Invalid grant_type: ")
        }
        if grantType == "urn:ietf:params:oauth:grant-type:jwt-bearer" {
            let path = "/" + request.pathSegments.joined(separator: "/")
            return await jwtBearer(parameters["assertion"], host: request.headers["Host"], path: path)
        }
        guard let clientId else {
            return Self.error(400, "invalid_request", "Could not determine client ID from request.")
        }
        guard let client = clients.first(where: { $0.clientId == clientId }) else {
            return Self.error(401, "invalid_client", "The OAuth client was not found.")
        }
        if let expected = client.clientSecret {
            guard let clientSecret else { return Self.error(400, "invalid_request", "client_secret is missing.") }
            guard clientSecret == expected else { return Self.error(401, "invalid_client", "Unauthorized") }
        }
        switch grantType {
        case "authorization_code":
            guard let code = parameters["code"] else { return Self.error(400, "invalid_request", "Missing required parameter: code") }
            let redemption = codes.redeem(
                code: code, clientId: clientId, redirectURI: parameters["redirect_uri"],
                verifier: parameters["code_verifier"], now: now()
            )
            switch redemption {
            case .granted(let grant, let user):
                let issued = await tokens.issue(
                    provider: .google, user: user, clientId: clientId, scopes: grant.scopes, offline: grant.offline
                )
                return Self.success(issued)
            case .unknown: return Self.error(400, "invalid_grant", "Malformed auth code.")
            case .alreadyUsed, .expired, .wrongClient: return Self.error(400, "invalid_grant", "Bad Request")
            case .redirectMismatch: return Self.error(400, "redirect_uri_mismatch", "Bad Request")
            case .missingVerifier: return Self.error(400, "invalid_grant", "Missing code verifier.")
            case .wrongVerifier: return Self.error(400, "invalid_grant", "Invalid code verifier.")
            }
        case "refresh_token":
            guard let refreshToken = parameters["refresh_token"] else {
                return Self.error(400, "invalid_request", "Missing required parameter: refresh_token")
            }
            switch await tokens.refresh(refreshToken: refreshToken, provider: .google, clientId: clientId) {
            case .success(let issued): return Self.success(issued)
            case .failure(.wrongClient): return Self.error(400, "unauthorized_client", "Unauthorized")
            case .failure(.refused(.mfaRequired)):
                // Google Workspace session control ("reauthentication"): the RAPT token ran out.
                return OAuthPages.json(400, [
                    "error": "invalid_grant", "error_description": "reauth related error (invalid_rapt)",
                    "error_uri": "https://support.google.com/a/answer/9368756", "error_subtype": "invalid_rapt",
                ])
            case .failure: return Self.error(400, "invalid_grant", "Token has been expired or revoked.")
            }
        default:
            return Self.error(400, "unsupported_grant_type", "Invalid grant_type: \(grantType)")
        }
    }

    // MARK: - Service accounts (domain-wide delegation)

    /// The JWT bearer grant of a service account: an RS256 assertion signed with its key, `iss` the account,
    /// `aud` this token endpoint, `exp - iat` at most an hour, `scope` within what the admin console delegated
    /// and `sub` a user of the delegated domain. The token is that user's: writes count against them.
    private func jwtBearer(_ text: String?, host: String?, path: String) async -> ServerResponse {
        guard let text, let assertion = SandboxJWT(text) else { return Self.error(400, "invalid_grant", "Invalid JWT Signature.") }
        let directory = await tokens.appOnly
        guard let account = directory.serviceAccounts.first(where: { $0.clientEmail == assertion.string("iss") }) else {
            return Self.error(400, "invalid_grant", "Invalid grant: account not found")
        }
        guard assertion.algorithm == "RS256", let key = try? RSAPublicKey(pem: account.publicKeyPEM, source: "service account key"),
            assertion.verifies(with: key)
        else { return Self.error(400, "invalid_grant", "Invalid JWT Signature.") }
        guard assertion.string("aud") == "http://\(host ?? "127.0.0.1")\(path)" else {
            return Self.error(400, "invalid_grant", "Invalid JWT: Failed audience check.")
        }
        let time = Int(now().timeIntervalSince1970)
        guard let iat = assertion.number("iat"), let exp = assertion.number("exp"), exp - iat <= 3600, exp > time, iat <= time + 300
        else {
            return Self.error(
                400, "invalid_grant",
                "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp "
                    + "values in the JWT claim."
            )
        }
        let scopes = (assertion.string("scope") ?? "").split(separator: " ").map(String.init)
        guard !scopes.isEmpty, scopes.allSatisfy(account.delegatedScopes.contains) else {
            return Self.error(
                401, "unauthorized_client",
                "Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes "
                    + "requested."
            )
        }
        guard let subject = assertion.string("sub"), subject.lowercased().hasSuffix("@" + account.domain),
            let user = users.first(where: { $0.email.caseInsensitiveCompare(subject) == .orderedSame })
        else { return Self.error(400, "invalid_grant", "Invalid email or User ID") }
        let issued = await tokens.issueApplication(provider: .google, application: account.clientEmail, user: user.email, scopes: scopes)
        return OAuthPages.json(200, ["access_token": issued.accessToken, "expires_in": issued.expiresIn, "token_type": "Bearer"])
    }

    private static func success(_ issued: SandboxTokenAuthority.IssuedTokens) -> ServerResponse {
        var body: [String: Any] = [
            "access_token": issued.accessToken, "expires_in": issued.expiresIn,
            "scope": issued.scopes.joined(separator: " "), "token_type": "Bearer",
        ]
        if let refresh = issued.refreshToken { body["refresh_token"] = refresh }
        return OAuthPages.json(200, body)
    }

    private static func error(_ status: Int, _ error: String, _ description: String) -> ServerResponse {
        OAuthPages.json(status, ["error": error, "error_description": description])
    }

    private nonisolated func methodNotAllowed() -> ServerResponse { .text(405, "Method Not Allowed\n") }

    /// `Authorization: Basic base64(id:secret)`, each part form-encoded (RFC 6749 §2.3.1).
    static func basicCredentials(_ header: String?) -> (id: String, secret: String)? {
        guard let header, header.lowercased().hasPrefix("basic "),
              let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
              let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":") else { return nil }
        return (
            FormEncoding.percentDecode(String(text[..<colon]), plusIsSpace: true),
            FormEncoding.percentDecode(String(text[text.index(after: colon)...]), plusIsSpace: true)
        )
    }
}
