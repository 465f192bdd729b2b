import CCrypto
import Foundation

/// SHA-256 (FIPS 180-4): PKCE challenges, stable keys and content hashes.
///
/// OpenSSL's libcrypto computes it (the toolchain on Linux has no CryptoKit): one implementation,
/// maintained and tested by others, which picks the CPU's SHA extensions by itself.
package enum SHA256 {
    /// The 32-byte digest of `data`.
    package static func hash(_ data: some Sequence<UInt8>) -> [UInt8] {
        if let digest = data.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return digest }
        return Array(data).withUnsafeBytes { hash($0) }
    }

    /// The digest of contiguous bytes.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        digest.withUnsafeMutableBufferPointer { compute(bytes, into: $0) }
        return digest
    }

    /// The digest of a string's UTF-8 bytes as lowercase hex (64 characters).
    package static func hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { hex(UnsafeRawBufferPointer($0)) }
    }

    /// The digest of `bytes` as lowercase hex (64 characters).
    package static func hex(bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { hex($0) }
    }

    /// The digest of contiguous bytes as lowercase hex (64 characters), written straight into the
    /// string's storage.
    package static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(SHA256_DIGEST_LENGTH)) { raw in
            compute(bytes, into: raw)
            return String(unsafeUninitializedCapacity: 2 * raw.count) { out in
                for (index, byte) in raw.enumerated() {
                    out[2 * index] = hexDigit(byte >> 4)
                    out[2 * index + 1] = hexDigit(byte & 0x0F)
                }
                return 2 * raw.count
            }
        }
    }

    /// The digest of `bytes` into `out` (32 bytes).
    private static func compute(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt8>) {
        guard let target = out.baseAddress, out.count >= Int(SHA256_DIGEST_LENGTH) else { return }
        // An empty buffer may have no address; libcrypto reads nothing of a zero length.
        let empty: UInt8 = 0
        withUnsafePointer(to: empty) { fallback in
            let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? fallback
            _ = CCrypto.SHA256(base, bytes.count, target)
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }
}
