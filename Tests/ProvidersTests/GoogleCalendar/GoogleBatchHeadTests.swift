@testable import GoogleCalendar
import CalbridgeSupport
import CalendarBridge
import Foundation
import HTTP
import TestSupport
import Testing

/// The batch answer's heads are read on bytes: fields, status lines and the Content-ID trim where ASCII,
/// agreeing with the Character-level split and Foundation's trim whatever mix of line breaks, blanks and
/// colons a head has; delimiters always; fields split and trimmed as the transport reads a head.
@Suite("Google batch heads: read on bytes")
struct GoogleBatchHeadTests {
    /// Random heads from an alphabet of the bytes that matter (CR, LF, VT, FF, blank, tab, colon, angle
    /// brackets) plus letters, sometimes with a non-ASCII character; seeded, so a failure replays.
    @Test("fields, response heads and trims agree with Character.isNewline and trimmingCharacters", .ownThread, arguments: [11, 12, 13] as [UInt64])
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
            #expect(GoogleBatchCodec.fields(slice) == GoogleBatchCodec.headers(GoogleBatchCodec.lines(slice)), "\(bytes)")
            if let fast = GoogleBatchCodec.asciiResponseHead(slice) {
                let expected = GoogleBatchCodec.characterResponseHead(slice)
                #expect(fast.statusLine == expected.statusLine && fast.fields == expected.fields, "\(bytes)")
            }
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

    /// Heads read in one pass over their bytes give what reading them line by line (`lines`, then
    /// `headers`) gives: the fields, an embedded response's status line and the fields after it, its code.
    @Test("heads read on bytes agree with the line-by-line reading", .ownThread, arguments: [31, 32, 33] as [UInt64])
    func headsAgree(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func next() -> UInt64 { random.next() }
        let pieces: [[UInt8]] = [
            [0x0D], [0x0A], [0x0D, 0x0A], [0x20], [0x09], [0x3A], Array("HTTP/1.1".utf8), Array("200".utf8),
            Array("OK".utf8), Array("Content-Length".utf8), Array("x".utf8), Array("+7".utf8),
            [0x0B], [0x0C], Array("é".utf8), Array("\u{301}".utf8), Array("\u{2028}".utf8),
        ]
        var asciiHeads = 0, codes = 0
        for round in 0..<3_000 {
            var bytes: [UInt8] = []
            // Half of them open like a response (blank lines, then a status line of sorts).
            if next() % 2 == 0 {
                for _ in 0..<Int(next() % 3) { bytes += pieces[Int(next() % 3)] }
                bytes += Array("HTTP/1.1".utf8) + (next() % 4 == 0 ? [0x09] : [0x20]) + pieces[7 + Int(next() % 5)]
            }
            // Mostly ASCII heads (the fast paths), some with a byte that sends them to the line-by-line path.
            let ascii = next() % 4 != 0
            for _ in 0..<Int(next() % 30) { bytes += pieces[Int(next() % UInt64(ascii ? 12 : pieces.count))] }
            let head = bytes[...]
            let reference = GoogleBatchCodec.headers(GoogleBatchCodec.lines(head))
            #expect(GoogleBatchCodec.fields(head) == reference, "round \(round): \(bytes)")
            let expected = GoogleBatchCodec.characterResponseHead(head)
            if let fast = GoogleBatchCodec.asciiResponseHead(head) {
                asciiHeads += 1
                #expect(fast.statusLine == expected.statusLine && fast.fields == expected.fields, "round \(round): \(bytes)")
            }
            if let line = expected.statusLine {
                let words = line.split(separator: " ")
                let code = words.count >= 2 && words[0].hasPrefix("HTTP/") ? Int(words[1]) : nil
                if code != nil { codes += 1 }
                #expect(GoogleBatchCodec.statusCode(line) == code, "round \(round): \(line)")
            }
        }
        #expect(asciiHeads > 1_000)
        #expect(codes > 10, "only \(codes) status lines with a code")
    }

