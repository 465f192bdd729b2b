import Foundation

/// An HTTP method. Open: any token is allowed; the common ones are static members.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }

    public static let get = HTTPMethod("GET")
    public static let head = HTTPMethod("HEAD")
    public static let post = HTTPMethod("POST")
    public static let put = HTTPMethod("PUT")
    public static let patch = HTTPMethod("PATCH")
    public static let delete = HTTPMethod("DELETE")
    public static let options = HTTPMethod("OPTIONS")

    /// RFC 9110 §9.2.2: repeating the request has the same effect as sending it once.
    public var isIdempotent: Bool {
        switch rawValue {
        case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE": true
        default: false
        }
    }

    public var description: String { rawValue }
}

/// One HTTP request as calbridge's modules build it. Transport-neutral: nothing of libcurl shows here.
public struct HTTPRequest: Sendable, Equatable {
    public var method: HTTPMethod
    public var url: URL
    public var headers: HTTPHeaders
    public var body: Data?
    /// Total time allowed for the exchange (connect, send, receive). Nil: the transport's default.
    public var timeout: Duration?
    /// Set by a caller that knows a non-idempotent request is safe to repeat (for example a POST that
    /// carries a client-chosen id or a transaction id). The retry policy never repeats other POSTs.
    public var isRetrySafe: Bool
    /// The URL itself is a secret (a private feed's address carries a token): logs show only its scheme and
    /// host (`Redactor.describe`), and whoever reports a failure of the request must not name it.
    public var urlIsSecret: Bool = false

    public init(
        method: HTTPMethod = .get,
        url: URL,
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        timeout: Duration? = nil,
        isRetrySafe: Bool = false
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.isRetrySafe = isRetrySafe
    }

    /// Whether a retry policy may send this request again after a failure.
    public var mayRetry: Bool { method.isIdempotent || isRetrySafe }
}
