import CalbridgeSupport
import Foundation
import HTTP

/// Google's JWT bearer grant (RFC 7523 §2.1) for a service account with domain-wide delegation: each token is
/// one user's (`sub`, the calendar's owner), so every write counts against that user's own limits, and asks
/// for the calendar scope alone. The assertion is RS256 (the only algorithm Google's token endpoint takes),
/// `kid` the key's id, `aud` the token endpoint, and it lives at most an hour.
public struct GoogleServiceAccountGrant: AppTokenGrant {
    /// The service account's key file (the JSON the Cloud console downloads).
    public let keyFile: SecretLocation
    /// The token endpoint; nil: the key file's `token_uri`.
    public let tokenEndpoint: URL?
    public let scope: String
    private let environment: [String: String]

    public static let calendarScope = "https://www.googleapis.com/auth/calendar"

    public init(
        keyFile: SecretLocation, tokenEndpoint: URL? = nil, scope: String = calendarScope,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.keyFile = keyFile
        self.tokenEndpoint = tokenEndpoint
        self.scope = scope
        self.environment = environment
    }

    public func cacheKey(subject: String) -> String { "google:" + keyFile.stored + ":" + subject.lowercased() }

    public func requestToken(subject: String, transport: any HTTPTransport, now: Date) async throws -> TokenSet {
        let account = try ServiceAccountKey.parse(keyFile.read(environment: environment), source: keyFile.description)
        let audience = tokenEndpoint ?? account.tokenURI
        let issued = Int(now.timeIntervalSince1970)
        let claims: [String: JSONWebToken.Value] = [
            "iss": .string(account.clientEmail), "sub": .string(subject), "scope": .string(scope),
            "aud": .string(audience.absoluteString), "iat": .integer(issued), "exp": .integer(issued + 3600),
        ]
        let assertion: String
        do {
            let key = try RSAPrivateKey(pem: Data(account.privateKey.utf8), source: keyFile.description)
            assertion = try JSONWebToken.sign(header: ["kid": .string(account.privateKeyID)], claims: claims, key: key, scheme: .rs256)
        } catch {
            throw AppCredentialError("service account \(account.clientEmail): \(error)")
        }
        let response = try await TokenEndpointRequest.post(
            audience, [("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion)], transport: transport
        )
        do {
            return try TokenEndpointRequest.tokens(from: response, now: now)
        } catch let error as OAuthError {
            throw AppCredentialError(
                "Google refused service account \(account.clientEmail) acting as \(subject): \(error); check the domain-wide "
                    + "delegation of its client id with the scope \(scope) in the Admin console",
                oauth: error
            )
        }
    }
}

/// What calbridge reads of a service account key file.
public struct ServiceAccountKey: Sendable {
    public var clientEmail: String
    public var privateKeyID: String
    /// PEM text; kept only while a token is asked for.
    var privateKey: String
    public var tokenURI: URL

    /// - Throws: `AppCredentialError` naming the missing member (never a value).
    public static func parse(_ data: Data, source: String) throws(AppCredentialError) -> ServiceAccountKey {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw AppCredentialError("\(source) is not a service account key file (JSON)")
        }
        func member(_ name: String) throws(AppCredentialError) -> String {
            guard let value = object[name] as? String, !value.isEmpty else {
                throw AppCredentialError("\(source) has no \(name); download the service account's JSON key again")
            }
            return value
        }
        guard try member("type") == "service_account" else {
            throw AppCredentialError("\(source) is not a service account key (its type is not service_account)")
        }
        let uri = try member("token_uri")
        guard let tokenURI = URL(string: uri), tokenURI.scheme == "https" || tokenURI.host == "127.0.0.1" else {
            throw AppCredentialError("\(source): token_uri is not an https URL")
        }
        return ServiceAccountKey(
            clientEmail: try member("client_email"), privateKeyID: try member("private_key_id"), privateKey: try member("private_key"),
            tokenURI: tokenURI
        )
    }
}
