import CalbridgeSupport
import Foundation
import JSON
import TestSupport
import Testing

/// `skipValue` checks what it skips without building it (keys as bytes, strings unbuilt); it must accept
/// exactly the documents a plain reading of RFC 8259 written here accepts (strings checked as `string()`
/// reads them, nesting up to `maxDepth`), since a listing's unread members decide whether it is read.
@Suite("JSONReader.skipValue accepts what a recursive reading accepts")
struct JSONReaderSkipTests {

    /// The oracle: recursive descent over the grammar, written for this test.
    struct Recursive {
        let bytes: [UInt8]
        var i = 0

        static func accepts(_ bytes: [UInt8]) -> Bool {
            var r = Recursive(bytes: bytes)
            guard r.value(depth: 0) else { return false }
            r.whitespace()
            return r.i == bytes.count
        }

        mutating func whitespace() { while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 } }

        mutating func take(_ byte: UInt8) -> Bool {
            whitespace()
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }

        mutating func value(depth: Int) -> Bool {
            guard depth < JSONReader.maxDepth else { return false }
            whitespace()
            guard i < bytes.count else { return false }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                if take(UInt8(ascii: "}")) { return true }
                repeat {
                    whitespace()
                    guard string(), take(UInt8(ascii: ":")), value(depth: depth + 1) else { return false }
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "}"))
            case UInt8(ascii: "["):
                i += 1
                if take(UInt8(ascii: "]")) { return true }
                repeat {
                    guard value(depth: depth + 1) else { return false }
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "]"))
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return word("true")
            case UInt8(ascii: "f"): return word("false")
            case UInt8(ascii: "n"): return word("null")
            default: return number()
            }
        }

        mutating func word(_ text: String) -> Bool {
            let w = Array(text.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else { return false }
            i += w.count
            return true
        }

        /// A string token (to its closing quote), valid when `JSONReader.string()` reads it alone.
        mutating func string() -> Bool {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return false }
            var j = i + 1
            while j < bytes.count, bytes[j] != UInt8(ascii: "\"") { j += bytes[j] == UInt8(ascii: "\\") ? 2 : 1 }
            guard j < bytes.count else { return false }
            var reader = JSONReader(bytes: Array(bytes[i...j]))
            guard (try? { () throws(JSONReader.Error) -> Void in _ = try reader.string(); try reader.end() }()) != nil else { return false }
            i = j + 1
            return true
        }

        mutating func number() -> Bool {
            func digits() -> Int {
                let from = i
                while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
                return i - from
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            let lead = i
            guard digits() > 0, bytes[lead] != 0x30 || i - lead == 1 else { return false }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard digits() > 0 else { return false }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { return false }
            }
            return true
        }
    }

    static func skips(_ bytes: [UInt8]) -> Bool {
        var reader = JSONReader(bytes: bytes)
        return (try? { () throws(JSONReader.Error) -> Void in try reader.skipValue(); try reader.end() }()) != nil
    }

    /// A random document from the grammar's pieces, valid or nearly.
    static func document(_ rng: inout SplitMix64, depth: Int = 0) -> String {
        let scalars = ["0", "-1", "12.5e-3", "01", "1.", "-", "1e", "true", "false", "null", "nul", "\"\"", "\"a\\\"b\"",
                       "\"\\u00e9\\ud83d\\ude00\"", "\"\\ud83d\"", "\"\\x\"", "\"é\"", "\"a\u{1}\"", "\"tab\\t\""]
        let roll = rng.next() % 10
        if depth > 4 || roll < 4 { return scalars[Int(rng.next() % UInt64(scalars.count))] }
        let count = Int(rng.next() % 4)
        let parts = (0..<count).map { _ in document(&rng, depth: depth + 1) }
        let separators = [",", ",", ",", " , ", ",,", ""]
        func sep() -> String { separators[Int(rng.next() % UInt64(separators.count))] }
        if roll < 7 {
            return "[" + parts.map { $0 }.joined(separator: sep()) + (rng.next() % 8 == 0 ? ",]" : "]")
        }
        let keys = ["\"k\"", "\"\\u006b\"", "\"\"", "k", "\"k\" "]
        let members = parts.map { keys[Int(rng.next() % UInt64(keys.count))] + (rng.next() % 10 == 0 ? "" : ":") + $0 }
        return "{ " + members.joined(separator: sep()) + (rng.next() % 8 == 0 ? "," : "") + " }"
    }

    @Test("30,000 seeded documents, some broken by a byte, decide alike", .ownThread, arguments: [1, 2, 3] as [UInt64])
    func agree(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<10_000 {
            var bytes = Array(Self.document(&rng).utf8)
            if rng.next() % 3 == 0, !bytes.isEmpty {
                let at = Int(rng.next() % UInt64(bytes.count))
                let junk: [UInt8] = [0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x22, 0x5C, 0x20, 0x31, 0xFF]
                if rng.next() % 2 == 0 { bytes.remove(at: at) } else { bytes.insert(junk[Int(rng.next() % UInt64(junk.count))], at: at) }
            }
            #expect(Self.skips(bytes) == Recursive.accepts(bytes), "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test("the one-loop skip and the token-by-token walk refuse alike and stop at the same byte", .ownThread, arguments: [4, 5] as [UInt64])
    func fastPathAgrees(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        func skip(_ bytes: [UInt8], byToken: Bool) -> Int? {
            var reader = JSONReader(bytes: bytes)
            let done = (try? { () throws(JSONReader.Error) -> Void in
                if byToken { try reader.skipValueByToken() } else { try reader.skipValue() }
            }()) != nil
            return done ? reader.offset : nil
        }
        var skipped = 0
        for _ in 0..<10_000 {
            // Whitespace around, something after (the skip stops before it), a byte broken now and then.
            var bytes = Array((" \n" + Self.document(&rng) + [" ", "", "\t,", "]", "x"][Int(rng.next() % 5)]).utf8)
            if rng.next() % 3 == 0 {
                let at = Int(rng.next() % UInt64(bytes.count))
                let junk: [UInt8] = [0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x22, 0x5C, 0x20, 0x31, 0xFF, 0xC3, 0x0A]
                if rng.next() % 2 == 0 { bytes.remove(at: at) } else { bytes.insert(junk[Int(rng.next() % UInt64(junk.count))], at: at) }
            }
            let fast = skip(bytes, byToken: false)
            #expect(fast == skip(bytes, byToken: true), "\(String(decoding: bytes, as: UTF8.self))")
            if fast != nil { skipped += 1 }
        }
        #expect(skipped > 2_000)
    }

    @Test("nesting: maxDepth - 1 containers inside the value are skipped, maxDepth are refused")
    func depth() {
        for depth in [JSONReader.maxDepth - 1, JSONReader.maxDepth, JSONReader.maxDepth + 1] {
            let arrays = Array(repeating: UInt8(ascii: "["), count: depth) + Array(repeating: UInt8(ascii: "]"), count: depth)
            let objects = Array(String(repeating: "{\"a\":", count: depth).utf8) + [0x31] + Array(repeating: UInt8(ascii: "}"), count: depth)
            #expect(Self.skips(arrays) == Recursive.accepts(arrays), "\(depth) arrays")
            #expect(Self.skips(objects) == Recursive.accepts(objects), "\(depth) objects")
        }
        #expect(Self.skips(Array(repeating: UInt8(ascii: "["), count: JSONReader.maxDepth) + Array(repeating: UInt8(ascii: "]"), count: JSONReader.maxDepth)))
        let tooDeep = String(repeating: "[", count: JSONReader.maxDepth) + "1" + String(repeating: "]", count: JSONReader.maxDepth)
        #expect(!Self.skips(Array(tooDeep.utf8)))
    }

    @Test("a skipped value inside an object leaves the reader at the next member")
    func midDocument() throws {
        let data = Data(#"{"skip": {"a": [1, {"b": "\"x\""}, []], "c": {}}, "id": "kept", "after": [true]}"#.utf8)
        var reader = JSONReader(data)
        var id: String?
        try reader.beginObject()
        while let key = try reader.nextKey() {
            switch key {
            case "id": id = try reader.string()
            default: try reader.skipValue()
            }
        }
        try reader.end()
        #expect(id == "kept")
    }
}
