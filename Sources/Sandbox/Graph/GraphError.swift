import Foundation
import HTTP
import LoopbackServer

/// A Microsoft Graph error as the service answers it:
/// `{"error": {"code", "message", "innerError": {"date", "request-id", "client-request-id"}}}`.
///
/// Public so that the sandbox core's fault injector answers Graph paths with exactly the same shape
/// (`GraphError.throttled(...)`, `GraphError.serviceUnavailable(...)`).
package struct GraphError: Error, Sendable, Equatable {
    /// HTTP status code.
    package var status: Int
    /// Graph's `error.code` (`ErrorItemNotFound`, `InvalidAuthenticationToken`, ...).
    package var code: String
    /// Graph's `error.message`.
    package var message: String
    /// Seconds for a `Retry-After` header (429, 503), or nil.
    package var retryAfter: Int?
    /// Extra response headers (`WWW-Authenticate` on 401).
    package var headers: [String: String]

    package init(status: Int, code: String, message: String, retryAfter: Int? = nil, headers: [String: String] = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.headers = headers
    }

    /// The JSON body. `date` is rendered as Graph does (`2026-12-01T09:00:00`, UTC, no fraction).
    package func body(requestID: String, clientRequestID: String, date: Date) -> Data {
        let object: SandboxJSON = [
            "error": [
                "code": .string(code),
                "message": .string(message),
                "innerError": [
                    "date": .string(GraphError.innerErrorDate(date)),
                    "request-id": .string(requestID),
                    "client-request-id": .string(clientRequestID),
                ],
            ],
        ]
        return object.serialized()
    }

    /// The whole response: status, JSON body, `request-id` / `client-request-id`, `Retry-After` when set.
    /// - Parameters:
    ///   - requestID: a fresh UUID string by default.
    ///   - clientRequestID: the client's `client-request-id` header when it sent one, else the request id.
    package func response(requestID: String = UUID().uuidString.lowercased(), clientRequestID: String? = nil,
                         date: Date = Date()) -> ServerResponse {
        let client = clientRequestID ?? requestID
        var headers: HTTPHeaders = ["request-id": requestID, "client-request-id": client]
        if let retryAfter { headers["Retry-After"] = String(retryAfter) }
        for (name, value) in self.headers.sorted(by: { $0.key < $1.key }) { headers[name] = value }
        return .json(status, body(requestID: requestID, clientRequestID: client, date: date), headers: headers)
    }

    static func innerErrorDate(_ date: Date) -> String {
        let seconds = Int(floor(date.timeIntervalSince1970))
        let day = GraphLocalDate(dayNumber: Int(floor(Double(seconds) / 86_400)))
        let rest = seconds - day.dayNumber * 86_400
        return day.string + String(format: "T%02d:%02d:%02d", rest / 3600, rest / 60 % 60, rest % 60)
    }
}

extension GraphError {
    /// 429 `ApplicationThrottled`: more than the allowed concurrent requests against one mailbox.
    package static func mailboxConcurrency(retryAfter: Int = 1) -> GraphError {
        GraphError(status: 429, code: "ApplicationThrottled",
                   message: "Application is over its MailboxConcurrency limit.", retryAfter: retryAfter)
    }

    /// 429 `ApplicationThrottled`: more than Outlook's 10,000 requests in 10 minutes for one mailbox and app.
    package static func mailboxRequestLimit(retryAfter: Int) -> GraphError {
        GraphError(
            status: 429, code: "ApplicationThrottled", message: "Application is over its MailboxRequests limit.", retryAfter: retryAfter)
    }

    /// 403 for a mailbox outside the app's scope (Exchange RBAC for Applications, an ApplicationAccessPolicy).
    static let outsideApplicationScope = GraphError(
        status: 403, code: "ErrorAccessDenied",
        message: "Access to OData is disabled: [RAOP] : Blocked by tenant configured AppOnly AccessPolicy settings.")

    /// 429 `TooManyRequests`, as Graph's general throttling answers (fault injection).
    package static func throttled(retryAfter: Int) -> GraphError {
        GraphError(status: 429, code: "TooManyRequests",
                   message: "Too many requests, please try again later.", retryAfter: retryAfter)
    }

