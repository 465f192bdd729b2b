import CalbridgeSupport
import Foundation
import JSON
import Testing

@testable import CalendarBridge

/// `OriginMarker(properties:)` reads the markers calbridge writes by hand and anything else with
/// `JSONDecoder`: either way the marker `JSONDecoder` alone read.
@Suite("OriginMarker: read by hand or by JSONDecoder, the same marker")
struct OriginMarkerReadTests {
    static func decoded(_ json: String) -> OriginMarker? {
        try? JSONDecoder().decode(OriginMarker.self, from: Data(json.utf8))
    }

    @Test("markers as written, and texts that must go to JSONDecoder", arguments: [
        #"{"account":"a@b.c","calendarID":"primary","contentHash":"00ff","eventID":"AAMk/x+y=","provider":"microsoft"}"#,
        #"{"provider":"google","account":"","calendarID":"c","eventID":"e","contentHash":"h"}"#,
        #"{"provider":"google","account":"a","calendarID":"c","eventID":"e"}"#,
        #"{"provider":"google","account":"a","calendarID":"c","eventID":"e","contentHash":"h","extra":1}"#,
        #"{"provider":"google","provider":"microsoft","account":"a","calendarID":"c","eventID":"e","contentHash":"h"}"#,
        #"{"provider":"google","account":"a\u0062","calendarID":"c","eventID":"e","contentHash":"h"}"#,
        #"{"provider":"google", "account":"a b","calendarID":"c","eventID":"e","contentHash":"h"}"#,
        #"{"provider":"google","account":"é","calendarID":"c","eventID":"e","contentHash":"h"}"#,
        #"{"provider":"google","account":null,"calendarID":"c","eventID":"e","contentHash":"h"}"#,
        #"{"provider":"google","account":5,"calendarID":"c","eventID":"e","contentHash":"h"}"#,
        #"{"provider":"google","account":"a","calendarID":"c","eventID":"e","contentHash":"h"}x"#,
        #"["provider"]"#, "", "{}", "{",
    ])
    func sameAsDecoder(json: String) {
        #expect(OriginMarker(properties: [OriginMarker.markerProperty: json]) == Self.decoded(json))
    }

    @Test("a marker with a source revision is written as JSONEncoder writes it and read back the same")
    func revisionRoundTrip() throws {
        var marker = OriginMarker(provider: ProviderKind(rawValue: "ics"), account: "a", calendarID: "c", eventID: "e", contentHash: "h")
        marker.sourceSequence = 4
        marker.sourceModified = 1_800_000_000
        #expect(marker.json == marker.encodedJSON)
        #expect(OriginMarker(properties: marker.properties) == marker)
        marker.sourceModified = nil
        #expect(marker.json == marker.encodedJSON)
        #expect(OriginMarker(properties: marker.properties) == marker)
        let listed = try Self.listed(marker.json, escapingSlashes: false)
        #expect(listed.0 == marker)
    }

    @Test(
        "markers with a source revision (numbers), and revisions that must go to JSONDecoder",
        arguments: [
            #"{"account":"a","calendarID":"c","contentHash":"h","eventID":"e","provider":"ics","sourceModified":1800000000,"sourceSequence":3}"#,
            #"{"account":"a","calendarID":"c","contentHash":"h","eventID":"e","provider":"ics","sourceSequence":0}"#,
            #"{"account":"a","calendarID":"c","contentHash":"h","eventID":"e","provider":"ics","sourceSequence":"3"}"#,
            #"{"account":"a","calendarID":"c","contentHash":"h","eventID":"e","provider":"ics","sourceSequence":2.0}"#,
        ])
    func revisionsSameAsDecoder(json: String) {
        #expect(OriginMarker(properties: [OriginMarker.markerProperty: json]) == Self.decoded(json))
    }

