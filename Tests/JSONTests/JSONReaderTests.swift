import CalbridgeSupport
import Foundation
import JSON
import Testing

@Suite("JSONReader: RFC 8259 documents, and every malformed one refused")
struct JSONReaderTests {
    struct Sample: JSONReadable, Equatable {
        var text: String?
        var number: Int?
        var flag: Bool?
        var list: [String]?
        var map: [String: String]?

        init(text: String? = nil, number: Int? = nil, flag: Bool? = nil, list: [String]? = nil, map: [String: String]? = nil) {
            (self.text, self.number, self.flag, self.list, self.map) = (text, number, flag, list, map)
        }

        init(reading r: inout JSONReader) throws(JSONReader.Error) {
            try r.beginObject()
            while let key = try r.nextKey() {
                switch key {
                case "text": text = try r.optionalString()
                case "number": number = try r.optionalInt()
                case "flag": flag = try r.optionalBool()
                case "list": list = try r.optionalStrings()
                case "map": map = try r.optionalStringMap()
                default: try r.skipValue()
                }
            }
        }
    }

    static func read(_ text: String) throws -> Sample { try JSONReader.read(Sample.self, from: Data(text.utf8)) }

    @Test("members, nulls, unknown members of any shape, escapes and surrogate pairs")
    func reads() throws {
        let sample = try Self.read(#"""
             { "text" : "a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00é" , "number": -42, "flag": true, "list": ["x", ""],
               "map": {"k": "v"}, "skip": [1, 2.5e-3, {"deep": [null, false, "s"]}, []], "more": {} }
            """#)
        #expect(sample == Sample(text: "a\"b\\c/d\u{8}\u{C}\n\r\té😀é", number: -42, flag: true, list: ["x", ""], map: ["k": "v"]))
        #expect(try Self.read(#"{"text": null, "number": null, "list": null}"#) == Sample())
        #expect(try Self.read("{}") == Sample())
    }

    @Test("integers: whole numbers written with a fraction or exponent are integers, others are not")
    func integers() throws {
        #expect(try Self.read(#"{"number": 15.0}"#).number == 15)
        #expect(try Self.read(#"{"number": 1e2}"#).number == 100)
        #expect(throws: JSONReader.Error.self) { try Self.read(#"{"number": 1.5}"#) }
        #expect(throws: JSONReader.Error.self) { try Self.read(#"{"number": 99999999999999999999}"#) }
        #expect(throws: JSONReader.Error.self) { try Self.read(#"{"number": "15"}"#) }
    }

    @Test("malformed documents throw", arguments: [
        "", "{", "{\"text\"}", "{\"text\":}", "{\"text\":\"a\",}", "{,}", "[1,]", "{\"x\":01}", "{\"x\":-}", "{\"x\":1.}",
        "{\"x\":1e}", "{\"text\":\"\u{1}\"}", "{\"text\":\"\\ud800\"}", "{\"text\":\"\\udc00x\"}", "{\"text\":\"\\x\"}",
        "{\"text\":\"\\u12\"}", "{\"text\":\"abc", "{\"x\":tru}", "{\"x\":nul}", "{} {}", "{\"flag\":1}", "[]", "{\"list\":[1]}",
        "{\"map\":{\"k\":1}}", "{\"x\":" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}",
    ])
    func malformed(_ text: String) {
        #expect(throws: JSONReader.Error.self) { try Self.read(text) }
    }

    /// `optionalListing` reserves room from its first item's size; what it reads is `optionalArray`'s.
    @Test("a listing reads as an array does: empty, null, one item, items of every size, more than the room kept")
    func listings() throws {
        func both(_ text: String) throws -> (array: [Sample]?, listing: [Sample]?) {
            let data = Data(text.utf8)
            return (
                try JSONReader.read(from: data) { (r: inout JSONReader) throws(JSONReader.Error) in try r.optionalArray(of: Sample.self) },
                try JSONReader.read(from: data) { (r: inout JSONReader) throws(JSONReader.Error) in try r.optionalListing(of: Sample.self) }
            )
        }
        let many = (0..<(JSONReader.maxListingRoom + 7)).map { #"{"number": \#($0)}"# }.joined(separator: ",")
        let sizes = (0..<40).map { #"{"text": "\#(String(repeating: "x", count: $0 * $0))", "skip": [\#($0)]}"# }.joined(separator: ", ")
        for text in ["null", "[]", " [ {} ] ", "[{\"text\": \"a\"}, {}, {\"number\": 2}]", "[" + many + "]", "[" + sizes + "]"] {
            let (array, listing) = try both(text)
            #expect(array == listing, "\(text.prefix(40))")
        }
        #expect(try both("[" + many + "]").listing?.count == JSONReader.maxListingRoom + 7)
        for text in ["[{},]", "[{}", "[{} {}]", "[1]", "{}"] {
            #expect(throws: JSONReader.Error.self, "\(text)") {
                try JSONReader.read(from: Data(text.utf8)) { (r: inout JSONReader) throws(JSONReader.Error) in try r.optionalListing(of: Sample.self) }
            }
        }
    }

    @Test("invalid UTF-8 in a string throws")
    func invalidUTF8() {
        var bytes = Array(#"{"text":"a"#.utf8)
        bytes += [0xC3, 0x28]
        bytes += Array(#""}"#.utf8)
        #expect(throws: JSONReader.Error.self) { try JSONReader.read(Sample.self, from: Data(bytes)) }
    }

    @Test("what it reads, JSONSerialization reads the same way (strings of every escape)")
    func agreesWithFoundation() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let text = SortedJSONWriterTests.text(&rng)
            let data = try JSONSerialization.data(withJSONObject: ["text": text, "skip": [text: [1, true]]])
            #expect(try JSONReader.read(Sample.self, from: data).text == text)
        }
    }
}
