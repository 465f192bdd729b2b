import Foundation
import HTTP
import LoopbackServer

/// An error answer of the Google Calendar API, in Google's exact body shape:
/// `{"error": {"code", "message", "errors": [{"domain", "reason", "message", "location"?, "locationType"?}],
/// "status"}}`. The sandbox core uses the static factories (`rateLimitExceeded`, `tooManyRequests`,
/// `backendError`) to inject faults that look like Google's own.
public struct GoogleAPIError: Error, Sendable, Equatable {
    public var code: Int
    public var reason: String
    public var message: String
    /// `global`, `calendar` or `usageLimits`, as Google files its reasons.
    public var domain: String
    public var location: String?
    public var locationType: String?
    /// The top-level message; Google sometimes words it differently from the per-error message (401).
    public var topMessage: String?
    /// Extra response headers (`WWW-Authenticate` on 401).
    public var headers: [String: String]

    public init(
        code: Int, reason: String, message: String, domain: String = "global", location: String? = nil,
        locationType: String? = nil, topMessage: String? = nil, headers: [String: String] = [:]
    ) {
        self.code = code
        self.reason = reason
        self.message = message
        self.domain = domain
        self.location = location
        self.locationType = locationType
        self.topMessage = topMessage
        self.headers = headers
    }

    /// The canonical status string Google adds to its v3 error bodies, or nil where none applies (410).
    public static func status(for code: Int) -> String? {
        switch code {
        case 400: "INVALID_ARGUMENT"
        case 401: "UNAUTHENTICATED"
        case 403: "PERMISSION_DENIED"
        case 404: "NOT_FOUND"
        case 409: "ALREADY_EXISTS"
        case 412: "FAILED_PRECONDITION"
        case 429: "RESOURCE_EXHAUSTED"
        case 500: "INTERNAL"
        case 503: "UNAVAILABLE"
        default: nil
        }
    }

    /// The JSON body.
    public var body: GoogleJSON {
        var item: [String: GoogleJSON] = ["domain": .string(domain), "reason": .string(reason), "message": .string(message)]
        if let location { item["location"] = .string(location) }
        if let locationType { item["locationType"] = .string(locationType) }
        var error: [String: GoogleJSON] = [
            "code": .int(code), "message": .string(topMessage ?? message), "errors": .array([.object(item)]),
        ]
        if let status = GoogleAPIError.status(for: code) { error["status"] = .string(status) }
        return .object(["error": .object(error)])
    }

    /// The complete HTTP response.
    public var response: ServerResponse {
        var headers = HTTPHeaders()
        for (name, value) in self.headers.sorted(by: { $0.key < $1.key }) { headers[name] = value }
        headers["Vary"] = "Origin, X-Origin, Referer"
        return .json(code, body.serialized(), headers: headers)
    }

    // MARK: - The errors Google documents

    static let authMessage =
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."

    /// 401 for an expired, revoked or unknown access token.
    public static let invalidCredentials = GoogleAPIError(
        code: 401, reason: "authError", message: "Invalid Credentials", location: "Authorization",
        locationType: "header", topMessage: authMessage,
        headers: ["WWW-Authenticate": "Bearer realm=\"https://accounts.google.com/\", error=\"invalid_token\""])

    /// 401 when no credential was sent at all (Google's "Login Required").
    public static let loginRequired = GoogleAPIError(
        code: 401, reason: "required", message: "Login Required.", location: "Authorization", locationType: "header",
        topMessage:
            "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        headers: ["WWW-Authenticate": "Bearer realm=\"https://accounts.google.com/\""])

    /// 403 `rateLimitExceeded` (per-user/calendar rate limit).
    public static let rateLimitExceeded = GoogleAPIError(
        code: 403, reason: "rateLimitExceeded", message: "Rate Limit Exceeded", domain: "usageLimits")

    /// 403 `userRateLimitExceeded` (project quota per user).
    public static let userRateLimitExceeded = GoogleAPIError(
        code: 403, reason: "userRateLimitExceeded", message: "User Rate Limit Exceeded", domain: "usageLimits")

    /// 429 `rateLimitExceeded` (too many requests).
    public static let tooManyRequests = GoogleAPIError(
        code: 429, reason: "rateLimitExceeded", message: "Rate Limit Exceeded", domain: "usageLimits")

    /// 500 `backendError`.
    public static let backendError = GoogleAPIError(code: 500, reason: "backendError", message: "Backend Error")

    /// 503 `backendError` (service unavailable).
    public static let serviceUnavailable = GoogleAPIError(
        code: 503, reason: "backendError", message: "The service is currently unavailable.")

    public static let notFound = GoogleAPIError(code: 404, reason: "notFound", message: "Not Found")

    public static let duplicate = GoogleAPIError(
        code: 409, reason: "duplicate", message: "The requested identifier already exists.")

    public static let deleted = GoogleAPIError(code: 410, reason: "deleted", message: "Resource has been deleted")

    public static let fullSyncRequired = GoogleAPIError(
        code: 410, reason: "fullSyncRequired", message: "Sync token is no longer valid, a full sync is required.",
        domain: "calendar", location: "syncToken", locationType: "parameter")

    public static let writerAccessRequired = GoogleAPIError(
        code: 403, reason: "requiredAccessLevel", message: "You need to have writer access to this calendar.",
        domain: "calendar")

    public static func timeRangeEmpty(location: String) -> GoogleAPIError {
        GoogleAPIError(
            code: 400, reason: "timeRangeEmpty", message: "The specified time range is empty.", domain: "calendar",
            location: location, locationType: location == "end" ? nil : "parameter")
    }

    public static let badRequest = GoogleAPIError(code: 400, reason: "badRequest", message: "Bad Request")

    static func invalid(_ message: String, parameter: String? = nil) -> GoogleAPIError {
        GoogleAPIError(
            code: 400, reason: "invalid", message: message, location: parameter,
            locationType: parameter == nil ? nil : "parameter")
    }

    static func required(_ message: String, parameter: String? = nil) -> GoogleAPIError {
        GoogleAPIError(
            code: 400, reason: "required", message: message, location: parameter,
            locationType: parameter == nil ? nil : "parameter")
    }
}
