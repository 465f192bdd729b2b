import CalendarBridge

/// Whether libical can expand a rule in bounded time, decided before it is asked to.
///
/// libical's iterator steps through every candidate time of the rule's frequency until one passes the
/// `BY` filters, inside one C call that cannot be interrupted: a rule no date satisfies
/// (`FREQ=DAILY;BYMONTH=4;BYMONTHDAY=31`) keeps it searching for minutes to hours, and a sub-daily rule whose
/// dates are months apart (`FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29`) steps through millions of seconds for
/// each occurrence. Both are refused. The check reads the rule's date filters as a superset of its dates
/// (ordinals, `BYWEEKNO` and `BYSETPOS` are left out, which only adds dates), so a rule with dates is never
/// refused as having none.
enum RuleFeasibility {
    /// The most candidate times libical may step through between two occurrences of a sub-daily rule.
    static let maxSteps = 2_000_000
    /// How far dates are looked for: 400 years is the Gregorian calendar's whole cycle.
    static let cycleDays = 146_097

    /// - Throws: `ICalendarError` naming the rule when no date passes its filters, or when a sub-daily rule's
    ///   dates are so far apart that libical would step through more than `maxSteps` times between them.
    static func check(_ line: String, from start: LocalDate) throws(ICalendarError) {
        guard let rule = RecurrenceRule(line) else { return }
        let yearDays = rule.otherParts.first { $0.name == "BYYEARDAY" }.map { $0.value.split(separator: ",").compactMap { Int($0) } } ?? []
        let weekdays = Set(rule.byDay.map(\.weekday))
        // Without date filters every day, or every week's day, is a date: nothing to search for.
        guard !rule.byMonth.isEmpty || !rule.byMonthDay.isEmpty || !yearDays.isEmpty else { return }
        let noDate = ICalendarError(
            "the rule '\(line.prefix(80))' gives no date at all (no day passes its BYMONTH, BYMONTHDAY and BYYEARDAY): fix or remove it")
        // Values no calendar has (BYMONTH=13, BYMONTHDAY=32, a 31st in months of 30 days) are known without the
        // search below, which would step through the whole 400-year cycle first.
        guard Self.mayHaveDates(rule, yearDays: yearDays) else { throw noDate }
        let stepsPerDay: Int
        switch rule.frequency {
        case .secondly: stepsPerDay = 86_400 / max(1, min(rule.interval, 86_400))
        case .minutely: stepsPerDay = 1_440 / max(1, min(rule.interval, 1_440))
        case .hourly: stepsPerDay = 24 / max(1, min(rule.interval, 24))
        default: stepsPerDay = 0
        }
        // A daily or longer rule needs one date; a sub-daily one no gap wider than its step budget, over the
        // leap-year cycle (what decides most gaps) or the whole cycle when its dates are rarer.
        let horizon = stepsPerDay == 0 ? cycleDays : 8 * 366
        var day = start
        var lastMatch = -1
        var widest = 0
        for offset in 0..<horizon {
            if matches(day, rule: rule, yearDays: yearDays, weekdays: weekdays) {
                widest = max(widest, offset - lastMatch)
                lastMatch = offset
                if stepsPerDay == 0 { return }
            }
            day = day.adding(days: 1)
        }
        if lastMatch < 0 { throw noDate }
        widest = max(widest, horizon - lastMatch)
        if widest * stepsPerDay > maxSteps {
            throw ICalendarError(
                "the rule '\(line.prefix(80))' repeats every \(rule.frequency.rawValue.lowercased()) step but its dates are up to \(widest) days apart, which libical would step through one by one: use a daily or longer FREQ"
            )
        }
    }

    /// False when the filters' values alone leave no date: every month outside 1...12, every month day
    /// beyond the longest of the months allowed (29 for February), or every year day outside 1...366.
    static func mayHaveDates(_ rule: RecurrenceRule, yearDays: [Int]) -> Bool {
        let months = rule.byMonth.isEmpty ? Array(1...12) : rule.byMonth.filter { (1...12).contains($0) }
        guard !months.isEmpty else { return false }
        if !rule.byMonthDay.isEmpty {
            let longest = months.map { LocalDate.daysIn(month: $0, year: 2000) }.max() ?? 31
            guard rule.byMonthDay.contains(where: { (1...longest).contains(abs($0)) }) else { return false }
        }
        if !yearDays.isEmpty, !yearDays.contains(where: { (1...366).contains(abs($0)) }) { return false }
        return true
    }

    static func matches(_ day: LocalDate, rule: RecurrenceRule, yearDays: [Int], weekdays: Set<RecurrenceRule.Weekday>) -> Bool {
        if !rule.byMonth.isEmpty, !rule.byMonth.contains(day.month) { return false }
        if !rule.byMonthDay.isEmpty {
            let length = LocalDate.daysIn(month: day.month, year: day.year)
            guard rule.byMonthDay.contains(where: { $0 == day.day || $0 == day.day - length - 1 }) else { return false }
        }
        if !yearDays.isEmpty {
            let first = LocalDate(year: day.year, month: 1, day: 1)!
            let number = first.days(to: day) + 1
            let length = first.days(to: LocalDate(year: day.year + 1, month: 1, day: 1)!)
            guard yearDays.contains(where: { $0 == number || $0 == number - length - 1 }) else { return false }
        }
        if !weekdays.isEmpty, let weekday = day.weekdayCode, !weekdays.contains(weekday) { return false }
        return true
    }
}

extension LocalDate {
    /// The weekday as a rule names it.
    fileprivate var weekdayCode: RecurrenceRule.Weekday? {
        // 1970-01-01 was a Thursday.
        let codes: [RecurrenceRule.Weekday] = [.thursday, .friday, .saturday, .sunday, .monday, .tuesday, .wednesday]
        let days = LocalDate(year: 1970, month: 1, day: 1)!.days(to: self)
        return codes[((days % 7) + 7) % 7]
    }

    /// The days of `month` in `year` (Gregorian).
    fileprivate static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
