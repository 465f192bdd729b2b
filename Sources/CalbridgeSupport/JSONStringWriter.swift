/// A string as a JSON string literal, for both writers: JSONSerialization's escapes (`\b \f \n \r \t`,
/// other controls as `\u00xx`), slashes escaped as JSONSerialization does or left as `JSONEncoder` with
/// `.withoutEscapingSlashes` leaves them.
package enum JSONStringWriter {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    package static func write(_ string: String, into out: inout [UInt8], escapingSlashes: Bool) {
        var string = string
        string.withUTF8 { write(utf8: $0, into: &out, escapingSlashes: escapingSlashes) }
    }

    /// `write` of text given as its UTF-8 bytes (a literal's, say).
    package static func write(utf8 bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], escapingSlashes: Bool) {
        out.append(UInt8(ascii: "\""))
        // Runs that need no escape are copied whole (byte by byte was a third of writing a body), and
        // found eight bytes at a time where a word has nothing to escape (a byte test per byte was 550
        // instructions a string; callgrind).
        var run = 0
        var index = 0
        while index < bytes.count {
            if index + 8 <= bytes.count, let base = bytes.baseAddress,
                !needsEscape(ByteWord.load(base, at: index), escapingSlashes: escapingSlashes)
            {
                index += 8
                continue
            }
            let byte = bytes[index]
            index += 1
            let escape: UInt8
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): escape = byte
            case UInt8(ascii: "/") where escapingSlashes: escape = byte
            case 0x08: escape = UInt8(ascii: "b")
            case 0x0C: escape = UInt8(ascii: "f")
            case 0x0A: escape = UInt8(ascii: "n")
            case 0x0D: escape = UInt8(ascii: "r")
            case 0x09: escape = UInt8(ascii: "t")
            case ..<0x20: escape = UInt8(ascii: "u")
            default: continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index - 1]))
            run = index
            out.append(UInt8(ascii: "\\"))
            out.append(escape)
            if escape == UInt8(ascii: "u") {
                out.append(UInt8(ascii: "0"))
                out.append(UInt8(ascii: "0"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        out.append(UInt8(ascii: "\""))
    }

    /// Whether any byte of `word` is a quote, backslash, control character or (when escaped) slash (a
    /// false alarm only sends the word through the byte loop).
    private static func needsEscape(_ word: UInt64, escapingSlashes: Bool) -> Bool {
        var stops = ByteWord.below(word, 0x20) | ByteWord.equal(word, UInt8(ascii: "\"")) | ByteWord.equal(word, UInt8(ascii: "\\"))
        if escapingSlashes { stops |= ByteWord.equal(word, UInt8(ascii: "/")) }
        return stops != 0
    }
}
