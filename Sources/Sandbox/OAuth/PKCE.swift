import CalbridgeSupport
import Foundation

/// PKCE (RFC 7636) as an authorization server checks it.
package enum PKCE {
    /// base64url without padding, as RFC 7636 §4.2 encodes the S256 challenge.
    package static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The S256 challenge of a verifier.
    package static func s256Challenge(_ verifier: String) -> String { base64URL(SHA256.hash(Array(verifier.utf8))) }

    /// True when `verifier` answers `challenge` under `method` ("S256" or "plain").
    package static func verify(verifier: String, challenge: String, method: String) -> Bool {
        // RFC 7636 §4.1: 43 to 128 characters of [A-Za-z0-9-._~].
        guard (43...128).contains(verifier.utf8.count),
              verifier.utf8.allSatisfy({ isUnreserved($0) }) else { return false }
        switch method {
        case "S256": return s256Challenge(verifier) == challenge
        case "plain": return verifier == challenge
        default: return false
        }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E: true
        default: false
        }
    }

    /// A random opaque string of `count` bytes of entropy, base64url.
    package static func randomToken(bytes count: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
