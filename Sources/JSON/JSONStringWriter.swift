import CJSONScan

/// A string as a JSON string literal, for both writers: JSONSerialization's escapes (`\b \f \n \r \t`,
/// other controls as `\u00xx`), slashes escaped as JSONSerialization does or left as `JSONEncoder` with
/// `.withoutEscapingSlashes` leaves them; for output to people, the characters a terminal may act on that
/// JSON leaves raw (DEL, C1 controls, bidirectional embeddings, overrides and isolates) as `\uXXXX`, as
/// the CLI's `TerminalText.escapeJSON` writes them.
package enum JSONStringWriter {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    package static func write(_ string: String, into out: inout [UInt8], escapingSlashes: Bool, escapingTerminalControls: Bool = false) {
        var string = string
        string.withUTF8 {
            write(utf8: $0, into: &out, escapingSlashes: escapingSlashes, escapingTerminalControls: escapingTerminalControls)
        }
    }

    /// `write` of text given as its UTF-8 bytes (a literal's, say).
    package static func write(
        utf8 bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], escapingSlashes: Bool, escapingTerminalControls: Bool = false
    ) {
        out.append(UInt8(ascii: "\""))
        // Runs that need no escape are copied whole (byte by byte was a third of writing a body), found
        // sixteen bytes a step (`cb_json_stop`, as the reader finds a string's end).
        let stops = (escapingSlashes ? CB_JSON_STOP_SLASH : 0) | (escapingTerminalControls ? CB_JSON_STOP_HIGH | CB_JSON_STOP_DEL : 0)
        var run = 0
        var index = 0
        while index < bytes.count, let base = bytes.baseAddress {
            index = cb_json_stop(base, index, bytes.count, stops) >> 1
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if escapingTerminalControls, byte >= 0x7F {
                // Other text beyond ASCII stays in the run.
                guard let (scalar, length) = terminalControl(in: bytes, at: index) else {
                    index += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(ascii: "u"))
                for shift in stride(from: 12, through: 0, by: -4) { out.append(hexDigits[Int(scalar >> UInt32(shift) & 0xF)]) }
                index += length
                run = index
                continue
            }
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

    /// The scalar a terminal may act on that starts at `index` of valid UTF-8, and its length in bytes:
    /// DEL (7F), U+0080...U+009F (C2 80...C2 9F), U+202A...U+202E (E2 80 AA...AE), U+2066...U+2069
    /// (E2 81 A6...A9); nil for any other.
    /// (`TerminalText.containsUnsafe` in the CLI finds them by this too.)
    package static func terminalControl(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int)? {
        let lead = bytes[index]
        if lead == 0x7F { return (0x7F, 1) }
        if lead == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { return (UInt32(bytes[index + 1]), 2) }
        guard lead == 0xE2, index + 2 < bytes.count else { return nil }
        let (second, third) = (bytes[index + 1], bytes[index + 2])
        if second == 0x80, (0xAA...0xAE).contains(third) { return (0x2000 | UInt32(third - 0x80), 3) }
        if second == 0x81, (0xA6...0xA9).contains(third) { return (0x2040 | UInt32(third - 0x80), 3) }
        return nil
    }
}
