import Foundation
import Sandbox
import Testing

/// Seeds with events in custom zones (`"timeZone": {"custom": ...}`), and independent ways to check them:
/// Foundation's tz zones that follow the same rules, and a TZDEFINITION reader written from MS-OXOCAL 2.2.1.41.
enum CustomZone {
    /// Wednesday 2027-01-13 12:00 UTC: every date in these tests is an absolute 2027 (or earlier) one.
    static let now = Date(timeIntervalSince1970: 1_799_841_600)
    static let name = "tzone://Microsoft/Custom"
    /// The ids as a client writes them (upper-case GUID and hex), and as Graph returns them (lower case).
    static let startID = "Binary {00062002-0000-0000-C000-000000000046} Id 0x825E"
    static let endID = "Binary {00062002-0000-0000-C000-000000000046} Id 0x825F"
    static let recurID = "Binary {00062002-0000-0000-C000-000000000046} Id 0x8260"
    static let startIDReturned = "Binary {00062002-0000-0000-c000-000000000046} Id 0x825e"
    static let endIDReturned = "Binary {00062002-0000-0000-c000-000000000046} Id 0x825f"
    static let recurIDReturned = "Binary {00062002-0000-0000-c000-000000000046} Id 0x8260"
    /// `$expand` of the three properties, percent-encoded for a request target.
    static let expandAll = GraphTest.query(
        "$expand=singleValueExtendedProperties($filter=id eq '\(startID)' or id eq '\(endID)' or id eq '\(recurID)')")

    static func date(month: Int, dayOfWeek: Int, day: Int, hour: Int, minute: Int = 0) -> [String: Any] {
        ["month": month, "dayOfWeek": dayOfWeek, "day": day, "hour": hour, "minute": minute]
    }

    /// India, as Outlook writes a fixed zone: +05:30, no daylight time.
    static var india: [String: Any] { ["custom": ["rules": [[
        "year": 2000, "bias": -330, "standardBias": 0, "daylightBias": 0,
        "standardDate": date(month: 0, dayOfWeek: 0, day: 0, hour: 0), "daylightDate": date(month: 0, dayOfWeek: 0, day: 0, hour: 0),
    ]]]] }
    /// The US rule since 2007: daylight time from the second Sunday of March 02:00 to the first Sunday of November 02:00.
    static var usRule: [String: Any] { [
        "bias": 480, "standardBias": 0, "daylightBias": -60,
        "standardDate": date(month: 11, dayOfWeek: 0, day: 1, hour: 2), "daylightDate": date(month: 3, dayOfWeek: 0, day: 2, hour: 2),
    ] }
    static var us: [String: Any] { ["custom": ["keyName": "Customized Time Zone", "rules": [usRule]]] }
    /// New South Wales: +10:00, daylight time from the first Sunday of October 02:00 to the first Sunday of April 03:00.
    static var sydney: [String: Any] { ["custom": ["rules": [[
        "bias": -600, "daylightBias": -60,
        "standardDate": date(month: 4, dayOfWeek: 0, day: 1, hour: 3), "daylightDate": date(month: 10, dayOfWeek: 0, day: 1, hour: 2),
    ]]]] }
    /// Two rules: the US rule of 1987-2006 (first Sunday of April to last Sunday of October) from 2000, today's from 2007.
    static var historicUS: [String: Any] { ["custom": ["keyName": "Pacific (custom)", "rules": [
        ["year": 2000, "bias": 480, "standardBias": 0, "daylightBias": -60,
         "standardDate": date(month: 10, dayOfWeek: 0, day: 5, hour: 2), "daylightDate": date(month: 4, dayOfWeek: 0, day: 1, hour: 2)],
        usRule.merging(["year": 2007]) { $1 },
    ]]] }

    static func event(_ subject: String, _ start: String, _ end: String, zone: Any, extra: [String: Any] = [:]) -> [String: Any] {
        var event: [String: Any] = ["key": subject.lowercased().replacingOccurrences(of: " ", with: "-"), "subject": subject,
                                    "start": start, "end": end, "timeZone": zone]
        for (key, value) in extra { event[key] = value }
        return event
    }

    static func weekly(_ weekday: String, from startDate: String, count: Int) -> [String: Any] {
        ["pattern": ["type": "weekly", "interval": 1, "daysOfWeek": [weekday]],
         "range": ["type": "numbered", "startDate": startDate, "numberOfOccurrences": count]]
    }

