/// What a word or phrase of a locale's vocabulary means to the quick-add grammar.
///
/// A locale is a table of phrases and their meanings; the grammar only ever sees meanings, so a new
/// language needs a table, not new parsing code.
public enum QuickAddMeaning: Sendable, Equatable {
    /// A day relative to today: today 0, tomorrow 1, the day after tomorrow 2.
    case relativeDay(Int)
    /// The last day of this month ("end of month", "Monatsende").
    case endOfMonth
    /// "after next" after a weekday ("Friday after next"), "übernächsten" before one: the one a week after the next.
    case afterNext
    /// "end of" before a month's name ("until end of January", "bis Ende März"): that month's last day.
    case endOf
    /// A weekday name, ISO numbered (1 = Monday ... 7 = Sunday).
    case weekday(Int)
    /// A plural or adverbial weekday ("Mondays", "montags"): a weekly repeat on that day.
    case weekdays(Int)
    /// A month name, 1 = January.
    case month(Int)
    /// "next" before a weekday: the first such day after today.
    case next
    /// "this" before a weekday: the same as the bare weekday.
    case this
    /// "in" before an amount of days/weeks/months ("in 3 days").
    case inRelative
    /// "in" that is either relative ("in 3 Tagen") or a location marker ("in Berlin").
    case inRelativeOrLocation
    /// A location marker that is nothing else ("im Büro").
    case location
    /// A unit of time ("days", "h", "Stunden").
    case unit(QuickAddUnit)
    /// A number word ("one", "a", "eine").
    case number(Int)
    /// An ordinal word ("other", "second", "zweiten"), for "every other week".
    case ordinal(Int)
    /// An ordinal suffix after digits ("st", "nd", "rd", "th").
    case ordinalSuffix
    /// One half ("half", "halbe").
    case half
    /// am or pm.
    case meridiem(pm: Bool)
    /// "Uhr": marks an hour on the 24-hour clock.
    case oclock
    /// "o'clock": marks a number as a time, read by the bare-hour rule ("at 7 o'clock" is 07:00, "4 o'clock" 16:00).
    case hourMark
    /// A named time of day ("noon", "midnight", "mittags").
    case namedTime(hour: Int, minute: Int)
    /// A range separator ("-", "to", "through").
    case rangeTo
    /// "until"/"bis": a range separator, or the end of a repeat.
    case untilOrTo
    /// "from"/"von": starts a time or date range.
    case from
    /// "between" ... "and".
    case between
    /// A preposition that may precede a date ("on", "am").
    case onDate
    /// "at"/"@": precedes a time, otherwise a location.
    case at
    /// A preposition that only precedes a time ("um", "gegen").
    case atTime
    /// "all day" / "ganztägig".
    case allDay
    /// "for"/"für": precedes a duration or a repeat count.
    case forDuration
    /// "every"/"jeden": starts a repeat rule.
    case every
    /// A frequency adverb ("weekly", "täglich"); `interval` for words like "fortnightly".
    case frequency(QuickAddFrequency, interval: Int)
    /// "weekday"/"Werktag"; `plural` ("weekdays", "werktags") repeats on its own.
    case workdays(plural: Bool)
    /// "times"/"mal" after a repeat count.
    case times
    /// "and"/"und" in lists of weekdays.
    case and
    /// "or"/"oder": between two times, a choice (refused: one event has one time).
    case or
    /// "starting"/"ab": precedes the first date of a repeat.
    case starting
    /// "of" in "5th of December".
    case of
    /// "the" in "on the 15th".
    case the
    /// "with"/"mit": ends a location, stays in the title.
    case with
    /// A zone abbreviation, as the IANA id it stands for.
    case zone(String)
    /// A part of the day ("morning", "abends", "tonight"): a default time, and the half of the day a
    /// bare hour next to it is in.
    case partOfDay(QuickAddPartOfDay)
    /// A deadline's connecting word ("by", "due", "fällig am"): the date (or time) after it is the event's.
    case deadline
    /// Minutes from the hour that follows: "half past 7" (+30), "quarter to 9" (-15), German "halb 8" (-30,
    /// 7:30), "viertel nach 3" (+15). The time is read by the bare-hour rule, as "7:30" would be.
    case clockOffset(minutes: Int)
    /// "every morning", "jeden Abend": a daily repeat at that part of the day.
    case everyPart(QuickAddPartOfDay)
    /// A weekday and a part of it in one phrase: "Friday night", German "Freitagabend", "Sonntagvormittag".
    case weekdayPart(Int, QuickAddPartOfDay)
    /// "around", "about", "ca.", "etwa": an approximate time follows; the word is dropped with the time.
    case approximately
    /// "this week" (0), "next week" (1), "nächste Woche": with a weekday, that weekday of that calendar week
    /// (Monday to Sunday); alone, no one day (refused).
    case calendarWeek(Int)
    /// "KW", "CW", "wk": an ISO week number follows ("KW 51 Mittwoch"); English "week" before a number does too.
    case isoWeek
    /// A span that names no one day ("this weekend", "am Wochenende"): refused unless a day is given.
    case vagueDate
    /// "this month" (0), "next month" (1), "nächsten Monats": with a day of it ("the 15th of next month", "the first
    /// Monday of next month", "starting next month" after a repeat) that day of that month; alone, no one day (refused).
    case monthsAhead(Int)
    /// "except", "außer": the weekdays after it are left out of a daily or weekly series ("every day except Sunday").
    case except
    /// "except weekends", "außer am Wochenende": Saturday and Sunday left out of a daily or weekly series.
    case exceptWeekend
    /// "last" in "the last Friday of the month": the ordinal -1.
    case lastOrdinal
    /// "month" after "of every"/"im": closes "the first Monday of every month" ("of the month" is read too).
    case monthlyMarker(every: Bool)
    /// One and a half ("anderthalb", "eineinhalb"), for durations.
    case oneAndAHalf
    /// A named holiday ("Christmas Eve", "Ostermontag"): its day in the locale's country (see `QuickAddHoliday`).
    case holiday(QuickAddHoliday)
}

