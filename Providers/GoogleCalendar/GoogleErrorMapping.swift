import CalendarBridge
import Foundation
import HTTP

/// Google error responses → `CalendarError`, by HTTP status and `errors[].reason`.
enum GoogleErrorMapping {
    /// The `errors[].reason` values with which Google answers 403 for "slow down": the one list, read by
    /// the error mapping (so batches retry them) and by the retry middleware (so plain calls do).
    static let rateLimitReasons: Set<String> = [
        "rateLimitExceeded", "userRateLimitExceeded", "quotaExceeded", "dailyLimitExceeded",
    ]

    /// Whether a response is Google's 403 rate limit (retried like a 429).
    @Sendable static func isRateLimited(_ response: HTTPResponse) -> Bool {
        guard response.status == 403 else { return false }
        let parsed = try? JSONDecoder().decode(GoogleErrorBody.self, from: response.body)
        return parsed?.error.errors?.first.flatMap(\.reason).map(rateLimitReasons.contains) ?? false
    }

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
