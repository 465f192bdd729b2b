/// Tests of eight bytes at once, for scans that skip runs of plain text a word at a time (JSON strings
/// read and written, text checked before it is printed): "Bit Twiddling Hacks". Each returns a mask with
/// the high bit set in every byte that matches, and maybe in bytes after a match (borrows), never in a
/// word without one: a scan stops at a word whose mask is not zero and looks at its bytes one by one.
/// The `exactly` tests flag the matching bytes only.
///
/// Public, not `package`, for one reason: this toolchain inlines an `@inlinable` function into another
/// module only when its type is public (a `package` one stays a call: measured in a two-module package),
/// and these run per word in other modules' scans.
public enum ByteWord {
    @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
    @usableFromInline static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Eight bytes at `offset` of `base`, in memory order.
    @inlinable
    public static func load(_ base: UnsafePointer<UInt8>, at offset: Int) -> UInt64 {
        UnsafeRawPointer(base).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    /// Bytes equal to `byte`.
    @inlinable
    public static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highs
    }

    /// Bytes below `limit` (at most 0x80).
    @inlinable
    public static func below(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highs
    }

    /// Bytes of 0x80 or more.
    @inlinable
    public static func high(_ word: UInt64) -> UInt64 { word & highs }

    // Exact tests: the high bit set in the matching bytes and in no other, for masks that are combined
    // with `&` or `~` (a borrow's flag after a match could hide or fake a match there).

    /// Bytes equal to `byte`, exactly.
    @inlinable
    public static func exactlyEqual(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let lows = ~highs
        let difference = word ^ (ones &* UInt64(byte))
        return ~(((difference & lows) &+ lows) | difference) & highs
    }

    /// Bytes below 0x20, exactly, in a word with no byte of 0x80 or more (adding 0x60 to such a byte
    /// carries into no other).
    @inlinable
    public static func exactlyBelowSpace(asciiWord word: UInt64) -> UInt64 {
        ~(word &+ 0x6060_6060_6060_6060) & highs
    }
}
