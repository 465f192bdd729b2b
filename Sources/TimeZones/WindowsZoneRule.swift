import CalbridgeSupport
import Foundation

/// A time zone as Windows describes one (`TIME_ZONE_INFORMATION`, Outlook's `TZREG`): a bias and, where
/// the zone has daylight time, the two annual dates on which the clocks change.
///
/// This is the shape of the zone Outlook stores inside an event whose zone Exchange does not know
/// (`tzone://Microsoft/Custom`). Biases are in minutes and count the Windows way: UTC = local time + bias,
/// so US Pacific has `bias` 480 and India -330.
public struct WindowsZoneRule: Sendable, Hashable {
    /// A yearly date: the `week`-th `weekday` of `month` (week 5 is the last one), at a local clock time.
    public struct AnnualDate: Sendable, Hashable {
        /// 1 ... 12.
        public var month: Int
        /// 0 = Sunday ... 6 = Saturday.
        public var weekday: Int
        /// 1 ... 4, or 5 for the last such weekday of the month.
        public var week: Int
        /// The local clock time of the change, in seconds after midnight (86,400 is the end of the day).
        public var secondOfDay: Int

        public init(month: Int, weekday: Int, week: Int, secondOfDay: Int) {
            self.month = month
            self.weekday = weekday
            self.week = week
            self.secondOfDay = secondOfDay
        }

        /// The day of the month this date falls on in `year`.
        public func day(in year: Int) -> Int {
            let first = CivilDate.daysSinceEpoch(year: year, month: month, day: 1)
            let firstMatch = 1 + (weekday - CivilDate.weekday(daysSinceEpoch: first) + 7) % 7
            let last = CivilDate.daysIn(month: month, year: year)
            var day = firstMatch + 7 * (week - 1)
            while day > last { day -= 7 }
            return day
        }

        /// Seconds from 1970-01-01T00:00 (of a clock that is `offset` seconds east of UTC) to this date in `year`.
        func instant(in year: Int, offset: Int) -> Date {
            let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day(in: year))
            return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + secondOfDay - offset))
        }
    }

    /// When daylight time starts (a local standard-time clock reading) and ends (a local daylight-time reading).
    public struct DaylightTime: Sendable, Hashable {
        public var start: AnnualDate
        public var end: AnnualDate

        public init(start: AnnualDate, end: AnnualDate) {
            self.start = start
            self.end = end
        }
    }

    /// Minutes: UTC = local + bias.
    public var bias: Int
    /// Added to `bias` during standard time.
    public var standardBias: Int
    /// Added to `bias` during daylight time.
    public var daylightBias: Int
    /// Nil for a zone without daylight time.
    public var daylightTime: DaylightTime?

    public init(bias: Int, standardBias: Int = 0, daylightBias: Int = 0, daylightTime: DaylightTime? = nil) {
        self.bias = bias
        self.standardBias = standardBias
        self.daylightBias = daylightBias
        self.daylightTime = daylightTime
    }

    /// Seconds east of UTC during standard time.
    public var standardOffset: Int { -(bias + standardBias) * 60 }
    /// Seconds east of UTC during daylight time (the standard offset when there is none).
    public var daylightOffset: Int { daylightTime == nil ? standardOffset : -(bias + daylightBias) * 60 }

    /// The instants at which daylight time starts and ends in `year`; nil without daylight time.
    public func transitions(in year: Int) -> (daylightStarts: Date, daylightEnds: Date)? {
        guard let daylightTime, daylightOffset != standardOffset else { return nil }
        return (daylightTime.start.instant(in: year, offset: standardOffset),
                daylightTime.end.instant(in: year, offset: daylightOffset))
    }

    /// Seconds east of UTC in force at `instant`.
    public func secondsFromGMT(for instant: Date) -> Int {
        guard let (starts, ends) = transitions(in: Self.year(of: instant, offset: standardOffset)) else {
            return standardOffset
        }
        // Northern hemisphere: daylight time inside the year; southern: across the new year.
        let inDaylight = starts < ends ? (instant >= starts && instant < ends) : (instant >= starts || instant < ends)
        return inDaylight ? daylightOffset : standardOffset
    }

    /// The calendar year of `instant` on a clock `offset` seconds east of UTC.
    static func year(of instant: Date, offset: Int) -> Int {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + offset
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return CivilDate.date(daysSinceEpoch: days).year
    }
}

/// A Windows time zone with rules that change over the years, as Outlook's `TZDEFINITION` stores it: each
/// rule applies from 1 January of its year until the next rule's year (the first rule also before it).
public struct WindowsZoneDefinition: Sendable, Hashable {
    /// A rule and the first year it applies to.
    public struct YearRule: Sendable, Hashable {
        public var fromYear: Int
        public var rule: WindowsZoneRule

        public init(fromYear: Int, rule: WindowsZoneRule) {
            self.fromYear = fromYear
            self.rule = rule
        }
    }

    /// The zone's registry key name as the client wrote it ("Customized Time Zone", or a Windows zone name).
    public var keyName: String
    /// Sorted by `fromYear`; never empty.
    public private(set) var rules: [YearRule]

    /// Nil when `rules` is empty.
    public init?(keyName: String, rules: [YearRule]) {
        guard !rules.isEmpty else { return nil }
        self.keyName = keyName
        self.rules = rules.sorted { $0.fromYear < $1.fromYear }
    }

    /// The rule in force during `year`.
    public func rule(forYear year: Int) -> WindowsZoneRule {
        rules.last { $0.fromYear <= year }?.rule ?? rules[0].rule
    }

    /// Seconds east of UTC in force at `instant`.
    public func secondsFromGMT(for instant: Date) -> Int {
        // The year is read on the standard clock of the first guess; a rule change at the new year is what
        // Windows applies at local midnight too.
        let guess = rules[0].rule.standardOffset
        return rule(forYear: WindowsZoneRule.year(of: instant, offset: guess)).secondsFromGMT(for: instant)
    }

    /// Whether any rule has daylight time.
    public var observesDaylightTime: Bool { rules.contains { $0.rule.daylightOffset != $0.rule.standardOffset } }

    /// Every instant in `interval` at which the offset may change: clock changes and the starts of years.
    func possibleChanges(in interval: DateInterval) -> [Date] {
        let first = WindowsZoneRule.year(of: interval.start, offset: 0) - 1
        let last = WindowsZoneRule.year(of: interval.end, offset: 0) + 1
        var instants: [Date] = []
        for year in first...last {
            let rule = rule(forYear: year)
            instants.append(Date(timeIntervalSince1970: TimeInterval(
                CivilDate.daysSinceEpoch(year: year, month: 1, day: 1) * 86_400 - rule.standardOffset)))
            if let (starts, ends) = rule.transitions(in: year) { instants += [starts, ends] }
        }
        return instants.filter { interval.contains($0) }.sorted()
    }
}
