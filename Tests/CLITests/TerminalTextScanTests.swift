import CalbridgeSupport
import TestSupport
import Testing
@testable import CLI

/// `TerminalText.containsUnsafe` reads UTF-8 bytes; it must find exactly the scalars `isUnsafe` names.
@Suite("TerminalText: the byte scan finds what the scalar walk found")
struct TerminalTextScanTests {
    @Test("random text around every unsafe range: same answer as walking the scalars", .ownThread, arguments: [1, 2, 3] as [UInt64])
    func sameAsScalars(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        // Scalars at and beside the edges of each unsafe range, and others with the same lead bytes; the
        // controls next to LF and tab in value, which a scan that lets those two through must still stop at.
        let pool: [Unicode.Scalar] = [
            "a", " ", "\n", "\t", "\r", "\u{0}", "\u{8}", "\u{B}", "\u{C}", "\u{1B}", "\u{1F}", "\u{7E}", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}", "é",
            "\u{2029}", "\u{202A}", "\u{202E}", "\u{202F}", "\u{2065}", "\u{2066}", "\u{2069}", "\u{206A}", "\u{2000}",
            "\u{20AC}", "😀", "\u{FFFD}",
        ]
        for _ in 0..<20_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...6, using: &rng) { text.append(pool[Int.random(in: 0..<pool.count, using: &rng)]) }
            // Printable ASCII around it, so that what matters falls at every offset of the 8-byte words
            // the scan skips whole.
            let padding = Int.random(in: 0...17, using: &rng)
            let string = String(repeating: "x", count: padding) + String(text) + String(repeating: "y", count: 17 - padding)
            for (c0, layout) in [(true, false), (true, true), (false, false)] {
                let expected = string.unicodeScalars.contains { scalar in
                    TerminalText.isUnsafe(scalar)
                        && (scalar.value >= 0x20 || (c0 && !(layout && (scalar == "\n" || scalar == "\t"))))
                }
                #expect(TerminalText.containsUnsafe(string, c0: c0, keepingLayout: layout) == expected, "\(string.debugDescription)")
            }
            // And sanitize and escapeJSON give what the scalar walk gave (it changes nothing when nothing is unsafe).
            #expect(TerminalText.sanitize(string, keepingLayout: true) == Self.sanitizedByScalars(string, keepingLayout: true))
            #expect(TerminalText.sanitize(string) == Self.sanitizedByScalars(string, keepingLayout: false))
        }
    }

    /// `sanitize` before the byte scan, as the oracle.
    static func sanitizedByScalars(_ text: String, keepingLayout: Bool) -> String {
        guard text.unicodeScalars.contains(where: TerminalText.isUnsafe) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !TerminalText.isUnsafe(scalar) {
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
}
