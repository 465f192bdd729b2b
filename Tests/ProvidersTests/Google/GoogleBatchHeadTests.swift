import CalbridgeSupport
import Foundation
@testable import GoogleCalendar
import Testing

/// The batch answer's heads are read on bytes when ASCII; the result must be what the Character-level
/// split and Foundation's trim give, whatever mix of line breaks, blanks and colons a head has.
@Suite("Google batch heads: the byte path agrees with the Character path")
struct GoogleBatchHeadTests {
    /// Random heads from an alphabet of the bytes that matter (CR, LF, VT, FF, blank, tab, colon, angle
    /// brackets) plus letters, sometimes with a non-ASCII character; seeded, so a failure replays.
    @Test("lines and trims agree with Character.isNewline and trimmingCharacters", arguments: [11, 12, 13] as [UInt64])
    func agree(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func next() -> UInt64 { random.next() }
        let alphabet: [[UInt8]] = [
            [0x0D], [0x0A], [0x0D, 0x0A], [0x0B], [0x0C], [0x20], [0x09], [0x3A], [0x3C], [0x3E], Array("Content-ID".utf8),
            Array("ab".utf8), Array("é".utf8), Array("\u{2028}".utf8), Array("\u{85}".utf8),
        ]
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            let ascii = next() % 2 == 0
            for _ in 0..<Int(next() % 24) {
                let piece = alphabet[Int(next() % UInt64(ascii ? 11 : alphabet.count))]
                bytes += piece
            }
            let slice = bytes[...]
            #expect(GoogleBatchCodec.lines(slice) == GoogleBatchCodec.characterLines(slice), "\(bytes)")
            let text = String(decoding: bytes, as: UTF8.self)
            let blanks = [UInt8(ascii: " "), UInt8(ascii: "\t")]
            #expect(
                GoogleBatchCodec.trimmed(Substring(text), dropping: blanks) { $0.trimmingCharacters(in: .whitespaces) }
                    == text.trimmingCharacters(in: .whitespaces), "\(bytes)")
            let brackets = [UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: " ")]
            #expect(
                GoogleBatchCodec.trimmed(Substring(text), dropping: brackets) { $0.trimmingCharacters(in: CharacterSet(charactersIn: "<> ")) }
                    == text.trimmingCharacters(in: CharacterSet(charactersIn: "<> ")), "\(bytes)")
        }
    }
}
