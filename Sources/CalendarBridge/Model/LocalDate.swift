import CalbridgeSupport
import Foundation

/// A calendar date without a time or zone (the date of an all-day event), in the Gregorian calendar.
///
/// Encoded as `YYYY-MM-DD`, the form both Google (`start.date`) and RFC 3339 use.
public struct LocalDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    /// Creates a date; nil when the fields do not name a real day (February 30).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...31).contains(day), (1...9999).contains(year) else { return nil }
        guard day <= CivilDate.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` (exactly; no time, no offset).
    public init?(_ text: some StringProtocol) {
        guard let parsed = DateText.withUTF8(text, LocalDate.init(utf8:)) else { return nil }
        self = parsed
    }

    /// `init?(_:)` for a `String` (Google's `start.date`): the generic one is not specialised across modules.
    public init?(_ text: String) {
        guard let parsed = DateText.withUTF8(text, LocalDate.init(utf8:)) else { return nil }
        self = parsed
    }

    /// `init?(_:)` on UTF-8 bytes: exactly ten, `DDDD-DD-DD`, naming a real day.
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let hi = DateText.twoDigits(bytes, at: 0), let lo = DateText.twoDigits(bytes, at: 2),
            let m = DateText.twoDigits(bytes, at: 5), let d = DateText.twoDigits(bytes, at: 8)
        else { return nil }
        self.init(year: hi * 100 + lo, month: m, day: d)
    }

    /// The date an instant falls on in a zone.
    /// (In the proleptic Gregorian calendar, as `LocalDateTime(instant:in:)`.)
    public init(instant: Date, in zone: TimeZone) {
        self = LocalDateTime(instant: instant, in: zone).date
    }

    /// A date computed from an instant or by arithmetic, which may lie outside years 1...9999.
    package init(unchecked year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(10)
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `description`'s bytes, appended.
    func append(to bytes: inout [UInt8]) {
        PaddedDecimal.append(year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        PaddedDecimal.append(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        PaddedDecimal.append(day, width: 2, to: &bytes)
    }

    /// Local midnight at the start of this date in a zone (the first instant of the day when midnight
    /// falls in a DST gap), by the same arithmetic as `LocalDateTime.instant(in:)` (a gap's time lands after it), in the proleptic
    /// Gregorian calendar: Foundation's `Calendar` counts Julian days before 1582.
    public func startInstant(in zone: TimeZone) -> Date {
        LocalDateTime(date: self).instant(in: zone)
    }

    /// This date moved by a number of days (negative goes back).
    public func adding(days: Int) -> LocalDate {
        // Julian day arithmetic: exact, no zone involved.
        LocalDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// Days from this date to another (positive when `other` is later).
    public func days(to other: LocalDate) -> Int { other.daysSinceEpoch - daysSinceEpoch }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = LocalDate(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a YYYY-MM-DD date: \(text)")
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Days since 1970-01-01 (negative before).
    var daysSinceEpoch: Int { CivilDate.daysSinceEpoch(year: year, month: month, day: day) }

    init(daysSinceEpoch days: Int) {
        (year, month, day) = CivilDate.date(daysSinceEpoch: days)
    }
}
