import CalbridgeSupport
/// A PKCE pair (RFC 7636): the secret verifier kept by calbridge and the challenge sent with the
/// authorization request. Only the S256 method is used; `plain` gives no protection.
public struct PKCE: Sendable, Equatable {
    /// The code verifier: 43 to 128 characters of `[A-Z a-z 0-9 - . _ ~]`. Secret until the token request.
    public let verifier: String
    /// `BASE64URL(SHA256(ASCII(verifier)))`.
    public let challenge: String
    /// Always `S256`.
    public let method = "S256"

    /// A fresh pair: 32 random bytes give a 43-character verifier (256 bits of entropy).
    public init() {
        self.init(verifier: Base64URL.random(bytes: 32))
    }

    /// The pair for a given verifier (tests use RFC 7636 Appendix B's).
    public init(verifier: String) {
        self.verifier = verifier
        self.challenge = Self.challenge(for: verifier)
    }

    /// The S256 challenge for a verifier.
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(Array(verifier.utf8)))
    }

    /// Whether a verifier has the length and characters RFC 7636 §4.1 requires.
    public static func isValidVerifier(_ verifier: String) -> Bool {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return (43...128).contains(verifier.count) && verifier.allSatisfy(allowed.contains)
    }
}
