import Foundation
import HTTP

/// An error answer from an authorization server's token, device or revocation endpoint
/// (RFC 6749 §5.2, RFC 8628 §3.5, RFC 7009 §2.2.1).
///
/// The code is open: every RFC code is a static member, and a code a server invents survives as its
/// raw string. `errorDescription` is the server's own explanation. Neither ever holds a token.
public struct OAuthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `error` field of the answer.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        // RFC 6749 §4.1.2.1 and §5.2.
        public static let invalidRequest = Code("invalid_request")
        public static let invalidClient = Code("invalid_client")
        public static let invalidGrant = Code("invalid_grant")
        public static let unauthorizedClient = Code("unauthorized_client")
        public static let unsupportedGrantType = Code("unsupported_grant_type")
        public static let invalidScope = Code("invalid_scope")
        public static let accessDenied = Code("access_denied")
        public static let unsupportedResponseType = Code("unsupported_response_type")
        public static let serverError = Code("server_error")
        public static let temporarilyUnavailable = Code("temporarily_unavailable")
        // RFC 8628 §3.5.
        public static let authorizationPending = Code("authorization_pending")
        public static let slowDown = Code("slow_down")
        public static let expiredToken = Code("expired_token")
        /// Microsoft's device flow says this (not RFC 8628's `access_denied`) when the user declines.
        public static let authorizationDeclined = Code("authorization_declined")
        // RFC 7009 §2.2.1.
        public static let unsupportedTokenType = Code("unsupported_token_type")
        /// Google's revocation endpoint answers this for a token that is already invalid.
        public static let invalidToken = Code("invalid_token")
        // OpenID Connect Core §3.1.2.6; Microsoft's token endpoint also answers them to a refresh.
        public static let interactionRequired = Code("interaction_required")
        public static let loginRequired = Code("login_required")
        public static let consentRequired = Code("consent_required")
        /// calbridge's own: the server answered something that is not an OAuth answer at all.
        public static let unexpectedResponse = Code("unexpected_response")
    }

    public var code: Code
    /// The server's `error_description`, if any.
    public var errorDescription: String?
    /// The server's `error_uri`, if any.
    public var errorURI: String?
    /// The HTTP status of the answer (0 when the error came through a redirect).
    public var status: Int
    /// Which endpoint answered: "token endpoint", "device authorization endpoint", ...
    public var endpoint: String
    /// Microsoft's `error_codes` (the AADSTS numbers, e.g. 50076), empty elsewhere.
    public var errorCodes: [Int]
    /// Microsoft's `suberror` (`basic_action`, `consent_required`, `bad_token`, ...), if any.
    public var suberror: String?

    public init(
        code: Code, errorDescription: String? = nil, errorURI: String? = nil, status: Int = 0, endpoint: String,
        errorCodes: [Int] = [], suberror: String? = nil
    ) {
        self.code = code
        self.errorDescription = errorDescription
        self.errorURI = errorURI
        self.status = status
        self.endpoint = endpoint
        self.errorCodes = errorCodes
        self.suberror = suberror
    }

    /// The codes after which only a new interactive sign-in helps, when a refresh gets them.
    public static let signInAgainCodes: Set<Code> = [.invalidGrant, .interactionRequired, .loginRequired, .consentRequired]

    /// Whether this answer to a refresh means the user must sign in again (the grant is gone, or the
    /// provider now wants MFA or consent that only a browser can give).
    public var requiresSignIn: Bool {
        Self.signInAgainCodes.contains(code) || suberror.map { Self.signInAgainCodes.contains(Code($0)) } == true
    }

    /// The first line of `error_description` (Microsoft's ends with trace lines), redacted, or nil.
    public var summary: String? {
        guard let errorDescription else { return nil }
        let first = errorDescription.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let text = Redactor.text(first).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }

    /// Reads an error answer; a body that is not an OAuth error becomes `.unexpectedResponse` with a
    /// short, redacted excerpt as its description.
    public static func from(_ response: HTTPResponse, endpoint: String) -> OAuthError {
        if let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
           let code = object["error"] as? String {
            // error_codes are whole numbers; anything else in the array is ignored, never trapped on.
            let numbers = (object["error_codes"] as? [Any] ?? []).compactMap { ($0 as? NSNumber).flatMap { Int(exactly: $0.doubleValue) } }
            return OAuthError(
                code: Code(code),
                errorDescription: object["error_description"] as? String,
                errorURI: object["error_uri"] as? String,
                status: response.status,
                endpoint: endpoint,
                errorCodes: numbers,
                suberror: object["suberror"] as? String
            )
        }
        let excerpt = Redactor.text(String(response.bodyText.prefix(200)))
            .split(whereSeparator: \.isNewline).joined(separator: " ")
        return OAuthError(
            code: .unexpectedResponse,
            errorDescription: "HTTP \(response.status)" + (excerpt.isEmpty ? "" : ": \(excerpt)"),
            status: response.status,
            endpoint: endpoint
        )
    }

    public var description: String {
        var text = "the \(endpoint) answered \(code.rawValue)"
        if let errorDescription, !errorDescription.isEmpty {
            // Entra's descriptions carry "\r\n" (one Character, which a replacement of "\n" misses).
            let oneLine = Redactor.text(errorDescription).split(whereSeparator: \.isNewline).joined(separator: " ")
            text += " (\(oneLine))"
        }
        return text
    }
}
