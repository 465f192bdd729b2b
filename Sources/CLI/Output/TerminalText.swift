import CalbridgeSupport
import JSON

/// Text from servers made safe for a terminal: the one place calbridge neutralises control characters.
///
/// A calendar title, location, `error_description` or device-flow message is chosen by whoever controls
/// the server or the event (anyone can send an invitation). Printed raw, `ESC ]` could set the window
/// title or a clipboard, `ESC [` move the cursor or repaint earlier output, a `CR` overwrite a line, and
/// bidirectional overrides reorder what a person reads. Every line calbridge prints for people passes
/// through `sanitize`; JSON output keeps such characters, escaped as `\uXXXX` by `escapeJSON`.
public enum TerminalText {
    /// Characters a terminal may act on: C0 controls (except the caller's line breaks), DEL, C1 controls
    /// (U+0080 to U+009F, which some terminals read as 8-bit escape sequences), and the Unicode
    /// bidirectional embeddings, overrides and isolates.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with every unsafe character replaced: tab, CR and LF by a space (or LF and tab kept, for
    /// output calbridge lays out itself: lines, TSV columns), anything else by U+FFFD, so an escape
    /// sequence shows as text and acts as none.
    public static func sanitize(_ text: String, keepingLayout: Bool = false) -> String {
        guard containsUnsafe(text, c0: true, keepingLayout: keepingLayout) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !isUnsafe(scalar) {
                out.append(scalar)
            } else if scalar == "\n" || scalar == "\t", keepingLayout {
                out.append(scalar)
            } else if scalar == "\t" || scalar == "\n" || scalar == "\r" {
                out.append(" ")
            } else {
                out.append("\u{FFFD}")
            }
        }
        return String(out)
    }

    /// Whether `text` has a scalar `isUnsafe` names, C0 controls only when `c0` (and then not LF or tab
    /// when `keepingLayout`, which `sanitize` keeps as they are). Read from the UTF-8 bytes, where each
    /// such scalar has its own byte sequence: walking the unicode scalars of every printed line (a
    /// copy's whole JSON document among them) was 9% of a no-change copy's instructions (callgrind).
    static func containsUnsafe(_ text: String, c0: Bool, keepingLayout: Bool) -> Bool {
        func unsafe(_ scalar: Unicode.Scalar) -> Bool {
            guard isUnsafe(scalar) else { return false }
            if scalar.value < 0x20 { return c0 && !(keepingLayout && (scalar == "\n" || scalar == "\t")) }
            return true
        }
        let scanned = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            var index = 0
            while index < bytes.count {
                // Eight bytes of printable ASCII at once (most of a JSON document between its line breaks).
                if index + 8 <= bytes.count, let base = bytes.baseAddress,
                    isPlainWord(ByteWord.load(base, at: index), allowingLayout: !c0 || keepingLayout)
                {
                    index += 8
                    continue
                }
                let byte = bytes[index]
                switch byte {
                case 0x00..<0x20:
                    if c0 && !(keepingLayout && (byte == 0x0A || byte == 0x09)) { return true }
                case 0x7F, 0xC2, 0xE2:
                    // DEL, C1 and the bidirectional controls, by their byte sequences (a String's UTF-8 is
                    // valid, so C2 and E2 are always lead bytes): the rule the JSON writer escapes by.
                    if JSONStringWriter.terminalControl(in: bytes, at: index) != nil { return true }
                default:
                    break
                }
                index += 1
            }
            return false
        }
        return scanned ?? text.unicodeScalars.contains(where: unsafe)
    }

    /// Whether every byte of `word` is in 0x20...0x7E, or LF or tab when `allowingLayout`. By the exact
    /// tests (`ByteWord.equal` may flag the byte after an LF, and masking that flag off could hide a
    /// control character there): a pretty JSON document has a line break every few words, and each sent
    /// its word through the byte loop.
    private static func isPlainWord(_ word: UInt64, allowingLayout: Bool) -> Bool {
        guard ByteWord.high(word) == 0 else { return false }
        var control = ByteWord.exactlyBelowSpace(asciiWord: word)
        if allowingLayout { control &= ~(ByteWord.exactlyEqual(word, 0x0A) | ByteWord.exactlyEqual(word, 0x09)) }
        return control | ByteWord.exactlyEqual(word, 0x7F) == 0
    }

    /// JSON text with the unsafe characters JSON leaves raw (DEL, C1, bidirectional controls) written as
    /// `\uXXXX`; JSONSerialization already escapes C0. The value read back is unchanged.
    public static func escapeJSON(_ json: String) -> String {
        guard containsUnsafe(json, c0: false, keepingLayout: false) else { return json }
        var out = ""
        for scalar in json.unicodeScalars {
            if isUnsafe(scalar), scalar.value >= 0x7F {
                let hex = String(scalar.value, radix: 16, uppercase: false)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