    /// The delimiter search (`memchr` and `memcmp`) against a plain scan, from every start: patterns whose
    /// first byte recurs, partial matches, matches at both ends, starts past the end.
    @Test("the delimiter search finds what a plain scan finds, from every start", arguments: [21, 22] as [UInt64])
    func delimiterSearch(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let alphabet = Array("--bx\r\n".utf8)
        for _ in 0..<500 {
            let bytes = (0..<Int(random.next() % 40)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let pattern = (0..<Int(1 + random.next() % 4)).map { _ in alphabet[Int(random.next() % 3)] }
            for start in -1...(bytes.count + 1) {
                var expected: Range<Int>?
                if start >= 0, pattern.count <= bytes.count {
                    for index in stride(from: start, through: bytes.count - pattern.count, by: 1)
                    where Array(bytes[index..<(index + pattern.count)]) == pattern {
                        expected = index..<(index + pattern.count)
                        break
                    }
                }
                #expect(GoogleBatchCodec.firstRange(of: pattern, in: bytes, from: start) == expected, "\(bytes) \(pattern) \(start)")
            }
        }
    }

    /// A part's fields are split at the first colon byte and trimmed of spaces and tabs only (RFC 9110's
    /// optional whitespace), as the transport reads a response's own head.
    @Test("a part's header fields: split at the first colon, spaces and tabs trimmed, other bytes kept")
    func partFields() throws {
        let part = [
            "--batch_x", "Content-Type: application/http", "Content-ID: <response-item-0>", "",
            "HTTP/1.1 200 OK", "Content-Type:\tapplication/json; charset=UTF-8 ", "X-Time:  12:30:05\t",
            "X-Space: \u{A0}kept\u{A0}", "X-Empty:", "ETag : \"3\"", "no colon here", "Content-Length: 2", "", "{}",
            "--batch_x--",
        ].joined(separator: "\r\n")
        let response = HTTPResponse(
            status: 200, headers: ["Content-Type": "multipart/mixed; boundary=batch_x"], body: Data(part.utf8))
        let answer = try #require(try GoogleBatchCodec.decode(response)["item-0"])
        #expect(answer.status == 200)
        #expect(answer.body == Data("{}".utf8))
        #expect(answer.headers["Content-Type"] == "application/json; charset=UTF-8")
        #expect(answer.headers["X-Time"] == "12:30:05")
        #expect(answer.headers["X-Space"] == "\u{A0}kept\u{A0}")
        #expect(answer.headers["X-Empty"] == "")
        #expect(answer.headers["ETag"] == "\"3\"")
        #expect(answer.headers.map(\.name) == ["Content-Type", "X-Time", "X-Space", "X-Empty", "ETag", "Content-Length"])
    }

    @Test("a batch request: each call a part with its Content-ID, request line, headers and body, CRLF throughout")
    func encode() throws {
        let base = try #require(URL(string: "https://www.googleapis.com/calendar/v3"))
        let events = APIURL(base: base).path("calendars").segment("a b@example.com").path("events")
        let body = Data(#"{"summary":"Plan"}"#.utf8)
        let calls = [
            GoogleBatchCodec.Call(method: .post, target: events.query("sendUpdates", "none"), body: body),
            GoogleBatchCodec.Call(method: .delete, target: events.segment("e1")),
        ]
        let (encoded, contentType) = GoogleBatchCodec.encode(calls, boundary: "b0undary")
        let expected = [
            "--b0undary", "Content-Type: application/http", "Content-ID: <item-0>", "",
            "POST /calendar/v3/calendars/a%20b%40example.com/events?sendUpdates=none HTTP/1.1", "Accept: application/json",
            "Content-Type: application/json; charset=UTF-8", "Content-Length: 18", "", #"{"summary":"Plan"}"#,
            "--b0undary", "Content-Type: application/http", "Content-ID: <item-1>", "",
            "DELETE /calendar/v3/calendars/a%20b%40example.com/events/e1 HTTP/1.1", "Accept: application/json", "",
            "--b0undary--", "",
        ].joined(separator: "\r\n")
        #expect(String(decoding: encoded, as: UTF8.self) == expected)
        #expect(contentType == "multipart/mixed; boundary=b0undary")
    }
}
