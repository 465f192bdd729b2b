import CalendarBridge
import Foundation

/// Dates and times typed on the command line.
enum DateOptions {
    /// `--from` / `--to`: `YYYY-MM-DD` (midnight in `zone`) or an RFC 3339 date-time with an offset.
    static func instant(_ text: String, option: String, zone: TimeZone, command: String) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = LocalDate(trimmed) { return date.startInstant(in: zone) }
        if let instant = RFC3339.parse(trimmed) { return instant }
        throw UsageError(
            "--\(option) takes a date (2026-12-01) or an RFC 3339 date-time (2026-12-01T09:00:00+01:00), not '\(text)'",
            command: command)
    }

    /// `--start` / `--end` of a timed event: an RFC 3339 date-time with an offset, or a wall-clock time
    /// (`2026-12-01T09:00`, `2026-12-01 09:00`) read in `zone` (in a DST gap, as calendar servers do).
    static func dateTime(_ text: String, option: String, zone: TimeZone, command: String) throws -> Date {
        var local = text.trimmingCharacters(in: .whitespaces)
        // "2026-12-01 09:00" is how people type it; RFC 3339 allows the space too.
        if local.count > 10, local[local.index(local.startIndex, offsetBy: 10)] == " " {
            let space = local.index(local.startIndex, offsetBy: 10)
            local.replaceSubrange(space...space, with: "T")
        }
        if let instant = RFC3339.parse(local) { return instant }
        if let time = LocalDateTime(local) { return time.instant(in: zone) }
        throw UsageError(
            "--\(option) takes a date-time (2026-12-01T09:00, read in the event's zone) or RFC 3339 (2026-12-01T09:00:00-08:00), not '\(text)'",
            command: command)
    }

    /// `--start` / `--end` of an all-day event: `YYYY-MM-DD`.
    static func date(_ text: String, option: String, command: String) throws -> LocalDate {
        guard let date = LocalDate(text.trimmingCharacters(in: .whitespaces)) else {
            throw UsageError("--\(option) of an all-day event takes a date (2026-12-01), not '\(text)'", command: command)
        }
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
