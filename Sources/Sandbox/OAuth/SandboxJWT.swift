import CalbridgeSupport
import Foundation

/// A compact JWS (RFC 7515 §7.1) as the sandbox's token endpoints read an assertion: header and claims
/// decoded, the signature checked with the key the identity holds. Written from the RFCs, apart from the
/// client's signing code.
struct SandboxJWT {
    var header: [String: Any]
    var claims: [String: Any]
    var signingInput: [UInt8]
    var signature: [UInt8]

    /// Nil for anything that is not three base64url parts of which the first two are JSON objects.
    init?(_ compact: String) {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Self.decode(parts[0]), let claimBytes = Self.decode(parts[1]),
            let signature = Self.decode(parts[2]),
            let header = (try? JSONSerialization.jsonObject(with: Data(headerBytes))) as? [String: Any],
            let claims = (try? JSONSerialization.jsonObject(with: Data(claimBytes))) as? [String: Any]
        else { return nil }
        self.header = header
        self.claims = claims
        self.signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        self.signature = signature
    }

    var algorithm: String? { header["alg"] as? String }

    func string(_ claim: String) -> String? { claims[claim] as? String }

    func number(_ claim: String) -> Int? { (claims[claim] as? NSNumber).flatMap { Int(exactly: $0.doubleValue) } }

    /// Whether the signature verifies under `key` with the header's algorithm (RS256 or PS256 only).
    func verifies(with key: RSAPublicKey) -> Bool {
        guard let algorithm, let scheme = RSASignatureScheme(rawValue: algorithm) else { return false }
        return key.verify(signature, of: signingInput, scheme: scheme)
    }

    static func decode(_ part: Substring) -> [UInt8]? {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !text.contains("=") else { return nil }
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text).map(Array.init)
    }

    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
