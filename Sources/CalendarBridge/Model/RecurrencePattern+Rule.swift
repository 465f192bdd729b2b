import CalbridgeSupport
import Foundation

/// The exact mapping between Exchange's patterns and RFC 5545 rules: the same occurrences on both sides,
/// or a `Mismatch` naming the difference (docs/recurrence.md lists them).
extension RecurrencePattern {
    /// Why a rule has no Exchange pattern with the same occurrences.
    public struct Mismatch: Error, Sendable, Hashable, CustomStringConvertible {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
        public var description: String { reason }
    }

    /// The Exchange pattern whose occurrences are exactly those RFC 5545 gives `rule` for a series starting
    /// at `start` (wall clock in `zone`; midnight for an all-day series, whose `zone` is unused).
    /// - Throws: `Mismatch` when Exchange has no such pattern, or would read the nearest one differently
    ///   (monthly on the 31st: RFC 5545 skips shorter months, Exchange moves to their last day).
    public init(exactly rule: RecurrenceRule, start: LocalDateTime, allDay: Bool, zone: TimeZone) throws(Mismatch) {
        if !rule.otherParts.isEmpty {
            throw Mismatch("Exchange has no " + rule.otherParts.map(\.name).joined(separator: ",") + " in its patterns")
        }
        let date = start.date
        let plainDays = rule.byDay.allSatisfy { $0.ordinal == nil }
        var pattern = RecurrencePattern(kind: .daily, interval: rule.interval, startDate: date)
        pattern.firstDayOfWeek = rule.weekStart ?? .monday

        /// `BYDAY=2MO`, or `BYDAY=MO,TU;BYSETPOS=2` → the days and the index.
        func relative() throws(Mismatch) {
            let ordinal: Int
            if rule.byDay.count == 1, let n = rule.byDay[0].ordinal, rule.bySetPosition.isEmpty {
                ordinal = n
            } else if plainDays, !rule.byDay.isEmpty, rule.bySetPosition.count == 1 {
                ordinal = rule.bySetPosition[0]
            } else {
                throw Mismatch("Exchange counts one weekday (or one set of weekdays) per month: not this BYDAY/BYSETPOS")
            }
            guard let index = Index(ordinal: ordinal) else {
                throw Mismatch("Exchange counts only the first to fourth or the last matching day of a month, not number \(ordinal)")
            }
            pattern.index = index
            pattern.daysOfWeek = rule.byDay.map(\.weekday)
        }

        /// The day of the month: `BYMONTHDAY=d` where every month of the pattern has day d; the month's last
        /// day (`-1`) or the last of `28,29,30;BYSETPOS=-1` (Exchange's "day 30": the 30th, or February's end).
        func absoluteDay(month: Int?) throws(Mismatch) -> Int {
            let shortest = month.map { $0 == 2 ? 28 : CivilDate.daysIn(month: $0, year: 2001) } ?? 28
            let longest = month.map { $0 == 2 ? 29 : CivilDate.daysIn(month: $0, year: 2001) } ?? 31
            let days = rule.byMonthDay
            if days.isEmpty || (days.count == 1 && rule.bySetPosition.isEmpty) {
                let day = days.first ?? date.day
                if day == -1 { return longest }
                guard day > 0 else { throw Mismatch("Exchange has no day \(day) counted from a month's end other than its last") }
                // A monthly series whose months all have the day (every other month from January, on the 30th)
                // shows the same dates on both sides.
                let monthsReached = month == nil ? Set((0..<12).map { (date.month - 1 + $0 * rule.interval) % 12 + 1 }) : []
                let everyMonthHasIt = !monthsReached.isEmpty && monthsReached.allSatisfy { CivilDate.daysIn(month: $0, year: 2001) >= day }
                guard day <= shortest || everyMonthHasIt else {
                    throw Mismatch(
                        "RFC 5545 skips months without day \(day); Exchange puts it on their last day instead"
                            + " (write BYMONTHDAY=-1, or BYMONTHDAY=\((shortest...day).map(String.init).joined(separator: ","));BYSETPOS=-1)")
                }
                return day
            }
            // The last of a run from the shortest month's length: the day, or the month's end where it has none.
            guard rule.bySetPosition == [-1], days == Array(shortest...max(shortest, days.max() ?? 0)), days.count > 1,
                let day = days.last, day <= 31
            else { throw Mismatch("Exchange has one day of the month per pattern: not BYMONTHDAY=\(days.map(String.init).joined(separator: ","))") }
            return day
        }

        switch rule.frequency {
        case .daily:
            guard rule.byMonthDay.isEmpty, rule.byMonth.isEmpty, rule.bySetPosition.isEmpty else {
                throw Mismatch("Exchange has no daily pattern limited to months or days of the month")
            }
            if rule.byDay.isEmpty {
                pattern.kind = .daily
            } else {
                // "Every weekday": Exchange stores it as a weekly pattern on those days.
                guard plainDays, rule.interval == 1 else {
                    throw Mismatch("Exchange has no every-n-days pattern limited to weekdays")
                }
                pattern.kind = .weekly
                pattern.daysOfWeek = rule.byDay.map(\.weekday)
            }
        case .weekly:
            guard plainDays, rule.byMonthDay.isEmpty, rule.byMonth.isEmpty, rule.bySetPosition.isEmpty else {
                throw Mismatch("Exchange's weekly pattern has days of the week only")
            }
            pattern.kind = .weekly
            pattern.daysOfWeek = rule.byDay.isEmpty ? [RecurrenceRule.Weekday(of: date)] : rule.byDay.map(\.weekday)
        case .monthly:
            guard rule.byMonth.isEmpty else { throw Mismatch("Exchange's monthly pattern cannot be limited to some months") }
            if rule.byDay.isEmpty {
                pattern.kind = .absoluteMonthly
                pattern.dayOfMonth = try absoluteDay(month: nil)
            } else {
                guard rule.byMonthDay.isEmpty else { throw Mismatch("Exchange has no pattern of weekdays on days of the month") }
                pattern.kind = .relativeMonthly
                try relative()
            }
        case .yearly:
            guard rule.byMonth.count <= 1 else { throw Mismatch("Exchange's yearly pattern has one month") }
            let month = rule.byMonth.first ?? date.month
            pattern.month = month
            if rule.byDay.isEmpty {
                // Without BYMONTH a BYMONTHDAY repeats in every month of the year (RFC 5545 §3.3.10).
                guard rule.byMonth.count == 1 || rule.byMonthDay.isEmpty else {
                    throw Mismatch("RFC 5545 repeats BYMONTHDAY without BYMONTH in every month; Exchange's yearly pattern has one")
                }
                pattern.kind = .absoluteYearly
                pattern.dayOfMonth = try absoluteDay(month: month)
            } else {
                guard rule.byMonthDay.isEmpty else { throw Mismatch("Exchange has no pattern of weekdays on days of the month") }
                pattern.kind = .relativeYearly
                try relative()
                // Without BYMONTH, RFC 5545 counts the days across the whole year, Exchange within one month:
                // the first to fourth of a year are January's, the last is December's.
                if rule.byMonth.isEmpty { pattern.month = pattern.index == .last ? 12 : 1 }
            }
        case .hourly, .minutely, .secondly:
            throw Mismatch("Exchange repeats daily at most, not FREQ=\(rule.frequency.rawValue)")
        }
        guard rule.interval <= Self.maxInterval(pattern.kind) else {
            throw Mismatch("Exchange repeats \(pattern.kind.rawValue) patterns at most every \(Self.maxInterval(pattern.kind)) periods")
        }
        // A start that is not an occurrence of its rule: RFC 5545 leaves the set undefined; libical and
        // python-dateutil, like Exchange, start at the rule's first date on or after it (and count from there).
        switch (rule.count, rule.until) {
        case (let count?, nil): pattern.end = .count(count)
        case (nil, nil): pattern.end = .never
        case (nil, .date(let last)?):
            guard last >= date else { throw Mismatch("the rule ends (UNTIL) before the series starts") }
            pattern.end = .date(last)
        case (nil, .instant(let until)?):
            // Exchange ends on a date (every occurrence that day); UNTIL at an instant: the day of the last
            // occurrence at or before it, so an occurrence later that day is not brought in.
            var last = LocalDate(instant: until, in: allDay ? TimeZone(secondsFromGMT: 0)! : zone)
            if !allDay, LocalDateTime(date: last, hour: start.hour, minute: start.minute, second: start.second).instant(in: zone) > until {
                last = last.adding(days: -1)
            }
            guard last >= date else { throw Mismatch("the rule ends (UNTIL) before the series starts") }
            pattern.end = .date(last)
        case (.some, .some):
            throw Mismatch("the rule has both COUNT and UNTIL (RFC 5545 allows one)")
        }
        self = pattern
    }
}

