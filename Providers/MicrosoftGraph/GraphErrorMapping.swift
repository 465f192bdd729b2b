import CalendarBridge
import Foundation
import HTTP

/// Graph error responses → `CalendarError`, by HTTP status and `error.code`.
enum GraphErrorMapping {
    static func error(for response: HTTPResponse, account: String, calendar: String?) -> CalendarError {
        let parsed = try? JSONDecoder().decode(GraphErrorBody.self, from: response.body)
        let graphCode = parsed?.error.code
        let message =
            parsed?.error.message.flatMap { $0.isEmpty ? nil : $0 }
            ?? (response.body.isEmpty ? "HTTP \(response.status)" : String(response.bodyText.prefix(200)))
        let code: CalendarError.Code
        switch (response.status, graphCode) {
        case (401, _), (_, "InvalidAuthenticationToken"): code = .unauthorized
        case (429, _): code = .rateLimited
        case (503, _) where response.headers["Retry-After"] != nil: code = .rateLimited
        case (_, "ErrorItemNotFound"), (404, _), (410, _): code = .notFound
        case (_, "ErrorAccessDenied"), (403, _): code = .forbidden
        case (409, _), (412, _): code = .conflict
        case (400..<500, _): code = .invalidRequest
        case (500..<600, _): code = .server
        default: code = .invalidResponse
        }
        return CalendarError(
            code, message, provider: .microsoft, account: account, calendar: calendar, httpStatus: response.status,
            providerCode: graphCode,
            requestID: parsed?.error.innerError?.requestID ?? response.headers["request-id"],
            retryAfterSeconds: RetryAfter.seconds(response.headers["Retry-After"]))
    }
}
