extension QuickAddLocale {
    /// Zone abbreviations shared by the built-in locales. An abbreviation names a region's zone, not a
    /// fixed offset: "3pm EST" in July is 15:00 New York time (EDT, -04:00). Ambiguous ones take the
    /// reading listed in the README (CST = US Central, IST = India, BST = British Summer Time).
    static let commonZoneAbbreviations: [(String, String)] = [
        ("ET", "America/New_York"), ("EST", "America/New_York"), ("EDT", "America/New_York"),
        ("CT", "America/Chicago"), ("CST", "America/Chicago"), ("CDT", "America/Chicago"),
        ("MT", "America/Denver"), ("MST", "America/Denver"), ("MDT", "America/Denver"),
        ("PT", "America/Los_Angeles"), ("PST", "America/Los_Angeles"), ("PDT", "America/Los_Angeles"),
        ("AKST", "America/Anchorage"), ("AKDT", "America/Anchorage"),
        ("HST", "Pacific/Honolulu"),
        ("AST", "America/Halifax"), ("ADT", "America/Halifax"),
        ("NST", "America/St_Johns"), ("NDT", "America/St_Johns"),
        ("UTC", "UTC"), ("GMT", "UTC"), ("Z", "UTC"),
        ("BST", "Europe/London"),
        ("WET", "Europe/Lisbon"), ("WEST", "Europe/Lisbon"),
        ("CET", "Europe/Berlin"), ("CEST", "Europe/Berlin"),
        ("EET", "Europe/Athens"), ("EEST", "Europe/Athens"),
        ("MSK", "Europe/Moscow"),
        ("JST", "Asia/Tokyo"), ("KST", "Asia/Seoul"), ("HKT", "Asia/Hong_Kong"), ("SGT", "Asia/Singapore"),
        ("AEST", "Australia/Sydney"), ("AEDT", "Australia/Sydney"),
        ("ACST", "Australia/Adelaide"), ("ACDT", "Australia/Adelaide"), ("AWST", "Australia/Perth"),
        ("NZST", "Pacific/Auckland"), ("NZDT", "Pacific/Auckland"),
        ("SAST", "Africa/Johannesburg"),
    ]

    /// English: US and British spellings, 12- and 24-hour clocks.
    public static let english = QuickAddLocale(
        identifier: "en",
        phrases: englishPhrases,
        zoneAbbreviations: commonZoneAbbreviations + [
            ("IST", "Asia/Kolkata"),
            // Zone words people write after a time ("3pm Eastern", "9am London time"); the four region words
            // count only when no ordinary word follows ("3pm Central Park" is a place).
            ("Eastern", "America/New_York"), ("Eastern time", "America/New_York"),
            ("Central", "America/Chicago"), ("Central time", "America/Chicago"),
            ("Mountain", "America/Denver"), ("Mountain time", "America/Denver"),
            ("Pacific", "America/Los_Angeles"), ("Pacific time", "America/Los_Angeles"),
            ("New York time", "America/New_York"), ("London time", "Europe/London"), ("UK time", "Europe/London"),
            ("Berlin time", "Europe/Berlin"), ("Paris time", "Europe/Paris"), ("Tokyo time", "Asia/Tokyo"),
            ("Sydney time", "Australia/Sydney"),
        ],
        weakWords: ["sat", "sun"],
        example: "Lunch with Ann tomorrow 1pm at Cafe Luna",
        defaultDateOrder: .mdy,
        kindHints: [
            "breakfast": .morning, "brunch": .morning,
            "lunch": .noon,
            "dinner": .evening, "supper": .evening, "drinks": .evening, "party": .evening, "concert": .evening,
            "movie": .evening, "movies": .evening, "theatre": .evening, "theater": .evening, "bar": .evening, "pub": .evening,
            // "Game night", "Movie night", "Parents' night": a bare "night" stays a word of the title.
            "night": .evening,
        ],
        partyWords: ["party", "parties"],
        letterWeekdays: ["m": 1, "t": 2, "tu": 2, "w": 3, "th": 4, "r": 4, "f": 5, "sa": 6, "su": 7],
        titlePartWords: ["morning", "afternoon", "evening"],
        // Not "place", "court" or "square": "at 7 my place", "at 7 center court" are times.
        streetWords: [
            "street", "st", "avenue", "ave", "road", "rd", "boulevard", "blvd", "lane", "ln", "drive", "dr", "parkway", "pkwy",
            "highway", "hwy",
        ],
        // Not "class", "group" or "team": "Yoga class 7 tomorrow", "Study group 7-9 Wednesday" give hours.
        numberedWords: [
            "chapter", "chapters", "ch", "episode", "ep", "lesson", "unit", "section", "level", "page", "pages", "part", "season",
            "module", "round", "stage", "phase", "sprint", "release", "version", "room", "rm", "gate", "floor", "building",
            "bldg", "table", "seat", "row", "bus", "train", "flight", "track", "platform", "terminal", "exit", "ward", "bay",
            "door", "suite", "apt", "apartment", "box", "locker", "court", "field", "pitch", "grade", "cohort", "batch",
            "ticket", "case", "order", "invoice", "issue", "game", "match", "act", "scene", "lab", "lecture", "hole", "route",
            "pier", "dock", "booth", "aisle", "lot",
        ],
        countNounEndings: ["s", "ren", "people", "men", "sheep", "fish"]
    )

