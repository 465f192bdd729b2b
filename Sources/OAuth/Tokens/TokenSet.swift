import Foundation

/// The tokens of one account, with the absolute time the access token stops working.
///
/// Its `description` and `dump` show no token, so an accidental `print(tokens)` leaks nothing.
public struct TokenSet: Sendable, Equatable, Codable, CustomStringConvertible, CustomReflectable {
    public var accessToken: String
    public var refreshToken: String?
    /// When the access token expires (from `expires_in` at the time it was received); nil if unknown.
    public var expiresAt: Date?
    /// Normally "Bearer".
    public var tokenType: String
    /// The scopes granted, space-separated, when the server said.
    public var scope: String?
    /// An OpenID Connect ID token, kept but not used.
    public var idToken: String?
    /// When the tokens were received (to know the access token's whole lifetime).
    public var issuedAt: Date?

    public init(
        accessToken: String,
        refreshToken: String? = nil,
        expiresAt: Date? = nil,
        tokenType: String = "Bearer",
        scope: String? = nil,
        idToken: String? = nil,
        issuedAt: Date? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.tokenType = tokenType
        self.scope = scope
        self.idToken = idToken
        self.issuedAt = issuedAt
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresAt = "expires_at"
        case tokenType = "token_type"
        case scope
        case idToken = "id_token"
        case issuedAt = "issued_at"
    }

    /// Whether the access token is expired, or expires within `margin`, at `now`.
    ///
    /// For a token whose whole lifetime is shorter than twice the margin (a test server's 2-second
    /// tokens), half its lifetime is the margin instead, so not every request refreshes.
    public func needsRefresh(at now: Date, margin: TimeInterval) -> Bool {
        guard let expiresAt else { return false }
        var effective = margin
        if let issuedAt { effective = min(margin, max(0, expiresAt.timeIntervalSince(issuedAt)) / 2) }
        return expiresAt.timeIntervalSince(now) <= effective
    }

    /// The `expires_in` values calbridge accepts, in seconds: one second to a year. Google and Microsoft
    /// send about 3600; anything outside is a broken or hostile answer, not a lifetime.
    public static let lifetimeRange: ClosedRange<Double> = 1...31_536_000

    /// A token endpoint's success answer (RFC 6749 §5.1) as a token set received at `now`; nil when it
    /// carries no access token.
    ///
    /// - Parameter previousRefreshToken: kept when the answer carries no new refresh token
    ///   (Google never rotates; RFC 6749 §6 lets any server keep the old one).
    /// - Throws: `OAuthError` (`.unexpectedResponse`) naming an `expires_in` that is not a number of
    ///   seconds in `lifetimeRange`.
    public static func fromTokenResponse(
        _ body: Data, receivedAt now: Date, previousRefreshToken: String? = nil
    ) throws(OAuthError) -> TokenSet? {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let accessToken = object["access_token"] as? String, !accessToken.isEmpty
        else { return nil }
        let lifetime = try Self.seconds(object["expires_in"], field: "expires_in", range: lifetimeRange, endpoint: "token endpoint")
        let refresh = (object["refresh_token"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        return TokenSet(
            accessToken: accessToken,
            refreshToken: refresh ?? previousRefreshToken,
            expiresAt: lifetime.map { now.addingTimeInterval($0) },
            tokenType: object["token_type"] as? String ?? "Bearer",
            scope: object["scope"] as? String,
            idToken: object["id_token"] as? String,
            issuedAt: now
        )
    }

    /// A JSON number of seconds (some servers send it as a string) within `range`; nil when absent.
    static func seconds(_ value: Any?, field: String, range: ClosedRange<Double>, endpoint: String) throws(OAuthError) -> Double? {
        guard let value, !(value is NSNull) else { return nil }
        var number: Double?
        if let text = value as? String {
            number = Double(text.trimmingCharacters(in: .whitespaces))
        } else if let boxed = value as? NSNumber {
            number = boxed.doubleValue
        }
        guard let number, number.isFinite, range.contains(number) else {
            let shown = String(String(describing: value).prefix(40))
            throw OAuthError(
                code: .unexpectedResponse,
                errorDescription: "\(field) \(shown) is not a number of seconds from \(Int(range.lowerBound)) to \(Int(range.upperBound))",
                endpoint: endpoint
            )
        }
        return number
    }

    public var description: String {
        let expiry = expiresAt.map { "expires \(ISO8601DateFormatter().string(from: $0))" } ?? "no expiry"
        return "TokenSet(access token \(Redactor.mask), refresh token \(refreshToken == nil ? "absent" : Redactor.mask), \(expiry))"
    }

    public var customMirror: Mirror {
        Mirror(self, children: ["expiresAt": expiresAt as Any, "hasRefreshToken": refreshToken != nil], displayStyle: .struct)
    }
}
