import CalbridgeSupport
import Foundation
import HTTP

/// Microsoft's OAuth 2.0 client-credentials grant for an app registration: a certificate (a signed client
/// assertion, RFC 7523 §2.2) or a client secret. One token serves every mailbox the app may reach in its
/// tenant, addressed as `/users/{id or UPN}`.
///
/// The assertion is PS256 with the certificate's SHA-256 thumbprint (`x5t#S256`); a token endpoint that
/// refuses it (an older or national cloud) gets RS256 with the SHA-1 thumbprint (`x5t`), and that choice is
/// kept for this credential. `aud` is the token endpoint, `iss` = `sub` = the client id, `jti` is fresh, and
/// it lives `assertionLifetime` (at most 10 minutes).
public actor MicrosoftClientCredentialsGrant: AppTokenGrant {
    /// How the app proves itself.
    public enum Proof: Sendable, Equatable {
        /// One PEM holding the private key and its certificate.
        case certificate(SecretLocation)
        /// A client secret (the location should be an environment variable).
        case secret(SecretLocation)
    }

    public nonisolated let tenant: String
    public nonisolated let clientId: String
    public nonisolated let tokenEndpoint: URL
    /// `{apiBaseURL}/.default`: the application permissions granted to the app.
    public nonisolated let scope: String
    public nonisolated let proof: Proof
    private let environment: [String: String]
    private let assertionLifetime: TimeInterval
    /// The scheme the token endpoint accepted last (PS256 until it refuses one).
    package private(set) var scheme = RSASignatureScheme.ps256

    /// - Parameters:
    ///   - tokenEndpoint: `https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token`, or a descriptor's.
    ///   - apiBaseURL: Graph's root (`https://graph.microsoft.com`); the scope is its `/.default`.
    ///   - assertionLifetime: seconds the assertion is valid, capped at 600.
    public init(
        tenant: String, clientId: String, tokenEndpoint: URL, apiBaseURL: URL, proof: Proof,
        environment: [String: String] = ProcessInfo.processInfo.environment, assertionLifetime: TimeInterval = 300
    ) {
        self.tenant = tenant
        self.clientId = clientId
        self.tokenEndpoint = tokenEndpoint
        var root = apiBaseURL.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        self.scope = root + "/.default"
        self.proof = proof
        self.environment = environment
        self.assertionLifetime = min(max(assertionLifetime, 30), 600)
    }

    public nonisolated func cacheKey(subject: String) -> String { "microsoft:" + tenant + ":" + clientId }

    public func requestToken(subject: String, transport: any HTTPTransport, now: Date) async throws -> TokenSet {
        var base = [("grant_type", "client_credentials"), ("client_id", clientId), ("scope", scope)]
        switch proof {
        case .secret(let location):
            let secret = String(decoding: try location.read(environment: environment), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            base.append(("client_secret", secret))
            return try await send(base, now: now, transport: transport)
        case .certificate(let location):
            let pem = try location.read(environment: environment)
            let key: RSAPrivateKey
            let certificate: X509Certificate
            do {
                key = try RSAPrivateKey(pem: pem, source: location.description)
                certificate = try X509Certificate(pem: pem, source: location.description)
            } catch {
                throw AppCredentialError("app \(clientId) of tenant \(tenant): \(error)")
            }
            let first = scheme
            do {
                return try await send(base + assertion(key, certificate, first, now), now: now, transport: transport)
            } catch let error as AppCredentialError where first == .ps256 && Self.mayRefuseScheme(error.oauth) {
                let tokens = try await send(base + assertion(key, certificate, .rs256, now), now: now, transport: transport)
                scheme = .rs256
                return tokens
            }
        }
    }

    /// The client assertion's parameters (RFC 7521 §4.2).
    private func assertion(_ key: RSAPrivateKey, _ certificate: X509Certificate, _ scheme: RSASignatureScheme, _ now: Date) throws
        -> [(String, String)]
    {
        let issued = Int(now.timeIntervalSince1970)
        let thumbprint: [String: JSONWebToken.Value] =
            scheme == .ps256
            ? ["x5t#S256": .string(Base64URL.encode(certificate.sha256Thumbprint))]
            : ["x5t": .string(Base64URL.encode(certificate.sha1Thumbprint))]
        let claims: [String: JSONWebToken.Value] = [
            "aud": .string(tokenEndpoint.absoluteString), "iss": .string(clientId), "sub": .string(clientId),
            "jti": .string(UUID().uuidString.lowercased()), "nbf": .integer(issued), "iat": .integer(issued),
            "exp": .integer(issued + Int(assertionLifetime)),
        ]
        let token: String
        do {
            token = try JSONWebToken.sign(header: thumbprint, claims: claims, key: key, scheme: scheme)
        } catch {
            throw AppCredentialError("app \(clientId) of tenant \(tenant): \(error)")
        }
        return [("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"), ("client_assertion", token)]
    }

    private func send(_ parameters: [(String, String)], now: Date, transport: any HTTPTransport) async throws -> TokenSet {
        let response = try await TokenEndpointRequest.post(tokenEndpoint, parameters, transport: transport)
        do {
            return try TokenEndpointRequest.tokens(from: response, now: now)
        } catch let error as OAuthError {
            throw AppCredentialError(
                "Microsoft refused app \(clientId) of tenant \(tenant): \(error); check the app's certificate or secret and its "
                    + "Calendars.ReadWrite application permission (admin consent) in Entra",
                oauth: error
            )
        }
    }

    /// A refusal that a PS256 assertion may have caused (the client itself, not the network or the tenant).
    private static func mayRefuseScheme(_ error: OAuthError?) -> Bool {
        guard let error else { return false }
        return error.code == .invalidClient || error.code == .invalidRequest
    }
}
