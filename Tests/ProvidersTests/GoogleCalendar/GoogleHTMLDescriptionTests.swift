import CalbridgeSupport
import Testing
@testable import GoogleCalendar

/// Whether a Google description is HTML decides the body's kind, which the copy's content hash covers:
/// the byte scan must answer as the Foundation test it replaced, `lowercased().contains(marker)`.
@Suite("Google descriptions: looksLikeHTML agrees with lowercased().contains")
struct GoogleHTMLDescriptionTests {
    static func oracle(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return GoogleEventMapping.htmlMarkerTexts.contains { lowered.contains($0) }
    }

    @Test("20,000 seeded descriptions from markers, their pieces, case changes and non-ASCII")
    func agrees() {
        let pieces = GoogleEventMapping.htmlMarkerTexts + [
            "<", "</", "<B", "<P", "<A HREF", "<a  href", "<Br/>", "<DIV>", "<ul>", "p>", "br", "html", "&lt;br&gt;",
            " ", "\n", "text", "x", "é", "İ", "ǅ", "🎉", "e\u{301}", "<\u{301}", "\u{212A}",
        ]
        var random = SplitMix64(seed: 20261202)
        for _ in 0..<20_000 {
            let count = Int(random.next() % 6)
            let text = (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            #expect(GoogleEventMapping.looksLikeHTML(text) == Self.oracle(text), "\(text.debugDescription)")
        }
    }

    @Test("named cases: a marker at the very end, upper case, a '<' alone, nothing")
    func named() {
        #expect(GoogleEventMapping.looksLikeHTML("line one<BR"))
        #expect(GoogleEventMapping.looksLikeHTML("see <A HREF=\"x\">"))
        #expect(GoogleEventMapping.looksLikeHTML("a</"))
        #expect(!GoogleEventMapping.looksLikeHTML("1 < 2 and 3 > 2"))
        #expect(!GoogleEventMapping.looksLikeHTML("<"))
        #expect(!GoogleEventMapping.looksLikeHTML(""))
        #expect(!GoogleEventMapping.looksLikeHTML("<a hre"))
    }
}
