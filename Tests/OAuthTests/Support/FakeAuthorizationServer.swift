import Foundation
import HTTP
import OAuth
import Sandbox
import LoopbackServer

/// A TEST DOUBLE: a minimal OAuth 2.0 server (both providers' endpoint layouts) plus a few protected
/// API endpoints, on a LoopbackHTTPServer, whose answers a test scripts through `Configuration`.
///
/// The standard flows run against the sandbox's real OAuth servers (`SandboxAuthServer`,
/// SandboxFlowTests). This double stays for what only it does: answer `slow_down` to the first device
/// poll, deny a device code or let it expire at once, delay every token answer (to widen the
/// single-flight race), switch refresh-token rotation per test, and count 401s and issued tokens (so a
/// test can check that no token was printed).
///
/// Endpoints: Google `/o/oauth2/v2/auth`, `/token`, `/revoke`; Microsoft
/// `/{tenant}/oauth2/v2.0/authorize|token|devicecode`; `/device?user_code=` approves a device code
/// (the verification page, auto-approving); APIs `/v1.0/me`, `/v1.0/me/mailboxSettings`,
/// `/calendar/v3/users/me/calendarList/primary`, answering 401 for an expired or unknown token.
final class FakeAuthorizationServer: AuthServerUnderTest, @unchecked Sendable {
    struct Configuration: Sendable {
        /// Access token lifetime in seconds.
        var tokenLifetime: Int = 3600
        /// Rotate refresh tokens on every refresh (Microsoft does, Google does not). Nil: per provider.
        var rotateRefreshTokens: Bool?
        /// Device flow poll interval the server asks for.
        var deviceInterval: Int = 1
        /// Answer `slow_down` to the first device poll.
        var slowDownFirstPoll = false
        /// Device codes expire after this many seconds.
        var deviceCodeLifetime: Int = 600
        /// The device verification page denies instead of approving.
        var denyDevice = false
        /// Delay added to each token-endpoint answer (widens races in concurrency tests).
        var tokenDelay: Duration = .zero
    }

    static let googleClient = ClientCredentials(
        clientId: "sandbox-google-client.apps.googleusercontent.com", clientSecret: "sandbox-google-secret"
    )
    static let microsoftClient = ClientCredentials(clientId: "00000000-0000-4000-8000-00000000c1b0")

    let configuration: Configuration
    private let state = ServerState()
    private var server: LoopbackHTTPServer!

    init(_ configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        let state = self.state
        server = LoopbackHTTPServer { [configuration] request in
            await Self.handle(request, state: state, configuration: configuration)
        }
        try server.start()
    }

    var baseURL: URL { server.baseURL }

    func stop() { server.stop() }

    // MARK: - AuthServerUnderTest

