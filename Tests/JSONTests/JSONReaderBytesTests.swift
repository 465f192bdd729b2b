import CalbridgeSupport
import Foundation
import JSON
import TestSupport
import Testing

/// The byte-level parts of `JSONReader`: keys matched by bytes, skipped strings never built, and its own
/// UTF-8 check, each against what the `String`-based reader did.
@Suite("JSONReader on bytes: keys, skipped strings and UTF-8 checks as before")
struct JSONReaderBytesTests {

    struct Pair: JSONReadable, Equatable {
        var id: String?
        var name: String?
        var unknown = 0

        init(id: String? = nil, name: String? = nil, unknown: Int = 0) { (self.id, self.name, self.unknown) = (id, name, unknown) }

        init(reading r: inout JSONReader) throws(JSONReader.Error) {
            try r.beginObject()
            while let key = try r.nextKey() {
                switch key {
                case "id": id = try r.optionalString()
                case "name": name = try r.optionalString()
                default:
                    unknown += 1
                    try r.skipValue()
                }
            }
        }
    }

    static func read(_ text: String) throws -> Pair { try JSONReader.read(Pair.self, from: Data(text.utf8)) }

    @Test("escaped strings decode as JSONSerialization reads them, short and long, ASCII or not")
    func escapedStrings() throws {
        let marker = #"{\"provider\":\"outlook\",\"eventID\":\"AAMk\/x==\"}"#
        var texts = [
            marker, #"a\"b\\c\/d\be\ff\ng\rh\ti"#, #"\u00e9t\u00e9 \"x\""#, #"\"caf\u00e9\" \ud83d\ude00"#,
            "\\\"\u{7F}", "plain \\\" é \\\"",
        ]
        for length in [1000, 1020, 1023, 1024, 1025, 3000] {
            texts.append(String(repeating: #"ab\""#, count: length / 4) + String(repeating: "x", count: length % 4))
        }
        for text in texts {
            let document = Data(#"[""#.utf8) + Data(text.utf8) + Data(#""]"#.utf8)
            let expected = try #require(try JSONSerialization.jsonObject(with: document) as? [String])
            var reader = JSONReader(document)
            try reader.beginArray()
            #expect(try reader.nextElement())
            let bytes = try reader.withString { Array($0) }
            #expect(String(decoding: bytes, as: UTF8.self) == expected.first, "\(text)")
            #expect(try !reader.nextElement())
        }
        // Refused as before: a control byte, an invalid escape, no end.
        for bad in ["[\"a\\\"\u{01}\"]", #"["a\"\q"]"#, #"["a\"b"#] {
            var reader = JSONReader(Data(bad.utf8))
            try reader.beginArray()
            _ = try reader.nextElement()
            #expect(throws: JSONReader.Error.self) { try reader.withString { Array($0) } }
        }
    }

    @Test("a key is its unescaped text: escapes match, prefixes and other cases do not")
    func keys() throws {
        #expect(try Self.read(#"{"\u0069d": "a", "n\u0061me": "b"}"#) == Pair(id: "a", name: "b"))
        #expect(try Self.read(#"{"i": "a", "idx": "b", "ID": "c", "": "d", "namé": "e"}"#) == Pair(unknown: 5))
        #expect(try Self.read(#"{"id": "a", "id": "b"}"#) == Pair(id: "b"))
        // A key with an invalid escape or invalid UTF-8 is refused, as before.
        #expect(throws: JSONReader.Error.self) { try Self.read(#"{"\x": 1}"#) }
        #expect(throws: JSONReader.Error.self) { try JSONReader.read(Pair.self, from: Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])) }
    }

    @Test("skipped strings are checked as read ones are: control characters, escapes, UTF-8")
    func skippedStrings() throws {
        #expect(try Self.read(#"{"skip": "plain", "more": "é\n\u00e9 \ud83d\ude00"}"#) == Pair(unknown: 2))
        #expect(throws: JSONReader.Error.self) { try Self.read("{\"skip\": \"a\u{1}b\"}") }
        #expect(throws: JSONReader.Error.self) { try Self.read(#"{"skip": "\ud83d"}"#) }
        #expect(throws: JSONReader.Error.self) { try Self.read(#"{"skip": "unterminated}"#) }
        let invalid = Data(#"{"skip": "#.utf8) + Data([0x22, 0xC3, 0x28, 0x22]) + Data("}".utf8)
        #expect(throws: JSONReader.Error.self) { try JSONReader.read(Pair.self, from: invalid) }
    }

    @Test("a skipped string with escapes is refused exactly when reading it is", .ownThread, arguments: [4, 5, 6] as [UInt64])
    func skippedEscapes(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        // Escapes good and bad, surrogates paired and lone, raw UTF-8 good and bad, control bytes, quotes.
        let pieces: [[UInt8]] = [
            Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\/"#.utf8), Array(#"\n"#.utf8), Array(#"\t"#.utf8), Array(#"\x"#.utf8),
            Array(#"\u00e9"#.utf8), Array(#"\u00G9"#.utf8), Array(#"\u12"#.utf8), Array(#"\ud83d\ude00"#.utf8), Array(#"\ud83d"#.utf8),
            Array(#"\ude00"#.utf8), Array(#"\ud83d\u0041"#.utf8), Array("é".utf8), Array("🎉".utf8), [0xC3], [0xA9], [0xED, 0xA0, 0x80],
            [0x01], [0x22], Array("plain".utf8), [0x5C],
        ]
        for _ in 0..<20_000 {
            let body = (0..<Int.random(in: 0...6, using: &rng)).flatMap { _ in pieces[Int.random(in: 0..<pieces.count, using: &rng)] }
            let read = Data(#"{"id": ""#.utf8) + Data(body) + Data(#""}"#.utf8)
            let skipped = Data(#"{"other": ""#.utf8) + Data(body) + Data(#""}"#.utf8)
            let readable = (try? JSONReader.read(Pair.self, from: read)) != nil
            let skippable = (try? JSONReader.read(Pair.self, from: skipped)) != nil
            #expect(readable == skippable, "\(body.map { String($0, radix: 16) })")
        }
    }

    /// Strings are scanned eight bytes at a time: every stop (quote, backslash, control character, a byte
    /// of 0x80 or more) at every offset of a word, in strings of every length around the word size.
    @Test("strings and keys of every length and stop position read as their pieces say", .ownThread, arguments: [7, 8, 9] as [UInt64])
    func wordScan(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        // (as written in the document, as read, valid)
        let pieces: [([UInt8], String, Bool)] = [
            (Array("a".utf8), "a", true), (Array("Z9".utf8), "Z9", true), (Array("é".utf8), "é", true),
            (Array("😀".utf8), "😀", true), (Array(#"\""#.utf8), "\"", true), (Array(#"\\"#.utf8), "\\", true),
            (Array(#"\n"#.utf8), "\n", true), ([0x7F], "\u{7F}", true), ([0x20], " ", true), ([0x1F], "", false),
            ([0x09], "", false), ([0xFF], "", false), ([0xC3], "", false),
        ]
        for _ in 0..<20_000 {
            var raw: [UInt8] = []
            var text = ""
            var valid = true
            for _ in 0..<Int.random(in: 0...24, using: &rng) {
                let piece = Int.random(in: 0..<100, using: &rng) < 70 ? pieces[0] : pieces[Int.random(in: 0..<pieces.count, using: &rng)]
                raw += piece.0
                text += piece.1
                valid = valid && piece.2
            }
            let value = Data([0x22] + raw + [0x22])
            let read = try? JSONReader.read(from: value) { (r: inout JSONReader) throws(JSONReader.Error) in try r.string() }
            #expect(read == (valid ? text : nil), "\(raw.map { String($0, radix: 16) })")
            let object = Data("{".utf8) + value + Data(": 1, \"id\": ".utf8) + value + Data("}".utf8)
            let pair = try? JSONReader.read(Pair.self, from: object)
            #expect(pair == (valid ? Pair(id: text, unknown: text == "name" ? 0 : 1) : nil))
            let skipped = Data(#"{"other": "#.utf8) + value + Data("}".utf8)
            #expect(((try? JSONReader.read(Pair.self, from: skipped)) != nil) == valid)
        }
    }

    @Test("isValidUTF8 decides as String(validating:) does", .ownThread, arguments: [1, 2, 3] as [UInt64])
    func utf8(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        // Bytes around every boundary of the UTF-8 table: ASCII, continuations, leads, overlongs, surrogates.
        let pool: [UInt8] = [
            0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF,
            0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        for _ in 0..<30_000 {
            let bytes = (0..<Int.random(in: 0...8, using: &rng)).map { _ in pool[Int.random(in: 0..<pool.count, using: &rng)] }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(JSONReader.isValidUTF8(bytes[...]) == expected, "\(bytes.map { String($0, radix: 16) })")
            // And as a JSON string value, read and skipped.
            let document = Data(#"{"id": ""#.utf8) + Data(bytes.map { $0 == 0x22 || $0 == 0x5C ? 0x41 : $0 }) + Data(#""}"#.utf8)
            #expect(((try? JSONReader.read(Pair.self, from: document)) != nil) == expected)
        }
    }
}