    /// 503 `ServiceUnavailable` with `Retry-After` (fault injection).
    package static func serviceUnavailable(retryAfter: Int) -> GraphError {
        GraphError(status: 503, code: "ServiceUnavailable",
                   message: "Service Unavailable, please retry after some time.", retryAfter: retryAfter)
    }

    /// The `WWW-Authenticate` challenge Graph sends with its 401s.
    static let challenge = [
        "WWW-Authenticate":
            "Bearer realm=\"\", authorization_uri=\"https://login.microsoftonline.com/common/oauth2/authorize\", "
            + "client_id=\"00000003-0000-0000-c000-000000000000\"",
    ]

    static let emptyToken = GraphError(status: 401, code: "InvalidAuthenticationToken",
                                       message: "Access token is empty.", headers: challenge)
    static let expiredToken = GraphError(status: 401, code: "InvalidAuthenticationToken",
                                         message: "Access token has expired or is not yet valid.", headers: challenge)
    static let malformedToken = GraphError(
        status: 401, code: "InvalidAuthenticationToken",
        message: "IDX14100: JWT is not well formed, there are no dots (.).\nThe token needs to be in JWS or JWE Compact "
            + "Serialization Format. (JWS): 'EncodedHeader.EncodedPayload.EncodedSignature'. (JWE): "
            + "'EncodedProtectedHeader.EncodedEncryptedKey.EncodedInitializationVector.EncodedCiphertext."
            + "EncodedAuthenticationTag'.",
        headers: challenge)
    static let invalidToken = GraphError(status: 401, code: "InvalidAuthenticationToken",
                                         message: "Access token validation failure. Invalid audience.",
                                         headers: challenge)

    static let itemNotFound = GraphError(status: 404, code: "ErrorItemNotFound",
                                         message: "The specified object was not found in the store.")
    static let accessDenied = GraphError(status: 403, code: "ErrorAccessDenied",
                                         message: "Access is denied. Check credentials and try again.")
    static let unreadableJSON = GraphError(
        status: 400, code: "BadRequest",
        message: "Unable to read JSON request payload. Please ensure Content-Type header is set and payload is of "
            + "valid JSON format.")
    static let missingTimeWindow = GraphError(
        status: 400, code: "ErrorInvalidParameter",
        message: "This request requires a time window specified by the query string parameters StartDateTime and "
            + "EndDateTime.")
    static let invalidFilter = GraphError(status: 400, code: "BadRequest", message: "Invalid filter clause")
    static let batchTooLarge = GraphError(status: 400, code: "MaximumValueExceeded",
                                          message: "Number of batch request steps exceeds the maximum value of 20.")
    static let invalidBatch = GraphError(status: 400, code: "BadRequest", message: "Invalid batch payload format.")
    static let methodNotAllowed = GraphError(status: 405, code: "Request_BadRequest",
                                             message: "Specified HTTP method is not allowed for the request target.")

    static func badRequest(_ message: String) -> GraphError {
        GraphError(status: 400, code: "BadRequest", message: message)
    }

    /// A create with the `transactionId` of an event deleted since.
    static func duplicateTransaction(_ id: String) -> GraphError {
        GraphError(
            status: 400, code: "ErrorDuplicateTransactionId",
            message: "Your request can't be completed. The transaction ID '\(id)' has already been used to create a different event.")
    }

    static func invalidRequest(_ message: String) -> GraphError {
        GraphError(status: 400, code: "ErrorInvalidRequest", message: message)
    }

    static func segmentNotFound(_ segment: String) -> GraphError {
        badRequest("Resource not found for the segment '\(segment)'.")
    }

    static func timeZoneNotSupported(_ name: String) -> GraphError {
        GraphError(status: 400, code: "TimeZoneNotSupportedException",
                   message: "A valid TimeZone value must be specified. The following TimeZone value is not supported: '\(name)'.")
    }

    static func invalidParameter(_ name: String, _ value: String) -> GraphError {
        GraphError(status: 400, code: "ErrorInvalidParameter",
                   message: "The value '\(value)' of parameter '\(name)' is invalid.")
    }
}
