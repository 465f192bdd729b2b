import Foundation
import HTTP

/// One request received by `LoopbackHTTPServer`.
public struct ServerRequest: Sendable {
    /// One decoded `name=value` pair of the query string.
    public struct QueryItem: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var method: String
    /// The request target exactly as sent (`/calendar/v3/calendars/a%40b/events?maxResults=5`).
    public var target: String
    /// The path part of the target, still percent-encoded.
    public var rawPath: String
    /// The path split on `/` (empty segments dropped), each segment percent-decoded afterwards, so an
    /// encoded `%2F` inside an id stays inside its segment.
    public var pathSegments: [String]
    /// The query, decoded as `application/x-www-form-urlencoded` (`+` is a space).
    public var query: [QueryItem]
    public var headers: HTTPHeaders
    public var body: Data
    /// Which accepted connection carried the request (1, 2, ...): lets tests observe keep-alive.
    public var connectionID: Int

    public init(
        method: String,
        target: String,
        headers: HTTPHeaders = [:],
        body: Data = Data(),
        connectionID: Int = 0
    ) {
        self.method = method.uppercased()
        self.target = target
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        rawPath = parts.isEmpty ? "/" : String(parts[0])
        pathSegments = rawPath.split(separator: "/").map { FormEncoding.percentDecode(String($0), plusIsSpace: false) }
        query = parts.count > 1 ? FormEncoding.decode(String(parts[1])) : []
        self.headers = headers
        self.body = body
        self.connectionID = connectionID
    }

    /// The decoded path (`/calendar/v3/calendars/a@b/events`).
    public var path: String { "/" + pathSegments.joined(separator: "/") }

    /// The last value of a query parameter, or nil.
    public func queryValue(_ name: String) -> String? { query.last { $0.name == name }?.value }

    /// Every value of a (repeatable) query parameter.
    public func queryValues(_ name: String) -> [String] { query.filter { $0.name == name }.map(\.value) }

    /// The body decoded as a form (`application/x-www-form-urlencoded`).
    public var formBody: [QueryItem] { FormEncoding.decode(String(decoding: body, as: UTF8.self)) }
}

/// `application/x-www-form-urlencoded` and percent-encoding, as both sides of OAuth need them.
public enum FormEncoding {
    /// Characters left as they are in a form value (RFC 3986 unreserved).
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// Percent-encodes everything but unreserved characters (so `+`, `&`, `=`, `/`, ` ` are all encoded).
    public static func percentEncode(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                out.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// Encodes pairs as `a=1&b=2`, every name and value percent-encoded.
    public static func encode(_ items: [(String, String)]) -> String {
        items.map { percentEncode($0.0) + "=" + percentEncode($0.1) }.joined(separator: "&")
    }

    /// Decodes `a=1&b=2`; a name without `=` gets an empty value.
    public static func decode(_ text: String) -> [ServerRequest.QueryItem] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecode(String(parts[0]), plusIsSpace: true)
            let value = parts.count > 1 ? percentDecode(String(parts[1]), plusIsSpace: true) : ""
            return ServerRequest.QueryItem(name: name, value: value)
        }
    }

    /// Decodes `%XX` escapes (invalid escapes are kept as text) and optionally `+` as a space.
    public static func percentDecode(_ text: String, plusIsSpace: Bool) -> String {
        guard text.contains("%") || (plusIsSpace && text.contains("+")) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
               let high = hexValue(iterator[iterator.startIndex]),
               let low = hexValue(iterator[iterator.startIndex + 1]) {
                bytes.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else if plusIsSpace, byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 65...70: byte - 55
        case 97...102: byte - 87
        default: nil
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
