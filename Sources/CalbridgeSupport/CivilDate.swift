/// Proleptic Gregorian calendar arithmetic on plain integers: no Foundation `Calendar`, no time zone.
/// Used where a date must be counted cheaply and exactly (HTTP dates, Windows zone rules).
package enum CivilDate {
    /// Days from 1970-01-01 to `year-month-day` (the era-based days-from-civil formula).
    package static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (the inverse of `daysSinceEpoch`).
    package static func date(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The weekday of the day `days` after 1970-01-01: 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday).
    package static func weekday(daysSinceEpoch days: Int) -> Int {
        ((days % 7) + 7 + 4) % 7
    }

    /// The number of days in a month of a year.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Whether `year` has a 29 February.
    package static func isLeap(_ year: Int) -> Bool { daysIn(month: 2, year: year) == 29 }

    /// The UTC second a wall-clock second (`local`, counted as if it were UTC) names in a zone whose
    /// offset east of UTC at an instant is `offset(instant)`: the one rule for DST changes.
    ///
    /// An overlap (fall back) gives the earlier of the two instants. A time in a gap (spring forward,
    /// 02:30 on a day that jumps from 02:00 to 03:00) is read with the offset before the change, so it
    /// lands as far after the change as the gap is long (03:30), as RFC 5545 and calendar servers do.
    /// Offsets change months apart, so the offsets a day either side are the only candidates.
    package static func instant(local: Int, offset: (Int) -> Int) -> Int {
        let before = offset(local - 86_400)
        let after = offset(local + 86_400)
        let first = local - before
        let second = local - after
        switch (offset(first) == before, offset(second) == after) {
        case (true, true): return min(first, second)
        case (false, true): return second
        case (true, false), (false, false): return first
        }
    }
}
