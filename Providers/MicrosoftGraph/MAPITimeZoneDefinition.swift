import Foundation
import HTTP
import TimeZones

/// The zone Outlook stores inside an event, read from the MAPI properties Graph exposes as
/// `singleValueExtendedProperties`.
///
/// Graph names the zone of an event created in a zone Exchange does not know `tzone://Microsoft/Custom`
/// and renders its times in the requested zone, so the event's own offset is not in the JSON. Its
/// definition is in the item's `TZDEFINITION` blobs (MS-OXOCAL 2.2.1.41-2.2.1.44), little-endian:
/// a header (major version 2, minor version, `cbHeader`, flags, optional GUID, key name in UTF-16,
/// rule count) and one 66-byte rule per period of years (major 2, minor, `cbRule`, flags, `stStart` whose
/// year starts the period, `lBias`, `lStandardBias`, `lDaylightBias`, `stStandardDate`, `stDaylightDate`).
enum MAPITimeZoneDefinition {
    /// `PidLidAppointmentTimeZoneDefinitionStartDisplay`: the zone of the start.
    static let startDisplayID = "Binary {00062002-0000-0000-C000-000000000046} Id 0x825E"
    /// `PidLidAppointmentTimeZoneDefinitionEndDisplay`: the zone of the end.
    static let endDisplayID = "Binary {00062002-0000-0000-C000-000000000046} Id 0x825F"
    /// `PidLidAppointmentTimeZoneDefinitionRecur`: the zone a series expands in.
    static let recurID = "Binary {00062002-0000-0000-C000-000000000046} Id 0x8260"
    static let propertyIDs = [startDisplayID, endDisplayID, recurID]

    static func isZoneProperty(_ id: String) -> Bool {
        propertyIDs.contains { $0.caseInsensitiveEquals(id) }
    }

    private static let flagHasGUID: UInt16 = 0x0001
    private static let flagHasKeyName: UInt16 = 0x0002

    /// Decodes a base64 `TZDEFINITION`; nil when it is not one this reader understands (another major
    /// version, a truncated blob, dates out of range), so that the caller falls back instead of guessing.
    static func parse(base64: String) -> WindowsZoneDefinition? {
        guard let data = Data(base64Encoded: base64) else { return nil }
        var reader = LittleEndianReader(bytes: [UInt8](data))
        guard reader.u8() == 2, reader.u8() != nil, let headerSize = reader.u16() else { return nil }
        let rulesStart = reader.offset + Int(headerSize)
        guard let flags = reader.u16() else { return nil }
        if flags & flagHasGUID != 0 { reader.skip(16) }
        var keyName = ""
        if flags & flagHasKeyName != 0 {
            guard let count = reader.u16(), let units = reader.u16s(Int(count)) else { return nil }
            keyName = String(decoding: units, as: UTF16.self)
        }
        guard let ruleCount = reader.u16(), ruleCount >= 1, reader.offset <= rulesStart else { return nil }
        reader.offset = rulesStart
        var rules: [WindowsZoneDefinition.YearRule] = []
        for _ in 0..<ruleCount {
            guard reader.u8() == 2, reader.u8() != nil, let ruleSize = reader.u16(), ruleSize >= 62 else { return nil }
            let next = reader.offset + Int(ruleSize)
            guard reader.u16() != nil,  // flags: which rule is effective now does not change any offset
                  let start = reader.systemTime(),
                  let bias = reader.i32(), let standardBias = reader.i32(), let daylightBias = reader.i32(),
                  let standardDate = reader.systemTime(), let daylightDate = reader.systemTime(),
                  let rule = rule(bias: bias, standardBias: standardBias, daylightBias: daylightBias,
                                  standardDate: standardDate, daylightDate: daylightDate)
            else { return nil }
            rules.append(.init(fromYear: Int(start.year), rule: rule))
            reader.offset = next
        }
        return WindowsZoneDefinition(keyName: keyName, rules: rules)
    }

    private static func rule(bias: Int32, standardBias: Int32, daylightBias: Int32,
                             standardDate: SystemTime, daylightDate: SystemTime) -> WindowsZoneRule? {
        guard abs(bias) <= 24 * 60, abs(standardBias) <= 24 * 60, abs(daylightBias) <= 24 * 60 else { return nil }
        var rule = WindowsZoneRule(bias: Int(bias), standardBias: Int(standardBias), daylightBias: Int(daylightBias))
        // A zero month in either date means the zone has no daylight time.
        guard standardDate.month != 0, daylightDate.month != 0 else { return rule }
        guard let end = standardDate.annualDate, let start = daylightDate.annualDate else { return nil }
        rule.daylightTime = .init(start: start, end: end)
        return rule
    }

    /// Windows `SYSTEMTIME`: eight 16-bit fields.
    struct SystemTime {
        var year, month, weekday, day, hour, minute, second, milliseconds: UInt16

        /// A rule date (year 0: the `day`-th weekday of the month); nil for absolute dates or bad fields.
        var annualDate: WindowsZoneRule.AnnualDate? {
            guard year == 0, (1...12).contains(month), weekday <= 6, (1...5).contains(day), hour <= 24,
                  minute <= 59, second <= 59, milliseconds <= 999 else { return nil }
            // Windows writes "end of day" as 23:59:59.999; a whole second is what clocks change on.
            let seconds = Int(hour) * 3600 + Int(minute) * 60 + Int(second) + (milliseconds >= 500 ? 1 : 0)
            return .init(month: Int(month), weekday: Int(weekday), week: Int(day), secondOfDay: seconds)
        }
    }

    /// Reads little-endian integers off a byte array; every read is nil past the end.
    struct LittleEndianReader {
        let bytes: [UInt8]
        var offset = 0

        mutating func skip(_ count: Int) { offset += count }

        mutating func u8() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func u16() -> UInt16? {
            guard offset + 2 <= bytes.count else { return nil }
            defer { offset += 2 }
            return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
        }

        mutating func u16s(_ count: Int) -> [UInt16]? {
            var values: [UInt16] = []
            for _ in 0..<count {
                guard let value = u16() else { return nil }
                values.append(value)
            }
            return values
        }

        mutating func i32() -> Int32? {
            guard let low = u16(), let high = u16() else { return nil }
            return Int32(bitPattern: UInt32(low) | UInt32(high) << 16)
        }

        mutating func systemTime() -> SystemTime? {
            guard let f = u16s(8) else { return nil }
            return SystemTime(year: f[0], month: f[1], weekday: f[2], day: f[3], hour: f[4], minute: f[5],
                              second: f[6], milliseconds: f[7])
        }
    }
}
