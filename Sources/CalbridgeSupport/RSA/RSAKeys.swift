import CCrypto
import Foundation

/// The two RSA signature schemes of JSON Web Algorithms (RFC 7518 §3.3, §3.5), both over SHA-256.
package enum RSASignatureScheme: String, Sendable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = "RS256"
    /// RSASSA-PSS with SHA-256, MGF1 with SHA-256 and a 32-byte salt.
    case ps256 = "PS256"
}

/// Why a key or certificate could not be read or used. It names what was wrong and where, never a byte of the key.
package struct RSAKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// An RSA private key read from PEM (PKCS #8 `PRIVATE KEY` or PKCS #1 `RSA PRIVATE KEY`), signing through
/// OpenSSL's libcrypto. Its description says nothing about the key.
///
/// Owns one `EVP_PKEY`; libcrypto allows signing with one key from many threads at once (each signature has
/// its own context), hence `@unchecked Sendable`.
package final class RSAPrivateKey: @unchecked Sendable, CustomStringConvertible {
    private let key: OpaquePointer

    /// Reads the first private key in `pem` (other blocks, such as a certificate, are skipped).
    /// - Parameter source: where the PEM came from (a path, an environment variable), for the error.
    /// - Throws: `RSAKeyError` when there is no unencrypted RSA private key of at least 2048 bits.
    package init(pem: Data, source: String) throws(RSAKeyError) {
        let read: OpaquePointer? = PEMInput.read(pem) { bio in PEM_read_bio_PrivateKey(bio, nil, PEMInput.noPassphrase, nil) }
        guard let read else {
            throw RSAKeyError("\(source) holds no unencrypted private key in PEM form (-----BEGIN PRIVATE KEY-----)")
        }
        guard EVP_PKEY_get_base_id(read) == EVP_PKEY_RSA else {
            EVP_PKEY_free(read)
            throw RSAKeyError("\(source): the private key is not an RSA key (RS256 and PS256 need one)")
        }
        guard EVP_PKEY_get_bits(read) >= 2048 else {
            EVP_PKEY_free(read)
            throw RSAKeyError("\(source): the RSA key has fewer than 2048 bits (both services refuse shorter keys)")
        }
        key = read
    }

    deinit { EVP_PKEY_free(key) }

    /// The key's size in bits.
    package var bits: Int { Int(EVP_PKEY_get_bits(key)) }

    /// The signature of `message` under `scheme`.
    package func sign(_ message: [UInt8], scheme: RSASignatureScheme) throws(RSAKeyError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw RSAKeyError("libcrypto could not allocate a signing context") }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestSignInit(context, &keyContext, EVP_sha256(), nil, key) == 1,
            RSAPadding.apply(scheme, to: keyContext)
        else {
            ERR_clear_error()
            throw RSAKeyError("libcrypto refused to sign with \(scheme.rawValue)")
        }
        var length = 0
        var signature = [UInt8](repeating: 0, count: Int(EVP_PKEY_get_size(key)))
        let status = message.withUnsafeBufferPointer { input in
            signature.withUnsafeMutableBufferPointer { output in
                length = output.count
                return EVP_DigestSign(context, output.baseAddress, &length, input.baseAddress, input.count)
            }
        }
        guard status == 1 else {
            ERR_clear_error()
            throw RSAKeyError("libcrypto failed to sign with \(scheme.rawValue)")
        }
        return Array(signature.prefix(length))
    }

    /// The public half, to check this key's signatures (tests, the sandbox).
    package var publicKeyPEM: Data {
        PEMOutput.write { bio in PEM_write_bio_PUBKEY(bio, key) }
    }

    package var description: String { "RSAPrivateKey(\(bits) bits)" }
}

/// An RSA public key, from a certificate or a `PUBLIC KEY` PEM block, checking RS256 and PS256 signatures.
package final class RSAPublicKey: @unchecked Sendable {
    private let key: OpaquePointer

    /// Reads the first `PUBLIC KEY` block of `pem`, or else the public key of its first certificate.
    package init(pem: Data, source: String) throws(RSAKeyError) {
        var read: OpaquePointer? = PEMInput.read(pem) { bio in PEM_read_bio_PUBKEY(bio, nil, PEMInput.noPassphrase, nil) }
        if read == nil, let certificate = try? X509Certificate(pem: pem, source: source) {
            read = certificate.copyPublicKey()
        }
        guard let read else { throw RSAKeyError("\(source) holds no public key or certificate in PEM form") }
        guard EVP_PKEY_get_base_id(read) == EVP_PKEY_RSA else {
            EVP_PKEY_free(read)
            throw RSAKeyError("\(source): the public key is not an RSA key")
        }
        key = read
    }

    init(owning key: OpaquePointer) { self.key = key }

    deinit { EVP_PKEY_free(key) }

    /// Whether `signature` is `scheme`'s signature of `message` under this key.
    package func verify(_ signature: [UInt8], of message: [UInt8], scheme: RSASignatureScheme) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestVerifyInit(context, &keyContext, EVP_sha256(), nil, key) == 1, RSAPadding.apply(scheme, to: keyContext) else {
            ERR_clear_error()
            return false
        }
        let status = message.withUnsafeBufferPointer { input in
            signature.withUnsafeBufferPointer { sig in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, input.baseAddress, input.count)
            }
        }
        ERR_clear_error()
        return status == 1
    }
}

