import Foundation

/// Builds request URLs with exact percent-encoding: every path segment and query value keeps only
/// RFC 3986 unreserved characters (so `#`, `@`, `+`, `=`, `&` and spaces are always encoded).
///
/// Foundation's `URLComponents` leaves `+` and `@` alone in queries, which servers read as a space or
/// worse; this type is why providers never build URLs by concatenation.
package struct APIURL: Sendable {
    package var base: String
    package var segments: [String] = []
    package var query: [(String, String)] = []

    /// - Parameter base: scheme, host, port and an optional path prefix; a trailing `/` is ignored.
    package init(base: URL) {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        self.base = text
    }

    /// Adds path segments written literally (they must be safe: `calendar`, `v3`, `me`).
    package func path(_ literal: String) -> APIURL {
        var copy = self
        copy.segments += literal.split(separator: "/").map(String.init)
        return copy
    }

    /// Adds one path segment, percent-encoded (ids with `#`, `@`, `/`).
    package func segment(_ value: String) -> APIURL {
        var copy = self
        copy.segments.append(Self.encode(value))
        return copy
    }

    /// Adds a query parameter; the name is written as given (`$top`), the value encoded.
    package func query(_ name: String, _ value: String?) -> APIURL {
        guard let value else { return self }
        var copy = self
        copy.query.append((name, value))
        return copy
    }

    package var url: URL {
        var text = base + "/" + segments.joined(separator: "/")
        if !query.isEmpty {
            text += "?" + query.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&")
        }
        return URL(string: text)!
    }

    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// Percent-encodes everything but RFC 3986 unreserved characters, as UTF-8.
    package static func encode(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            if unreserved.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
