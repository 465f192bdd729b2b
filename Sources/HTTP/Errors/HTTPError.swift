import Foundation

/// A failure to get any HTTP response. It carries the URL (without query secrets) and never a header.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as an open set of codes.
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let dns = Code(rawValue: "dns")
        public static let connect = Code(rawValue: "connect")
        public static let tls = Code(rawValue: "tls")
        public static let timeout = Code(rawValue: "timeout")
        public static let cancelled = Code(rawValue: "cancelled")
        /// The connection was closed or reset before a whole response arrived.
        public static let connectionReset = Code(rawValue: "connection-reset")
        public static let tooManyRedirects = Code(rawValue: "too-many-redirects")
        /// The response body (as sent, or decompressed) is larger than the transport accepts.
        public static let responseTooLarge = Code(rawValue: "response-too-large")
        public static let other = Code(rawValue: "other")
    }

    public var code: Code
    /// The request URL with any query string removed (queries may carry codes or tokens).
    public var url: String
    /// A short human-readable explanation (for example libcurl's message).
    public var message: String

    public init(code: Code, url: URL, message: String) {
        self.code = code
        self.url = Self.redacted(url)
        self.message = message
    }

    /// Whether another attempt may succeed (the retry policy asks this).
    public var isTransient: Bool { code == .connectionReset || code == .connect || code == .timeout }

    public var description: String { "\(code.rawValue) error for \(url): \(message)" }

    static func redacted(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "<url>" }
        parts.query = nil
        parts.fragment = nil
        parts.user = nil
        parts.password = nil
        return parts.string ?? "<url>"
    }
}
