import CalbridgeSupport
import Foundation

/// Date arithmetic the emulator needs, done on civil dates (days since 1970-01-01) and epoch seconds, so that
/// recurrence expansion and RFC 3339 rendering stay exact and fast without a `Calendar` per call.
enum GoogleTime {
    /// A wall-clock reading: civil date plus seconds since local midnight.
    struct Local: Equatable, Comparable, Hashable {
        var day: Int
        var seconds: Int
        static func < (a: Local, b: Local) -> Bool { (a.day, a.seconds) < (b.day, b.seconds) }
    }

    // MARK: Civil dates (CalbridgeSupport's `CivilDate`: the emulator's independence is in how it reads the
    // API, not in its arithmetic)

    static func days(year: Int, month: Int, day: Int) -> Int { CivilDate.daysSinceEpoch(year: year, month: month, day: day) }

    static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) { CivilDate.date(daysSinceEpoch: days) }

    /// 0 = Monday ... 6 = Sunday.
    static func weekday(_ days: Int) -> Int { (CivilDate.weekday(daysSinceEpoch: days) + 6) % 7 }

    static func daysInMonth(year: Int, month: Int) -> Int { CivilDate.daysIn(month: month, year: year) }

    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    // MARK: Zones

    /// The local wall clock of an instant in a zone.
    static func local(_ date: Date, in zone: TimeZone) -> Local {
        let epoch = Int(date.timeIntervalSince1970.rounded(.down))
        let shifted = epoch + zone.secondsFromGMT(for: date)
        let day = floorDiv(shifted, 86400)
        return Local(day: day, seconds: shifted - day * 86400)
    }

    /// The instant a wall-clock time denotes in a zone. In a gap (spring forward) the clock is read with the
    /// offset before the change, so 02:30 becomes 03:30 as Google and RFC 5545 do.
    static func instant(_ local: Local, in zone: TimeZone) -> Date {
        let wall = local.day * 86400 + local.seconds
        let utc = CivilDate.instant(local: wall) { zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0))) }
        return Date(timeIntervalSince1970: TimeInterval(utc))
    }

    // MARK: RFC 3339

    /// A parsed RFC 3339 value: the wall clock and, when present, its offset in seconds.
    struct Parsed {
        var local: Local
        var offset: Int?
        var instant: Date? {
            offset.map { Date(timeIntervalSince1970: TimeInterval(local.day * 86400 + local.seconds - $0)) }
        }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff][Z|±HH:MM]` (fraction ignored, as Google does).
    static func parseDateTime(_ text: String) -> Parsed? {
        let b = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var value = 0
            for i in start..<(start + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        guard b.count >= 19, let year = number(0, 4), b[4] == 45, let month = number(5, 2), b[7] == 45,
              let day = number(8, 2), b[10] == 84 || b[10] == 116, let hour = number(11, 2), b[13] == 58,
              let minute = number(14, 2), b[16] == 58, let second = number(17, 2),
              (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month),
              hour < 24, minute < 60, second < 61 else { return nil }
        var index = 19
        if index < b.count, b[index] == 46 {
            index += 1
            let start = index
            while index < b.count, b[index] >= 48, b[index] <= 57 { index += 1 }
            guard index > start else { return nil }
        }
        let local = Local(day: days(year: year, month: month, day: day), seconds: hour * 3600 + minute * 60 + min(second, 59))
        if index == b.count { return Parsed(local: local, offset: nil) }
        if b[index] == 90 || b[index] == 122 {
            return index + 1 == b.count ? Parsed(local: local, offset: 0) : nil
        }
        guard b[index] == 43 || b[index] == 45, index + 6 == b.count, let oh = number(index + 1, 2), b[index + 3] == 58,
              let om = number(index + 4, 2), oh < 24, om < 60 else { return nil }
        let offset = (oh * 3600 + om * 60) * (b[index] == 45 ? -1 : 1)
        return Parsed(local: local, offset: offset)
    }

    /// Parses `YYYY-MM-DD` into a civil day.
    static func parseDate(_ text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month) else { return nil }
        return days(year: year, month: month, day: day)
    }

    static func formatDate(_ day: Int) -> String {
        let c = civil(day)
        return pad(c.year, 4) + "-" + pad(c.month, 2) + "-" + pad(c.day, 2)
    }

    /// RFC 3339 with the zone's offset at that instant (`Z` when it is zero), seconds precision.
    static func formatDateTime(_ date: Date, in zone: TimeZone) -> String {
        let offset = zone.secondsFromGMT(for: date)
        let local = local(date, in: zone)
        var text = formatDate(local.day) + "T" + pad(local.seconds / 3600, 2) + ":" + pad(local.seconds / 60 % 60, 2)
            + ":" + pad(local.seconds % 60, 2)
        if offset == 0 {
            text += "Z"
        } else {
            let magnitude = abs(offset) / 60
            text += (offset < 0 ? "-" : "+") + pad(magnitude / 60, 2) + ":" + pad(magnitude % 60, 2)
        }
        return text
    }

    /// `2026-11-30T09:15:02.123Z`, as Google writes `created` and `updated`.
    static func formatTimestamp(_ date: Date) -> String {
        let millis = Int((date.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = floorDiv(millis, 1000)
        let day = floorDiv(seconds, 86400)
        let rest = seconds - day * 86400
        return formatDate(day) + "T" + pad(rest / 3600, 2) + ":" + pad(rest / 60 % 60, 2) + ":" + pad(rest % 60, 2)
            + "." + pad(millis - seconds * 1000, 3) + "Z"
    }

    /// `20261130T090000Z`, the UTC basic format of instance ids and EXDATEs.
    static func basicUTC(_ date: Date) -> String {
        let local = local(date, in: TimeZone(secondsFromGMT: 0)!)
        let c = civil(local.day)
        return pad(c.year, 4) + pad(c.month, 2) + pad(c.day, 2) + "T" + pad(local.seconds / 3600, 2)
            + pad(local.seconds / 60 % 60, 2) + pad(local.seconds % 60, 2) + "Z"
    }

    /// `20261130`
    static func basicDate(_ day: Int) -> String {
        let c = civil(day)
        return pad(c.year, 4) + pad(c.month, 2) + pad(c.day, 2)
    }

    /// Parses the iCalendar basic forms `YYYYMMDD`, `YYYYMMDDTHHMMSS` and `YYYYMMDDTHHMMSSZ`.
    static func parseBasic(_ text: String) -> (local: Local, utc: Bool, dateOnly: Bool)? {
        let b = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var value = 0
            for i in start..<(start + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(4, 2), let day = number(6, 2), (1...12).contains(month),
              day >= 1, day <= daysInMonth(year: year, month: month) else { return nil }
        let civilDay = days(year: year, month: month, day: day)
        if b.count == 8 { return (Local(day: civilDay, seconds: 0), false, true) }
        guard b.count == 15 || b.count == 16, b[8] == 84, let h = number(9, 2), let m = number(11, 2),
              let s = number(13, 2), h < 24, m < 60, s < 60 else { return nil }
        if b.count == 16 && b[15] != 90 { return nil }
        return (Local(day: civilDay, seconds: h * 3600 + m * 60 + s), b.count == 16, false)
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
