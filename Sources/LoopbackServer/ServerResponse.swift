import Foundation
import HTTP

/// What a `LoopbackHTTPServer` handler answers.
public struct ServerResponse: Sendable {
    /// Respond normally, or drop the connection without any response (a fault generator needs this).
    public enum Action: Sendable { case respond, dropConnection }

    public var status: Int
    public var headers: HTTPHeaders
    public var body: Data
    public var action: Action
    /// Close the connection after this response even if the client wants keep-alive.
    public var closeConnection: Bool

    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data(), closeConnection: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.action = .respond
        self.closeConnection = closeConnection
    }

    /// A JSON response (`Content-Type: application/json; charset=UTF-8`).
    public static func json(_ status: Int, _ body: Data, headers: HTTPHeaders = [:]) -> ServerResponse {
        var headers = headers
        if headers["Content-Type"] == nil { headers["Content-Type"] = "application/json; charset=UTF-8" }
        return ServerResponse(status: status, headers: headers, body: body)
    }

    /// A plain-text or HTML response.
    public static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8") -> ServerResponse {
        ServerResponse(status: status, headers: ["Content-Type": contentType], body: Data(text.utf8))
    }

    /// A redirect (302 Found) to `location`.
    public static func redirect(to location: String) -> ServerResponse {
        ServerResponse(status: 302, headers: ["Location": location])
    }

    /// Close the connection without answering.
    public static var drop: ServerResponse {
        var response = ServerResponse(status: 0)
        response.action = .dropConnection
        return response
    }

    /// The reason phrase for common status codes.
    public static func reason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 410: "Gone"
        case 412: "Precondition Failed"
        case 413: "Payload Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}
