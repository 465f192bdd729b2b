import CalbridgeSupport
import Foundation

/// A repeat pattern as Exchange stores it (Outlook; Microsoft Graph's `patternedRecurrence`; MS-OXOCAL's
/// recurrence blob): one of six pattern kinds, an interval, and a range that starts on a date and ends
/// never, on a date, or after a number of occurrences.
///
/// `RecurrenceRule` stays the model; this is the other service's form, so that the mapping between the two
/// (`init(exactly:start:zone:)` and `RecurrenceRule(exactly:allDay:zone:)`) can be exact: where Exchange and
/// RFC 5545 read the same words differently (docs/recurrence.md), the mapping picks the words that mean the
/// same occurrences, or says there are none.
public struct RecurrencePattern: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case daily, weekly, absoluteMonthly, relativeMonthly, absoluteYearly, relativeYearly
    }

    /// Which of the matching days in a month (`relative…` kinds).
    public enum Index: String, Sendable, Hashable, CaseIterable {
        case first, second, third, fourth, last

        /// The RFC 5545 ordinal (`BYSETPOS`, or the number before a `BYDAY` day).
        public var ordinal: Int {
            switch self {
            case .first: 1
            case .second: 2
            case .third: 3
            case .fourth: 4
            case .last: -1
            }
        }

        public init?(ordinal: Int) {
            guard let match = Self.allCases.first(where: { $0.ordinal == ordinal }) else { return nil }
            self = match
        }
    }

    /// How the range ends.
    public enum End: Sendable, Hashable {
        case never
        /// The last date occurrences may fall on (inclusive), in the series' zone.
        case date(LocalDate)
        /// The number of occurrences from the range's start.
        case count(Int)
    }

    public var kind: Kind
    /// Days, weeks, months or years between periods (1 = every one).
    public var interval: Int
    /// The month of a yearly pattern (1–12).
    public var month: Int?
    /// The day of the month of an `absolute…` pattern (1–31; past the month's end means its last day).
    public var dayOfMonth: Int?
    /// The days of a weekly pattern, or the days a `relative…` pattern counts among.
    public var daysOfWeek: [RecurrenceRule.Weekday]
    /// The day weeks begin on: it decides which weeks an every-n-weeks pattern picks.
    public var firstDayOfWeek: RecurrenceRule.Weekday
    public var index: Index?
    /// The range's first date: the series' start date in its zone.
    public var startDate: LocalDate
    public var end: End

    public init(
        kind: Kind, interval: Int = 1, month: Int? = nil, dayOfMonth: Int? = nil, daysOfWeek: [RecurrenceRule.Weekday] = [],
        firstDayOfWeek: RecurrenceRule.Weekday = .sunday, index: Index? = nil, startDate: LocalDate, end: End = .never
    ) {
        self.kind = kind
        self.interval = interval
        self.month = month
        self.dayOfMonth = dayOfMonth
        self.daysOfWeek = daysOfWeek
        self.firstDayOfWeek = firstDayOfWeek
        self.index = index
        self.startDate = startDate
        self.end = end
    }

    /// The most periods Exchange repeats over (MS-OXOCAL 2.2.1.44.1, `Period`): 999 days, 99 weeks,
    /// 99 months, 99 years.
    public static func maxInterval(_ kind: Kind) -> Int {
        switch kind {
        case .daily: 999
        default: 99
        }
    }
}

extension RecurrenceRule.Weekday {
    /// Sunday = 0 … Saturday = 6, as `LocalDate.weekdayNumber`.
    var sundayBased: Int {
        switch self {
        case .sunday: 0
        case .monday: 1
        case .tuesday: 2
        case .wednesday: 3
        case .thursday: 4
        case .friday: 5
        case .saturday: 6
        }
    }

    /// The weekday of a date.
    public init(of date: LocalDate) {
        let number = CivilDate.weekday(daysSinceEpoch: CivilDate.daysSinceEpoch(year: date.year, month: date.month, day: date.day))
        self = Self.allCases.first { $0.sundayBased == number }!
    }
}