    func descriptorJSON(_ provider: SandboxProvider) -> Data {
        let base = baseURL.absoluteString
        let object: [String: Any]
        switch provider {
        case .google:
            object = [
                "id": "fake-google", "api": "google-calendar-v3", "displayName": "Fake Google",
                "authorizationEndpoint": "\(base)/o/oauth2/v2/auth", "tokenEndpoint": "\(base)/token",
                "deviceAuthorizationEndpoint": NSNull(), "revocationEndpoint": "\(base)/revoke",
                "apiBaseURL": base, "scopes": ["https://www.googleapis.com/auth/calendar"],
                "authorizationParameters": ["access_type": "offline", "prompt": "consent"],
                "clientId": NSNull(), "clientSecret": NSNull(),
            ]
        case .microsoft:
            object = [
                "id": "fake-microsoft", "api": "microsoft-graph-v1", "displayName": "Fake Microsoft",
                "authorizationEndpoint": "\(base)/{tenant}/oauth2/v2.0/authorize",
                "tokenEndpoint": "\(base)/{tenant}/oauth2/v2.0/token",
                "deviceAuthorizationEndpoint": "\(base)/{tenant}/oauth2/v2.0/devicecode",
                "revocationEndpoint": NSNull(), "apiBaseURL": base,
                "scopes": ["offline_access", "User.Read", "MailboxSettings.Read", "Calendars.ReadWrite"],
                "authorizationParameters": [String: String](), "clientId": NSNull(), "clientSecret": NSNull(),
            ]
        }
        return try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    func credentials(_ provider: SandboxProvider) -> ClientCredentials {
        provider == .google ? Self.googleClient : Self.microsoftClient
    }

    func user(_ provider: SandboxProvider) -> String {
        provider == .google ? "ada@example.com" : "grace@contoso.example"
    }

    func refreshCount() async -> Int { await state.count("refresh_token") }
    func unauthorizedCount() async -> Int { await state.unauthorized }
    func expireAccessTokens() async { await state.expireAccessTokens() }
    func revokeGrants() async { await state.revokeAll() }
    func issuedTokens() async -> [String] { await state.everyTokenIssued }
    func approveDevice(verificationURI: URL, userCode: String) async throws {
        var parts = URLComponents(url: verificationURI, resolvingAgainstBaseURL: false)!
        parts.queryItems = [URLQueryItem(name: "user_code", value: userCode)]
        let response = try await LoopbackTransport().send(HTTPRequest(url: parts.url!))
        guard response.status == 200 else { throw HTTPError(code: .other, url: parts.url!, message: "approve failed: \(response.status)") }
    }

    // MARK: - Handling

    private static func handle(_ request: ServerRequest, state: ServerState, configuration: Configuration) async -> ServerResponse {
        let segments = request.pathSegments
        // Microsoft paths: /{tenant}/oauth2/v2.0/<endpoint>
        let microsoftEndpoint = segments.count == 4 && segments[1] == "oauth2" && segments[2] == "v2.0" ? segments[3] : nil
        switch (request.method, request.path, microsoftEndpoint) {
        case ("GET", "/o/oauth2/v2/auth", _):
            return await authorize(request, provider: .google, state: state)
        case ("GET", _, "authorize"?):
            return await authorize(request, provider: .microsoft, state: state)
        case ("POST", "/token", _):
            if configuration.tokenDelay > .zero { try? await Task.sleep(for: configuration.tokenDelay) }
            return await token(request, provider: .google, state: state, configuration: configuration)
        case ("POST", _, "token"?):
            if configuration.tokenDelay > .zero { try? await Task.sleep(for: configuration.tokenDelay) }
            return await token(request, provider: .microsoft, state: state, configuration: configuration)
        case ("POST", _, "devicecode"?):
            return await deviceCode(request, state: state, configuration: configuration, base: request.headers["Host"] ?? "")
        case ("GET", "/device", _):
            let ok = await state.decideDevice(userCode: request.queryValue("user_code") ?? "", approve: !configuration.denyDevice)
            return .text(ok ? 200 : 404, ok ? "done\n" : "unknown code\n")
        case ("POST", "/revoke", _):
            let token = request.formBody.last { $0.name == "token" }?.value ?? ""
            let known = await state.revoke(token)
            return known ? .json(200, Data("{}".utf8))
                : .json(400, Data(#"{"error":"invalid_token","error_description":"Token expired or revoked"}"#.utf8))
        case ("GET", "/v1.0/me", _), ("GET", "/v1.0/me/mailboxSettings", _),
             ("GET", "/calendar/v3/users/me/calendarList/primary", _):
            return await api(request, state: state)
        default:
            return .text(404, "no such endpoint in the fake server: \(request.method) \(request.path)\n")
        }
    }

    private static func authorize(_ request: ServerRequest, provider: SandboxProvider, state: ServerState) async -> ServerResponse {
        let client = provider == .google ? googleClient : microsoftClient
        guard request.queryValue("client_id") == client.clientId else { return .text(400, "unknown client_id\n") }
        // Each provider's registered loopback host, matched exactly as its server does (Entra: localhost).
        let loopback = provider == .google ? "http://127.0.0.1:" : "http://localhost:"
        guard let redirect = request.queryValue("redirect_uri"), redirect.hasPrefix(loopback), redirect.hasSuffix("/")
        else { return .text(400, "redirect_uri must be \(loopback)PORT/\n") }
        let stateValue = request.queryValue("state") ?? ""
        guard request.queryValue("response_type") == "code",
              request.queryValue("code_challenge_method") == "S256",
              let challenge = request.queryValue("code_challenge"), challenge.count == 43
        else {
            return .redirect(to: redirect + "?error=invalid_request&error_description=PKCE+S256+required&state=\(stateValue)")
        }
        let code = await state.issueCode(provider: provider, challenge: challenge, redirectURI: redirect, scope: request.queryValue("scope") ?? "")
        return .redirect(to: redirect + "?" + FormEncoding.encode([("code", code), ("state", stateValue)]))
    }

    private static func token(_ request: ServerRequest, provider: SandboxProvider, state: ServerState, configuration: Configuration) async -> ServerResponse {
        let form = Dictionary(request.formBody.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        let client = provider == .google ? googleClient : microsoftClient
        guard form["client_id"] == client.clientId, form["client_secret"] == client.clientSecret else {
            return oauthError(401, "invalid_client", "client authentication failed")
        }
        let grant = form["grant_type"] ?? ""
        await state.countGrant(grant)
        let rotate = configuration.rotateRefreshTokens ?? (provider == .microsoft)
        let lifetime = configuration.tokenLifetime
        switch grant {
        case "authorization_code":
            guard let issued = await state.redeem(code: form["code"] ?? "") else {
                return oauthError(400, "invalid_grant", "unknown or used code")
            }
            guard issued.redirectURI == form["redirect_uri"] else { return oauthError(400, "invalid_grant", "redirect_uri mismatch") }
            guard let verifier = form["code_verifier"], PKCE.challenge(for: verifier) == issued.challenge else {
                return oauthError(400, "invalid_grant", "PKCE verification failed")
            }
            return tokenAnswer(await state.issueTokens(provider: provider, lifetime: lifetime, refresh: nil, rotate: true), lifetime)
        case "refresh_token":
            guard let refresh = form["refresh_token"], await state.isValidRefresh(refresh) else {
                return oauthError(400, "invalid_grant", "Token has been expired or revoked.")
            }
            return tokenAnswer(await state.issueTokens(provider: provider, lifetime: lifetime, refresh: refresh, rotate: rotate), lifetime)
        case "urn:ietf:params:oauth:grant-type:device_code":
            switch await state.pollDevice(form["device_code"] ?? "", slowDownFirst: configuration.slowDownFirstPoll) {
            case .pending: return oauthError(400, "authorization_pending", "waiting for the user")
            case .slowDown: return oauthError(400, "slow_down", "polling too fast")
            case .expired: return oauthError(400, "expired_token", "the device code expired")
            case .denied: return oauthError(400, "access_denied", "the user declined")
            case .approved:
                return tokenAnswer(await state.issueTokens(provider: provider, lifetime: lifetime, refresh: nil, rotate: true), lifetime)
            }
        default:
            return oauthError(400, "unsupported_grant_type", grant)
        }
    }

    private static func deviceCode(_ request: ServerRequest, state: ServerState, configuration: Configuration, base: String) async -> ServerResponse {
        let form = Dictionary(request.formBody.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        guard form["client_id"] == microsoftClient.clientId else { return oauthError(400, "invalid_client", "unknown client") }
        let (device, user) = await state.issueDeviceCode(lifetime: configuration.deviceCodeLifetime)
        let body: [String: Any] = [
            "device_code": device, "user_code": user, "verification_uri": "http://\(base)/device",
            "expires_in": configuration.deviceCodeLifetime, "interval": configuration.deviceInterval,
            "message": "To sign in, open http://\(base)/device and enter the code \(user).",
        ]
        return .json(200, try! JSONSerialization.data(withJSONObject: body))
    }

    private static func api(_ request: ServerRequest, state: ServerState) async -> ServerResponse {
        let header = request.headers["Authorization"] ?? ""
        guard header.hasPrefix("Bearer "), let provider = await state.check(String(header.dropFirst(7))) else {
            await state.noteUnauthorized()
            return .json(401, Data(#"{"error":{"code":"InvalidAuthenticationToken","message":"Access token has expired or is not yet valid."}}"#.utf8))
        }
        switch (provider, request.pathSegments.last) {
        case (.microsoft, "me"):
            return .json(200, Data(#"{"displayName":"Grace Hopper","mail":"grace@contoso.example","userPrincipalName":"grace@contoso.example"}"#.utf8))
        case (.microsoft, "mailboxSettings"):
            return .json(200, Data(#"{"timeZone":"W. Europe Standard Time"}"#.utf8))
        case (.google, "primary"):
            return .json(200, Data(#"{"kind":"calendar#calendarListEntry","id":"ada@example.com","summary":"Ada Lovelace","timeZone":"Europe/London","primary":true}"#.utf8))
        default:
            return .json(403, Data(#"{"error":"wrong provider"}"#.utf8))
        }
    }

    private static func tokenAnswer(_ tokens: (access: String, refresh: String?), _ lifetime: Int) -> ServerResponse {
        var body: [String: Any] = ["access_token": tokens.access, "token_type": "Bearer", "expires_in": lifetime, "scope": "calendar"]
        if let refresh = tokens.refresh { body["refresh_token"] = refresh }
        return .json(200, try! JSONSerialization.data(withJSONObject: body))
    }

    private static func oauthError(_ status: Int, _ code: String, _ description: String) -> ServerResponse {
        .json(status, try! JSONSerialization.data(withJSONObject: ["error": code, "error_description": description]))
    }
}

/// The fake server's memory.
private actor ServerState {
    struct IssuedCode { var provider: SandboxProvider; var challenge: String; var redirectURI: String }
    enum DevicePoll { case pending, slowDown, expired, denied, approved }
    struct Device { var userCode: String; var expires: Date; var decision: Bool?; var polls = 0 }

    private var codes: [String: IssuedCode] = [:]
    private var access: [String: (provider: SandboxProvider, expires: Date)] = [:]
    private var refresh: [String: SandboxProvider] = [:]
    private var devices: [String: Device] = [:]
    private var grants: [String: Int] = [:]
    private(set) var unauthorized = 0
    private(set) var everyTokenIssued: [String] = []

    func issueCode(provider: SandboxProvider, challenge: String, redirectURI: String, scope: String) -> String {
        let code = "code-" + UUID().uuidString
        codes[code] = IssuedCode(provider: provider, challenge: challenge, redirectURI: redirectURI)
        return code
    }

    func redeem(code: String) -> IssuedCode? { codes.removeValue(forKey: code) }

    func countGrant(_ grant: String) { grants[grant, default: 0] += 1 }
    func count(_ grant: String) -> Int { grants[grant, default: 0] }

    func isValidRefresh(_ token: String) -> Bool { refresh[token] != nil }

    func issueTokens(provider: SandboxProvider, lifetime: Int, refresh old: String?, rotate: Bool) -> (access: String, refresh: String?) {
        let accessToken = "at-\(provider.rawValue)-" + UUID().uuidString
        access[accessToken] = (provider, Date().addingTimeInterval(TimeInterval(lifetime)))
        everyTokenIssued.append(accessToken)
        guard rotate else { return (accessToken, nil) }
        if let old { refresh[old] = nil }
        let refreshToken = "rt-\(provider.rawValue)-" + UUID().uuidString
        refresh[refreshToken] = provider
        everyTokenIssued.append(refreshToken)
        return (accessToken, refreshToken)
    }

    func check(_ token: String) -> SandboxProvider? {
        guard let entry = access[token], entry.expires > Date() else { return nil }
        return entry.provider
    }

    func noteUnauthorized() { unauthorized += 1 }

    func expireAccessTokens() {
        for key in access.keys { access[key]?.expires = .distantPast }
    }

    func revokeAll() {
        refresh.removeAll()
        access.removeAll()
    }

    func revoke(_ token: String) -> Bool {
        if refresh.removeValue(forKey: token) != nil {
            access.removeAll()
            return true
        }
        return access.removeValue(forKey: token) != nil
    }

    func issueDeviceCode(lifetime: Int) -> (String, String) {
        let device = "dc-" + UUID().uuidString
        let user = String(UUID().uuidString.prefix(8))
        devices[device] = Device(userCode: user, expires: Date().addingTimeInterval(TimeInterval(lifetime)))
        return (device, user)
    }

    func decideDevice(userCode: String, approve: Bool) -> Bool {
        guard let key = devices.first(where: { $0.value.userCode == userCode })?.key else { return false }
        devices[key]?.decision = approve
        return true
    }

    func pollDevice(_ code: String, slowDownFirst: Bool) -> DevicePoll {
        guard var device = devices[code] else { return .expired }
        device.polls += 1
        devices[code] = device
        if device.expires <= Date() { return .expired }
        if slowDownFirst, device.polls == 1 { return .slowDown }
        switch device.decision {
        case nil: return .pending
        case false?: return .denied
        case true?:
            devices[code] = nil
            return .approved
        }
    }
}
