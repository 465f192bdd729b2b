import Foundation

/// One HTTP response: status, headers and the whole (decoded) body.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Data

    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The body as UTF-8 text, with invalid bytes replaced (for messages and logs, never for data).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