    /// A one-user Microsoft seed (carol, mailbox zone Pacific) whose default calendar holds `events`.
    static func seed(_ events: [[String: Any]]) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["users": [[
            "id": "5d7a3c1e-2b4f-4e8a-9c6d-0f1e2d3c4b5a", "displayName": "Carol Diaz", "givenName": "Carol", "surname": "Diaz",
            "mail": GraphTest.carol, "mailboxSettings": ["timeZone": "Pacific Standard Time"],
            "calendars": [["key": "calendar", "name": "Calendar", "isDefaultCalendar": true, "events": events]],
        ]]])
    }

    static func emulator(_ events: [[String: Any]]) throws -> GraphEmulator {
        try GraphEmulator(seed: try seed(events), tokens: StubGraphTokens(), now: { now }, timeZoneNames: GraphTest.zones)
    }

    /// The events and series masters of the default calendar, by subject.
    static func events(_ emulator: GraphEmulator, headers: [String: String] = [:], query: String = "")
        async throws -> [String: [String: Any]] {
        let reply = try await GraphTest.send(emulator, "GET", "/v1.0/me/events?$top=100" + query, headers: headers)
        #expect(reply.status == 200, "\(reply.json)")
        return Dictionary(reply.value.map { ($0["subject"] as? String ?? "", $0) }) { first, _ in first }
    }

    /// The instant Foundation's tz database gives a wall clock in `zone`: the independent reference.
    static func tz(_ text: String, _ zone: String) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let numbers = text.split { !$0.isNumber }.map { Int($0)! }
        return calendar.date(from: DateComponents(year: numbers[0], month: numbers[1], day: numbers[2],
                                                  hour: numbers[3], minute: numbers[4]))!
    }

    /// An instant as Graph renders it in UTC (`2027-03-10T03:30:00.0000000`).
    static func graphUTC(_ instant: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'.0000000'"
        return formatter.string(from: instant)
    }

    /// JSON with sorted keys, to compare decoded responses whole.
    static func canonical(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    /// `singleValueExtendedProperties` of a rendered event, id → value.
    static func properties(_ event: [String: Any]) -> [String: String] {
        var result: [String: String] = [:]
        for property in event["singleValueExtendedProperties"] as? [[String: Any]] ?? [] {
            if let id = property["id"] as? String, let value = property["value"] as? String { result[id] = value }
        }
        return result
    }
}

/// A TZDEFINITION read field by field from the layout in MS-OXOCAL 2.2.1.41 (little-endian), independently of
/// the emulator's encoder.
struct TZDefinitionBlob {
    struct Rule {
        var majorVersion: UInt8, minorVersion: UInt8, cbRule: UInt16, flags: UInt16
        /// wYear, wMonth, wDayOfWeek, wDay, wHour, wMinute, wSecond, wMilliseconds.
        var start: [UInt16]
        var bias: Int32, standardBias: Int32, daylightBias: Int32
        var standardDate: [UInt16]
        var daylightDate: [UInt16]
    }

    var majorVersion: UInt8, minorVersion: UInt8, cbHeader: UInt16, flags: UInt16
    var keyName: String
    var rules: [Rule]

    struct Malformed: Error { var reason: String }

    init(base64: String) throws {
        guard let data = Data(base64Encoded: base64) else { throw Malformed(reason: "not base64") }
        let bytes = [UInt8](data)
        var offset = 0
        func byte() throws -> UInt8 {
            guard offset < bytes.count else { throw Malformed(reason: "truncated at \(offset)") }
            defer { offset += 1 }
            return bytes[offset]
        }
        func word() throws -> UInt16 {
            let low = try byte()
            let high = try byte()
            return UInt16(low) | UInt16(high) << 8
        }
        func long() throws -> Int32 {
            let low = try word()
            let high = try word()
            return Int32(bitPattern: UInt32(low) | UInt32(high) << 16)
        }
        func systemTime() throws -> [UInt16] { try (0..<8).map { _ in try word() } }
        majorVersion = try byte()
        minorVersion = try byte()
        cbHeader = try word()
        let headerStart = offset
        flags = try word()
        if flags & 0x0001 != 0 { offset += 16 } // TZDEFINITION_FLAG_VALID_GUID
        let keyLength = Int(try word())
        let units = try (0..<keyLength).map { _ in try word() }
        keyName = String(decoding: units, as: UTF16.self)
        let ruleCount = Int(try word())
        guard offset - headerStart == Int(cbHeader) else { throw Malformed(reason: "cbHeader \(cbHeader), header \(offset - headerStart)") }
        rules = []
        for _ in 0..<ruleCount {
            let major = try byte()
            let minor = try byte()
            let size = try word()
            let ruleStart = offset
            let ruleFlags = try word()
            let start = try systemTime()
            let bias = try long()
            let standardBias = try long()
            let daylightBias = try long()
            let standardDate = try systemTime()
            let daylightDate = try systemTime()
            let rule = Rule(majorVersion: major, minorVersion: minor, cbRule: size, flags: ruleFlags, start: start, bias: bias,
                            standardBias: standardBias, daylightBias: daylightBias, standardDate: standardDate,
                            daylightDate: daylightDate)
            guard offset - ruleStart == Int(size) else { throw Malformed(reason: "cbRule \(size), rule \(offset - ruleStart)") }
            rules.append(rule)
        }
        guard offset == bytes.count else { throw Malformed(reason: "\(bytes.count - offset) bytes after the last rule") }
    }
}
