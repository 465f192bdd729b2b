import CJSONScan
import CalbridgeSupport
import JSON
import TestSupport
import Testing

/// `JSONReader.member` (one C pass over the object for one member) reads what reading the object member
/// by member reads: the same value (the last, when repeated), the same end, the same error at the same byte.
@Suite("JSONReader.member reads one member as a member-by-member reading does")
struct JSONReaderMemberTests {
    /// What `member` returns or throws, and where the reader ends.
    struct Outcome: Equatable {
        var value: String??
        var offset: Int
        var error: String?
    }

    /// The value as read: its text (`skipValue` from its start) when a string, else "<kind>".
    static func readValue(_ r: inout JSONReader) throws(JSONReader.Error) -> String? {
        try r.optionalString()
    }

    static func fast(_ bytes: [UInt8]) -> Outcome {
        var reader = JSONReader(bytes: bytes)
        do throws(JSONReader.Error) {
            var value: String??
            let present = try reader.member("recurringEventId") { (r: inout JSONReader) throws(JSONReader.Error) in
                value = .some(try readValue(&r))
            }
            #expect(present == (value != nil))
            return Outcome(value: value, offset: reader.offset, error: nil)
        } catch {
            return Outcome(value: nil, offset: -1, error: error.description)
        }
    }

    /// The reference: the loop `member` replaces.
    static func byMember(_ bytes: [UInt8]) -> Outcome {
        var reader = JSONReader(bytes: bytes)
        do throws(JSONReader.Error) {
            var value: String??
            try reader.beginObject()
            while let key = try reader.nextKey() {
                switch key {
                case "recurringEventId": value = .some(try readValue(&reader))
                default: try reader.skipValue()
                }
            }
            return Outcome(value: value, offset: reader.offset, error: nil)
        } catch {
            return Outcome(value: nil, offset: -1, error: error.description)
        }
    }

    @Test("chosen objects", arguments: [
        #"{}"#, #" { } "#, #"{"recurringEventId":"s1"}"#, #"{"id":"a","recurringEventId":"s1","x":[1,{"recurringEventId":"n"}]}"#,
        #"{"recurringEventId":null}"#, #"{"recurringEventId":5}"#, #"{"recurringEventId":"a","recurringEventId":"b"}"#,
        #"{"recurringEventId":5,"recurringEventId":"b"}"#, #"{"recurring\u0045ventId":"esc"}"#, #"{"recurringEventIdx":"no"}"#,
        #"{"é":"x","recurringEventId":"s"}"#, #"{ "recurringEventId" : "s" , "a" : [ ] }"#, #"{"recurringEventId":"s",}"#,
        #"{"a":"\x"}"#, #"{"a":1 "b":2}"#, #"{"recurringEventId":"s""#, #"["recurringEventId"]"#, #"{"a":"\u0000\n"}"#,
        #"{"recurringEventId":"a\"b\\c"}"#, "{\"a\":\"\u{1}\"}", #"{"recurringEventId":"s"} trailing"#,
    ])
    func chosen(text: String) {
        let bytes = Array(text.utf8)
        #expect(Self.fast(bytes) == Self.byMember(bytes))
    }

    @Test("20,000 seeded objects, some broken by a byte, read alike", .ownThread, arguments: [11, 12] as [UInt64])
    func seeded(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let keys = [#""recurringEventId""#, #""recurringEventId""#, #""id""#, #""recurring\u0045ventId""#, #""recurringEventI""#, #""é""#]
        let values = [#""s1""#, #""s2""#, "null", "12", #"{"recurringEventId":"inner"}"#, #"["a",{"b":[]}]"#, #""a\"b""#,
                      #""\ud83d\ude00""#, "true", #""\x""#]
        var found = 0
        var onePass = 0
        for _ in 0..<10_000 {
            let members = (0..<Int(rng.next() % 5)).map { _ in
                keys[Int(rng.next() % UInt64(keys.count))] + [":", " : ", ":"][Int(rng.next() % 3)]
                    + values[Int(rng.next() % UInt64(values.count))]
            }
            var bytes = Array(("{" + members.joined(separator: [",", ", ", ","][Int(rng.next() % 3)]) + "}").utf8)
            if rng.next() % 4 == 0 {
                let at = Int(rng.next() % UInt64(bytes.count))
                let junk: [UInt8] = [0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x22, 0x5C, 0x20, 0xFF]
                if rng.next() % 2 == 0 { bytes.remove(at: at) } else { bytes.insert(junk[Int(rng.next() % UInt64(junk.count))], at: at) }
            }
            let outcome = Self.fast(bytes)
            #expect(outcome == Self.byMember(bytes), "\(String(decoding: bytes, as: UTF8.self))")
            if case .some(.some) = outcome.value { found += 1 }
            // How often the C pass decided (no invalid object, escaped key or repeated member).
            var at = 0
            let name = Array("recurringEventId".utf8)
            let end = bytes.withUnsafeBufferPointer { cb_json_member($0.baseAddress, 0, $0.count, name, name.count, &at) }
            if end != -1, at != -2 { onePass += 1 }
        }
        #expect(found > 1_000)
        #expect(onePass > 3_000)
    }
}

/// `repeatedString()` reads what `string()` reads, whichever of the last few strings it hands back.
@Suite("JSONReader.repeatedString reads what string() reads")
struct JSONReaderRepeatedStringTests {
    @Test("3,000 seeded arrays of repeating, escaped, short and long strings")
    func seeded() throws {
        var rng = SplitMix64(seed: 2026_12_031)
        let pieces = ["America/New_York", "Eastern Standard Time", "a", "é", #"\""#, #"\u00e9"#, "x@example.com", "0123456789abcdef",
                      "0123456789abcdeX", ""]
        for _ in 0..<3_000 {
            let strings = (0..<Int(rng.next() % 24)).map { _ in
                "\"" + (0..<Int(1 + rng.next() % 3)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined() + "\""
            }
            let document = Array(("[" + strings.joined(separator: ",") + "]").utf8)
            func read(repeated: Bool) throws -> [String] {
                var reader = JSONReader(bytes: document)
                return try reader.optionalArray { (r: inout JSONReader) throws(JSONReader.Error) in
                    repeated ? try r.repeatedString() : try r.string()
                } ?? []
            }
            #expect(try read(repeated: true) == read(repeated: false))
        }
    }
}
