import CalbridgeSupport
import Foundation
import JSON
import Testing

@testable import CalendarBridge

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

    /// Lengths either side of where the padding takes a second block (55/56, 119/120) and of whole
    /// blocks; expected digests from Python's hashlib. The contiguous and the generic path agree.
    @Test("SHA-256 at every padding boundary, contiguous or not, matches hashlib")
    func sha256Boundaries() {
        let expected: [(Int, String)] = [
            (1, "084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5"),
            (55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"),
            (56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"),
            (57, "35df609437dcfea3279283ab79fd554e2bf78f8f7ae2de532d8ee300b09e8f73"),
            (63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"),
            (64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"),
            (65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"),
            (111, "67d9492e628fd376e0b2efec8ca2b99b123e202cf620deb270728df979b2f73e"),
            (112, "96b928cff8528dbb99602c709a65b846cb6467acb8b722f0d758e4dc27bfc508"),
            (119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"),
            (120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5"),
            (127, "a8d23e75d936f303d248888d9b165ee543f4cbafcad3c9dd2a79bd84faa11d07"),
            (128, "d2742f1f4ac6bb7ca2b239ee18402ba8b3f9f8e652d2a72973c2b9ba11c08cf6"),
            (129, "307f8fc2c1622b92762e818d39a185d4d667ad49a4b07ceae1f4afa008a93ec4"),
        ]
        for (count, digest) in expected {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
            let hex = SHA256.hash(bytes).map { String(format: "%02x", $0) }.joined()
            #expect(hex == digest, "length \(count)")
            #expect(SHA256.hex(bytes: bytes) == digest, "length \(count), written as hex")
            // A sequence without contiguous storage goes through the copying path.
            let lazy = (0..<count).lazy.map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
            #expect(SHA256.hash(lazy) == SHA256.hash(bytes), "length \(count), not contiguous")
        }
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

    /// The ids of copies already made must not change: expected values are Python's
    /// `base64.b32hexencode(hashlib.sha256(key).digest()).lower().rstrip("=")`.
    @Test("a Google event id is base32hex of the key's SHA-256, as it always was")
    func googleIDGolden() {
        #expect(IdempotencyKey("copy\u{1F}k\u{1F}primary").googleEventID == "jjmkoss72rpielmv4jp0o91tchhunbr7dmifp5pf4ft8mqr9thb0")
        #expect(IdempotencyKey("").googleEventID == "seoc8gkovge196nruj49irtp4gjqsgf4cidp6j54imchmu2in1ag")
    }

    @Test("keys a marker was given are its own keys, and forgotten when what they hash changes")
    func knownKeys() {
        var m = OriginMarker(provider: .microsoft, account: "work", calendarID: "AAMk=", eventID: "AAMkE=", contentHash: "ff")
        let plain = m
        m.knownCalendarKey = OriginMarker.calendarKey(provider: .microsoft, account: "work", calendarID: "AAMk=")
        m = m.withEventKey()
        #expect(m == plain && m.hashValue == plain.hashValue)
        #expect(m.properties == plain.properties)
        #expect(IdempotencyKey.copy(of: m, toCalendar: "c") == IdempotencyKey.copy(of: plain, toCalendar: "c"))
        m.eventID = "other"
        #expect(m.eventKey == OriginMarker.eventKey(provider: .microsoft, account: "work", calendarID: "AAMk=", eventID: "other"))
        m.account = "home"
        #expect(m.calendarKey == OriginMarker.calendarKey(provider: .microsoft, account: "home", calendarID: "AAMk="))
        #expect(m.eventKey == OriginMarker.eventKey(provider: .microsoft, account: "home", calendarID: "AAMk=", eventID: "other"))
        let encoded = String(decoding: (try? JSONEncoder().encode(m.withEventKey())) ?? Data(), as: UTF8.self)
        #expect(!encoded.contains("known"))
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

    /// A listing's properties are split while they are read (`readProperties`), as `splitProperties`
    /// splits them once read: markers of every kind of field (escaped in the JSON text, or not), one
    /// that does not parse, no marker, other properties with escapes.
    @Test("properties split while read are split as splitProperties splits them")
    func readProperties() throws {
        let m = OriginMarker(provider: .google, account: "ann@example.com", calendarID: "primary", eventID: "e/1", contentHash: "ab")
        let odd = OriginMarker(provider: .microsoft, account: #"quo"te\"#, calendarID: "caf\u{E9}", eventID: "tab\t", contentHash: "")
        let sets: [[String: String]] = [
            m.properties, odd.properties, m.properties.merging(["team.note": "a \"b\" \\ c\n", "x": ""]) { a, _ in a },
            ["calbridge.origin": "not json", "calbridge.originKey": "k"], ["only": "other"], [:],
        ]
        for properties in sets {
            let json = try JSONSerialization.data(withJSONObject: properties)
            let read = try JSONReader.read(from: json) { (r: inout JSONReader) throws(JSONReader.Error) in try Event.readProperties(&r) }
            let split = Event.splitProperties(properties)
            #expect(read.0 == split.0 && read.1 == split.1, "\(properties)")
        }
        #expect(throws: JSONReader.Error.self, "a key property that is not a string fails as before") {
            _ = try JSONReader.read(from: Data(#"{"calbridge.originKey": 5}"#.utf8)) { (r: inout JSONReader) throws(JSONReader.Error) in
                try Event.readProperties(&r)
            }
        }
    }

    /// The marker's JSON is written directly when no field needs escaping: the same text `JSONEncoder`
    /// writes, for fields of every kind (ids with slashes, pluses and equals signs, quotes, backslashes,
    /// control characters, non-ASCII), and it reads back.
    @Test("the marker's JSON is JSONEncoder's, written directly or not, and reads back")
    func markerJSON() {
        let texts = [
            "AAMkAGI2TG96AAA=", "ann.lee@gmail.sandbox", "a/b+c", "tenant:1f2e/user:9a", "with space", #"quo"te"#,
            #"back\slash"#, "tab\there", "caf\u{E9}", "\u{7F}del", "", String(repeating: "f", count: 64),
        ]
        for (index, text) in texts.enumerated() {
            let m = OriginMarker(
                provider: index % 2 == 0 ? .google : .microsoft, account: text, calendarID: texts[(index + 1) % texts.count],
                eventID: texts[(index + 5) % texts.count], contentHash: texts[(index + 3) % texts.count])
            #expect(m.json == m.encodedJSON, "\(m)")
            #expect(OriginMarker(properties: m.properties) == m, "\(m)")
        }
    }
}
