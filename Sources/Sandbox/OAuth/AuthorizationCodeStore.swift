import Foundation

/// A validated authorization request waiting for consent, or the grant an issued code stands for.
struct AuthorizationGrantRequest: Sendable {
    var clientId: String
    var redirectURI: String
    var scopes: [String]
    var state: String?
    var codeChallenge: String?
    var codeChallengeMethod: String?
    /// Whether the grant gets a refresh token (Google `access_type=offline`, Microsoft `offline_access`).
    var offline: Bool
    var loginHint: String?
}

/// Authorization codes of one authorization server: single use, short-lived, bound to the client, the
/// redirect URI and the PKCE challenge they were issued with.
struct AuthorizationCodeStore: Sendable {
    struct Issued: Sendable {
        var request: AuthorizationGrantRequest
        var user: String
        var expiresAt: Date
    }

    enum Redemption: Sendable {
        case granted(AuthorizationGrantRequest, user: String)
        case unknown
        case alreadyUsed
        case expired
        case wrongClient
        case redirectMismatch
        case missingVerifier
        case wrongVerifier
    }

    private var codes: [String: Issued] = [:]
    private var used: Set<String> = []
    let lifetime: TimeInterval

    init(lifetime: TimeInterval = 600) { self.lifetime = lifetime }

    mutating func issue(_ request: AuthorizationGrantRequest, user: String, now: Date, prefix: String) -> String {
        if codes.count > 10_000 { codes = codes.filter { $0.value.expiresAt > now } }
        let code = prefix + PKCE.randomToken(bytes: 24)
        codes[code] = Issued(request: request, user: user, expiresAt: now.addingTimeInterval(lifetime))
        return code
    }

    /// Checks and consumes a code. A code is spent by any redemption attempt that names the right client,
    /// as both services do, so a wrong verifier cannot be retried.
    mutating func redeem(code: String, clientId: String, redirectURI: String?, verifier: String?, now: Date) -> Redemption {
        if used.contains(code) { return .alreadyUsed }
        guard let issued = codes[code] else { return .unknown }
        guard issued.request.clientId == clientId else { return .wrongClient }
        codes[code] = nil
        used.insert(code)
        if used.count > 10_000 { used.removeAll() }
        guard now < issued.expiresAt else { return .expired }
        guard redirectURI == issued.request.redirectURI else { return .redirectMismatch }
        if let challenge = issued.request.codeChallenge {
            guard let verifier, !verifier.isEmpty else { return .missingVerifier }
            guard PKCE.verify(verifier: verifier, challenge: challenge, method: issued.request.codeChallengeMethod ?? "plain") else {
                return .wrongVerifier
            }
        }
        return .granted(issued.request, user: issued.user)
    }
}
