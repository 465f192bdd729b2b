import Foundation

/// One RFC 5545 `RRULE`, parsed into the parts calendar services can express.
///
/// Parts this type does not model (`BYHOUR`, `BYWEEKNO`, ...) are kept in `otherParts`, so a rule
/// survives a round trip; a converter that cannot express them must say so instead of dropping them.
public struct RecurrenceRule: Sendable, Hashable, Codable {
    public enum Frequency: String, Sendable, Hashable, Codable, CaseIterable {
        case secondly = "SECONDLY", minutely = "MINUTELY", hourly = "HOURLY"
        case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    public enum Weekday: String, Sendable, Hashable, Codable, CaseIterable {
        case monday = "MO", tuesday = "TU", wednesday = "WE", thursday = "TH", friday = "FR"
        case saturday = "SA", sunday = "SU"
    }

    /// A `BYDAY` entry: a weekday, optionally with an ordinal (`2MO` = second Monday, `-1FR` = last Friday).
    public struct WeekdayNumber: Sendable, Hashable, Codable, CustomStringConvertible {
        public var ordinal: Int?
        public var weekday: Weekday
        public init(_ weekday: Weekday, ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }
        public var description: String { (ordinal.map(String.init) ?? "") + weekday.rawValue }
    }

    /// When a rule stops: `UNTIL` as a date (all-day series) or an instant (UTC, `...Z`).
    public enum Until: Sendable, Hashable, Codable {
        case date(LocalDate)
        case instant(Date)
    }

    public var frequency: Frequency
    public var interval: Int
    public var count: Int?
    public var until: Until?
    public var byDay: [WeekdayNumber]
    public var byMonthDay: [Int]
    public var byMonth: [Int]
    public var bySetPosition: [Int]
    public var weekStart: Weekday?
    /// Parts not modelled above, in their original order, as `(NAME, value)`.
    public var otherParts: [Part]

    public struct Part: Sendable, Hashable, Codable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(
        frequency: Frequency, interval: Int = 1, count: Int? = nil, until: Until? = nil,
        byDay: [WeekdayNumber] = [], byMonthDay: [Int] = [], byMonth: [Int] = [], bySetPosition: [Int] = [],
        weekStart: Weekday? = nil, otherParts: [Part] = []
    ) {
        self.frequency = frequency
        self.interval = interval
        self.count = count
        self.until = until
        self.byDay = byDay
        self.byMonthDay = byMonthDay
        self.byMonth = byMonth
        self.bySetPosition = bySetPosition
        self.weekStart = weekStart
        self.otherParts = otherParts
    }

    /// Parses `RRULE:FREQ=...;...` or just the part after `RRULE:`. Nil when `FREQ` is missing or a
    /// modelled part is malformed.
    public init?(_ line: String) {
        var text = Substring(line.trimmingWhitespaces)
        if text.uppercased().hasPrefix("RRULE:") { text = text.dropFirst(6) }
        var frequency: Frequency?
        self.init(frequency: .daily)
        for piece in text.split(separator: ";") where !piece.isEmpty {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return nil }
            let name = pair[0].uppercased()
            let value = String(pair[1])
            let list = value.split(separator: ",").map(String.init)
            switch name {
            case "FREQ":
                guard let f = Frequency(rawValue: value.uppercased()) else { return nil }
                frequency = f
            case "INTERVAL":
                guard let n = Int(value), n > 0 else { return nil }
                interval = n
            case "COUNT":
                guard let n = Int(value), n > 0 else { return nil }
                count = n
            case "UNTIL":
                guard let u = Self.parseUntil(value) else { return nil }
                until = u
            case "BYDAY":
                var days: [WeekdayNumber] = []
                for item in list {
                    guard item.count >= 2, let day = Weekday(rawValue: String(item.suffix(2)).uppercased()) else {
                        return nil
                    }
                    let prefix = item.dropLast(2)
                    if prefix.isEmpty {
                        days.append(WeekdayNumber(day))
                    } else {
                        guard let n = Int(prefix.hasPrefix("+") ? prefix.dropFirst() : prefix), n != 0 else {
                            return nil
                        }
                        days.append(WeekdayNumber(day, ordinal: n))
                    }
                }
                byDay = days
            case "BYMONTHDAY", "BYMONTH", "BYSETPOS":
                let numbers = list.compactMap { Int($0.hasPrefix("+") ? String($0.dropFirst()) : $0) }
                guard numbers.count == list.count else { return nil }
                if name == "BYMONTHDAY" { byMonthDay = numbers }
                else if name == "BYMONTH" { byMonth = numbers }
                else { bySetPosition = numbers }
            case "WKST":
                guard let day = Weekday(rawValue: value.uppercased()) else { return nil }
                weekStart = day
            default:
                otherParts.append(Part(name: name, value: value))
            }
        }
        guard let frequency else { return nil }
        self.frequency = frequency
    }

    /// The rule as a line, `RRULE:FREQ=...` (parts in RFC 5545's usual order).
    public var line: String { "RRULE:" + value }

    /// The rule without the `RRULE:` prefix.
    public var value: String {
        var parts = ["FREQ=\(frequency.rawValue)"]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        if let count { parts.append("COUNT=\(count)") }
        switch until {
        case .date(let date)?: parts.append("UNTIL=" + date.description.replacingOccurrences(of: "-", with: ""))
        case .instant(let instant)?: parts.append("UNTIL=" + Self.basicUTC(instant))
        case nil: break
        }
        if !byDay.isEmpty { parts.append("BYDAY=" + byDay.map(\.description).joined(separator: ",")) }
        if !byMonthDay.isEmpty { parts.append("BYMONTHDAY=" + byMonthDay.map(String.init).joined(separator: ",")) }
        if !byMonth.isEmpty { parts.append("BYMONTH=" + byMonth.map(String.init).joined(separator: ",")) }
        if !bySetPosition.isEmpty { parts.append("BYSETPOS=" + bySetPosition.map(String.init).joined(separator: ",")) }
        if let weekStart { parts.append("WKST=\(weekStart.rawValue)") }
        parts += otherParts.map { "\($0.name)=\($0.value)" }
        return parts.joined(separator: ";")
    }

    static func parseUntil(_ value: String) -> Until? {
        let digits = value.filter(\.isNumber)
        if value.count == 8, digits.count == 8 {
            let s = Array(value)
            return LocalDate("\(String(s[0..<4]))-\(String(s[4..<6]))-\(String(s[6..<8]))").map(Until.date)
        }
        // 20261231T235959Z, or a floating 20261231T235959 (read as UTC, the only zone a rule line states).
        let s = Array(value.uppercased())
        guard s.count >= 15, s[8] == "T", digits.count == 14,
            let date = LocalDate("\(String(s[0..<4]))-\(String(s[4..<6]))-\(String(s[6..<8]))"),
            let h = Int(String(s[9..<11])), let m = Int(String(s[11..<13])), let sec = Int(String(s[13..<15]))
        else { return nil }
        let local = LocalDateTime(date: date, hour: h, minute: m, second: sec)
        return .instant(local.instant(in: TimeZone(secondsFromGMT: 0)!))
    }

    static func basicUTC(_ instant: Date) -> String {
        let local = LocalDateTime(instant: instant, in: TimeZone(secondsFromGMT: 0)!)
        return local.format(fractionDigits: 0).replacingOccurrences(of: "-", with: "")
            .replacingOccurrences(of: ":", with: "") + "Z"
    }
}
