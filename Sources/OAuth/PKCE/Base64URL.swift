import Foundation

/// Base64url without padding (RFC 4648 §5), as PKCE and `state` values use it.
package enum Base64URL {
    package static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// `count` bytes from the system's cryptographic random source, base64url-encoded.
    package static func random(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return encode((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