    /// `text` as a JSON string value (slashes escaped, as JSONSerialization writes them, or not).
    static func stringValue(_ text: String, escapingSlashes: Bool) -> String {
        var bytes: [UInt8] = []
        JSONStringWriter.write(text, into: &bytes, escapingSlashes: escapingSlashes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The marker and other properties `Event.readProperties` reads from a listed event's properties
    /// holding `json` as its marker.
    static func listed(_ json: String, escapingSlashes: Bool) throws -> (OriginMarker?, [String: String]) {
        let document = #"{"calbridge.origin":"# + stringValue(json, escapingSlashes: escapingSlashes) + #","other":"v"}"#
        var reader = JSONReader(bytes: Array(document.utf8))
        let read = try Event.readProperties(&reader)
        try reader.end()
        return read
    }

    @Test("a listed marker, read from its string's raw text or decoded, is the marker of the text", arguments: [
        #"{"account":"a@b.c","calendarID":"primary","contentHash":"00ff","eventID":"AAMk/x+y=","provider":"microsoft"}"#,
        #"{"account":"","calendarID":"c","contentHash":"h","eventID":"e","provider":"google"}"#,
        #"{"account":"a b","calendarID":"c","contentHash":"h","eventID":"e","provider":"google"}"#,
        #"{"account":"a"b","calendarID":"c","contentHash":"h","eventID":"e","provider":"google"}"#,
        #"{"account":"é","calendarID":"c","contentHash":"h","eventID":"e","provider":"google"}"#,
        #"{"account":"a","calendarID":"c","contentHash":"h","eventID":"e","provider":"google","x":"y"}"#,
        #"{"account":"a","calendarID":"c","contentHash":"h","eventID":"e"}"#,
        #"{"provider":"google","account":"a","calendarID":"c","eventID":"e","contentHash":"h"}"#,
        #"{"account":"a","calendarID":"c","contentHash":"h","eventID":"e","provider":"google"} "#,
        "{", "", "not json",
    ])
    func listedMarker(json: String) throws {
        for slashes in [false, true] {
            let (marker, rest) = try Self.listed(json, escapingSlashes: slashes)
            #expect(marker == OriginMarker(properties: [OriginMarker.markerProperty: json]), "\(json)")
            #expect(rest == ["other": "v"])
        }
    }

    @Test("the markers calbridge writes are read from the raw text, 2,000 seeded ones alike decoded")
    func rawText() throws {
        var rng = SplitMix64(seed: 2026_12_03)
        let pieces = ["a", "Z9", "=", "+", "/", "-_.", "@x.y", " ", "\"", "\\", "é", "\u{7f}", "AAMkAGI2", ":", ",", "{}"]
        var raw = 0
        for _ in 0..<2_000 {
            func field() -> String { (0..<Int(rng.next() % 4)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined() }
            let marker = OriginMarker(
                provider: ProviderKind(rawValue: ["google", "microsoft", field()][Int(rng.next() % 3)]), account: field(),
                calendarID: field(), eventID: field(), contentHash: field())
            let json = marker.json
            for slashes in [false, true] {
                let (read, _) = try Self.listed(json, escapingSlashes: slashes)
                #expect(read == OriginMarker(properties: [OriginMarker.markerProperty: json]), "\(json)")
                let value = Self.stringValue(json, escapingSlashes: slashes)
                let fast = Array(value.utf8).withUnsafeBufferPointer { OriginMarker.escapedMarker($0) }
                if let fast {
                    raw += 1
                    #expect(fast.value == read)
                    #expect(fast.length == value.utf8.count)
                }
                // Plain printable fields without quotes, backslashes or spaces: always the raw path.
                let plain = [marker.account, marker.calendarID, marker.eventID, marker.contentHash, marker.provider.rawValue]
                    .allSatisfy { $0.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C && (!slashes || $0 != 0x2F) } }
                #expect((fast != nil) == plain, "\(value)")
            }
        }
        #expect(raw > 200)
    }

    @Test("what properties writes reads back by hand")
    func roundTrip() throws {
        let marker = OriginMarker(
            provider: ProviderKind(rawValue: "microsoft"), account: "me@example.com", calendarID: "AAMkAGI2=",
            eventID: "AAMkAGI2/AAA=", contentHash: String(repeating: "ab", count: 32))
        var json = try #require(marker.properties[OriginMarker.markerProperty])
        #expect(json.withUTF8 { OriginMarker.plainMarker($0) } == marker)
        #expect(OriginMarker(properties: marker.properties) == marker)
    }
}
