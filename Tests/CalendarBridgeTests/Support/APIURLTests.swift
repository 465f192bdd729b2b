@testable import CalendarBridge
import CalbridgeSupport
import Foundation
import Testing

/// `APIURL` writes its text as it goes; it must give the URLs the segment-list version gave (written out
/// here as that version did it) and the request targets `URLComponents` reads from them.
@Suite("APIURL: exact percent-encoding, request targets")
struct APIURLTests {
    /// The encoding as first written: a `Set` of unreserved bytes, `%` and upper-case hex for the rest.
    static func referenceEncode(_ value: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        var out = ""
        for byte in value.utf8 {
            if unreserved.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    @Test("every value encodes as the reference does", arguments: [31, 32, 33] as [UInt64])
    func encoding(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let pieces = ["a", "Z", "0", "-", ".", "_", "~", " ", "+", "@", "#", "/", "?", "&", "=", "%", "'", "ü", "😀", "\u{0}", "\u{7F}"]
        for _ in 0..<2_000 {
            let value = (0..<Int(random.next() % 12)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            #expect(APIURL.encode(value) == Self.referenceEncode(value), "\(value.debugDescription)")
        }
    }

    @Test("segments, literal paths and queries make the URL and request target as before")
    func building() throws {
        let base = try #require(URL(string: "http://127.0.0.1:8080/"))
        let api = APIURL(base: base)
        #expect(api.text == "http://127.0.0.1:8080/")
        #expect(api.requestTarget == "/")
        let events = api.path("calendar/v3").path("calendars").segment("a b@c.com#x").path("/events/")
            .query("sendUpdates", "none").query("q", "1+1=2 & more").query("skipped", nil)
        let text = "http://127.0.0.1:8080/calendar/v3/calendars/a%20b%40c.com%23x/events?sendUpdates=none&q=1%2B1%3D2%20%26%20more"
        #expect(events.text == text)
        #expect(events.url.absoluteString == text)
        let components = try #require(URLComponents(url: events.url, resolvingAgainstBaseURL: false))
        #expect(events.requestTarget == components.percentEncodedPath + "?" + (components.percentEncodedQuery ?? ""))

        let prefixed = APIURL(base: try #require(URL(string: "https://graph.example/v1.0///"))).path("me").segment("ü")
        #expect(prefixed.text == "https://graph.example/v1.0/me/%C3%BC")
        #expect(prefixed.requestTarget == "/v1.0/me/%C3%BC")
        #expect(APIURL(base: try #require(URL(string: "https://host"))).requestTarget == "/")
    }
}
