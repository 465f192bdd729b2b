import CalendarBridge
import Foundation

/// Dates and times typed on the command line.
enum DateOptions {
    /// The dates every date option takes, first and last day. Before 1900 Foundation's calendar and
    /// zones stop being proleptic Gregorian with modern offsets; after 9998 a window computed from the
    /// date (a week, a month, the next day) would need year 10000, which RFC 3339 cannot write.
    static let earliest = LocalDate(unchecked: 1900, month: 1, day: 1)
    static let latest = LocalDate(unchecked: 9998, month: 12, day: 31)

    /// `--from` / `--to`: `YYYY-MM-DD` (midnight in `zone`, or the next midnight when `endOfDay`), an
    /// RFC 3339 date-time with an offset, or a wall-clock date-time read in `zone`.
    static func instant(_ text: String, option: String, zone: TimeZone, command: String, endOfDay: Bool = false) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = LocalDate(trimmed) {
            try checkRange(date, text: text, option: option, command: command)
            return (endOfDay ? date.adding(days: 1) : date).startInstant(in: zone)
        }
        try checkOffset(trimmed, text: text, option: option, command: command)
        if let instant = RFC3339.parse(trimmed) { return try checkRange(instant, text: text, option: option, command: command) }
        if let time = LocalDateTime(trimmed) {
            try checkRange(time.date, text: text, option: option, command: command)
            return time.instant(in: zone)
        }
        throw UsageError(
            "--\(option) takes a date (2026-12-01) or an RFC 3339 date-time (2026-12-01T09:00:00+01:00), not '\(text)'",
            command: command)
    }

    /// Refuses a date outside `earliest...latest`, naming it and the range.
    private static func checkRange(_ date: LocalDate, text: String, option: String, command: String) throws {
        guard date >= earliest, date <= latest else {
            throw UsageError(
                "--\(option) \(text) is out of range: dates go from \(earliest) to \(latest)", command: command)
        }
    }

    @discardableResult
    private static func checkRange(_ instant: Date, text: String, option: String, command: String) throws -> Date {
        // The instant's UTC date is within a day of the written one: check the written date's range.
        let earliestInstant = earliest.startInstant(in: utc).addingTimeInterval(-86_400)
        let latestInstant = latest.adding(days: 1).startInstant(in: utc).addingTimeInterval(86_400)
        guard instant >= earliestInstant, instant < latestInstant else {
            throw UsageError(
                "--\(option) \(text) is out of range: dates go from \(earliest) to \(latest)", command: command)
        }
        return instant
    }

    /// Refuses a UTC offset beyond ±18:00 (RFC 3339's grammar allows ±23:59, no zone uses it).
    private static func checkOffset(_ trimmed: String, text: String, option: String, command: String) throws {
        guard let offset = RFC3339.writtenOffsetSeconds(trimmed), abs(offset) > RFC3339.maxOffsetSeconds else { return }
        let hours = abs(offset) / 3600, minutes = abs(offset) % 3600 / 60
        let written = (offset < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
        throw UsageError(
            "--\(option) \(text) has the UTC offset \(written), out of range: offsets go from -18:00 to +18:00",
            command: command)
    }

    private static let utc = TimeZone(secondsFromGMT: 0) ?? TimeZone.current

    /// `--start` / `--end` of a timed event: an RFC 3339 date-time with an offset, or a wall-clock time
    /// (`2026-12-01T09:00`, `2026-12-01 09:00`) read in `zone` (in a DST gap, as calendar servers do).
    static func dateTime(_ text: String, option: String, zone: TimeZone, command: String) throws -> Date {
        var local = text.trimmingCharacters(in: .whitespaces)
        // "2026-12-01 09:00" is how people type it; RFC 3339 allows the space too.
        if local.count > 10, local[local.index(local.startIndex, offsetBy: 10)] == " " {
            let space = local.index(local.startIndex, offsetBy: 10)
            local.replaceSubrange(space...space, with: "T")
        }
        try checkOffset(local, text: text, option: option, command: command)
        if let instant = RFC3339.parse(local) { return try checkRange(instant, text: text, option: option, command: command) }
        if let time = LocalDateTime(local) {
            try checkRange(time.date, text: text, option: option, command: command)
            return time.instant(in: zone)
        }
        throw UsageError(
            "--\(option) takes a date-time (2026-12-01T09:00, read in the event's zone) or RFC 3339 (2026-12-01T09:00:00-08:00), not '\(text)'",
            command: command)
    }

    /// `--start` / `--end` of an all-day event: `YYYY-MM-DD`.
    static func date(_ text: String, option: String, command: String) throws -> LocalDate {
        guard let date = LocalDate(text.trimmingCharacters(in: .whitespaces)) else {
            throw UsageError("--\(option) of an all-day event takes a date (2026-12-01), not '\(text)'", command: command)
        }
        try checkRange(date, text: text, option: option, command: command)
        return date
    }

    /// Monday 00:00 to the next Monday 00:00 of the week containing `now`, in `zone`.
    static func week(containing now: Date, in zone: TimeZone) -> TimeRange {
        let today = LocalDate(instant: now, in: zone)
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let weekday = calendar.component(.weekday, from: now)  // 1 = Sunday
        let monday = today.adding(days: -((weekday + 5) % 7))
        return TimeRange(start: monday.startInstant(in: zone), end: monday.adding(days: 7).startInstant(in: zone))
    }
}
