import CalbridgeSupport
@testable import CalendarBridge
import Foundation
import Testing

@Suite("SHA-256, idempotency keys and origin markers")
struct KeysTests {
    @Test("SHA-256 matches the FIPS 180-4 test vectors")
    func sha256() {
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(String(repeating: "a", count: 1000)).count == 64)
    }

    @Test("a Google event id from a key is stable, 52 characters of base32hex, and differs per key")
    func googleID() {
        let a = IdempotencyKey("copy\u{1F}k\u{1F}primary").googleEventID
        #expect(a == IdempotencyKey("copy\u{1F}k\u{1F}primary").googleEventID)
        #expect(a.count == 52)
        #expect(a.allSatisfy { "0123456789abcdefghijklmnopqrstuv".contains($0) })
        #expect(a != IdempotencyKey("copy\u{1F}k\u{1F}other").googleEventID)
        #expect(IdempotencyKey("x").transactionID.count == 64)
    }

    @Test("an origin marker survives its extension properties; keys are short and stable")
    func marker() {
        let m = OriginMarker(provider: .microsoft, account: "work", calendarID: "AAMk=", eventID: "AAMkE=", contentHash: "ff")
        #expect(OriginMarker(properties: m.properties) == m)
        #expect(m.eventKey.count == 32 && m.calendarKey.count == 32)
        #expect(m.eventKey == OriginLookup.event(provider: .microsoft, account: "work", calendarID: "AAMk=", eventID: "AAMkE=").value)
        #expect(OriginMarker(properties: ["calbridge.origin": "not json"]) == nil)
        var other = m
        other.contentHash = "00"
        #expect(other.eventKey == m.eventKey, "the key names the source, not its content")
        let event = Event(title: "t", start: .allDay(date: LocalDate("2026-01-01")!), end: .allDay(date: LocalDate("2026-01-02")!), origin: m, extendedProperties: ["a": "b"])
        let (read, bag) = Event.splitProperties(event.propertiesToWrite)
        #expect(read == m && bag == ["a": "b"])
    }
}
