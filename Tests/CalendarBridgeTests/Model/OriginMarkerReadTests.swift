import Foundation
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
