/// What the grammar found in one line, and the rules that turn it into an event.
struct QuickAddCollected {
    let example: String
    var dates: [(spec: QuickAddDateSpec, fragment: String)] = []
    var time: (first: QuickAddTimePoint, second: QuickAddTimePoint?, prefixed: Bool, fragment: String)?
    var duration: (seconds: Int, wholeDays: Int?, months: Int?, fragment: String)?
    /// "in 2 hours": the start that long after now.
    var relativeTime: (seconds: Int, fragment: String)?
    var zones: [(id: String?, fragment: String)] = []
    var location: String?
    var recurrence = QuickAddRecurrencePart()
    var recurrenceFragment: String?
    /// "except Sunday", as written.
    var exceptionFragment: String?
    var hasFrequency = false
    var allDay: String?
    var partOfDay: (part: QuickAddPartOfDay, fragment: String)?
    /// From a title word such as "dinner": the half of the day for bare hours when no part of the day is named.
    var kindHint: QuickAddPartOfDay?
    /// The locale's identifier, for messages that fit the language (German speakers do not write am/pm).
    let language: String
    /// Set by `resolve`: the start's hour as typed when the default clock rule read it ("at 7:30"), for doubts.
    private(set) var hourByDefault: (hour: Int, fragment: String)?
    /// Set by `resolve`: a date without a year that passed this year at most `recentlyPassedDays` ago and was read
    /// as next year's, for doubts. A week: within it the date just gone may be meant (an event entered after the
    /// fact); every labelled date that passed 8 to 30 days before was meant next year (it was 30 days until
    /// 2026-12-06, and flagged only right readings).
    private(set) var recentlyPassed: String?
    static let recentlyPassedDays = 7

    init(example: String, language: String = "en") {
        self.example = example
        self.language = language
    }

    /// The message in the text's language.
    private func error(_ code: QuickAddError.Code, _ message: String, de german: String) -> QuickAddError {
        QuickAddError(code, language == "de" ? german : message, example: example, language: language)
    }

    mutating func add(_ element: QuickAddElement, fragment: String) throws(QuickAddError) {
        switch element {
        case .date(let spec):
            dates.append((spec, fragment))
        case .dateAndPart(let spec, let part):
            dates.append((spec, fragment))
            try add(.partOfDay(part), fragment: fragment)
        case .vague:
            throw error(
                .vagueDate, "\"\(fragment)\" names no one day; name the day, such as Saturday or Tuesday next week",
                de: "„\(fragment)“ nennt keinen bestimmten Tag; nenne den Tag, etwa Samstag oder nächste Woche Dienstag")
        case .time(let first, let second, let zone, let prefixed):
            if let time {
                throw error(
                    .conflict, "two times, \"\(time.fragment)\" and \"\(fragment)\"; give one start time or a range",
                    de: "zwei Uhrzeiten, „\(time.fragment)“ und „\(fragment)“; gib eine Anfangszeit oder einen Zeitraum an")
            }
            time = (first, second, prefixed, fragment)
            if let zone { zones.append((zone, fragment)) }
        case .duration(let seconds, let wholeDays, let months):
            if let duration {
                throw error(
                    .conflict, "two durations, \"\(duration.fragment)\" and \"\(fragment)\"; give one",
                    de: "zwei Dauern, „\(duration.fragment)“ und „\(fragment)“; gib eine an")
            }
            duration = (seconds, wholeDays, months, fragment)
        case .relativeTime(let seconds):
            if let relativeTime {
                throw error(
                    .conflict, "two times, \"\(relativeTime.fragment)\" and \"\(fragment)\"; give one start time",
                    de: "zwei Uhrzeiten, „\(relativeTime.fragment)“ und „\(fragment)“; gib eine Anfangszeit an")
            }
            relativeTime = (seconds, fragment)
        case .zone(let id):
            zones.append((id, fragment))
        case .location(let place):
            if let location {
                throw error(
                    .conflict, "two places, \"\(location)\" and \"\(place)\"; give one location",
                    de: "zwei Orte, „\(location)“ und „\(place)“; gib einen Ort an")
            }
            location = place
        case .allDay:
            allDay = fragment
        case .alternativeTimes:
            throw error(
                .conflict, "\"\(fragment)\" gives two times to choose from; give the one the event starts at",
                de: "„\(fragment)“ nennt zwei Uhrzeiten zur Wahl; gib die an, zu der der Termin beginnt")
        case .partOfDay(let part):
            if let partOfDay {
                throw error(
                    .conflict, "two parts of the day, \"\(partOfDay.fragment)\" and \"\(fragment)\"; give one",
                    de: "zwei Tagesteile, „\(partOfDay.fragment)“ und „\(fragment)“; gib einen an")
            }
            partOfDay = (part, fragment)
            if let day = part.day { dates.append((.relative(days: day), fragment)) }
        case .recurrence(let part):
            if part.frequency != nil {
                var rule = part
                if hasFrequency {
                    // "Weekly 1:1 Tuesdays", "Biweekly sync every other Monday": a bare frequency word and a rule that says
                    // the same, with its days, are one rule.
                    guard let merged = Self.merged(recurrence, part) else {
                        throw error(
                            .conflict, "two repeat rules, \"\(recurrenceFragment ?? "")\" and \"\(fragment)\"; give one",
                            de: "zwei Wiederholungen, „\(recurrenceFragment ?? "")“ und „\(fragment)“; gib eine an")
                    }
                    rule = merged
                    recurrenceFragment = "\(recurrenceFragment ?? "") \(fragment)"
                } else {
                    recurrenceFragment = fragment
                }
                hasFrequency = true
                recurrence.frequency = rule.frequency
                recurrence.interval = rule.interval
                recurrence.byDay = rule.byDay
                recurrence.byMonthDay = rule.byMonthDay
                recurrence.byDayOrdinal = rule.byDayOrdinal
                if let start = part.start { dates.append((start, fragment)) }
                if let partOfDay = part.partOfDay { try add(.partOfDay(partOfDay), fragment: fragment) }
            }
            if let until = part.until {
                if recurrence.until != nil {
                    throw error(
                        .conflict, "two end dates for the repeat (\"\(fragment)\")",
                        de: "zwei Enddaten für die Wiederholung („\(fragment)“)")
                }
                recurrence.until = until
            }
            if let excluded = part.excludedDays {
                guard !excluded.isEmpty else {
                    throw error(
                        .unsupportedException,
                        "\"\(fragment)\" can leave only weekdays out of a series, as in \"every day except Sunday\"; "
                            + "delete other days from the series once it is made",
                        de: "„\(fragment)“ kann nur Wochentage aus einer Serie nehmen, wie in „täglich außer sonntags“; "
                            + "lösche andere Tage aus der Serie, wenn sie angelegt ist")
                }
                if recurrence.excludedDays != nil {
                    throw error(
                        .conflict, "two exceptions (\"\(fragment)\"); list the days in one",
                        de: "zwei Ausnahmen („\(fragment)“); nenne die Tage in einer")
                }
                recurrence.excludedDays = excluded
                exceptionFragment = fragment
            }
            if let count = part.count {
                if recurrence.count != nil {
                    throw error(.conflict, "two repeat counts (\"\(fragment)\")", de: "zwei Anzahlen für die Wiederholung („\(fragment)“)")
                }
                recurrence.count = count
            }
        }
    }