    /// The United States' holidays (and a few widely kept days), as calendar apps' holiday calendars list them.
    static let englishHolidays: [(String, QuickAddMeaning)] = holidays([
        (["new year's day", "new years day"], .fixed(1, 1)),
        (["new year's eve", "new years eve", "nye"], .fixed(12, 31, partyOnTheDay: true)),
        (["mlk day", "martin luther king day", "martin luther king jr. day", "martin luther king jr day"], .nth(3, 1, of: 1)),
        (["valentine's day", "valentines day", "valentine's"], .fixed(2, 14, partyOnTheDay: true)),
        (["presidents' day", "presidents day", "president's day"], .nth(3, 1, of: 2)),
        (
            ["st. patrick's day", "st patrick's day", "saint patrick's day", "st. paddy's day", "st paddy's day"],
            .fixed(3, 17, partyOnTheDay: true)
        ),
        (["mardi gras", "fat tuesday"], QuickAddHoliday(.easter(plusDays: -47), partyOnTheDay: true)), (["ash wednesday"], .easter(-46)),
        (["palm sunday"], .easter(-7)),
        (["maundy thursday", "holy thursday"], .easter(-3)),
        (["good friday"], .easter(-2)), (["easter", "easter sunday"], .easter(0)), (["easter monday"], .easter(1)),
        (["mother's day", "mothers day"], .nth(2, 7, of: 5)), (["father's day", "fathers day"], .nth(3, 7, of: 6)),
        (["memorial day"], .nth(-1, 1, of: 5)), (["juneteenth"], .fixed(6, 19)),
        (["independence day", "fourth of july", "4th of july"], .fixed(7, 4, partyOnTheDay: true)),
        (["labor day"], .nth(1, 1, of: 9)), (["columbus day", "indigenous peoples' day"], .nth(2, 1, of: 10)),
        (["halloween"], .fixed(10, 31)), (["veterans day", "veterans' day", "veteran's day"], .fixed(11, 11)),
        (["thanksgiving", "thanksgiving day"], .nth(4, 4, of: 11)), (["black friday"], .nth(4, 4, of: 11, plusDays: 1)),
        (["cyber monday"], .nth(4, 4, of: 11, plusDays: 4)),
        (["christmas eve", "xmas eve"], .fixed(12, 24, partyOnTheDay: true)),
        (["christmas", "christmas day", "xmas"], .fixed(12, 25)),
        (
            [
                "easter weekend", "memorial day weekend", "labor day weekend", "thanksgiving weekend", "christmas break", "the holidays",
                "4th of july weekend", "fourth of july weekend", "july 4th weekend", "independence day weekend",
                "presidents day weekend", "presidents' day weekend", "president's day weekend", "mlk weekend",
                "mlk day weekend", "columbus day weekend", "veterans day weekend", "new year's weekend", "spring break",
                "winter break", "summer break",
            ],
            .severalDays
        ),
    ])