/// An X.509 certificate read from PEM: its DER bytes, their SHA-1 and SHA-256 thumbprints (the JWS header's
/// `x5t` and `x5t#S256`, RFC 7515 §4.1.7-8) and its public key.
package final class X509Certificate: @unchecked Sendable {
    private let certificate: OpaquePointer
    /// The DER encoding (what the thumbprints are taken of).
    package let der: [UInt8]

    /// Reads the first certificate in `pem` (other blocks, such as a private key, are skipped).
    package init(pem: Data, source: String) throws(RSAKeyError) {
        let read: OpaquePointer? = PEMInput.read(pem) { bio in PEM_read_bio_X509(bio, nil, PEMInput.noPassphrase, nil) }
        guard let read else { throw RSAKeyError("\(source) holds no certificate in PEM form (-----BEGIN CERTIFICATE-----)") }
        let length = i2d_X509(read, nil)
        var bytes = [UInt8](repeating: 0, count: Int(max(length, 0)))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_X509(read, &cursor)
        }
        guard length > 0, written == length else {
            X509_free(read)
            ERR_clear_error()
            throw RSAKeyError("\(source): the certificate could not be encoded")
        }
        certificate = read
        der = bytes
    }

    deinit { X509_free(certificate) }

    /// SHA-1 of the DER bytes (`x5t`).
    package var sha1Thumbprint: [UInt8] { Self.digest(der, EVP_sha1()) }
    /// SHA-256 of the DER bytes (`x5t#S256`).
    package var sha256Thumbprint: [UInt8] { SHA256.hash(der) }

    /// The certificate's public key.
    package var publicKey: RSAPublicKey? {
        guard let key = copyPublicKey() else { return nil }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else {
            EVP_PKEY_free(key)
            return nil
        }
        return RSAPublicKey(owning: key)
    }

    /// The public key with its own reference (the caller frees it).
    fileprivate func copyPublicKey() -> OpaquePointer? { X509_get_pubkey(certificate) }

    private static func digest(_ bytes: [UInt8], _ type: OpaquePointer?) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, type, nil)
            }
        }
        return status == 1 ? Array(out.prefix(Int(length))) : []
    }
}

/// PEM bytes handed to libcrypto through a read-only memory BIO.
private enum PEMInput {
    /// Never asks for a passphrase: an encrypted key is refused, not prompted for on the terminal.
    static let noPassphrase: @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32 = {
        _, _, _, _ in 0
    }

    static func read(_ pem: Data, _ body: (OpaquePointer?) -> OpaquePointer?) -> OpaquePointer? {
        guard !pem.isEmpty, pem.count < Int(Int32.max) else { return nil }
        let result = pem.withUnsafeBytes { raw -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
        ERR_clear_error()
        return result
    }
}

/// PEM text written by libcrypto into a memory BIO.
private enum PEMOutput {
    static func write(_ body: (OpaquePointer?) -> Int32) -> Data {
        guard let bio = BIO_new(BIO_s_mem()) else { return Data() }
        defer { BIO_free(bio) }
        guard body(bio) == 1 else { return Data() }
        var bytes = [UInt8](repeating: 0, count: 16_384)
        let count = bytes.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
        return Data(bytes.prefix(Int(max(count, 0))))
    }
}

/// The padding of each scheme on a signing or verifying context.
private enum RSAPadding {
    static func apply(_ scheme: RSASignatureScheme, to context: OpaquePointer?) -> Bool {
        switch scheme {
        case .rs256:
            return EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1
        case .ps256:
            // RFC 7518 §3.5: MGF1 with the same hash, and a salt as long as the hash's output.
            return EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PSS_PADDING) == 1
                && EVP_PKEY_CTX_set_rsa_pss_saltlen(context, RSA_PSS_SALTLEN_DIGEST) == 1
                && EVP_PKEY_CTX_set_rsa_mgf1_md(context, EVP_sha256()) == 1
        }
    }
}
