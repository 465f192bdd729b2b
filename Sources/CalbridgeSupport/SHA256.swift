import CSHA256
import Foundation

/// SHA-256 (FIPS 180-4): PKCE challenges, stable keys and content hashes.
///
/// Written here because the toolchain on Linux has no CryptoKit and no package may be fetched. Where the
/// CPU has the x86 SHA extensions, blocks are compressed with them (`CSHA256`): a no-change copy of 1,000
/// events hashes 1,358 contents, each 12,300 instructions in Swift's rounds.
package enum SHA256 {
    /// How blocks are compressed.
    package enum Rounds: Sendable {
        case swift, accelerated
    }

    /// `.accelerated` where the CPU has the SHA extensions (and the process does not run under valgrind,
    /// which reports them but cannot execute them), else `.swift`.
    package static let fastestRounds: Rounds = cb_sha256_accelerated() == 1 ? .accelerated : .swift

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The 32-byte digest of `data`.
    package static func hash(_ data: some Sequence<UInt8>) -> [UInt8] {
        if let digest = data.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return digest }
        return Array(data).withUnsafeBytes { hash($0) }
    }

    /// The digest of contiguous bytes: whole blocks straight from them, only the padded tail copied,
    /// no bounds checks in the rounds. The generic version copied the message and checked every index
    /// of `w` and `k`: most of a no-change copy's hashing (callgrind, `calbridge-bench copy`).
    package static func hash(_ bytes: UnsafeRawBufferPointer, rounds: Rounds = fastestRounds) -> [UInt8] {
        let state = finalState(bytes, rounds: rounds)
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for v in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            digest.append(UInt8(truncatingIfNeeded: v >> 24))
            digest.append(UInt8(truncatingIfNeeded: v >> 16))
            digest.append(UInt8(truncatingIfNeeded: v >> 8))
            digest.append(UInt8(truncatingIfNeeded: v))
        }
        return digest
    }

    /// H0...H7 after the whole padded message.
    private static func finalState(
        _ bytes: UnsafeRawBufferPointer, rounds: Rounds
    ) -> (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) {
        var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
        )
        let whole = bytes.count / 64 * 64
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
            // The tail, 0x80, zeros and the bit length: one block or two.
            let rest = bytes.count - whole
            let tailBlocks = rest < 56 ? 1 : 2
            tail.initialize(repeating: 0)
            for i in 0..<rest { tail[i] = bytes[whole + i] }
            tail[rest] = 0x80
            let bitLength = UInt64(bytes.count) &* 8
            for i in 0..<8 { tail[tailBlocks * 64 - 1 - i] = UInt8(truncatingIfNeeded: bitLength >> UInt64(i * 8)) }
            let padded = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(tail)[..<(tailBlocks * 64)])
            switch rounds {
            case .accelerated:
                compressAccelerated(UnsafeRawBufferPointer(rebasing: bytes[..<whole]), &state)
                compressAccelerated(padded, &state)
            case .swift:
                k.withUnsafeBufferPointer { k in
                    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                        for block in stride(from: 0, to: whole, by: 64) {
                            compress(UnsafeRawBufferPointer(rebasing: bytes[block..<block + 64]), &state, w, k)
                        }
                        for block in stride(from: 0, to: padded.count, by: 64) {
                            compress(UnsafeRawBufferPointer(rebasing: padded[block..<block + 64]), &state, w, k)
                        }
                    }
                }
            }
        }
        return state
    }

    /// Whole 64-byte blocks into the state with the SHA extensions (only where `fastestRounds` is `.accelerated`).
    private static func compressAccelerated(
        _ blocks: UnsafeRawBufferPointer, _ h: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    ) {
        guard let base = blocks.baseAddress, blocks.count >= 64 else { return }
        // A tuple of one type is laid out as an array of it.
        withUnsafeMutableBytes(of: &h) { words in
            guard let state = words.baseAddress?.assumingMemoryBound(to: UInt32.self) else { return }
            k.withUnsafeBufferPointer { k in
                cb_sha256_blocks(state, base.assumingMemoryBound(to: UInt8.self), blocks.count / 64, k.baseAddress)
            }
        }
    }

    /// One 64-byte block into the state (FIPS 180-4, 6.2.2).
    @inline(__always)
    private static func compress(
        _ block: UnsafeRawBufferPointer, _ h: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
        _ w: UnsafeMutableBufferPointer<UInt32>, _ k: UnsafeBufferPointer<UInt32>
    ) {
        for i in 0..<16 {
            w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
        }
        for i in 16..<64 {
            let s0 = w[i - 15].rotr(7) ^ w[i - 15].rotr(18) ^ (w[i - 15] &>> 3)
            let s1 = w[i - 2].rotr(17) ^ w[i - 2].rotr(19) ^ (w[i - 2] &>> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, hh) = h
        // Eight rounds per pass with the roles of the variables rotated, instead of eight moves a round:
        // 17% fewer instructions per block (callgrind, a 246-byte message hashed 20,000 times).
        var i = 0
        while i < 64 {
            round(a, b, c, &d, e, f, g, &hh, k[i] &+ w[i])
            round(hh, a, b, &c, d, e, f, &g, k[i + 1] &+ w[i + 1])
            round(g, hh, a, &b, c, d, e, &f, k[i + 2] &+ w[i + 2])
            round(f, g, hh, &a, b, c, d, &e, k[i + 3] &+ w[i + 3])
            round(e, f, g, &hh, a, b, c, &d, k[i + 4] &+ w[i + 4])
            round(d, e, f, &g, hh, a, b, &c, k[i + 5] &+ w[i + 5])
            round(c, d, e, &f, g, hh, a, &b, k[i + 6] &+ w[i + 6])
            round(b, c, d, &e, f, g, hh, &a, k[i + 7] &+ w[i + 7])
            i += 8
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
    }

    /// One round: `d` and `h` take the values the next round calls `e` and `a`.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
        _ h: inout UInt32, _ kw: UInt32
    ) {
        let t1 = h &+ (e.rotr(6) ^ e.rotr(11) ^ e.rotr(25)) &+ ((e & f) ^ (~e & g)) &+ kw
        let t2 = (a.rotr(2) ^ a.rotr(13) ^ a.rotr(22)) &+ ((a & b) ^ (a & c) ^ (b & c))
        d = d &+ t1
        h = t1 &+ t2
    }

    /// The digest of a string's UTF-8 bytes as lowercase hex (64 characters).
    package static func hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { hex(state: finalState(UnsafeRawBufferPointer($0), rounds: fastestRounds)) }
    }

    /// The digest of `bytes` as lowercase hex (64 characters).
    package static func hex(bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { hex($0) }
    }

    /// The digest of contiguous bytes as lowercase hex (64 characters).
    package static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        hex(state: finalState(bytes, rounds: fastestRounds))
    }

    /// The digits written from the state words straight into the string's storage: through a digest
    /// array, a digit array and a copy into the string it was 1,000 instructions a hash, 1,358 hashes in
    /// a no-change copy's content hashes (callgrind).
    private static func hex(state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)) -> String {
        // A tuple of one type is laid out as an array of it.
        withUnsafeBytes(of: state) { words in
            String(unsafeUninitializedCapacity: 64) { out in
                var position = 0
                for index in 0..<8 {
                    let word = words.load(fromByteOffset: index * 4, as: UInt32.self)
                    var shift: UInt32 = 28
                    for _ in 0..<8 {
                        let nibble = UInt8(truncatingIfNeeded: word >> shift) & 0x0F
                        out[position] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
                        position += 1
                        shift &-= 4
                    }
                }
                return position
            }
        }
    }
}

extension UInt32 {
    @inline(__always)
    fileprivate func rotr(_ n: UInt32) -> UInt32 { (self &>> n) | (self &<< (32 &- n)) }
}
