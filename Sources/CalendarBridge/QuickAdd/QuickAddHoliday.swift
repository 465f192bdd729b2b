/// A named holiday ("Christmas Eve", "Thanksgiving", "Ostermontag") and its day in the locale's country (the
/// United States for English, Germany for German).
///
/// A name that is one day is that day's date when the text begins with it (and no other date is given) or
/// after "on"/"am"/"by"; a name for several days ("Weihnachten", "Easter weekend") or a holiday a party is only
/// named after ("Christmas party") names no one day and is refused. Documented in docs/quick-add.md.
public struct QuickAddHoliday: Sendable, Equatable {
    /// How the day is found in a year.
    public enum Rule: Sendable, Equatable {
        /// The same month and day every year.
        case fixed(month: Int, day: Int)
        /// The n-th (-1: last) weekday (ISO, 1 = Monday) of a month, plus days (Black Friday: +1 after the
        /// fourth Thursday of November).
        case nthWeekday(month: Int, n: Int, weekday: Int, plusDays: Int)
        /// Days after Western Easter Sunday (Good Friday -2, Ascension +39, Whit Monday +50).
        case easter(plusDays: Int)
        /// The n-th Sunday of Advent (1-4); the fourth is the last Sunday before December 25.
        case advent(Int)
        /// Several days ("Weihnachten", "Easter weekend", "Pfingsten"): no one day.
        case severalDays
    }

    public var rule: Rule
    /// A party named after it is held on the day ("New Year's Eve party"); otherwise ("Christmas party",
    /// "Halloween party") it is held on some day around it, and the text must say which.
    public var partyOnTheDay: Bool

    public init(_ rule: Rule, partyOnTheDay: Bool = false) {
        self.rule = rule
        self.partyOnTheDay = partyOnTheDay
    }

    public static func fixed(_ month: Int, _ day: Int, partyOnTheDay: Bool = false) -> QuickAddHoliday {
        QuickAddHoliday(.fixed(month: month, day: day), partyOnTheDay: partyOnTheDay)
    }

    public static func nth(_ n: Int, _ weekday: Int, of month: Int, plusDays: Int = 0) -> QuickAddHoliday {
        QuickAddHoliday(.nthWeekday(month: month, n: n, weekday: weekday, plusDays: plusDays))
    }

    public static func easter(_ plusDays: Int) -> QuickAddHoliday { QuickAddHoliday(.easter(plusDays: plusDays)) }

    public static let severalDays = QuickAddHoliday(.severalDays)

    /// Its day in `year`, or nil for a name of several days.
    public func date(in year: Int) -> QuickAddDate? {
        switch rule {
        case .fixed(let month, let day):
            return QuickAddDate(year: year, month: month, day: day)
        case .nthWeekday(let month, let n, let weekday, let plusDays):
            let first = QuickAddDate(year: year, month: month, day: 1)
            let day = QuickAddCollected.nthWeekday(n, weekday, from: first)
            return day.adding(days: plusDays)
        case .easter(let plusDays):
            return Self.easterSunday(year).adding(days: plusDays)
        case .advent(let n):
            let christmasEve = QuickAddDate(year: year, month: 12, day: 24)
            let fourth = christmasEve.adding(days: -(christmasEve.weekday % 7))
            return fourth.adding(days: -7 * (4 - n))
        case .severalDays:
            return nil
        }
    }

    /// Its first day on or after `base`.
    public func date(onOrAfter base: QuickAddDate) -> QuickAddDate? {
        guard let day = date(in: base.year) else { return nil }
        return day >= base ? day : date(in: base.year + 1)
    }

    /// Western (Gregorian) Easter Sunday: the anonymous Gregorian algorithm (Meeus/Jones/Butcher).
    static func easterSunday(_ year: Int) -> QuickAddDate {
        let a = year % 19, b = year / 100, c = year % 100
        let d = b / 4, e = b % 4, f = (b + 8) / 25, g = (b - f + 1) / 3
        let h = (19 * a + b - d - g + 15) % 30
        let i = c / 4, k = c % 4
        let l = (32 + 2 * e + 2 * i - h - k) % 7
        let m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31
        let day = (h + l - 7 * m + 114) % 31 + 1
        return QuickAddDate(year: year, month: month, day: day)
    }
}
