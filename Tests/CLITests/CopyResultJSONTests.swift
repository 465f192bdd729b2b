import CalbridgeSupport
import CalendarBridge
import Foundation
import JSON
import TestSupport
import Testing

@testable import CLI

/// `copy --format json` is written by hand (`PrettyJSONWriter`); it must stay the text `JSONEncoder` writes
/// for the report's `Codable` form, with what a terminal may act on escaped as `TerminalText.escapeJSON`
/// escapes it, for every field set or not and strings of every escape.
@Suite("copy --format json: the hand writer writes what JSONEncoder and escapeJSON write")
struct CopyResultJSONTests {
    @Test("random reports are written byte for byte as JSONEncoder and escapeJSON write them", .ownThread, arguments: [21, 22, 23] as [UInt64])
    func sameAsEncoder(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        func next() -> UInt64 { random.next() }
        let pieces = ["a", "Ü", "/", "\"", "\\", "\n", "\t", "\u{1}", "\u{1F}", "\u{7F}", "\u{2028}", "😀", " ", "\r", "\u{8}", "\u{C}",
            // What a terminal may act on (escaped) and its neighbours (not).
            "\u{80}", "\u{85}", "\u{9F}", "\u{A0}", "\u{202A}", "\u{202E}", "\u{202F}", "\u{2029}", "\u{2065}", "\u{2066}",
            "\u{2069}", "\u{206A}", "abcdefgh\u{202E}ijklmnop",
        ]
        func text() -> String { (0..<Int(next() % 6)).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined() }
        func maybe() -> String? { next() % 3 == 0 ? nil : text() }
        let actions: [CopyItem.Action] = [.create, .update, .unchanged, .delete, .skip, .duplicate]
        let statuses: [CopyItem.Status] = [.planned, .done, .failed]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        for _ in 0..<200 {
            let items = (0..<Int(next() % 4)).map { _ in
                CopyItem(
                    action: actions[Int(next() % 6)], status: statuses[Int(next() % 3)], sourceEventID: maybe(), targetEventID: maybe(),
                    title: text(), start: maybe(), reason: maybe(), occurrence: next() % 2 == 0, duplicate: next() % 2 == 0,
                    error: maybe())
            }
            let fallbacks = (0..<Int(next() % 3)).map { _ in
                CopyFallback(sourceEventID: text(), title: text(), reason: text(), occurrences: Int(next() % 50) - 5)
            }
            let extra = (0..<Int(next() % 3)).map { _ in
                CopyResult.ItemError(sourceEventID: maybe(), targetEventID: maybe(), title: maybe(), message: text())
            }
            let result = CopyResult(
                source: text(), target: text(), dryRun: next() % 2 == 0, items: items, fallbacks: fallbacks, extraErrors: extra)
            let expected = TerminalText.escapeJSON(String(decoding: try encoder.encode(result), as: UTF8.self))
            #expect(result.jsonText == expected)
            #expect(!TerminalText.containsUnsafe(result.jsonText, c0: true, keepingLayout: true))
        }
    }

    @Test("members given out of order are written sorted, empty containers as JSONEncoder writes them")
    func unsortedMembers() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let expected = String(decoding: try encoder.encode(["zeta": [1, 2], "Beta": [], "alpha": [3]]), as: UTF8.self)
        let written = PrettyJSON.object([
            ("zeta", .array([.int(1), .int(2)])), ("alpha", .array([.int(3)])), ("Beta", .array([])), ("gone", nil),
        ]).text
        #expect(written == expected)
    }

    /// A JSON value both writers can write: `JSONEncoder` through `Encodable`, the hand writer as `PrettyJSON`.
    indirect enum Node: Encodable {
        case int(Int), bool(Bool), string(String), array([Node]), object([String: Node])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .int(let n): try container.encode(n)
            case .bool(let b): try container.encode(b)
            case .string(let s): try container.encode(s)
            case .array(let a): try container.encode(a)
            case .object(let o): try container.encode(o)
            }
        }

        var pretty: PrettyJSON {
            switch self {
            case .int(let n): .int(n)
            case .bool(let b): .bool(b)
            case .string(let s): .string(s)
            case .array(let a): .array(a.map(\.pretty))
            case .object(let o): .object(o.map { ($0.key, $0.value.pretty) })
            }
        }
    }

    @Test("random documents nested up to 40 deep are written as JSONEncoder writes them (indents, commas, empty containers)")
    func nestedDocuments() throws {
        var random = SplitMix64(seed: 41)
        func next(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        let names = ["a", "b", "id", "start", "Zeta", "z/1", "x y"]
        func node(depth: Int) -> Node {
            switch depth >= 40 ? next(3) : next(6) {
            case 0: return .int(next(2_000_001) - 1_000_000)
            case 1: return .bool(next(2) == 0)
            case 2: return .string(String(repeating: "é/", count: next(3)))
            case 3, 4: return .array((0..<next(4)).map { _ in node(depth: depth + 1) })
            default:
                var members: [String: Node] = [:]
                for _ in 0..<next(4) { members[names[next(names.count)]] = node(depth: depth + 1) }
                return .object(members)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        for _ in 0..<300 {
            // A chain down to depth 40 first, so that deep indents are met every time.
            var document = node(depth: 0)
            for _ in 0..<40 { document = next(2) == 0 ? .array([document, .int(1)]) : .object(["k": document, "a": .bool(true)]) }
            let expected = String(decoding: try encoder.encode(document), as: UTF8.self)
            #expect(document.pretty.text == expected)
        }
    }
}
