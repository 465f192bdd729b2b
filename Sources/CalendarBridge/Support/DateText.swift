/// Byte-level pieces of the date and time parsers (`LocalDate`, `LocalDateTime`, `RFC3339`): they read
/// UTF-8 bytes with integer arithmetic, where `Substring` and `Character` operations would cost most of
/// the parse.
enum DateText {
    /// `body` on the UTF-8 bytes of `text`: in place when they are contiguous (any native string), else
    /// on a copy.
    static func withUTF8<R>(_ text: some StringProtocol, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// The value of an ASCII digit; nil for any other byte.
    @inline(__always)
    static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte &- UInt8(ascii: "0")) : nil
    }

    /// The two ASCII digits at `index` and `index + 1` as a number; nil when either is missing or not a digit.
    @inline(__always)
    static func twoDigits(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        guard index >= 0, index + 1 < bytes.count, let high = digit(bytes[index]), let low = digit(bytes[index + 1])
        else { return nil }
        return high * 10 + low
    }
}
