import Foundation

/// Builds request URLs with exact percent-encoding: every path segment and query value keeps only
/// RFC 3986 unreserved characters (so `#`, `@`, `+`, `=`, `&` and spaces are always encoded).
///
/// Foundation's `URLComponents` leaves `+` and `@` alone in queries, which servers read as a space or
/// worse; this type is why providers never build URLs by concatenation.
///
/// The text is built as it goes (path, then query), each value encoded once from its UTF-8 bytes, not as a
/// segment list split and joined again with a lookup per encoded byte: a copy builds a URL per request.
package struct APIURL: Sendable {
    /// Scheme, host, port and an optional path prefix, without a trailing `/`.
    package private(set) var base: String
    /// Each segment after `base` with its leading `/`.
    private var path = ""
    /// `name=value` pairs joined by `&`, values encoded.
    private var queryText = ""

    /// - Parameter base: scheme, host, port and an optional path prefix; a trailing `/` is ignored.
    package init(base: URL) {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        self.base = text
    }

    /// Adds path segments written literally (they must be safe: `calendar`, `v3`, `me`); empty ones
    /// (`a//b`, a leading or trailing `/`) are dropped.
    package func path(_ literal: String) -> APIURL {
        var copy = self
        // Split on the bytes: `String.split` walks Characters. Each segment appended as a `String`:
        // appending the `Substring` takes the generic path.
        for segment in literal.utf8.split(separator: UInt8(ascii: "/")) {
            copy.path += "/"
            copy.path += String(Substring(segment))
        }
        return copy
    }

    /// Adds one path segment, percent-encoded (ids with `#`, `@`, `/`).
    package func segment(_ value: String) -> APIURL {
        var copy = self
        copy.path += "/"
        copy.path += Self.encode(value)
        return copy
    }

    /// Adds a query parameter; the name is written as given (`$top`), the value encoded.
    package func query(_ name: String, _ value: String?) -> APIURL {
        guard let value else { return self }
        var copy = self
        if !copy.queryText.isEmpty { copy.queryText += "&" }
        copy.queryText += name
        copy.queryText += "="
        copy.queryText += Self.encode(value)
        return copy
    }

    /// The URL as text: `base`, `/` and the segments (`base/` when there are none), then `?` and the query.
    package var text: String { base + pathAndQuery }

    /// The path and query, as an HTTP request line names them (`/calendar/v3/calendars/primary/events?a=b`):
    /// what `URLComponents`' `percentEncodedPath` and `percentEncodedQuery` give, without parsing a URL.
    package var requestTarget: String {
        // `base`'s own path: after "scheme://", the authority runs to the first "/".
        let utf8 = base.utf8
        var pathStart = base.endIndex
        if let colon = utf8.firstIndex(of: UInt8(ascii: ":")), utf8[colon...].starts(with: "://".utf8) {
            pathStart = utf8[utf8.index(colon, offsetBy: 3)...].firstIndex(of: UInt8(ascii: "/")) ?? base.endIndex
        }
        return String(base[pathStart...]) + pathAndQuery
    }

    /// What follows `base`.
    private var pathAndQuery: String {
        var text = path.isEmpty ? "/" : path
        if !queryText.isEmpty {
            text += "?"
            text += queryText
        }
        return text
    }

    package var url: URL {
        // Every byte after `base` is unreserved, `/`, `?`, `&`, `=`, `%` or a literal segment's or name's.
        URL(string: text)!
    }

    /// Whether each byte is an RFC 3986 unreserved character, by value.
    private static let unreserved: [Bool] = (0..<256).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static let upperHexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Percent-encodes everything but RFC 3986 unreserved characters, as UTF-8 (`%2B`, upper-case digits).
    package static func encode(_ value: String) -> String {
        var value = value
        return value.withUTF8 { bytes in
            unreserved.withUnsafeBufferPointer { unreserved in
                // Most values (ids, dates without offsets) need nothing: no copy then.
                guard let first = bytes.firstIndex(where: { !unreserved[Int($0)] }) else {
                    return String(decoding: bytes, as: UTF8.self)
                }
                // Written into the string's own storage at most three bytes a byte, not appended to an array
                // byte by byte (page tokens and `$expand` values are long).
                return upperHexDigits.withUnsafeBufferPointer { hex in
                    String(unsafeUninitializedCapacity: first + 3 * (bytes.count - first)) { out in
                        var position = 0
                        for byte in bytes {
                            if unreserved[Int(byte)] {
                                out[position] = byte
                                position += 1
                            } else {
                                out[position] = UInt8(ascii: "%")
                                out[position + 1] = hex[Int(byte >> 4)]
                                out[position + 2] = hex[Int(byte & 0x0F)]
                                position += 3
                            }
                        }
                        return position
                    }
                }
            }
        }
    }
}
