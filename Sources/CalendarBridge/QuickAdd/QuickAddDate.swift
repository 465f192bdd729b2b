import CalbridgeSupport

/// A civil (calendar) date in the proleptic Gregorian calendar, with no time and no zone.
///
/// The quick-add parser does its date arithmetic on these, not on `Calendar`, so that it is fast and
/// does not depend on the process's locale.
public struct QuickAddDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `dayNumber` days after 1970-01-01 (negative: before).
    public init(dayNumber: Int) {
        let (year, month, day) = CivilDate.date(daysSinceEpoch: dayNumber)
        self.init(year: year, month: month, day: day)
    }

    /// Days since 1970-01-01.
    public var dayNumber: Int { CivilDate.daysSinceEpoch(year: year, month: month, day: day) }

    /// ISO weekday: 1 = Monday ... 7 = Sunday.
    public var weekday: Int {
        let n = dayNumber
        return ((n + 3) % 7 + 7) % 7 + 1
    }

    public func adding(days: Int) -> QuickAddDate { QuickAddDate(dayNumber: dayNumber + days) }

    /// The `weekday` (1 = Monday) of ISO week `week` of ISO year `year` (week 1 holds January 4), or nil when the
    /// year has no such week (53 only in long years).
    public static func isoWeekday(week: Int, weekday: Int, year: Int) -> QuickAddDate? {
        let january4 = QuickAddDate(year: year, month: 1, day: 4)
        let firstMonday = january4.adding(days: 1 - january4.weekday)
        let day = firstMonday.adding(days: 7 * (week - 1) + weekday - 1)
        let nextFirstMonday: QuickAddDate = {
            let next4 = QuickAddDate(year: year + 1, month: 1, day: 4)
            return next4.adding(days: 1 - next4.weekday)
        }()
        return week >= 1 && day.adding(days: 1 - weekday) < nextFirstMonday ? day : nil
    }

    /// The same day `months` months later, clamped to the last day of a shorter month.
    public func adding(months: Int) -> QuickAddDate {
        let index = year * 12 + (month - 1) + months
        let y = index >= 0 ? index / 12 : (index - 11) / 12
        let m = index - y * 12 + 1
        return QuickAddDate(year: y, month: m, day: min(day, Self.daysIn(month: m, year: y)))
    }

    public static func isLeap(_ year: Int) -> Bool { CivilDate.isLeap(year) }

    public static func daysIn(month: Int, year: Int) -> Int { CivilDate.daysIn(month: month, year: year) }

    public static func isValid(year: Int, month: Int, day: Int) -> Bool {
        (1...12).contains(month) && day >= 1 && day <= daysIn(month: month, year: year)
    }

    public static func < (lhs: QuickAddDate, rhs: QuickAddDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// `YYYY-MM-DD`.
    public var description: String { "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))" }

    /// `YYYYMMDD` (the RFC 5545 DATE form).
    var basicFormat: String { "\(Self.pad(year, 4))\(Self.pad(month, 2))\(Self.pad(day, 2))" }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
