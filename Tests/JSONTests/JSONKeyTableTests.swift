import CalbridgeSupport
import Foundation
import JSON
import Testing

/// `JSONReader.KeyTable` must name the member a `switch` over string cases would, for every key.
@Suite("JSONReader.KeyTable: members by one table probe")
struct JSONKeyTableTests {
    /// Names that share lengths, first, middle and last bytes (so their hashes meet), an escape-free
    /// `@` name and a non-ASCII one.
    enum Member: String, CaseIterable, Sendable {
        case id, ab, ba, aa, bb, start, stars, originalStartTimeZone, originalEndTimeZone, odata = "@odata.etag"
        case umlaut = "grün", empty = ""
    }

    static let table = JSONReader.KeyTable<Member>()

    /// The keys of one object, each looked up.
    static func lookUp(_ json: String) throws -> [Member?] {
        var reader = JSONReader(Data(json.utf8))
        var found: [Member?] = []
        try reader.beginObject()
        while let key = try reader.nextKey() {
            found.append(table[key])
            try reader.skipValue()
        }
        return found
    }

    @Test("every member is found by its name, escaped or not, and no other key is")
    func members() throws {
        for member in Member.allCases {
            let plain = try Self.lookUp("{\(String(decoding: try JSONEncoder().encode(member.rawValue), as: UTF8.self)): 1}")
            #expect(plain == [member])
            // Every character escaped: the key's bytes are then a copy, not the document's.
            let escaped = member.rawValue.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined()
            if member.rawValue.unicodeScalars.allSatisfy({ $0.value < 0x10000 }) {
                #expect(try Self.lookUp("{\"\(escaped)\": 1}") == [member])
            }
        }
        // The last ones have a member's length, first, middle and last bytes (its hash) and differ in the
        // second word or the tail: the comparison reads every byte, not only the first word.
        let others = [
            "Id", "i", "idx", "abc", "a", "starts", "originalStartTimeZon", "@odata.etaG", "grun", " id",
            "originalStartXimeZone", "originalStartTimeZcne", "originalEndTimeYone", "@odata.etxg",
        ]
        for other in others {
            #expect(try Self.lookUp("{\"\(other)\": null}") == [nil], "\(other)")
        }
    }

    @Test("random keys agree with a switch over the names", arguments: [41, 42] as [UInt64])
    func randomKeys(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let alphabet = Array("abdeistroTZ@.ü")
        let names = Set(Member.allCases.map(\.rawValue))
        for _ in 0..<5_000 {
            var key = String((0..<Int(random.next() % 8)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            if random.next() % 4 == 0 { key = Member.allCases[Int(random.next() % UInt64(Member.allCases.count))].rawValue }
            let json = "{\(String(decoding: try JSONEncoder().encode(key), as: UTF8.self)): 0}"
            let expected: Member? = names.contains(key) ? Member(rawValue: key) : nil
            #expect(try Self.lookUp(json) == [expected], "\(key)")
        }
    }
}