    // MARK: resolving

    /// The first date on or after `base` with this month and day (in `year` if given).
    private func absolute(_ year: Int?, _ month: Int, _ day: Int, from base: QuickAddDate, fragment: String)
        throws(QuickAddError) -> QuickAddDate
    {
        guard (1...12).contains(month) else {
            throw error(
                .invalidDate, "\"\(fragment)\" is not a date: there is no month \(month)",
                de: "„\(fragment)“ ist kein Datum: es gibt keinen Monat \(month)")
        }
        let longest = month == 2 ? 29 : QuickAddDate.daysIn(month: month, year: 2001)
        guard day >= 1, day <= longest else {
            throw error(
                .invalidDate, "\"\(fragment)\" is not a date: \(Self.monthNames[month - 1]) has \(longest) days at most",
                de: "„\(fragment)“ ist kein Datum: der Monat hat höchstens \(longest) Tage")
        }
        if let year {
            guard (1900...2999).contains(year) else {
                throw error(
                    .outOfRange, "\"\(fragment)\" is outside the years 1900 to 2999",
                    de: "„\(fragment)“ liegt außerhalb der Jahre 1900 bis 2999")
            }
            guard QuickAddDate.isValid(year: year, month: month, day: day) else {
                throw error(
                    .invalidDate, "\"\(fragment)\" is not a date: \(year) is not a leap year",
                    de: "„\(fragment)“ ist kein Datum: \(year) ist kein Schaltjahr")
            }
            return QuickAddDate(year: year, month: month, day: day)
        }
        for year in base.year...(base.year + 8) where QuickAddDate.isValid(year: year, month: month, day: day) {
            let date = QuickAddDate(year: year, month: month, day: day)
            if date >= base { return date }
        }
        throw error(.invalidDate, "\"\(fragment)\" is not a date", de: "„\(fragment)“ ist kein Datum")
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
    static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let germanWeekdayNames = ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"]
    static let rruleDays = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// The first date on or after `base` whose day of month is `day` (months without it are skipped).
    private func dayOfMonth(_ day: Int, from base: QuickAddDate, fragment: String) throws(QuickAddError) -> QuickAddDate {
        guard (1...31).contains(day) else {
            throw error(.invalidDate, "\"\(fragment)\" is not a day of the month", de: "„\(fragment)“ ist kein Tag des Monats")
        }
        var month = QuickAddDate(year: base.year, month: base.month, day: 1)
        for _ in 0..<13 {
            if day <= QuickAddDate.daysIn(month: month.month, year: month.year) {
                let date = QuickAddDate(year: month.year, month: month.month, day: day)
                if date >= base { return date }
            }
            month = month.adding(months: 1)
        }
        throw error(.invalidDate, "\"\(fragment)\" is not a day of the month", de: "„\(fragment)“ ist kein Tag des Monats")
    }

    /// A date spec on or after `base` (relative specs count from `today`). Returns the first and last day.
    private func resolve(_ spec: QuickAddDateSpec, today: QuickAddDate, base: QuickAddDate, fragment: String)
        throws(QuickAddError) -> (QuickAddDate, QuickAddDate?)
    {
        switch spec {
        case .relative(let days):
            guard days <= 400_000 else {
                throw error(.outOfRange, "\"\(fragment)\" is too far away", de: "„\(fragment)“ ist zu weit entfernt")
            }
            return (today.adding(days: days), nil)
        case .relativeMonths(let months):
            guard months <= 12_000 else {
                throw error(.outOfRange, "\"\(fragment)\" is too far away", de: "„\(fragment)“ ist zu weit entfernt")
            }
            return (today.adding(months: months), nil)
        case .endOfMonth:
            return (QuickAddDate(year: today.year, month: today.month, day: QuickAddDate.daysIn(month: today.month, year: today.year)), nil)
        case .endOfNamedMonth(let month):
            let thisYear = QuickAddDate(year: base.year, month: month, day: QuickAddDate.daysIn(month: month, year: base.year))
            if thisYear >= base { return (thisYear, nil) }
            return (QuickAddDate(year: base.year + 1, month: month, day: QuickAddDate.daysIn(month: month, year: base.year + 1)), nil)
        case .weekday(let weekday, let next):
            var delta = (weekday - base.weekday + 7) % 7
            if next && delta == 0 { delta = 7 }
            return (base.adding(days: delta), nil)
        case .thisWeekday(let weekday):
            return (base.adding(days: (weekday - base.weekday + 7) % 7), nil)
        case .weekdayAfterNext(let weekday):
            return (base.adding(days: (weekday - base.weekday + 6) % 7 + 1 + 7), nil)
        case .previousWeekday(let weekday):
            return (base.adding(days: -((base.weekday - weekday + 6) % 7 + 1)), nil)
        case .absolute(let year, let month, let day):
            return (try absolute(year, month, day, from: base, fragment: fragment), nil)
        case .dayOfMonth(let day):
            return (try dayOfMonth(day, from: base, fragment: fragment), nil)
        case .weekdayOfWeek(let weekday, let weeks):
            // Calendar weeks run Monday to Sunday: "Tuesday next week" is in the week after today's.
            return (today.adding(days: 7 * weeks - (today.weekday - 1) + (weekday - 1)), nil)
        case .nthWeekday(let n, let weekday):
            return (Self.nthWeekday(n, weekday, from: base), nil)
        case .holiday(let holiday):
            guard let day = holiday.date(onOrAfter: base) else {
                throw error(
                    .vagueDate, "\"\(fragment)\" names no one day; give the date, such as Dec 24",
                    de: "„\(fragment)“ nennt keinen bestimmten Tag; gib das Datum an, etwa 24.12.")
            }
            return (day, nil)
        case .nthWeekdayOfMonth(let n, let weekday, let month):
            for year in base.year...(base.year + 1) {
                let day = Self.nthWeekday(n, weekday, from: QuickAddDate(year: year, month: month, day: 1))
                if day >= base { return (day, nil) }
            }
            return (Self.nthWeekday(n, weekday, from: QuickAddDate(year: base.year + 2, month: month, day: 1)), nil)
        case .weekdayOfIsoWeek(let week, let weekday):
            for year in base.year...(base.year + 1) {
                guard let day = QuickAddDate.isoWeekday(week: week, weekday: weekday, year: year) else { continue }
                if day >= base { return (day, nil) }
            }
            throw error(
                .invalidDate, "\"\(fragment)\" is no week of this or next year",
                de: "„\(fragment)“ ist keine Woche dieses oder nächsten Jahres")
        case .offset(let days, let months, let from):
            let (day, _) = try resolve(from, today: today, base: base, fragment: fragment)
            return (day.adding(months: months).adding(days: days), nil)
        case .dayMonthsAhead(let day, let months):
            let month = QuickAddDate(year: today.year, month: today.month, day: 1).adding(months: months)
            guard day <= QuickAddDate.daysIn(month: month.month, year: month.year) else {
                throw error(.invalidDate, "\"\(fragment)\" is not a day of that month", de: "„\(fragment)“ ist kein Tag dieses Monats")
            }
            return (QuickAddDate(year: month.year, month: month.month, day: day), nil)
        case .nthWeekdayMonthsAhead(let n, let weekday, let months):
            let month = QuickAddDate(year: today.year, month: today.month, day: 1).adding(months: months)
            return (Self.nthWeekday(n, weekday, from: month), nil)
        case .range(let first, let second):
            // One month named for both days ("Dec 16-14", "16.-14. Dezember"): the days are in that month.
            if case .absolute(let y1, let m1, let d1) = first, case .absolute(let y2, let m2, let d2) = second,
                y1 == y2, m1 == m2, d2 < d1
            {
                throw error(.invalidRange, "\"\(fragment)\" ends before it starts", de: "„\(fragment)“ endet, bevor es beginnt")
            }
            let (start, _) = try resolve(first, today: today, base: base, fragment: fragment)
            let (end, _) = try resolve(second, today: today, base: start, fragment: fragment)
            guard end >= start else {
                throw error(.invalidRange, "\"\(fragment)\" ends before it starts", de: "„\(fragment)“ endet, bevor es beginnt")
            }
            return (start, end)
        }
    }

    /// The first day on or after `base` that is the n-th (-1: last) `weekday` of its month.
    static func nthWeekday(_ n: Int, _ weekday: Int, from base: QuickAddDate) -> QuickAddDate {
        var month = QuickAddDate(year: base.year, month: base.month, day: 1)
        while true {
            let days = QuickAddDate.daysIn(month: month.month, year: month.year)
            let day: Int
            if n > 0 {
                day = 1 + (weekday - month.weekday + 7) % 7 + 7 * (n - 1)
            } else {
                let last = QuickAddDate(year: month.year, month: month.month, day: days)
                day = days - (last.weekday - weekday + 7) % 7
            }
            if day <= days, QuickAddDate(year: month.year, month: month.month, day: day) >= base {
                return QuickAddDate(year: month.year, month: month.month, day: day)
            }
            month = month.adding(months: 1)
        }
    }

    /// The rule for hours written without am/pm on a 12-hour reading (documented in docs/quick-add.md):
    /// 7-11 are morning, 12 is noon, 1-6 are afternoon ("at 4:30" is 16:30, "at 9" is 09:00).
    static func defaultHour(_ hour: Int) -> Int { (1...6).contains(hour) ? hour + 12 : hour % 12 + (hour == 12 ? 12 : 0) }

    /// Minutes after midnight of a single time, or of both ends of a range, by one rule: am/pm as written;
    /// hours typed on the 24-hour clock (0, 13-23, a leading zero, "Uhr") as written; other hours from
    /// 1 to 12 in the part of the day the text names, else by `defaultHour`. A range's end is the first
    /// reading after its start ("12:30-1:30" is an hour, "11-1" crosses noon, "10pm-2am" midnight).
    /// The third value says the start was read by `defaultHour` (nothing in the text chose its half of the day).
    private func clock(_ first: QuickAddTimePoint, _ second: QuickAddTimePoint?, prefixed: Bool, fragment: String)
        throws(QuickAddError) -> (Int, Int?, Bool)
    {
        for point in [first] + (second.map { [$0] } ?? []) {
            if point.pm != nil {
                guard (1...12).contains(point.hour) else {
                    throw error(
                        .invalidTime, "\"\(fragment)\" is not a time: with am/pm the hour is 1 to 12",
                        de: "„\(fragment)“ ist keine Uhrzeit: mit am/pm geht die Stunde von 1 bis 12")
                }
            } else if !(0...23).contains(point.hour) {
                throw error(
                    .invalidTime, "\"\(fragment)\" is not a time: the hour is 0 to 23",
                    de: "„\(fragment)“ ist keine Uhrzeit: die Stunde geht von 0 bis 23")
            }
            guard (0...59).contains(point.minute) else {
                throw error(
                    .invalidTime, "\"\(fragment)\" is not a time: minutes are 0 to 59",
                    de: "„\(fragment)“ ist keine Uhrzeit: die Minuten gehen von 0 bis 59")
            }
        }
        let part = partOfDay
        func twelve(_ point: QuickAddTimePoint, pm: Bool) -> Int { (point.hour % 12 + (pm ? 12 : 0)) * 60 + point.minute }
        func typed24(_ point: QuickAddTimePoint) -> Bool {
            point.pm == nil && (point.explicit || point.hour == 0 || point.hour > 12 || point.leadingZero)
        }
        func outside(_ hour: Int) -> QuickAddError {
            let partText = part?.fragment ?? ""
            return error(
                .conflict, "\"\(fragment)\" is not in \"\(partText)\"; give one of them, e.g. \"tomorrow 8am\"",
                de: "„\(fragment)“ liegt nicht im Tagesteil „\(partText)“; gib eines von beiden an")
        }
        /// A 24-hour reading checked against the hours of the part of the day; "8 Uhr abends" is 20:00, "14 Uhr
        /// abends" is refused.
        func checked(_ minutes: Int, shiftable: Bool) throws(QuickAddError) -> Int {
            guard let part = part?.part else { return minutes }
            let hour = minutes / 60
            if part.owns(hour) { return minutes }
            if shiftable, (1...11).contains(hour), part.owns(hour + 12) { return minutes + 720 }
            throw outside(hour)
        }
        var byDefault = false
        func reading(_ point: QuickAddTimePoint) throws(QuickAddError) -> Int {
            if let pm = point.pm { return try checked(twelve(point, pm: pm), shiftable: false) }
            if typed24(point) { return try checked(point.hour * 60 + point.minute, shiftable: point.explicit) }
            if let part = part?.part {
                guard let hour = part.hour(for: point.hour), part.owns(hour) else { throw outside(point.hour) }
                return hour * 60 + point.minute
            }
            // A kind of event moves an hour into its half of the day, never into the small hours: 12 stays noon and
            // 1 is 13:00 ("Essen 12:30" and "Essen um eins" are lunch, not 00:30 and 01:00).
            if let hour = kindHint?.hour(for: point.hour), hour >= 5 { return hour * 60 + point.minute }
            // German speakers write the 24-hour clock: "Flug 6:05" is 06:05 (a bare "um 3" stays 15:00).
            if language == "de", point.hasMinutes { return point.hour * 60 + point.minute }
            byDefault = true
            return Self.defaultHour(point.hour) * 60 + point.minute
        }
        guard let second else {
            let start = try reading(first)
            return (start, nil, byDefault)
        }
        let start: Int
        if first.pm == nil, !typed24(first), second.pm == nil, second.explicit {
            // "10-12 Uhr": "Uhr" on the end puts both on the 24-hour clock.
            start = try checked(first.hour * 60 + first.minute, shiftable: true)
        } else if first.pm == nil, !typed24(first), let pm = second.pm {
            // "11-1pm", "7-9pm": the start in the end's half of the day unless that is after the end.
            let end = twelve(second, pm: pm)
            let same = twelve(first, pm: pm)
            start = try checked(same < end ? same : twelve(first, pm: !pm), shiftable: false)
        } else {
            start = try reading(first)
        }
        let end: Int
        if let pm = second.pm {
            end = twelve(second, pm: pm)
        } else if typed24(second) {
            end =
                second.explicit && part != nil
                ? try checked(second.hour * 60 + second.minute, shiftable: true) : second.hour * 60 + second.minute
        } else {
            let options = [twelve(second, pm: false), twelve(second, pm: true)]
            func ahead(_ minutes: Int) -> Int {
                let delta = ((minutes - start) % 1440 + 1440) % 1440
                return delta == 0 ? 1440 : delta
            }
            end = options.min { ahead($0) < ahead($1) } ?? options[0]
        }
        return (start, end, byDefault)
    }

    /// "Call back in 2 hours": starts that long after now (to the minute), in the user's zone, for the
    /// duration given or an hour. Nothing else may say when: no date, time, part of the day, repeat or zone.
    private func relative(_ relative: (seconds: Int, fragment: String), now: Int, userZone: QuickAddZone)
        throws(QuickAddError) -> QuickAddResult
    {
        let other =
            dates.first?.fragment ?? time?.fragment ?? partOfDay?.fragment ?? recurrenceFragment ?? allDay ?? zones.first?.fragment
        if let other {
            throw error(
                .conflict, "\"\(relative.fragment)\" and \"\(other)\" both say when; give one",
                de: "„\(relative.fragment)“ und „\(other)“ sagen beide, wann; gib eines an")
        }
        guard relative.seconds > 0, relative.seconds <= 366 * 86_400 else {
            throw error(
                .outOfRange, "\"\(relative.fragment)\" must be more than 0 and at most 366 days away",
                de: "„\(relative.fragment)“ muss mehr als 0 und höchstens 366 Tage entfernt sein")
        }
        let startSeconds = (now + relative.seconds) / 60 * 60
        var endSeconds = startSeconds + 3600
        if let duration {
            guard duration.seconds > 0, duration.seconds <= 366 * 86_400 else {
                throw error(
                    .outOfRange, "\"\(duration.fragment)\" must be more than 0 and at most 366 days",
                    de: "„\(duration.fragment)“ muss länger als 0 und höchstens 366 Tage sein")
            }
            endSeconds = startSeconds + duration.seconds
        }
        return QuickAddResult(
            title: "", start: .dateTime(seconds: startSeconds, rfc3339: userZone.rfc3339(startSeconds)),
            end: .dateTime(seconds: endSeconds, rfc3339: userZone.rfc3339(endSeconds)), isAllDay: false, location: location,
            timeZone: userZone.identifier, recurrence: [], isPast: false)
    }

    func rrule(until: String?, first: QuickAddDate) -> String {
        var text = "RRULE:FREQ=\(recurrence.frequency!.rawValue)"
        if recurrence.interval > 1 { text += ";INTERVAL=\(recurrence.interval)" }
        if !recurrence.byDay.isEmpty {
            let ordinal = recurrence.byDayOrdinal.map(String.init) ?? ""
            text += ";BYDAY=" + recurrence.byDay.sorted().map { ordinal + Self.rruleDays[$0 - 1] }.joined(separator: ",")
        }
        // A monthly rule names its day ("every month" from the 1st is "every month on the 1st"), as Outlook stores
        // it, so that the preview shows the rule the created event shows (RFC 5545 means the same either way).
        if let day = recurrence.byMonthDay ?? (recurrence.frequency == .monthly && recurrence.byDay.isEmpty ? first.day : nil) {
            text += ";BYMONTHDAY=\(day)"
        }
        if let count = recurrence.count { text += ";COUNT=\(count)" }
        if let until { text += ";UNTIL=\(until)" }
        return text
    }

    /// The days and interval of one rule from a bare frequency word ("weekly", "biweekly", "monthly") and a rule of the
    /// same frequency and interval that names its days; nil when they differ (or neither is bare).
    static func merged(_ first: QuickAddRecurrencePart, _ second: QuickAddRecurrencePart) -> QuickAddRecurrencePart? {
        func isBare(_ part: QuickAddRecurrencePart) -> Bool {
            part.byDay.isEmpty && part.byMonthDay == nil && part.byDayOrdinal == nil && part.start == nil && part.partOfDay == nil
        }
        guard first.frequency == second.frequency, first.interval == second.interval, isBare(first) || isBare(second) else { return nil }
        return isBare(first) ? second : first
    }

    /// "every day except Sunday" is weekly on the other six days; "every weekday except Friday" weekly on Monday to
    /// Thursday. Other series have no weekdays to leave out (refused).
    private mutating func leaveOutExcludedDays() throws(QuickAddError) {
        guard let excluded = recurrence.excludedDays, let fragment = exceptionFragment else { return }
        let days: [Int]
        switch recurrence.frequency {
        case .daily? where recurrence.interval == 1 && recurrence.byDay.isEmpty: days = Array(1...7)
        case .weekly? where !recurrence.byDay.isEmpty && recurrence.byDayOrdinal == nil: days = recurrence.byDay
        default:
            throw error(
                .unsupportedException,
                "\"\(fragment)\" needs a series every day or on named weekdays, as in \"every day except Sunday\" or "
                    + "\"every Mon, Wed and Fri except Wed\"",
                de: "„\(fragment)“ braucht eine tägliche Serie oder eine an genannten Wochentagen, wie in „täglich außer sonntags“"
            )
        }
        let kept = days.filter { !excluded.contains($0) }
        guard !kept.isEmpty else {
            throw error(.conflict, "\"\(fragment)\" leaves no day of the series", de: "„\(fragment)“ lässt keinen Tag der Serie übrig")
        }
        recurrence.frequency = .weekly
        recurrence.byDay = kept
        recurrence.excludedDays = nil
    }

    mutating func resolve(now: Int, userZone: QuickAddZone, text: String) throws(QuickAddError) -> QuickAddResult {
        // "until Dec 5", "bis Freitag" without a repeat is a deadline: the event is on that day.
        if !hasFrequency, recurrence.count == nil, let until = recurrence.until {
            dates.append((until, "until"))
            recurrence.until = nil
        }
        if let relativeTime { return try relative(relativeTime, now: now, userZone: userZone) }
        guard !dates.isEmpty || time != nil || hasFrequency || allDay != nil || partOfDay != nil else {
            if recurrence.until != nil || recurrence.count != nil {
                throw error(
                    .untilWithoutRepeat, "\"\(text)\" has an end for a repeat but no repeat rule such as \"every Monday\"",
                    de: "„\(text)“ hat ein Ende für eine Wiederholung, aber keine Wiederholung wie „jeden Montag“")
            }
            throw error(
                .nothingToSchedule, "found no date, time or repeat rule in \"\(text)\"",
                de: "kein Datum, keine Uhrzeit und keine Wiederholung in „\(text)“ gefunden")
        }
        if !hasFrequency && (recurrence.until != nil || recurrence.count != nil) {
            throw error(
                .untilWithoutRepeat, "\"until\" and \"N times\" need a repeat rule such as \"every Monday\"",
                de: "„bis“ und „N Mal“ brauchen eine Wiederholung wie „jeden Montag“")
        }
        if recurrence.until != nil && recurrence.count != nil {
            throw error(
                .conflict, "a repeat can end on a date or after a number of times, not both",
                de: "eine Wiederholung endet an einem Datum oder nach einer Anzahl, nicht beides")
        }
        guard recurrence.interval >= 1, recurrence.interval <= 999 else {
            throw error(
                .outOfRange, "the repeat interval in \"\(recurrenceFragment ?? text)\" must be 1 to 999",
                de: "der Abstand der Wiederholung in „\(recurrenceFragment ?? text)“ muss 1 bis 999 sein")
        }
        if let count = recurrence.count, !(1...999).contains(count) {
            throw error(
                .outOfRange, "a repeat count must be 1 to 999, not \(count)",
                de: "die Anzahl der Wiederholungen muss 1 bis 999 sein, nicht \(count)")
        }
        try leaveOutExcludedDays()

        // The event's zone.
        var eventZone = userZone
        var zoneFragment: String?
        for zone in zones {
            guard let id = zone.id else {
                throw error(
                    .unknownTimeZone, "\"\(zone.fragment)\" is not a time zone the tz database knows",
                    de: "„\(zone.fragment)“ ist keine Zeitzone der tz-Datenbank")
            }
            if let zoneFragment, id != eventZone.identifier {
                throw error(
                    .conflict, "two time zones, \"\(zoneFragment)\" and \"\(zone.fragment)\"; give one",
                    de: "zwei Zeitzonen, „\(zoneFragment)“ und „\(zone.fragment)“; gib eine an")
            }
            guard let resolved = QuickAddZone(identifier: id) else {
                throw error(
                    .unknownTimeZone, "\"\(zone.fragment)\" is not a time zone the tz database knows",
                    de: "„\(zone.fragment)“ ist keine Zeitzone der tz-Datenbank")
            }
            eventZone = resolved
            zoneFragment = zone.fragment
        }

        // The date: at most one date; weekday names next to a date must agree with it.
        let today = userZone.date(at: now)
        let exact = dates.filter { if case .weekday(_, false) = $0.spec { false } else { true } }
        // Only a bare weekday (or no date at all) moves on to its next occurrence when its time has passed.
        let movable = exact.isEmpty && !hasFrequency
        let weekdays = dates.filter { if case .weekday(_, false) = $0.spec { true } else { false } }
        if exact.count > 1 {
            throw error(
                .conflict, "two dates, \"\(exact[0].fragment)\" and \"\(exact[1].fragment)\"; give one",
                de: "zwei Daten, „\(exact[0].fragment)“ und „\(exact[1].fragment)“; gib eines an")
        }
        var startDate = today
        var lastDay: QuickAddDate?
        if let date = exact.first ?? weekdays.first {
            (startDate, lastDay) = try resolve(date.spec, today: today, base: today, fragment: date.fragment)
            if case .absolute(nil, let month, let day) = date.spec, startDate.year > today.year,
                QuickAddDate.isValid(year: today.year, month: month, day: day),
                today.dayNumber - QuickAddDate(year: today.year, month: month, day: day).dayNumber <= Self.recentlyPassedDays
            {
                recentlyPassed = date.fragment
            }
            for weekday in weekdays {
                guard case .weekday(let w, _) = weekday.spec, w != startDate.weekday else { continue }
                if exact.isEmpty {
                    // "Monday and Tuesday": a weekly series or one event over both days; the text must say which.
                    let (first, second) = (weekdays[0].fragment, weekday.fragment)
                    throw error(
                        .conflict,
                        "two dates, \"\(first)\" and \"\(second)\"; give one, put \"every\" before them for a weekly series, "
                            + "or \"to\" between them for one event over those days",
                        de: "zwei Daten, „\(first)“ und „\(second)“; gib eines an, schreib „jeden“ davor für eine wöchentliche Serie "
                            + "oder „bis“ dazwischen für einen Termin über diese Tage")
                }
                throw error(
                    .conflict,
                    "\"\(exact[0].fragment)\" is a \(Self.weekdayNames[startDate.weekday - 1]), not a \(Self.weekdayNames[w - 1])",
                    de:
                        "„\(exact[0].fragment)“ ist ein \(Self.germanWeekdayNames[startDate.weekday - 1]), kein \(Self.germanWeekdayNames[w - 1])"
                )
            }
        }

        // A repeat starts on its first matching day; a range of days bounds it.
        var untilDate: QuickAddDate?
        var repeatSpan: (days: Int, months: Int)?
        if !hasFrequency, let duration, duration.months != nil {
            throw error(
                .conflict, "\"\(duration.fragment)\" is how long a repeat goes on; add one such as \"every Monday\"",
                de: "„\(duration.fragment)“ ist die Dauer einer Wiederholung; gib eine an, zum Beispiel „jeden Montag“")
        }
        if hasFrequency {
            if !recurrence.byDay.isEmpty {
                while !recurrence.byDay.contains(startDate.weekday) { startDate = startDate.adding(days: 1) }
            }
            if let day = recurrence.byMonthDay {
                startDate = try dayOfMonth(day, from: startDate, fragment: recurrenceFragment ?? text)
            }
            if let n = recurrence.byDayOrdinal, let weekday = recurrence.byDay.first {
                startDate = Self.nthWeekday(n, weekday, from: startDate)
            }
            if let last = lastDay {
                if recurrence.until != nil || recurrence.count != nil {
                    throw error(
                        .conflict, "a repeat with a range of days and its own end; give one end",
                        de: "eine Wiederholung mit Zeitraum und eigenem Ende; gib ein Ende an")
                }
                untilDate = last
                lastDay = nil
            }
            if let until = recurrence.until {
                (untilDate, _) = try resolve(until, today: today, base: startDate, fragment: "until")
            }
            // "every Tuesday 10am for 6 weeks", "every day for 2 weeks": days, weeks or months after a repeat are how
            // long it repeats (the last day is the day before the span ends), not the length of each event.
            if let span = duration, span.wholeDays != nil || span.months != nil {
                if recurrence.until != nil || recurrence.count != nil || untilDate != nil {
                    throw error(
                        .conflict, "a repeat with \"\(span.fragment)\" and another end; give one end",
                        de: "eine Wiederholung mit „\(span.fragment)“ und einem weiteren Ende; gib ein Ende an")
                }
                repeatSpan = (span.wholeDays ?? 0, span.months ?? 0)
                duration = nil
            }
            if let untilDate, untilDate < startDate {
                throw error(
                    .invalidRange, "the repeat ends (\(untilDate)) before it starts (\(startDate))",
                    de: "die Wiederholung endet (\(untilDate)), bevor sie beginnt (\(startDate))")
            }
        }
        guard (1900...2999).contains(startDate.year), (1900...2999).contains((lastDay ?? startDate).year),
            (1900...2999).contains((untilDate ?? startDate).year)
        else {
            throw error(
                .outOfRange, "the date \(startDate) is outside the years 1900 to 2999",
                de: "das Datum \(startDate) liegt außerhalb der Jahre 1900 bis 2999")
        }

        var recurrenceLines: [String] = []
        let start: QuickAddResult.Time
        let end: QuickAddResult.Time
        var isPast = false
        if time != nil || partOfDay != nil {
            let fragment = time?.fragment ?? partOfDay!.fragment
            if let allDay {
                throw error(
                    .conflict, "\"\(allDay)\" and a time (\"\(fragment)\"); give one",
                    de: "„\(allDay)“ und eine Uhrzeit („\(fragment)“); gib eines an")
            }
            if lastDay != nil {
                throw error(
                    .conflict, "a range of days cannot also have a time (\"\(fragment)\"); give one day",
                    de: "ein Zeitraum über mehrere Tage kann keine Uhrzeit haben („\(fragment)“); gib einen Tag an")
            }
            let (startMinutes, endMinutes): (Int, Int?)
            if let time {
                let byDefault: Bool
                (startMinutes, endMinutes, byDefault) = try clock(time.first, time.second, prefixed: time.prefixed, fragment: time.fragment)
                // "Garage sale 8-1", "8:30-4:30", "8 bis 12": a morning start whose range runs to noon or into the afternoon
                // is a day's block; read in the evening it would run past midnight, so the rule's reading is sure.
                let dayBlock = startMinutes < 12 * 60 && (endMinutes.map { $0 >= 12 * 60 && $0 <= 17 * 60 } ?? false)
                if byDefault, !dayBlock { hourByDefault = (time.first.hour, time.fragment) }
            } else {
                (startMinutes, endMinutes) = (partOfDay!.part.hour * 60 + partOfDay!.part.minute, nil)
            }
            if time != nil, let part = partOfDay?.part, startMinutes / 60 < part.from, part.contains(startMinutes / 60) {
                // "tonight at midnight", "Friday night at 1am": the hours after midnight of an evening or a night
                // are the next day's.
                startDate = startDate.adding(days: 1)
            } else if time != nil, startMinutes < 4 * 60, case .holiday(let holiday)? = exact.first?.spec, holiday.partyOnTheDay {
                // "Silvesterparty um Mitternacht", "NYE party 1am": the small hours of a holiday whose party is
                // that evening are its night's, the next day's.
                startDate = startDate.adding(days: 1)
            }
            var startSeconds = eventZone.instant(startDate, hour: startMinutes / 60, minute: startMinutes % 60)
            if startSeconds < now {
                // A time already past today means the next one: tomorrow without a date, next week for a
                // bare weekday, the next matching day for a repeat without a date.
                if movable {
                    startDate = startDate.adding(days: dates.isEmpty ? 1 : 7)
                } else if hasFrequency, dates.isEmpty, let n = recurrence.byDayOrdinal, let weekday = recurrence.byDay.first {
                    startDate = Self.nthWeekday(n, weekday, from: startDate.adding(days: 1))
                } else if hasFrequency, dates.isEmpty, recurrence.byMonthDay == nil, recurrence.frequency != .yearly {
                    repeat {
                        startDate = startDate.adding(days: recurrence.frequency == .monthly ? 0 : 1)
                        if recurrence.frequency == .monthly { startDate = startDate.adding(months: 1) }
                    } while !recurrence.byDay.isEmpty && !recurrence.byDay.contains(startDate.weekday)
                    if recurrence.frequency == .weekly, recurrence.byDay.isEmpty { startDate = startDate.adding(days: 6) }
                }
                startSeconds = eventZone.instant(startDate, hour: startMinutes / 60, minute: startMinutes % 60)
                if let untilDate, untilDate < startDate {
                    throw error(
                        .invalidRange, "the repeat ends (\(untilDate)) before it starts (\(startDate))",
                        de: "die Wiederholung endet (\(untilDate)), bevor sie beginnt (\(startDate))")
                }
            }
            isPast = startSeconds < now
            var endSeconds: Int
            if let endMinutes {
                if let duration {
                    throw error(
                        .conflict, "an end time and a duration (\"\(duration.fragment)\"); give one",
                        de: "eine Endzeit und eine Dauer („\(duration.fragment)“); gib eines an")
                }
                guard endMinutes != startMinutes else {
                    throw error(.invalidRange, "\"\(fragment)\" ends when it starts", de: "„\(fragment)“ endet, wenn es beginnt")
                }
                let endDate = endMinutes < startMinutes ? startDate.adding(days: 1) : startDate
                endSeconds = eventZone.instant(endDate, hour: endMinutes / 60, minute: endMinutes % 60)
            } else if let duration {
                guard duration.seconds > 0, duration.seconds <= 366 * 86_400 else {
                    throw error(
                        .outOfRange, "\"\(duration.fragment)\" must be more than 0 and at most 366 days",
                        de: "„\(duration.fragment)“ muss länger als 0 und höchstens 366 Tage sein")
                }
                endSeconds = startSeconds + duration.seconds
            } else {
                endSeconds = startSeconds + 3600
            }
            // A wall-clock end inside a spring-forward gap can land before a start just after it; keep order.
            if endSeconds <= startSeconds { endSeconds = startSeconds + 3600 }
            start = .dateTime(seconds: startSeconds, rfc3339: eventZone.rfc3339(startSeconds))
            end = .dateTime(seconds: endSeconds, rfc3339: eventZone.rfc3339(endSeconds))
            if hasFrequency {
                if let repeatSpan { untilDate = startDate.adding(months: repeatSpan.months).adding(days: repeatSpan.days - 1) }
                let until = untilDate.map { QuickAddZone.basicUTC(eventZone.instant($0, hour: 23, minute: 59, second: 59)) }
                recurrenceLines = [rrule(until: until, first: startDate)]
            }
        } else {
            var endDate = (lastDay ?? startDate).adding(days: 1)
            if let duration {
                guard let days = duration.wholeDays else {
                    throw error(
                        .durationWithoutTime, "\"\(duration.fragment)\" needs a start time; add one such as 3pm or 15:00",
                        de: "„\(duration.fragment)“ braucht eine Anfangszeit, zum Beispiel 15 Uhr")
                }
                if lastDay != nil {
                    throw error(
                        .conflict, "a range of days and a duration (\"\(duration.fragment)\"); give one",
                        de: "ein Zeitraum über mehrere Tage und eine Dauer („\(duration.fragment)“); gib eines an")
                }
                guard days >= 1, days <= 366 else {
                    throw error(
                        .outOfRange, "\"\(duration.fragment)\" must be 1 to 366 days",
                        de: "„\(duration.fragment)“ muss 1 bis 366 Tage sein")
                }
                endDate = startDate.adding(days: days)
            }
            start = .date(startDate)
            end = .date(endDate)
            if hasFrequency {
                if let repeatSpan { untilDate = startDate.adding(months: repeatSpan.months).adding(days: repeatSpan.days - 1) }
                recurrenceLines = [rrule(until: untilDate?.basicFormat, first: startDate)]
            }
            isPast = startDate < userZone.date(at: now)
        }
        return QuickAddResult(
            title: "", start: start, end: end, isAllDay: time == nil && partOfDay == nil, location: location,
            timeZone: eventZone.identifier, recurrence: recurrenceLines, isPast: isPast)
    }
}
