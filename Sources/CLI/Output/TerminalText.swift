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
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
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

    /// JSON text with the unsafe characters JSON leaves raw (DEL, C1, bidirectional controls) written as
    /// `\uXXXX`; JSONSerialization already escapes C0. The value read back is unchanged.
    public static func escapeJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { isUnsafe($0) && $0.value >= 0x7F }) else { return json }
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
