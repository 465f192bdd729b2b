import CalbridgeSupport
import Foundation
import JSON

/// A signed JSON Web Token (RFC 7519) in compact form: `header.claims.signature`, each base64url.
///
/// Only what the two assertion grants need: a JSON header and claims of strings and integers, signed with
/// RS256 or PS256 by an RSA key.
package enum JSONWebToken {
    package enum Value: Sendable, Equatable {
        case string(String)
        case integer(Int)
    }

    /// The compact serialization of `claims` under `header`, signed with `key`; `alg` is set from `scheme`.
    package static func sign(
        header: [String: Value], claims: [String: Value], key: RSAPrivateKey, scheme: RSASignatureScheme
    ) throws(RSAKeyError) -> String {
        var header = header
        header["alg"] = .string(scheme.rawValue)
        header["typ"] = .string("JWT")
        let input = Base64URL.encode(Array(json(header).utf8)) + "." + Base64URL.encode(Array(json(claims).utf8))
        let signature = try key.sign(Array(input.utf8), scheme: scheme)
        return input + "." + Base64URL.encode(signature)
    }

    /// A JSON object of the members, keys sorted (stable output for tests and logs).
    static func json(_ members: [String: Value]) -> String {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (index, name) in members.keys.sorted().enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONStringWriter.write(name, into: &out, escapingSlashes: false)
            out.append(UInt8(ascii: ":"))
            switch members[name] {
            case .string(let text): JSONStringWriter.write(text, into: &out, escapingSlashes: false)
            case .integer(let number): out.append(contentsOf: String(number).utf8)
            case nil: break
            }
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }
}
