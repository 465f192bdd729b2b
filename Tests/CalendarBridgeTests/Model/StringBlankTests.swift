import CalbridgeSupport
import Testing
@testable import CalendarBridge

/// `isBlank` (a location or body with nothing to copy) decides as `allSatisfy(\.isWhitespace)` does,
/// its first-byte shortcut included.
@Suite("String.isBlank: every character whitespace, as allSatisfy(\\.isWhitespace) says")
struct StringBlankTests {
    @Test("chosen texts and 5,000 seeded ones from whitespace, ASCII and other pieces")
    func agrees() {
        var rng = SplitMix64(seed: 2026_12_032)
        let pieces = [" ", "\t", "\n", "\r\n", "\u{00A0}", "\u{2003}", "\u{200B}", "\u{0301}", "a", "!", "~", "\u{7F}", "é", "語", ""]
        var texts = ["", " ", "a", " a", "\u{0301}", "a\u{0301}", "\u{00A0}x", "\u{7F}", "~ "]
        for _ in 0..<5_000 {
            texts.append((0..<Int(rng.next() % 4)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined())
        }
        for text in texts {
            #expect(text.isBlank == text.allSatisfy(\.isWhitespace), "\(Array(text.unicodeScalars))")
        }
    }
}
