import TestSupport
import CalbridgeSupport
import Foundation
import Testing
@testable import OAuth

@Suite("PKCE and SHA-256")
struct PKCETests {
    @Test("RFC 7636 Appendix B: the verifier gives the RFC's S256 challenge")
    func rfcVector() {
        let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pkce.method == "S256")
    }

    @Test("SHA-256 matches FIPS 180-4 examples (empty, abc, two blocks)")
    func sha256Vectors() {
        func hex(_ text: String) -> String { SHA256.hash(Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("fresh verifiers are 43+ allowed characters, differ, and match Python's hashlib")
    func freshVerifiers() async throws {
        let pairs = (0..<5).map { _ in PKCE() }
        #expect(Set(pairs.map(\.verifier)).count == 5)
        for pair in pairs {
            #expect(PKCE.isValidVerifier(pair.verifier))
            #expect(pair.verifier.count >= 43)
        }
        // An independent implementation checks ours.
        let script = """
        import sys, hashlib, base64
        for line in sys.stdin.read().split():
            print(base64.urlsafe_b64encode(hashlib.sha256(line.encode()).digest()).rstrip(b'=').decode())
        """
        let text = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script],
            input: Data(pairs.map(\.verifier).joined(separator: "\n").utf8)
        ).stdout
        #expect(text.split(separator: "\n").map(String.init) == pairs.map(\.challenge))
    }

    @Test("verifier validation rejects short strings and foreign characters")
    func verifierValidation() {
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 42)))
        #expect(PKCE.isValidVerifier(String(repeating: "a", count: 43)))
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 42) + "+"))
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 129)))
    }
}
