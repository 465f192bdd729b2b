import CalbridgeSupport
import Foundation

/// A civil date (proleptic Gregorian), with day-number arithmetic (`CivilDate`) so recurrence expansion
/// needs no `Calendar` (fast, and the same on every platform).
struct GraphLocalDate: Codable, Hashable, Comparable, Sendable {
    var year: Int
    var month: Int
    var day: Int

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `dayNumber` days after 1970-01-01.
    init(dayNumber: Int) {
        (year, month, day) = CivilDate.date(daysSinceEpoch: dayNumber)
    }

    /// Days since 1970-01-01.
    var dayNumber: Int { CivilDate.daysSinceEpoch(year: year, month: month, day: day) }

    /// 0 = Sunday ... 6 = Saturday.
    var weekday: Int { CivilDate.weekday(daysSinceEpoch: dayNumber) }

    func adding(days: Int) -> GraphLocalDate { GraphLocalDate(dayNumber: dayNumber + days) }

    /// The same day-of-month `months` later, clamped to the month's last day.
    func adding(months: Int) -> GraphLocalDate {
        let total = year * 12 + (month - 1) + months
        let newYear = Int(floor(Double(total) / 12))
        let newMonth = total - newYear * 12 + 1
        return GraphLocalDate(year: newYear, month: newMonth,
                              day: min(day, GraphLocalDate.daysIn(year: newYear, month: newMonth)))
    }

    static func daysIn(year: Int, month: Int) -> Int { CivilDate.daysIn(month: month, year: year) }

    var isValid: Bool {
        (1...9999).contains(year) && (1...12).contains(month) && (1...GraphLocalDate.daysIn(year: year, month: month)).contains(day)
    }

    /// `YYYY-MM-DD`
    var string: String { String(format: "%04d-%02d-%02d", year, month, day) }

    /// Parses exactly `YYYY-MM-DD`.
    static func parse(_ text: String) -> GraphLocalDate? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        let date = GraphLocalDate(year: y, month: m, day: d)
        return date.isValid ? date : nil
    }

    static func < (lhs: GraphLocalDate, rhs: GraphLocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// A wall-clock date and time without a zone, as Graph's `dateTimeTimeZone.dateTime` carries it.
struct GraphLocalDateTime: Hashable, Sendable {
    var date: GraphLocalDate
    /// Seconds since local midnight.
    var secondOfDay: Int

    init(date: GraphLocalDate, secondOfDay: Int) {
        self.date = date
        self.secondOfDay = secondOfDay
    }

    /// The wall clock an instant shows in `zone`.
    init(_ instant: Date, in zone: TimeZone) {
        let local = Int(floor(instant.timeIntervalSince1970)) + zone.secondsFromGMT(for: instant)
        let days = Int(floor(Double(local) / 86_400))
        date = GraphLocalDate(dayNumber: days)
        secondOfDay = local - days * 86_400
    }

    /// The instant this wall clock denotes in `zone` (in a DST gap: shifted forward, as Exchange does).
    /// A repeated wall clock (clocks falling back) is its first, earlier reading.
    func instant(in zone: TimeZone) -> Date {
        instant { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0))) }
    }

    /// The instant this wall clock denotes on a clock `offset(utcSeconds)` seconds east of UTC, by the rules
    /// of `instant(in:)`: tz zones and custom zones (`GraphCustomZone`) both read wall clocks through this.
    func instant(offset: (Int) -> Int) -> Date {
        Date(timeIntervalSince1970: Double(CivilDate.instant(local: date.dayNumber * 86_400 + secondOfDay, offset: offset)))
    }

    var isMidnight: Bool { secondOfDay == 0 }

    /// `yyyy-MM-ddTHH:mm:ss.0000000`, Graph's seven fractional digits.
    var graphString: String {
        date.string + String(format: "T%02d:%02d:%02d.0000000", secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
    }

    /// Parses `yyyy-MM-ddTHH:mm[:ss[.fffffff]]`; a date alone is midnight. No offset allowed (Graph carries
    /// the zone separately); a trailing `Z` is tolerated, as Graph tolerates it.
    static func parse(_ text: String) -> GraphLocalDateTime? {
        var text = Substring(text.trimmingCharacters(in: .whitespaces))
        if text.hasSuffix("Z") || text.hasSuffix("z") { text = text.dropLast() }
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, let date = GraphLocalDate.parse(String(first)) else { return nil }
        guard parts.count == 2 else { return GraphLocalDateTime(date: date, secondOfDay: 0) }
        guard let seconds = parseClock(parts[1]) else { return nil }
        return GraphLocalDateTime(date: date, secondOfDay: seconds)
    }

    /// `HH:mm[:ss[.f...]]` to seconds; fractions are dropped.
    static func parseClock(_ text: Substring) -> Int? {
        let clock = text.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 2 || clock.count == 3, clock[0].count == 2, clock[1].count == 2,
              let hour = Int(clock[0]), let minute = Int(clock[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        var second = 0
        if clock.count == 3 {
            let pieces = clock[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard pieces[0].count == 2, let value = Int(pieces[0]), (0...59).contains(value) else { return nil }
            if pieces.count == 2 {
                guard !pieces[1].isEmpty, pieces[1].allSatisfy(\.isASCIIDigitCharacter) else { return nil }
            }
            second = value
        }
        return hour * 3600 + minute * 60 + second
    }
}

/// Parses the ISO 8601 instants Graph accepts in `startDateTime` / `endDateTime`: with `Z`, with an offset, or
/// without either (then UTC). A `+` that form decoding turned into a space is taken back as `+`.
enum GraphInstant {
    static func parse(_ raw: String) -> Date? {
        var text = raw.trimmingCharacters(in: .whitespaces)
        if let space = text.firstIndex(of: " ") { text.replaceSubrange(space...space, with: "+") }
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, let date = GraphLocalDate.parse(String(first)) else { return nil }
        guard parts.count == 2 else { return Date(timeIntervalSince1970: Double(date.dayNumber * 86_400)) }
        var clock = parts[1]
        var offset = 0
        if clock.hasSuffix("Z") || clock.hasSuffix("z") {
            clock = clock.dropLast()
        } else if let sign = clock.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let zone = clock[clock.index(after: sign)...].replacingOccurrences(of: ":", with: "")
            guard zone.count == 4, let hours = Int(zone.prefix(2)), let minutes = Int(zone.suffix(2)),
                  hours <= 23, minutes <= 59 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (clock[sign] == "-" ? -1 : 1)
            clock = clock[..<sign]
        }
        guard let seconds = GraphLocalDateTime.parseClock(clock) else { return nil }
        var fraction = 0.0
        if let dot = clock.firstIndex(of: "."), let value = Double("0" + clock[dot...]) { fraction = value }
        return Date(timeIntervalSince1970: Double(date.dayNumber * 86_400 + seconds - offset) + fraction)
    }

    /// `2026-12-01T09:00:00Z` (Graph's DateTimeOffset rendering for `createdDateTime` and the like uses 7 digits).
    static func render(_ instant: Date) -> String {
        let local = GraphLocalDateTime(instant, in: TimeZone(secondsFromGMT: 0)!)
        let micro = Int((instant.timeIntervalSince1970 - floor(instant.timeIntervalSince1970)) * 10_000_000)
        return local.date.string
            + String(format: "T%02d:%02d:%02d.%07dZ", local.secondOfDay / 3600, local.secondOfDay / 60 % 60,
                     local.secondOfDay % 60, micro)
    }
}

extension Character {
    var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
