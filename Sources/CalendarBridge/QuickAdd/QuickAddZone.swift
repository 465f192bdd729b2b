import CalbridgeSupport
import Foundation

/// An IANA time zone as the user named it, with the Foundation zone that computes its offsets.
///
/// The identifier is kept as given (`UTC` stays `UTC`; Foundation would report `GMT`).
public struct QuickAddZone: Sendable {
    public let identifier: String
    public let timeZone: TimeZone

    /// Nil when the tz database does not know the identifier (the match is case-sensitive).
    public init?(identifier: String) {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        self.identifier = identifier
        self.timeZone = zone
    }

    /// Seconds east of UTC at the instant `seconds` after the epoch.
    public func offset(at seconds: Int) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// The civil date at an instant, in this zone.
    public func date(at seconds: Int) -> QuickAddDate {
        let local = seconds + offset(at: seconds)
        return QuickAddDate(dayNumber: Self.floorDiv(local, 86_400))
    }

    /// The instant (seconds since the epoch) of a wall-clock time in this zone.
    ///
    /// A time that does not exist (skipped by a spring-forward change) is moved forward by the length of
    /// the gap, as RFC 5545 and Google Calendar do: 02:30 on a day that jumps from 02:00 to 03:00 is 03:30.
    /// A time that happens twice (fall-back change) is the first of the two.
    public func instant(_ date: QuickAddDate, hour: Int, minute: Int, second: Int = 0) -> Int {
        CivilDate.instant(local: date.dayNumber * 86_400 + hour * 3600 + minute * 60 + second, offset: offset(at:))
    }

    /// RFC 3339 with this zone's offset at that instant: `2025-12-05T15:00:00-05:00`.
    public func rfc3339(_ seconds: Int) -> String {
        let offset = offset(at: seconds)
        let local = seconds + offset
        let day = QuickAddDate(dayNumber: Self.floorDiv(local, 86_400))
        let secondOfDay = local - Self.floorDiv(local, 86_400) * 86_400
        let h = secondOfDay / 3600, m = secondOfDay % 3600 / 60, s = secondOfDay % 60
        let magnitude = abs(offset)
        let oh = magnitude / 3600, om = magnitude % 3600 / 60
        guard (0...9999).contains(day.year), oh < 100 else {
            let sign = offset < 0 ? "-" : "+"
            return "\(day)T\(QuickAddDate.pad(h, 2)):\(QuickAddDate.pad(m, 2)):\(QuickAddDate.pad(s, 2))"
                + "\(sign)\(QuickAddDate.pad(oh, 2)):\(QuickAddDate.pad(om, 2))"
        }
        // Written byte by byte: string interpolation with padding was a tenth of a parse (two per event).
        return String(unsafeUninitializedCapacity: 25) { buffer in
            func put(_ value: Int, _ width: Int, at position: Int) {
                var rest = value
                for k in stride(from: position + width - 1, through: position, by: -1) {
                    buffer[k] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
                    rest /= 10
                }
            }
            put(day.year, 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(day.month, 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(day.day, 2, at: 8)
            buffer[10] = UInt8(ascii: "T")
            put(h, 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            put(m, 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            put(s, 2, at: 17)
            buffer[19] = UInt8(ascii: offset < 0 ? "-" : "+")
            put(oh, 2, at: 20)
            buffer[22] = UInt8(ascii: ":")
            put(om, 2, at: 23)
            return 25
        }
    }

    /// `YYYYMMDDTHHMMSSZ` in UTC, the RFC 5545 form of an UNTIL for a zoned start.
    static func basicUTC(_ seconds: Int) -> String {
        let day = QuickAddDate(dayNumber: floorDiv(seconds, 86_400))
        let secondOfDay = seconds - floorDiv(seconds, 86_400) * 86_400
        let h = secondOfDay / 3600, m = secondOfDay % 3600 / 60, s = secondOfDay % 60
        return "\(day.basicFormat)T\(QuickAddDate.pad(h, 2))\(QuickAddDate.pad(m, 2))\(QuickAddDate.pad(s, 2))Z"
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
