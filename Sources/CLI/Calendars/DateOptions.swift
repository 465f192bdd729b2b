import CalendarBridge
import Foundation

/// Dates and times typed on the command line: the one place `--from`, `--to`, `--start`, `--end` and `--on`
/// are read, so that every command takes the same grammar and `--to` means the same everywhere.
///
/// The grammar: ISO dates (`2026-12-10`), RFC 3339 date-times with an offset, wall-clock date-times
/// (`2026-12-10T09:00`, `2026-12-10 09:00`) read in the zone passed in, and the dates and times of
/// quick-add text (`today`, `tomorrow`, `friday`, `next monday`, `in 2 weeks`, `+3d`, `+2w`, `Dec 5`,
/// `tomorrow 9am`, German `morgen`, `nächsten Montag`, `in 3 Tagen`), read by `QuickAddParser.parseWhen`
/// with quick-add's rules (docs/quick-add.md): there is one date parser.
///
/// An end (`--to`, or `endOfDay`) given as a date includes that day: `--to 2026-12-10` ends at the
/// start of 12-11. An end given as a date-time is the exclusive instant itself.
enum DateOptions {
    /// The dates every date option takes, first and last day. Before 1900 Foundation's calendar and
    /// zones stop being proleptic Gregorian with modern offsets; after 9998 a window computed from the
    /// date (a week, a month, the next day) would need year 10000, which RFC 3339 cannot write.
    static let earliest = LocalDate(unchecked: 1900, month: 1, day: 1)
    static let latest = LocalDate(unchecked: 9998, month: 12, day: 31)

    /// The grammar in one line, for help texts and errors.
    static let grammar =
        "a date (2026-12-10, today, tomorrow, friday, next monday, in 2 weeks, +3d, Dec 5), a date and time (2026-12-10T09:00, tomorrow 9am) or RFC 3339 (2026-12-10T09:00:00+01:00)"

    /// What a date means as an end (`--to`): the whole day is included.
    static let endRule = "a date as --to includes that day (--to 2026-12-10 ends at the start of 12-11); a date-time is the exclusive end"

    /// `--from` / `--to`: a date is midnight in `zone` at its start, or for an end (`endOfDay`, or the
    /// option `to`) the next midnight, so the day is included; a date-time is that instant.
    static func instant(
        _ text: String, option: String, zone: TimeZone, command: String, endOfDay: Bool = false, now: Date
    ) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let isEnd = endOfDay || option == "to"
        if let date = LocalDate(trimmed) {
            try checkRange(date, text: text, option: option, command: command)
            return (isEnd ? date.adding(days: 1) : date).startInstant(in: zone)
        }
        try checkOffset(trimmed, text: text, option: option, command: command)
        if let instant = RFC3339.parse(spaced(trimmed)) { return try checkRange(instant, text: text, option: option, command: command) }
        if let time = LocalDateTime(spaced(trimmed)) {
            try checkRange(time.date, text: text, option: option, command: command)
            return time.instant(in: zone)
        }
        switch try spoken(trimmed, option: option, zone: zone, now: now, command: command) {
        case .day(let date):
            try checkRange(date, text: text, option: option, command: command)
            return (isEnd ? date.adding(days: 1) : date).startInstant(in: zone)
        case .instant(let instant):
            return try checkRange(instant, text: text, option: option, command: command)
        }
    }

    /// `--on`: the whole day (midnight to midnight in `zone`) of a date in the grammar; a date-time names its day.
    static func day(_ text: String, option: String, zone: TimeZone, command: String, now: Date) throws -> TimeRange {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var date: LocalDate
        if let iso = LocalDate(trimmed) {
            date = iso
        } else {
            switch try spoken(trimmed, option: option, zone: zone, now: now, command: command) {
            case .day(let day): date = day
            case .instant(let instant): date = LocalDate(instant: instant, in: zone)
            }
        }
        try checkRange(date, text: text, option: option, command: command)
        return TimeRange(start: date.startInstant(in: zone), end: date.adding(days: 1).startInstant(in: zone))
    }

    /// A day or an instant read by quick-add's grammar.
    enum Spoken {
        case day(LocalDate)
        case instant(Date)
    }

    /// "2026-12-10 09:00" is how people type it; RFC 3339 allows the space too.
    private static func spaced(_ text: String) -> String {
        var local = text
        if local.count > 10, local[local.index(local.startIndex, offsetBy: 10)] == " " {
            let space = local.index(local.startIndex, offsetBy: 10)
            local.replaceSubrange(space...space, with: "T")
        }
        return local
    }

    /// English, then German: the words of the two quick-add locales do not overlap on dates.
    private static let parsers: [QuickAddParser] = [QuickAddLocale.english, QuickAddLocale.german].map {
        QuickAddParser(options: QuickAddOptions(locale: $0))
    }

    /// Reads `text` with quick-add's date grammar in `zone` at `now`; a usage error naming the option and the
    /// grammar when neither language reads it.
    static func spoken(_ text: String, option: String, zone: TimeZone, now: Date, command: String) throws -> Spoken {
        if !text.isEmpty, text.unicodeScalars.count <= 100, let quickZone = QuickAddZone(identifier: zone.identifier) {
            for parser in parsers {
                guard let reading = try? parser.parseWhen(text, now: now, zone: quickZone) else { continue }
                switch reading.start {
                case .date(let date):
                    if let day = LocalDate(year: date.year, month: date.month, day: date.day) { return .day(day) }
                case .dateTime(let seconds, _):
                    return .instant(Date(timeIntervalSince1970: TimeInterval(seconds)))
                }
            }
        }
        throw UsageError("--\(option) takes \(grammar), not '\(text)'", command: command)
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

    /// `--start` / `--end` of a timed event: an RFC 3339 date-time with an offset, a wall-clock time
    /// (`2026-12-01T09:00`, `2026-12-01 09:00`) read in `zone` (in a DST gap, as calendar servers do), or a
    /// date and time in quick-add's grammar (`tomorrow 9am`, `friday 14:30`).
    static func dateTime(_ text: String, option: String, zone: TimeZone, command: String, now: Date) throws -> Date {
        let local = spaced(text.trimmingCharacters(in: .whitespaces))
        try checkOffset(local, text: text, option: option, command: command)
        if let instant = RFC3339.parse(local) { return try checkRange(instant, text: text, option: option, command: command) }
        if let time = LocalDateTime(local) {
            try checkRange(time.date, text: text, option: option, command: command)
            return time.instant(in: zone)
        }
        if LocalDate(local) == nil, case .instant(let instant) = try? spoken(local, option: option, zone: zone, now: now, command: command)
        {
            return try checkRange(instant, text: text, option: option, command: command)
        }
        throw UsageError(
            "--\(option) takes a date-time (2026-12-01T09:00 or tomorrow 9am, read in the event's zone) or RFC 3339 (2026-12-01T09:00:00-08:00), not '\(text)'",
            command: command)
    }

    /// `--start` / `--end` of an all-day event: `YYYY-MM-DD`, or a date in quick-add's grammar (`tomorrow`,
    /// `next friday`, `Dec 24`) read in `zone` at `now`.
    static func date(_ text: String, option: String, command: String, zone: TimeZone, now: Date) throws -> LocalDate {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let date: LocalDate
        if let iso = LocalDate(trimmed) {
            date = iso
        } else if case .day(let spoken) = try? spoken(trimmed, option: option, zone: zone, now: now, command: command) {
            date = spoken
        } else {
            throw UsageError(
                "--\(option) of an all-day event takes a date (2026-12-01, tomorrow, next friday), not '\(text)'", command: command)
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
