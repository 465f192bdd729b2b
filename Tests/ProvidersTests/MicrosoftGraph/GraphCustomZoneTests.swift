import CalendarBridge
import Foundation
import HTTP
import MicrosoftGraph
import TestSupport
import Testing

/// Outlook's TZDEFINITION blob (MS-OXOCAL 2.2.1.41), written byte by byte from the specification, the way
/// Outlook desktop stores a custom zone in an item.
enum TZDefinitionBytes {
    /// One rule: the year it starts, biases in minutes, and the two SYSTEMTIME dates as
    /// (month, weekday, week, hour, minute); month 0 = no daylight time.
    struct Rule {
        var year: UInt16 = 1601
        var bias: Int32
        var standardBias: Int32 = 0
        var daylightBias: Int32 = 0
        var standard: (UInt16, UInt16, UInt16, UInt16, UInt16) = (0, 0, 0, 0, 0)
        var daylight: (UInt16, UInt16, UInt16, UInt16, UInt16) = (0, 0, 0, 0, 0)
    }

    static func base64(key: String = "Customized Time Zone", _ rules: [Rule], effective: Int = 0) -> String {
        var out: [UInt8] = []
        func u16(_ v: UInt16) { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func i32(_ v: Int32) { let u = UInt32(bitPattern: v); u16(UInt16(u & 0xFFFF)); u16(UInt16(u >> 16)) }
        func systemTime(year: UInt16, _ d: (UInt16, UInt16, UInt16, UInt16, UInt16)) {
            for field in [year, d.0, d.1, d.2, d.3, d.4, 0, 0] { u16(field) }
        }
        let name = Array(key.utf16)
        out += [0x02, 0x01]
        u16(UInt16(2 + 2 + name.count * 2 + 2))  // cbHeader: flags, cchKeyName, KeyName, cRules
        u16(0x0002)  // TZDEFINITION_FLAG_VALID_KEYNAME
        u16(UInt16(name.count))
        name.forEach(u16)
        u16(UInt16(rules.count))
        for (index, rule) in rules.enumerated() {
            out += [0x02, 0x01]
            u16(0x003E)
            u16(index == effective ? 0x0002 : 0x0000)
            systemTime(year: rule.year, (1, 0, 1, 0, 0))  // stStart: 1 January of the rule's year
            i32(rule.bias)
            i32(rule.standardBias)
            i32(rule.daylightBias)
            systemTime(year: 0, rule.standard)
            systemTime(year: 0, rule.daylight)
        }
        return Data(out).base64EncodedString()
    }

    /// US Pacific rules as a custom zone: bias 480, DST second Sunday of March 02:00 to first Sunday of November 02:00.
    static let usPacific = Rule(bias: 480, daylightBias: -60, standard: (11, 0, 1, 2, 0), daylight: (3, 0, 2, 2, 0))
}

@Suite("Graph provider: events in a custom zone (tzone://Microsoft/Custom) take the zone their definition matches")
struct GraphCustomZoneTests {
    static let base = URL(string: "http://127.0.0.1:8080")!
    static let startDisplay = "Binary {00062002-0000-0000-c000-000000000046} Id 0x825e"
    static let recur = "Binary {00062002-0000-0000-c000-000000000046} Id 0x8260"