    private static let englishPhrases: [(String, QuickAddMeaning)] = {
        var table: [(String, QuickAddMeaning)] = [
            ("today", .relativeDay(0)), ("tonight", .partOfDay(QuickAddPartOfDay(hour: 20, from: 14, day: 0, ownFrom: 16, ownLength: 10))),
            ("tomorrow", .relativeDay(1)),
            ("tmrw", .relativeDay(1)), ("tmr", .relativeDay(1)), ("tmw", .relativeDay(1)), ("tomorow", .relativeDay(1)),
            ("tommorow", .relativeDay(1)), ("tommorrow", .relativeDay(1)), ("2morrow", .relativeDay(1)), ("2moro", .relativeDay(1)),
            ("2day", .relativeDay(0)), ("later today", .relativeDay(0)), ("day after tomorrow", .relativeDay(2)),
            ("tonite", .partOfDay(QuickAddPartOfDay(hour: 20, from: 14, day: 0, ownFrom: 16, ownLength: 10))),
            ("the day after tomorrow", .relativeDay(2)),
            ("next", .next), ("this", .this), ("coming", .this), ("in", .inRelative),
            ("st", .ordinalSuffix), ("nd", .ordinalSuffix), ("rd", .ordinalSuffix), ("th", .ordinalSuffix),
            ("half", .half), ("am", .meridiem(pm: false)), ("a.m.", .meridiem(pm: false)),
            ("a.m", .meridiem(pm: false)), ("pm", .meridiem(pm: true)), ("p.m.", .meridiem(pm: true)),
            ("p.m", .meridiem(pm: true)), ("o'clock", .hourMark), ("o’clock", .hourMark),
            // "9ish", "6-ish", "2:30ish": an approximate time, read as "9 o'clock" would be.
            ("ish", .hourMark), ("- ish", .hourMark), ("sharp", .hourMark), ("noonish", .namedTime(hour: 12, minute: 0)),
            ("noon", .namedTime(hour: 12, minute: 0)), ("midday", .namedTime(hour: 12, minute: 0)),
            ("midnight", .namedTime(hour: 0, minute: 0)),
            ("morning", .partOfDay(.morning)), ("in the morning", .partOfDay(.morning)),
            ("this morning", .partOfDay(QuickAddPartOfDay.morning.on(0))),
            ("afternoon", .partOfDay(.afternoon)), ("in the afternoon", .partOfDay(.afternoon)),
            ("this afternoon", .partOfDay(QuickAddPartOfDay.afternoon.on(0))),
            ("evening", .partOfDay(.evening)), ("in the evening", .partOfDay(.evening)),
            ("this evening", .partOfDay(QuickAddPartOfDay.evening.on(0))),
            ("at night", .partOfDay(.night)), ("tomorrow night", .partOfDay(QuickAddPartOfDay.night.on(1))),
            ("lunchtime", .partOfDay(.noon)), ("lunch time", .partOfDay(.noon)), ("at lunchtime", .partOfDay(.noon)),
            ("end of day", .partOfDay(.endOfDay)), ("end of the day", .partOfDay(.endOfDay)),
            ("end of month", .endOfMonth), ("end of the month", .endOfMonth), ("month end", .endOfMonth), ("end of", .endOf),
            ("eod", .partOfDay(.endOfDay)), ("close of business", .partOfDay(.endOfDay)), ("cob", .partOfDay(.endOfDay)),
            ("by", .deadline), ("due", .deadline), ("due on", .deadline), ("due by", .deadline),
            ("no later than", .deadline), ("before", .deadline), ("b4", .deadline),
            ("-", .rangeTo), ("to", .rangeTo), ("through", .rangeTo), ("thru", .rangeTo),
            ("until", .untilOrTo), ("till", .untilOrTo), ("til", .untilOrTo),
            ("from", .from), ("between", .between), ("on", .onDate), ("at", .at), ("@", .at),
            ("all day", .allDay), ("all-day", .allDay), ("allday", .allDay), ("for", .forDuration),
            ("every", .every), ("each", .every),
            ("daily", .frequency(.daily, interval: 1)), ("weekly", .frequency(.weekly, interval: 1)),
            ("monthly", .frequency(.monthly, interval: 1)), ("yearly", .frequency(.yearly, interval: 1)),
            ("annually", .frequency(.yearly, interval: 1)), ("fortnightly", .frequency(.weekly, interval: 2)),
            ("quarterly", .frequency(.monthly, interval: 3)), ("semiannually", .frequency(.monthly, interval: 6)),
            ("semi-annually", .frequency(.monthly, interval: 6)), ("biannually", .frequency(.monthly, interval: 6)),
            ("weekday", .workdays(plural: false)), ("workday", .workdays(plural: false)),
            ("weekdays", .workdays(plural: true)), ("workdays", .workdays(plural: true)), ("m-f", .workdays(plural: true)),
            ("times", .times), ("time", .times), ("and", .and), ("&", .and), ("or", .or),
            ("starting", .starting), ("beginning", .starting), ("starting on", .starting),
            ("starting from", .starting), ("of", .of), ("the", .the), ("with", .with), ("w/", .with),
            ("this coming", .this),
            ("half past", .clockOffset(minutes: 30)), ("quarter past", .clockOffset(minutes: 15)),
            ("a quarter past", .clockOffset(minutes: 15)), ("quarter after", .clockOffset(minutes: 15)),
            ("quarter to", .clockOffset(minutes: -15)), ("a quarter to", .clockOffset(minutes: -15)),
            ("quarter of", .clockOffset(minutes: -15)),
            // "10 past 8", "twenty past 4" (not "10 to 8": that reads as a range of hours as often).
            ("5 past", .clockOffset(minutes: 5)), ("10 past", .clockOffset(minutes: 10)), ("20 past", .clockOffset(minutes: 20)),
            ("25 past", .clockOffset(minutes: 25)), ("five past", .clockOffset(minutes: 5)), ("ten past", .clockOffset(minutes: 10)),
            ("twenty past", .clockOffset(minutes: 20)),
            ("first thing", .partOfDay(.earlyMorning)), ("first thing in the morning", .partOfDay(.earlyMorning)),
            ("every morning", .everyPart(.morning)), ("each morning", .everyPart(.morning)),
            ("every afternoon", .everyPart(.afternoon)), ("every evening", .everyPart(.evening)),
            ("each evening", .everyPart(.evening)), ("every night", .everyPart(.night)), ("each night", .everyPart(.night)),
            ("nightly", .everyPart(.night)),
            ("around", .approximately), ("about", .approximately), ("approx", .approximately), ("approx.", .approximately),
            ("approximately", .approximately), ("circa", .approximately), ("ca.", .approximately), ("~", .approximately),
            ("next week", .calendarWeek(1)), ("this week", .calendarWeek(0)), ("the week after next", .calendarWeek(2)),
            ("week after next", .calendarWeek(2)), ("after next", .afterNext),
            ("this weekend", .vagueDate), ("next weekend", .vagueDate), ("the weekend", .vagueDate),
            ("on the weekend", .vagueDate), ("over the weekend", .vagueDate), ("at the weekend", .vagueDate),
            ("this month", .monthsAhead(0)), ("next month", .monthsAhead(1)), ("the next month", .monthsAhead(1)),
            ("the following month", .monthsAhead(1)), ("the month after next", .monthsAhead(2)),
            // Before "of the month" takes its first three words.
            ("of the month after next", .monthsAhead(2)),
            ("except", .except), ("except on", .except), ("except for", .except), ("excluding", .except), ("but not", .except),
            ("but not on", .except), ("except weekends", .exceptWeekend), ("except on weekends", .exceptWeekend),
            ("except the weekend", .exceptWeekend), ("except on the weekend", .exceptWeekend), ("except at weekends", .exceptWeekend),
            ("except at the weekend", .exceptWeekend), ("excluding weekends", .exceptWeekend), ("but not on weekends", .exceptWeekend),
            ("except for weekends", .exceptWeekend),
            ("last", .lastOrdinal),
            ("of every month", .monthlyMarker(every: true)), ("of each month", .monthlyMarker(every: true)),
            ("of the month", .monthlyMarker(every: false)), ("of month", .monthlyMarker(every: false)),
            ("one and a half", .oneAndAHalf),
            ("biweekly", .frequency(.weekly, interval: 2)), ("bi-weekly", .frequency(.weekly, interval: 2)),
        ]
        let weekdays = [
            ["monday", "mon", "mon."], ["tuesday", "tue", "tues", "tue.", "tues."], ["wednesday", "wed", "wed.", "weds", "weds."],
            ["thursday", "thu", "thur", "thurs", "thu.", "thurs."], ["friday", "fri", "fri."],
            ["saturday", "sat", "sat."], ["sunday", "sun", "sun."],
        ]
        let plurals = ["mondays", "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays", "sundays"]
        for (index, names) in weekdays.enumerated() {
            table += each(names, .weekday(index + 1))
            table.append((plurals[index], .weekdays(index + 1)))
            // "Friday night": a bare "night" is a word ("Game night"), after a weekday it is the night.
            table += each(names.filter { !$0.hasSuffix(".") }.map { $0 + " night" }, .weekdayPart(index + 1, .night))
        }
        let months = [
            ["january", "jan"], ["february", "feb"], ["march", "mar"], ["april", "apr"], ["may"],
            ["june", "jun"], ["july", "jul"], ["august", "aug"], ["september", "sep", "sept"],
            ["october", "oct"], ["november", "nov"], ["december", "dec"],
        ]
        for (index, names) in months.enumerated() {
            table += each(names, .month(index + 1))
            table += each(names.filter { $0.count <= 4 && $0 != "may" && $0 != "june" && $0 != "july" }.map { $0 + "." }, .month(index + 1))
        }
        table += each(["minute", "minutes", "min", "mins", "m"], .unit(.minute))
        table += each(["hour", "hours", "hr", "hrs", "h"], .unit(.hour))
        table += each(["day", "days"], .unit(.day))
        table += each(["week", "weeks", "wk", "wks"], .unit(.week))
        table += each(["cw"], .isoWeek)
        table += each(["month", "months"], .unit(.month))
        table += each(["year", "years"], .unit(.year))
        let numbers = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
        for (index, word) in numbers.enumerated() { table.append((word, .number(index + 1))) }
        table += [("a", .number(1)), ("an", .number(1))]
        let ordinals = ["first", "second", "third", "fourth", "fifth", "sixth"]
        for (index, word) in ordinals.enumerated() { table.append((word, .ordinal(index + 1))) }
        table.append(("other", .ordinal(2)))
        return table + englishHolidays
    }()
}
