import CalendarBridge
import Foundation
import HTTP

/// Google error responses → `CalendarError`, by HTTP status and `errors[].reason`.
enum GoogleErrorMapping {
    static let rateLimitReasons: Set<String> = [
        "rateLimitExceeded", "userRateLimitExceeded", "quotaExceeded", "dailyLimitExceeded",
    ]

    static func error(for response: HTTPResponse, account: String, calendar: String?) -> CalendarError {
        let parsed = try? JSONDecoder().decode(GoogleErrorBody.self, from: response.body)
        let reason = parsed?.error.errors?.first?.reason
        let message =
            parsed?.error.message ?? parsed?.error.errors?.first?.message
            ?? (response.body.isEmpty ? "HTTP \(response.status)" : String(response.bodyText.prefix(200)))
        let code: CalendarError.Code
        switch (response.status, reason) {
        case (401, _): code = .unauthorized
        case (403, let r?) where rateLimitReasons.contains(r): code = .rateLimited
        case (403, "requiredAccessLevel"): code = .readOnly
        case (403, _): code = .forbidden
        case (404, _), (410, _): code = .notFound
        case (409, _), (412, _): code = .conflict
        case (429, _): code = .rateLimited
        case (400..<500, _): code = .invalidRequest
        case (500..<600, _): code = .server
        default: code = .invalidResponse
        }
        return CalendarError(
            code, message, provider: .google, account: account, calendar: calendar, httpStatus: response.status,
            providerCode: reason ?? parsed?.error.status,
            requestID: response.headers["x-goog-request-id"] ?? response.headers["x-request-id"],
            retryAfterSeconds: RetryAfter.seconds(response.headers["Retry-After"]))
    }
}
