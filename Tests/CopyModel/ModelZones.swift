import CalendarBridge
import Foundation

/// The zones the model generates events and windows in, and the wall-clock arithmetic the reference
/// expansion uses (Foundation's Gregorian calendar, not the engine's code).
package enum ModelZones {
    /// Event zones: east and west of UTC, half- and three-quarter-hour offsets, southern-hemisphere DST,
    /// zones without DST. All have a Windows zone, so Graph can store them.
    package static let eventZones = [
        "UTC", "Europe/Berlin", "Europe/London", "America/New_York", "America/Los_Angeles", "America/St_Johns",
        "Asia/Kolkata", "Asia/Kathmandu", "Asia/Tokyo", "Australia/Adelaide", "Australia/Sydney", "Pacific/Auckland",
        "America/Sao_Paulo", "Pacific/Honolulu", "Africa/Johannesburg",
    ]
    /// Window zones (`--tz`, `$TZ`): the event zones and the extremes of the offset range.
    package static let windowZones = eventZones + ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Tehran"]

    package static func zone(_ name: String) -> TimeZone { TimeZone(identifier: name) ?? TimeZone(secondsFromGMT: 0)! }

    static func calendar(_ zone: TimeZone) -> Foundation.Calendar {
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// The instant of a wall-clock time (minutes after midnight) on a date in a zone.
    package static func instant(_ date: LocalDate, minute: Int, in name: String) -> Date {
        let components = DateComponents(
            year: date.year, month: date.month, day: date.day, hour: minute / 60, minute: minute % 60)
        return calendar(zone(name)).date(from: components) ?? Date(timeIntervalSince1970: 0)
    }

    /// Whether the wall-clock time exists exactly once on that date (not in a DST gap or overlap).
    package static func isPlainWallClock(_ date: LocalDate, minute: Int, in name: String) -> Bool {
        let at = instant(date, minute: minute, in: name)
        let c = calendar(zone(name)).dateComponents([.year, .month, .day, .hour, .minute], from: at)
        guard c.year == date.year, c.month == date.month, c.day == date.day, c.hour == minute / 60,
            c.minute == minute % 60
        else { return false }
        // Ambiguous (fall-back) hour: the same wall clock one hour later would also map here.
        let offsetBefore = zone(name).secondsFromGMT(for: at.addingTimeInterval(-3600))
        let offsetAfter = zone(name).secondsFromGMT(for: at.addingTimeInterval(3600))
        return offsetBefore == offsetAfter
    }

    /// The local date of an instant in a zone.
    package static func date(of instant: Date, in name: String) -> LocalDate {
        let c = calendar(zone(name)).dateComponents([.year, .month, .day], from: instant)
        return LocalDate(year: c.year ?? 2000, month: c.month ?? 1, day: c.day ?? 1) ?? LocalDate(year: 2000, month: 1, day: 1)!
    }

    /// The first DST change of a zone on or after `date` within a year, as the local date it happens on.
    package static func dstChange(after date: LocalDate, in name: String) -> LocalDate? {
        let start = instant(date, minute: 0, in: name)
        guard let next = zone(name).nextDaylightSavingTimeTransition(after: start),
            next.timeIntervalSince(start) < 366 * 86_400
        else { return nil }
        return self.date(of: next.addingTimeInterval(-1), in: name)
    }

    /// Two zone names are the same zone for a copy when their offsets agree all through 2026-2028
    /// (Graph answers `Asia/Calcutta` for `Asia/Kolkata`, and so on).
    package static func equivalent(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        guard let za = TimeZone(identifier: a), let zb = TimeZone(identifier: b) else { return false }
        var t = Date(timeIntervalSince1970: 1_764_547_200)  // 2025-12-01
        for _ in 0..<80 {
            if za.secondsFromGMT(for: t) != zb.secondsFromGMT(for: t) { return false }
            t = t.addingTimeInterval(13 * 86_400)
        }
        return true
    }

    /// Weekday 0 = Monday ... 6 = Sunday.
    package static func weekday(_ date: LocalDate) -> Int {
        let monday = LocalDate(year: 2000, month: 1, day: 3)!
        return ((monday.days(to: date) % 7) + 7) % 7
    }

    package static let weekdayCodes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    package static func daysIn(month: Int, year: Int) -> Int {
        guard let first = LocalDate(year: year, month: month, day: 1) else { return 30 }
        let next = month == 12 ? LocalDate(year: year + 1, month: 1, day: 1)! : LocalDate(year: year, month: month + 1, day: 1)!
        return first.days(to: next)
    }
}
