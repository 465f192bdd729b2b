import CalbridgeSupport
import Foundation
import HTTP
import LoopbackServer

/// The Microsoft identity platform (v2.0 endpoints of login.microsoftonline.com) on the sandbox's port:
/// `/{tenant}/oauth2/v2.0/authorize`, `/token` and `/devicecode` for any tenant segment (`common`,
/// `organizations`, `consumers`, a GUID), plus the device verification page `/{tenant}/oauth2/deviceauth`
/// (what https://microsoft.com/devicelogin leads to).
///
/// Authorization code with PKCE, refresh tokens that rotate on every refresh (the old one stops working),
/// `offline_access` required for a refresh token, and the device authorization grant (RFC 8628) with
/// `authorization_pending`, `slow_down`, `expired_token` and, for a user who says no, Microsoft's documented
/// `authorization_declined` (RFC 8628 calls it `access_denied`). Error bodies have Microsoft's shape:
/// `{"error", "error_description": "AADSTSnnnn: ...", "error_codes", "timestamp", "trace_id", "correlation_id"}`.
package actor MicrosoftIdentityServer: SandboxComponent {
    /// How the device flow behaves without a person at the verification page.
    package struct DeviceFlowPolicy: Sendable, Equatable {
        /// With auto-approve: polls answered `authorization_pending` before the user "approves" (0: the
        /// first poll succeeds). Ignored without auto-approve (the verification page decides).
        package var approveAfterPolls: Int
        /// With auto-approve: the user declines instead of approving.
        package var decline: Bool
        /// The polling interval announced, in seconds; polling sooner gets `slow_down` and adds 5 s (RFC
        /// 8628 §3.5). 0 turns `slow_down` off.
        package var interval: Int
        /// Lifetime of a device code, in seconds (Microsoft: 900).
        package var expiresIn: Int
        /// Who approves under auto-approve (default: the first seeded Microsoft user).
        package var user: String?

        package init(approveAfterPolls: Int = 1, decline: Bool = false, interval: Int = 5, expiresIn: Int = 900, user: String? = nil) {
            self.approveAfterPolls = approveAfterPolls
            self.decline = decline
            self.interval = interval
            self.expiresIn = expiresIn
            self.user = user
        }
    }

    private struct DeviceAuthorization {
        enum Status { case pending, approved(String), declined }
        var clientId: String
        var scopes: [String]
        var userCode: String
        var expiresAt: Date
        var interval: TimeInterval
        var lastPoll: Date?
        var polls = 0
        var status = Status.pending
    }

    private let tokens: SandboxTokenAuthority
    private let users: [SandboxUser]
    private let clients: [SandboxClientRegistration]
    private let autoApprove: Bool
    private var devicePolicy: DeviceFlowPolicy
    private let now: @Sendable () -> Date
    private var codes = AuthorizationCodeStore()
    private var pending = PendingConsents()
    private var devices: [String: DeviceAuthorization] = [:]
    /// The `jti` of every client assertion accepted, until it expires: a second use is a replay.
    private var usedAssertions: [String: Date] = [:]

    /// - Parameters:
    ///   - tokens: issues the tokens.
    ///   - users: every seeded user; only the Microsoft ones can sign in here.
    ///   - clients: registered clients (default: the sandbox's public Microsoft client).
    ///   - autoApprove: redirect at once / approve device codes by `devicePolicy` instead of waiting for a
    ///     person at the consent or verification page.
    package init(
        tokens: SandboxTokenAuthority,
        users: [SandboxUser],
        clients: [SandboxClientRegistration] = [.microsoft],
        autoApprove: Bool = true,
        devicePolicy: DeviceFlowPolicy = DeviceFlowPolicy(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.tokens = tokens
        self.users = users.filter { $0.provider == .microsoft }
        self.clients = clients
        self.autoApprove = autoApprove
        self.devicePolicy = devicePolicy
        self.now = now
    }

    /// Nonisolated so that requests for other components never queue behind this actor.
    package nonisolated func handle(_ request: ServerRequest) async -> ServerResponse? {
        let segments = request.pathSegments
        guard segments.count >= 3, segments[1] == "oauth2" else { return nil }
        switch Array(segments.dropFirst(2)) {
        case ["v2.0", "authorize"]:
            guard request.method == "GET" || request.method == "POST" else { return methodNotAllowed() }
            return await authorize(OAuthParameters(request.method == "GET" ? request.query : request.formBody), tenant: segments[0])
        case ["v2.0", "consent"]:
            guard request.method == "POST" else { return methodNotAllowed() }
            return await consent(OAuthParameters(request.formBody))
        case ["v2.0", "token"]:
            guard request.method == "POST" else { return methodNotAllowed() }
            let parameters = OAuthParameters(request.formBody)
            if parameters["grant_type"] == "client_credentials" {
                return await clientCredentials(parameters, tenant: segments[0], host: request.headers["Host"])
            }
            return await token(parameters)
        case ["v2.0", "devicecode"]:
            guard request.method == "POST" else { return methodNotAllowed() }
            return await deviceCode(OAuthParameters(request.formBody), host: request.headers["Host"])
        case ["deviceauth"]:
            if request.method == "GET" { return await verificationPage(message: nil, code: request.queryValue("otc")) }
            guard request.method == "POST" else { return methodNotAllowed() }
            return await verify(OAuthParameters(request.formBody))
        default:
            return nil
        }
    }

    /// Codes are short-lived; the grants live in the token authority's snapshot.
    package func snapshot() async throws -> Data { Data("{}".utf8) }
    package func restore(_ snapshot: Data) async throws {}

    /// Changes the device-flow behaviour (tests).
    package func setDevicePolicy(_ policy: DeviceFlowPolicy) { devicePolicy = policy }

    /// Approves or declines a pending device code as a person at the verification page would. False when
    /// the user code is unknown or the user is not a seeded Microsoft user.
    @discardableResult
    package func answerDeviceCode(userCode: String, user: String?, approve: Bool) -> Bool {
        guard let key = devices.first(where: { $0.value.userCode.caseInsensitiveCompare(userCode) == .orderedSame })?.key else {
            return false
        }
        if approve {
            guard let user, let known = users.first(where: { $0.email.caseInsensitiveCompare(user) == .orderedSame }) else { return false }
            devices[key]?.status = .approved(known.email)
        } else {
            devices[key]?.status = .declined
        }
        return true
    }

    // MARK: - Authorization endpoint

    private func authorize(_ parameters: OAuthParameters, tenant: String) -> ServerResponse {
        guard let clientId = parameters["client_id"], let client = clients.first(where: { $0.clientId == clientId }) else {
            let id = parameters["client_id"] ?? ""
            return OAuthPages.error(
                status: 400, title: "Sign in to your account", code: "unauthorized_client",
                detail: "AADSTS700016: Application with identifier '\(id)' was not found in the directory '\(tenant)'."
            )
        }
        guard let redirectURI = parameters["redirect_uri"], client.accepts(redirectURI: redirectURI) else {
            return OAuthPages.error(
                status: 400, title: "Sign in to your account", code: "invalid_request",
                detail: "AADSTS50011: The redirect URI '\(parameters["redirect_uri"] ?? "")' specified in the request does not "
                    + "match the redirect URIs configured for the application '\(clientId)'."
            )
        }
        let state = parameters["state"]
        func fail(_ error: String, _ code: Int, _ message: String) -> ServerResponse {
            OAuthPages.redirect(redirectURI, [("error", error), ("error_description", "AADSTS\(code): \(message)"), ("state", state)])
        }
        guard parameters["response_type"] == "code" else {
            return fail("unsupported_response_type", 700054, "response_type '\(parameters["response_type"] ?? "")' is not enabled for the application.")
        }
        let scopes = parameters.scopes
        guard !scopes.isEmpty else {
            return fail("invalid_request", 900144, "The request body must contain the following parameter: 'scope'.")
        }
        let method = parameters["code_challenge_method"] ?? (parameters["code_challenge"] == nil ? nil : "plain")
        if let method, method != "S256" && method != "plain" {
            return fail("invalid_request", 501491, "Invalid code_challenge_method.")
        }
        let request = AuthorizationGrantRequest(
            clientId: clientId, redirectURI: redirectURI, scopes: scopes, state: state,
            codeChallenge: parameters["code_challenge"], codeChallengeMethod: method,
            offline: scopes.contains("offline_access"), loginHint: parameters["login_hint"]
        )
        return pending.begin(
            request, prompt: parameters["prompt"], users: users, autoApprove: autoApprove, now: now(),
            pageTitle: "Microsoft: pick an account (sandbox)", action: "/\(tenant)/oauth2/v2.0/consent",
            refused: { refusal in
                switch refusal {
                case .noUsers: fail("access_denied", 50020, "The user account does not exist in the tenant.")
                case .unknownHint:
                    fail("access_denied", 50034, "The user account \(request.loginHint ?? "") does not exist in the directory.")
                }
            },
            approved: approve
        )
    }

    private func consent(_ parameters: OAuthParameters) -> ServerResponse {
        pending.answer(
            parameters, users: users, now: now(), pageTitle: "Sign in to your account",
            denied: {
                OAuthPages.redirect($0.redirectURI, [
                    ("error", "access_denied"),
                    ("error_description", "AADSTS65004: User declined to consent to access the app."),
                    ("state", $0.state),
                ])
            },
            approved: approve
        )
    }

    private func approve(_ request: AuthorizationGrantRequest, user: String) -> ServerResponse {
        let code = codes.issue(request, user: user, now: now(), prefix: "M.C5_sandbox.")
        return OAuthPages.redirect(request.redirectURI, [("code", code), ("state", request.state)])
    }

    // MARK: - Device authorization endpoint

    private func deviceCode(_ parameters: OAuthParameters, host: String?) -> ServerResponse {
        if let failure = checkClient(parameters) { return failure }
        let scopes = parameters.scopes
        guard !scopes.isEmpty else {
            return error("invalid_request", 900144, "The request body must contain the following parameter: 'scope'.")
        }
        if devices.count > 1000 { devices = devices.filter { $0.value.expiresAt > now() } }
        let deviceCode = "DAQABAAEAAAD-sandbox-" + PKCE.randomToken(bytes: 32)
        let userCode = Self.newUserCode()
        devices[deviceCode] = DeviceAuthorization(
            clientId: parameters["client_id"]!, scopes: scopes, userCode: userCode,
            expiresAt: now().addingTimeInterval(TimeInterval(devicePolicy.expiresIn)),
            interval: TimeInterval(devicePolicy.interval)
        )
        let verificationURI = "http://\(host ?? "127.0.0.1")/common/oauth2/deviceauth"
        return OAuthPages.json(200, [
            "user_code": userCode, "device_code": deviceCode, "verification_uri": verificationURI,
            "expires_in": devicePolicy.expiresIn, "interval": devicePolicy.interval,
            "message": "To sign in, use a web browser to open the page \(verificationURI) and enter the code \(userCode) to authenticate.",
        ])
    }

    private func verificationPage(message: String?, code: String?) -> ServerResponse {
        let buttons = users.map {
            "<li><button type=\"submit\" name=\"user\" value=\"\(HTML.escape($0.email))\">\(HTML.escape($0.displayName)) &lt;\(HTML.escape($0.email))&gt;</button></li>"
        }.joined(separator: "\n")
        let html = """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>Enter code</title></head>
        <body><h1>Enter code</h1>
        \(message.map { "<p>\(HTML.escape($0))</p>" } ?? "")
        <form method="post" action="/common/oauth2/deviceauth">
        <p><label>Code <input type="text" name="otc" value="\(HTML.escape(code ?? ""))"></label></p>
        <p>Sign in as:</p>
        <ul>
        \(buttons)
        </ul>
        <p><button type="submit" name="action" value="deny">Cancel</button></p>
        </form></body></html>
        """
        return .text(200, html, contentType: "text/html; charset=utf-8")
    }

    private func verify(_ parameters: OAuthParameters) -> ServerResponse {
        guard let code = parameters["otc"] else { return verificationPage(message: "Enter the code shown on your device.", code: nil) }
        let approve = parameters["action"] != "deny"
        guard answerDeviceCode(userCode: code, user: parameters["user"], approve: approve) else {
            return verificationPage(message: "That code was not recognised, or no account was chosen. Check it and try again.", code: code)
        }
        let text = approve
            ? "You have signed in to the application on your device. You may now close this window."
            : "You have declined to sign in to the application on your device. You may now close this window."
        return .text(200, "<!DOCTYPE html><html><body><p>\(text)</p></body></html>", contentType: "text/html; charset=utf-8")
    }

    // MARK: - Token endpoint

    private func token(_ parameters: OAuthParameters) async -> ServerResponse {
        if let failure = checkClient(parameters) { return failure }
        let clientId = parameters["client_id"]!
        guard let grantType = parameters["grant_type"] else {
            return error("invalid_request", 900144, "The request body must contain the following parameter: 'grant_type'.")
        }
        switch grantType {
        case "authorization_code":
            guard let code = parameters["code"] else {
                return error("invalid_request", 900144, "The request body must contain the following parameter: 'code'.")
            }
            let redemption = codes.redeem(
                code: code, clientId: clientId, redirectURI: parameters["redirect_uri"],
                verifier: parameters["code_verifier"], now: now()
            )
            switch redemption {
            case .granted(let grant, let user):
                let issued = await tokens.issue(
                    provider: .microsoft, user: user, clientId: clientId, scopes: grant.scopes, offline: grant.offline
                )
                return success(issued)
            case .unknown: return error("invalid_grant", 9002313, "Invalid request. Request is malformed or invalid.")
            case .alreadyUsed:
                return error("invalid_grant", 54005, "OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.")
            case .expired:
                return error("invalid_grant", 70008, "The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource.")
            case .wrongClient:
                return error("invalid_grant", 70000, "The provided value for the 'code' parameter is not valid. The code was issued to a different client.")
            case .redirectMismatch:
                return error("invalid_grant", 70000, "The provided value for the 'redirect_uri' is not valid. The value must exactly match the redirect URI used to obtain the authorization code.")
            case .missingVerifier:
                return error("invalid_grant", 50148, "The code_verifier does not match the code_challenge supplied in the authorization request for PKCE.")
            case .wrongVerifier:
                return error("invalid_grant", 501481, "The Code_Verifier does not match the code_challenge supplied in the authorization request.")
            }
        case "refresh_token":
            guard let refreshToken = parameters["refresh_token"] else {
                return error("invalid_request", 900144, "The request body must contain the following parameter: 'refresh_token'.")
            }
            let scopes = parameters.scopes
            let result = await tokens.refresh(
                refreshToken: refreshToken, provider: .microsoft, clientId: clientId, scopes: scopes.isEmpty ? nil : scopes
            )
            switch result {
            case .success(let issued): return success(issued)
            case .failure(.expired):
                return error("invalid_grant", 700082, "The refresh token has expired due to inactivity.")
            case .failure(.wrongClient):
                return error("invalid_grant", 70000, "The provided grant was issued to a different client.")
            case .failure(.unknown):
                return error("invalid_grant", 70000, "The provided grant is invalid: it was revoked, replaced by a newer refresh token, or never issued.")
            case .failure(.refused(let refusal)):
                return refused(refusal, clientId: clientId)
            }
        case "urn:ietf:params:oauth:grant-type:device_code":
            guard let deviceCode = parameters["device_code"] ?? parameters["code"] else {
                return error("invalid_request", 900144, "The request body must contain the following parameter: 'device_code'.")
            }
            return await poll(deviceCode: deviceCode, clientId: clientId)
        default:
            return error("unsupported_grant_type", 70003, "The app requested an unsupported grant type '\(grantType)'.")
        }
    }

    // MARK: - Client credentials (app-only)

    /// The client-credentials grant of an app registration: a client secret, or a client assertion signed
    /// with the key of the app's certificate (RFC 7523 §2.2). The assertion must name the app as `iss` and
    /// `sub`, this token endpoint as `aud`, carry a `jti` not seen before, name the certificate by `x5t#S256`
    /// or `x5t`, and live at most 10 minutes. The scope must be a resource's `/.default`.
    private func clientCredentials(_ parameters: OAuthParameters, tenant: String, host: String?) async -> ServerResponse {
        guard let scope = parameters["scope"], !scope.isEmpty else {
            return error("invalid_request", 900144, "The request body must contain the following parameter: 'scope'.")
        }
        guard scope.split(separator: " ").count == 1, scope.hasSuffix("/.default") else {
            return error(
                "invalid_scope", 1_002_012,
                "The provided value for scope \(scope) is not valid. Client credential flows must have a scope value with "
                    + "/.default suffixed to the resource identifier (application ID URI)."
            )
        }
        let assertion = parameters["client_assertion"].flatMap(SandboxJWT.init)
        guard let clientId = parameters["client_id"] ?? assertion?.string("sub") else {
            return error("invalid_request", 900144, "The request body must contain the following parameter: 'client_id'.")
        }
        let directory = await tokens.appOnly
        guard
            let app = directory.applications.first(where: {
                $0.clientId == clientId && $0.tenant.caseInsensitiveCompare(tenant) == .orderedSame
            })
        else {
            return error(
                "unauthorized_client", 700016,
                "Application with identifier '\(clientId)' was not found in the directory '\(tenant)'. This can happen if the "
                    + "application has not been installed by the administrator of the tenant."
            )
        }
        if let secret = parameters["client_secret"] {
            guard let expected = app.secret, secret == expected else {
                return error(
                    "invalid_client", 7_000_215,
                    "Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not "
                        + "the client secret ID, for a secret added to app '\(clientId)'.", status: 401
                )
            }
            return await issueApplicationToken(app, scope: scope)
        }
        guard parameters["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" else {
            return error(
                "invalid_client", 7_000_218,
                "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.", status: 401
            )
        }
        guard let assertion else { return error("invalid_client", 50027, "JWT token is invalid or malformed.", status: 401) }
        if let refusal = checkAssertion(assertion, app: app, tenant: tenant, host: host) { return refusal }
        return await issueApplicationToken(app, scope: scope)
    }

    /// Nil when `assertion` is a valid client assertion of `app` for this endpoint, else Microsoft's refusal.
    private func checkAssertion(
        _ assertion: SandboxJWT, app: SandboxAppOnlyDirectory.Application, tenant: String, host: String?
    ) -> ServerResponse? {
        func refuse(_ code: Int, _ message: String) -> ServerResponse { error("invalid_client", code, message, status: 401) }
        guard let pem = app.certificatePEM, let certificate = try? X509Certificate(pem: pem, source: "app certificate"),
            let key = certificate.publicKey
        else { return refuse(700027, "Client assertion failed signature validation. No certificate is registered for the app.") }
        guard let algorithm = assertion.algorithm, app.acceptedAlgorithms.contains(algorithm) else {
            return refuse(700027, "Client assertion failed signature validation. The signing algorithm is not supported.")
        }
        let named =
            (assertion.header["x5t#S256"] as? String).map { $0 == SandboxJWT.encode(certificate.sha256Thumbprint) }
            ?? (assertion.header["x5t"] as? String).map { $0 == SandboxJWT.encode(certificate.sha1Thumbprint) }
        guard named == true else {
            return refuse(700027, "Client assertion failed signature validation. Key was not found (x5t or x5t#S256).")
        }
        guard assertion.verifies(with: key) else { return refuse(700027, "Client assertion failed signature validation.") }
        guard assertion.string("iss") == app.clientId, assertion.string("sub") == app.clientId else {
            return refuse(700021, "Client assertion application identifier doesn't match 'client_id' parameter.")
        }
        let endpoint = "http://\(host ?? "127.0.0.1")/\(tenant)/oauth2/v2.0/token"
        guard assertion.string("aud") == endpoint else {
            return refuse(700212, "The audience of the client assertion is not this token endpoint: it must be \(endpoint).")
        }
        let time = Int(now().timeIntervalSince1970)
        guard let exp = assertion.number("exp"), let jti = assertion.string("jti"), !jti.isEmpty else {
            return refuse(50027, "JWT token is invalid or malformed: exp and jti are required.")
        }
        let start = assertion.number("nbf") ?? assertion.number("iat") ?? time
        // Five minutes of clock skew, as Entra allows.
        guard exp > time - 300, start <= time + 300 else { return refuse(700024, "Client assertion is not within its valid time range.") }
        guard exp - start <= 600 else {
            return refuse(700024, "Client assertion is not within its valid time range: it may live at most 10 minutes.")
        }
        usedAssertions = usedAssertions.filter { $0.value > now() }
        guard usedAssertions[jti] == nil else {
            return refuse(700027, "Client assertion failed validation: its jti was already used (a replay).")
        }
        usedAssertions[jti] = Date(timeIntervalSince1970: TimeInterval(exp + 300))
        return nil
    }

    private func issueApplicationToken(_ app: SandboxAppOnlyDirectory.Application, scope: String) async -> ServerResponse {
        let issued = await tokens.issueApplication(provider: .microsoft, application: app.clientId, user: "", scopes: [scope])
        // Microsoft's v2 answer to client credentials: no scope, no refresh token.
        return OAuthPages.json(
            200,
            [
                "token_type": "Bearer", "expires_in": issued.expiresIn, "ext_expires_in": issued.expiresIn,
                "access_token": issued.accessToken,
            ])
    }

    private func poll(deviceCode: String, clientId: String) async -> ServerResponse {
        guard var device = devices[deviceCode], device.clientId == clientId else {
            return error("bad_verification_code", 70000, "The provided value for the input parameter 'device_code' is not valid.")
        }
        let current = now()
        guard current < device.expiresAt else {
            devices[deviceCode] = nil
            return error("expired_token", 70020, "The provided value for the input parameter 'device_code' is not valid. This device code has expired.")
        }
        if device.interval > 0, let last = device.lastPoll, current.timeIntervalSince(last) < device.interval {
            device.interval += 5
            device.lastPoll = current
            devices[deviceCode] = device
            return error("slow_down", 70016, "OAuth 2.0 device flow error. Polling too frequently: wait at least \(Int(device.interval)) seconds between requests.")
        }
        device.lastPoll = current
        device.polls += 1
        if autoApprove, case .pending = device.status, device.polls > devicePolicy.approveAfterPolls {
            if devicePolicy.decline {
                device.status = .declined
            } else if let user = devicePolicy.user.flatMap({ name in users.first { $0.email.caseInsensitiveCompare(name) == .orderedSame } })
                ?? users.first {
                device.status = .approved(user.email)
            }
        }
        switch device.status {
        case .pending:
            devices[deviceCode] = device
            return error("authorization_pending", 70016, "OAuth 2.0 device flow error. Authorization is pending. Continue polling.")
        case .declined:
            devices[deviceCode] = nil
            return error("authorization_declined", 70000, "The end user denied the authorization request.")
        case .approved(let user):
            devices[deviceCode] = nil
            let issued = await tokens.issue(
                provider: .microsoft, user: user, clientId: clientId, scopes: device.scopes,
                offline: device.scopes.contains("offline_access")
            )
            return success(issued)
        }
    }

    /// Entra's answers to a refresh when only an interactive sign-in helps (shapes of real answers).
    private func refused(_ refusal: SandboxRefreshRefusal, clientId: String) -> ServerResponse {
        let graph = "00000003-0000-0000-c000-000000000000"
        switch refusal {
        case .expired:
            return error("invalid_grant", 70008, "The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource.")
        case .mfaRequired:
            return error("invalid_grant", 50076, "Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access '\(graph)'.", suberror: "basic_action")
        case .mfaEnrollment:
            return error("interaction_required", 50079, "Due to a configuration change made by your administrator, or because you moved to a new location, you must enroll in multi-factor authentication to access '\(graph)'.")
        case .consentRequired:
            return error("invalid_grant", 65001, "The user or administrator has not consented to use the application with ID '\(clientId)' named 'calbridge'. Send an interactive authorization request for this user and resource.", suberror: "consent_required")
        case .loginRequired:
            return error("login_required", 50058, "A silent sign-in request was sent but no user is signed in.")
        }
    }

    // MARK: - Helpers

    /// client_id present and registered, and no secret from this public client.
    private func checkClient(_ parameters: OAuthParameters) -> ServerResponse? {
        guard let clientId = parameters["client_id"] else {
            return error("invalid_request", 900144, "The request body must contain the following parameter: 'client_id'.")
        }
        guard let client = clients.first(where: { $0.clientId == clientId }) else {
            return error("unauthorized_client", 700016, "Application with identifier '\(clientId)' was not found in the directory.")
        }
        if client.clientSecret == nil, parameters["client_secret"] != nil || parameters["client_assertion"] != nil {
            return error("invalid_client", 700025, "Client is public so neither 'client_assertion' nor 'client_secret' should be presented.", status: 401)
        }
        if let secret = client.clientSecret, parameters["client_secret"] != secret {
            return error("invalid_client", 7000215, "Invalid client secret provided.", status: 401)
        }
        return nil
    }

    private func success(_ issued: SandboxTokenAuthority.IssuedTokens) -> ServerResponse {
        var body: [String: Any] = [
            "token_type": "Bearer", "scope": issued.scopes.joined(separator: " "),
            "expires_in": issued.expiresIn, "ext_expires_in": issued.expiresIn, "access_token": issued.accessToken,
        ]
        if let refresh = issued.refreshToken { body["refresh_token"] = refresh }
        return OAuthPages.json(200, body)
    }

    /// Microsoft's error body: the AADSTS code leads the description, which ends with the trace details.
    private func error(_ error: String, _ code: Int, _ message: String, status: Int = 400, suberror: String? = nil) -> ServerResponse {
        let timestamp = ISO8601DateFormatter().string(from: now()).replacingOccurrences(of: "T", with: " ")
        let trace = UUID().uuidString.lowercased()
        let correlation = UUID().uuidString.lowercased()
        var body: [String: Any] = [
            "error": error,
            "error_description": "AADSTS\(code): \(message)\r\nTrace ID: \(trace)\r\nCorrelation ID: \(correlation)\r\nTimestamp: \(timestamp)",
            "error_codes": [code],
            "timestamp": timestamp,
            "trace_id": trace,
            "correlation_id": correlation,
            "error_uri": "https://login.microsoftonline.com/error?code=\(code)",
        ]
        if let suberror { body["suberror"] = suberror }
        return OAuthPages.json(status, body)
    }

    private nonisolated func methodNotAllowed() -> ServerResponse { .text(405, "Method Not Allowed\n") }

    /// Nine characters people can type, as Microsoft's user codes look.
    private static func newUserCode() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<9).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