extension QuickAddMeaning? {
    /// A frequency adverb ("weekly", "biweekly")?
    var isFrequency: Bool {
        if case .frequency? = self { return true }
        return false
    }
}

/// A part of the day: its default time and the twelve hours a time next to it falls in.
public struct QuickAddPartOfDay: Sendable, Equatable {
    /// The time when the text gives none ("tomorrow morning" is 09:00).
    public var hour: Int
    public var minute: Int
    /// The twelve hours from this one (wrapping past midnight) are this part of the day: "7 in the evening"
    /// is the reading of 7 that falls in 16:00-03:59, 19:00.
    public var from: Int
    /// A day relative to today that the words also say ("tonight", "heute Abend": 0).
    public var day: Int?
    /// The hours the part of the day itself spans, from `ownFrom` for `ownLength` hours (wrapping past midnight): a
    /// time next to it must fall in them ("14 Uhr abends", "tomorrow morning 2pm" and "at 3 in the evening"
    /// contradict their part). Narrower than the twelve hours from `from`, which only choose the half of the day a
    /// bare hour is read in.
    public var ownFrom: Int
    public var ownLength: Int

    public init(hour: Int, minute: Int = 0, from: Int, day: Int? = nil, ownFrom: Int? = nil, ownLength: Int = 12) {
        self.hour = hour
        self.minute = minute
        self.from = from
        self.day = day
        self.ownFrom = ownFrom ?? from
        self.ownLength = ownLength
    }

    // The own hours: morning 04:00-12:59, lunchtime 10:00-14:59, afternoon 12:00-18:59, evening 16:00-01:59; the end
    // of the day and the night keep their twelve hours.
    public static let morning = QuickAddPartOfDay(hour: 9, from: 4, ownLength: 9)
    public static let earlyMorning = QuickAddPartOfDay(hour: 8, from: 4, ownLength: 9)
    public static let forenoon = QuickAddPartOfDay(hour: 10, from: 4, ownLength: 9)
    public static let noon = QuickAddPartOfDay(hour: 12, from: 10, ownLength: 5)
    public static let afternoon = QuickAddPartOfDay(hour: 15, from: 12, ownLength: 7)
    public static let endOfDay = QuickAddPartOfDay(hour: 17, from: 12)
    public static let evening = QuickAddPartOfDay(hour: 19, from: 14, ownFrom: 16, ownLength: 10)
    public static let night = QuickAddPartOfDay(hour: 21, from: 18)

    /// The same part of the day, on a day relative to today.
    public func on(_ day: Int) -> QuickAddPartOfDay {
        var copy = self
        copy.day = day
        return copy
    }

    /// The reading of a 12-hour hour (1-12) inside this part of the day, nil when neither reading is.
    func hour(for twelveHour: Int) -> Int? {
        [twelveHour % 12, twelveHour % 12 + 12].first(where: contains)
    }

    /// Is a 24-hour hour inside this part of the day?
    func contains(_ hour24: Int) -> Bool { ((hour24 - from) % 24 + 24) % 24 < 12 }

    /// Is a 24-hour hour inside the hours of the part of the day itself (`ownFrom`, `ownLength`)?
    func owns(_ hour24: Int) -> Bool { ((hour24 - ownFrom) % 24 + 24) % 24 < ownLength }
}

/// Units of time in durations, relative dates and repeat intervals.
public enum QuickAddUnit: Sendable, Equatable {
    case minute, hour, day, week, month, year

    var seconds: Int {
        switch self {
        case .minute: 60
        case .hour: 3600
        case .day: 86_400
        case .week: 604_800
        case .month: 2_592_000
        case .year: 31_536_000
        }
    }
}

/// RFC 5545 FREQ values the parser produces.
public enum QuickAddFrequency: String, Sendable, Equatable {
    case daily = "DAILY"
    case weekly = "WEEKLY"
    case monthly = "MONTHLY"
    case yearly = "YEARLY"
}
