import CalbridgeSupport
import Foundation
import JSON
import TestSupport
import Testing

@Suite("SortedJSONWriter: the bytes JSONSerialization writes with sortedKeys")
struct SortedJSONWriterTests {
    /// The seeded generator of the quick-add fuzz tests, so a failure names a replayable seed.

    static func key(_ rng: inout SplitMix64) -> String {
        // Letters of both cases and dots (the fast path's keys), sometimes a digit or '_' (the fallback's).
        let alphabet = Array("aAbBzZ.") + (Int.random(in: 0..<8, using: &rng) == 0 ? ["1", "_"] : [])
        // Up to twelve characters: keys that share their first eight (folded) bytes are ordered by the rest.
        return String((0..<Int.random(in: 1...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
    }

    static func text(_ rng: inout SplitMix64) -> String {
        let pool: [Character] = ["a", "Z", "/", "\"", "\\", "\u{1}", "\u{1F}", "\n", "\t", "\u{8}", "\u{C}", "\r", "é", "😀", "\u{7F}", "\u{2028}", " "]
        // Plain runs around them, so that what needs escaping falls at every offset of the 8-byte words
        // the writer skips whole.
        let plain = "abcdefghijklmnopq"
        return String(plain.prefix(Int.random(in: 0...17, using: &rng)))
            + String((0..<Int.random(in: 0...8, using: &rng)).map { _ in pool.randomElement(using: &rng)! })
            + String(plain.prefix(Int.random(in: 0...17, using: &rng)))
    }

    static func value(_ rng: inout SplitMix64, depth: Int) -> Any {
        switch Int.random(in: 0...(depth > 2 ? 3 : 7), using: &rng) {
        case 0: return text(&rng)
        case 1: return Bool.random(using: &rng)
        case 2: return Int.random(in: -1_000_000...1_000_000, using: &rng)
        case 3: return NSNull()
        case 4: return (0..<Int.random(in: 0...3, using: &rng)).map { _ in value(&rng, depth: depth + 1) }
        case 5: return [text(&rng), text(&rng)]
        case 6: return [key(&rng): text(&rng)]
        default: return object(&rng, depth: depth + 1)
        }
    }

    static func object(_ rng: inout SplitMix64, depth: Int) -> [String: Any] {
        var object: [String: Any] = [:]
        for _ in 0..<Int.random(in: 0...7, using: &rng) { object[key(&rng)] = value(&rng, depth: depth) }
        return object
    }

    @Test("random objects: byte for byte the same", .ownThread, arguments: [1, 2, 3, 4] as [UInt64])
    func randomObjects(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for round in 0..<2_000 {
            let object = Self.object(&rng, depth: 0)
            let ours = try SortedJSONWriter.data(object)
            let foundation = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            #expect(ours == foundation, "seed \(seed), round \(round): \(String(decoding: ours, as: UTF8.self))")
            if ours != foundation { return }
        }
    }

    @Test("keys alike in their first eight letters but for case or in what follows: ordered as JSONSerialization orders them")
    func longKeys() throws {
        let stems = ["originalStart", "ORIGINALstart", "originalstart", "originalStartTime", "originalStartTimeZone",
                     "original.start", "originalS", "originals", "originalZ", "original", "ORIGINAL", "origina", "Original.Start"]
        var rng = SplitMix64(seed: 7)
        for _ in 0..<300 {
            var object: [String: Any] = [:]
            for _ in 0..<Int.random(in: 1...8, using: &rng) { object[stems.randomElement(using: &rng)!] = Int.random(in: 0...9, using: &rng) }
            let ours = try SortedJSONWriter.data(object)
            let foundation = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            #expect(ours == foundation, "\(String(decoding: ours, as: UTF8.self))")
        }
    }

    @Test("values it does not write itself (a Double) go to JSONSerialization, fragments are spliced in")
    func fallbackAndFragments() throws {
        let withDouble: [String: Any] = ["b": 1.5, "a": "x/y"]
        #expect(try SortedJSONWriter.data(withDouble) == JSONSerialization.data(withJSONObject: withDouble, options: [.sortedKeys]))
        let inner = try SortedJSONWriter.data(["subject": "Plan", "isAllDay": false])
        let outer: [String: Any] = ["requests": [["id": "1", "body": SortedJSONWriter.Fragment(inner)]]]
        let expected = #"{"requests":[{"body":{"isAllDay":false,"subject":"Plan"},"id":"1"}]}"#
        #expect(String(decoding: try SortedJSONWriter.data(outer), as: UTF8.self) == expected)
        // The fallback parses the fragment back, so it gives the same text.
        let both: [String: Any] = ["x": 0.25, "body": SortedJSONWriter.Fragment(inner)]
        #expect(String(decoding: try SortedJSONWriter.data(both), as: UTF8.self) == #"{"body":{"isAllDay":false,"subject":"Plan"},"x":0.25}"#)
    }
}