extension RecurrenceRule {
    /// The RFC 5545 rule whose occurrences are exactly Exchange's for `pattern`: Exchange's "day 31" is
    /// `BYMONTHDAY=-1`, its "day 30" `BYMONTHDAY=28,29,30;BYSETPOS=-1`, its "February 29" February's last
    /// day. Mapping the rule back (`RecurrencePattern(exactly:…)`) gives `pattern` again.
    /// - Parameters:
    ///   - allDay: an end date becomes `UNTIL` as a date; else as the last second of that day in `zone`.
    ///   - zone: the series' zone.
    public init(exactly pattern: RecurrencePattern, allDay: Bool, zone: TimeZone) {
        self.init(frequency: .daily, interval: max(1, pattern.interval))
        func relative() {
            let ordinal = (pattern.index ?? .first).ordinal
            if pattern.daysOfWeek.count == 1 {
                byDay = [WeekdayNumber(pattern.daysOfWeek[0], ordinal: ordinal)]
            } else {
                byDay = pattern.daysOfWeek.map { WeekdayNumber($0) }
                bySetPosition = [ordinal]
            }
        }
        func absolute(shortest: Int, longest: Int) {
            let day = pattern.dayOfMonth ?? 1
            if day <= shortest {
                byMonthDay = [day]
            } else if day == longest {
                byMonthDay = [-1]
            } else {
                byMonthDay = Array(shortest...min(31, day))
                bySetPosition = [-1]
            }
        }
        let month = pattern.month ?? 1
        let monthShortest = month == 2 ? 28 : CivilDate.daysIn(month: month, year: 2001)
        let monthLongest = month == 2 ? 29 : monthShortest
        switch pattern.kind {
        case .daily:
            frequency = .daily
        case .weekly:
            frequency = .weekly
            byDay = pattern.daysOfWeek.map { WeekdayNumber($0) }
            // The week start only changes which days an every-n-weeks rule picks, but it is part of the
            // series as Exchange stores it: written back different, it is a new pattern, and a new pattern
            // drops the series' exceptions and cancellations. So one other than RFC 5545's default (Monday)
            // is kept as WKST, and so is any with an interval (where it matters).
            if interval > 1 || pattern.firstDayOfWeek != .monday { weekStart = pattern.firstDayOfWeek }
        case .absoluteMonthly:
            frequency = .monthly
            absolute(shortest: 28, longest: 31)
        case .relativeMonthly:
            frequency = .monthly
            relative()
        case .absoluteYearly:
            frequency = .yearly
            byMonth = [month]
            absolute(shortest: monthShortest, longest: monthLongest)
        case .relativeYearly:
            frequency = .yearly
            byMonth = [month]
            relative()
        }
        switch pattern.end {
        case .never: break
        case .count(let n): count = n
        case .date(let last):
            until = allDay ? .date(last) : .instant(last.adding(days: 1).startInstant(in: zone).addingTimeInterval(-1))
        }
    }
}
