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
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        let oh = magnitude / 3600, om = magnitude % 3600 / 60
        return "\(day)T\(QuickAddDate.pad(h, 2)):\(QuickAddDate.pad(m, 2)):\(QuickAddDate.pad(s, 2))"
            + "\(sign)\(QuickAddDate.pad(oh, 2)):\(QuickAddDate.pad(om, 2))"
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