    static func page(start: String, end: String, responseZone: String, properties: [(String, String)],
                     recurrence: String = "null") -> String {
        let props = properties.map { #"{"id": "\#($0.0)", "value": "\#($0.1)"}"# }.joined(separator: ", ")
        return """
        {"value": [{"id": "AAMkCustom=", "subject": "Set up in Outlook with a custom zone", "isAllDay": false,
          "originalStartTimeZone": "tzone://Microsoft/Custom", "originalEndTimeZone": "tzone://Microsoft/Custom",
          "start": {"dateTime": "\(start)", "timeZone": "\(responseZone)"},
          "end": {"dateTime": "\(end)", "timeZone": "\(responseZone)"},
          "type": "\(recurrence == "null" ? "singleInstance" : "seriesMaster")", "recurrence": \(recurrence),
          "showAs": "busy", "sensitivity": "normal", "singleValueExtendedProperties": [\(props)]}]}
        """
    }

    static func listed(_ page: String, responseZone: String) async throws -> (Event, RecordingTransport) {
        let transport = RecordingTransport(json: page)
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: base, responseZone: responseZone)
        let from = GraphMappingTests.utc("2027-01-01T00:00:00Z")
        let events = try await p.listEvents(calendarID: "AAMkAGI2TGuLAAA=", range: TimeRange(start: from, end: from + 365 * 86_400), expand: true)
        return (try #require(events.first), transport)
    }

    @Test("a fixed +05:30 custom zone becomes Asia/Calcutta at the same instant; the blob stays out of the event's properties")
    func fixedOffset() async throws {
        let blob = TZDefinitionBytes.base64([.init(bias: -330)])
        // 09:30 at +05:30 is 04:00 UTC, listed in UTC.
        let (event, transport) = try await Self.listed(
            Self.page(start: "2027-03-10T04:00:00.0000000", end: "2027-03-10T05:00:00.0000000", responseZone: "UTC",
                      properties: [(Self.startDisplay, blob)]), responseZone: "UTC")
        #expect(event.start == .timed(instant: GraphMappingTests.utc("2027-03-10T04:00:00Z"), zone: "Asia/Calcutta"))
        #expect(event.end == .timed(instant: GraphMappingTests.utc("2027-03-10T05:00:00Z"), zone: "Asia/Calcutta"))
        #expect(event.start.localText == "2027-03-10T09:30:00")
        #expect(event.extendedProperties.isEmpty)
        // The listing asked for the zone definitions along with calbridge's own properties.
        let expand = try #require(transport.requests.first?.queryValue("$expand"))
        #expect(expand.contains("id eq 'Binary {00062002-0000-0000-C000-000000000046} Id 0x825E'"))
        #expect(expand.contains("Id 0x8260'"))
    }

    @Test("a custom zone with US daylight rules is America/Los_Angeles, whatever zone the listing is in")
    func daylightRules() async throws {
        let blob = TZDefinitionBytes.base64([TZDefinitionBytes.usPacific])
        // 09:00 PDT on 15 March 2027 (after the change on the 14th) is 16:00 UTC = 17:00 in Berlin (CET).
        let (event, _) = try await Self.listed(
            Self.page(start: "2027-03-15T17:00:00.0000000", end: "2027-03-15T17:30:00.0000000",
                      responseZone: "W. Europe Standard Time", properties: [(Self.startDisplay, blob)]),
            responseZone: "W. Europe Standard Time")
        #expect(event.start == .timed(instant: GraphMappingTests.utc("2027-03-15T16:00:00Z"), zone: "America/Los_Angeles"))
        #expect(event.start.localText == "2027-03-15T09:00:00")
    }

    @Test("the recurrence's definition wins over the start's (series and occurrences carry both); the rule expands in the matched zone")
    func series() async throws {
        let recurring = TZDefinitionBytes.base64([TZDefinitionBytes.usPacific])
        let display = TZDefinitionBytes.base64([.init(bias: -330)])  // a different zone: the recurrence's wins
        let recurrence = #"""
        {"pattern": {"type": "weekly", "interval": 1, "daysOfWeek": ["monday"], "firstDayOfWeek": "sunday"},
         "range": {"type": "numbered", "startDate": "2027-03-01", "numberOfOccurrences": 4, "recurrenceTimeZone": "tzone://Microsoft/Custom"}}
        """#
        let (event, _) = try await Self.listed(
            Self.page(start: "2027-03-01T17:00:00.0000000", end: "2027-03-01T18:00:00.0000000", responseZone: "UTC",
                      properties: [(Self.startDisplay, display), (Self.recur, recurring)], recurrence: recurrence),
            responseZone: "UTC")
        #expect(event.start == .timed(instant: GraphMappingTests.utc("2027-03-01T17:00:00Z"), zone: "America/Los_Angeles"))
        #expect(event.recurrence?.lines == ["RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=MO;WKST=SU"])
    }

    @Test("no usable definition: the instants stay exact and the listing's zone stands in", arguments: [
        ("no property", [(String, String)]()),
        ("a blob that is not a TZDEFINITION", [(startDisplay, Data([0x01, 0x02, 0x03]).base64EncodedString())]),
        ("not base64", [(startDisplay, "%%%")]),
        ("rules no zone follows", [(startDisplay, TZDefinitionBytes.base64([.init(bias: -317)]))]),
    ])
    func fallback(_ name: String, _ properties: [(String, String)]) async throws {
        let (event, _) = try await Self.listed(
            Self.page(start: "2027-03-10T09:30:00.0000000", end: "2027-03-10T10:00:00.0000000",
                      responseZone: "Pacific Standard Time", properties: properties),
            responseZone: "Pacific Standard Time")
        // 09:30 PST on 10 March 2027 (before the change on the 14th) is 17:30 UTC.
        #expect(event.start == .timed(instant: GraphMappingTests.utc("2027-03-10T17:30:00Z"), zone: "America/Los_Angeles"), "\(name)")
        #expect(event.extendedProperties.isEmpty)
    }
}
