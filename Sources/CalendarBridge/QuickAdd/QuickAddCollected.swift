/// What the grammar found in one line, and the rules that turn it into an event.
struct QuickAddCollected {
    let example: String
    var dates: [(spec: QuickAddDateSpec, fragment: String)] = []
    var time: (first: QuickAddTimePoint, second: QuickAddTimePoint?, prefixed: Bool, fragment: String)?
    var duration: (seconds: Int, wholeDays: Int?, fragment: String)?
    var zones: [(id: String?, fragment: String)] = []
    var location: String?
    var recurrence = QuickAddRecurrencePart()
    var recurrenceFragment: String?
    var hasFrequency = false
    var allDay: String?

    init(example: String) { self.example = example }

    private func error(_ code: QuickAddError.Code, _ message: String) -> QuickAddError {
        QuickAddError(code, message, example: example)
    }

    mutating func add(_ element: QuickAddElement, fragment: String) throws(QuickAddError) {
        switch element {
        case .date(let spec):
            dates.append((spec, fragment))
        case .time(let first, let second, let zone, let prefixed):
            if let time {
                throw error(.conflict, "two times, \"\(time.fragment)\" and \"\(fragment)\"; give one start time or a range")
            }
            time = (first, second, prefixed, fragment)
            if let zone { zones.append((zone, fragment)) }
        case .duration(let seconds, let wholeDays):
            if let duration {
                throw error(.conflict, "two durations, \"\(duration.fragment)\" and \"\(fragment)\"; give one")
            }
            duration = (seconds, wholeDays, fragment)
        case .zone(let id):
            zones.append((id, fragment))
        case .location(let place):
            if let location {
                throw error(.conflict, "two places, \"\(location)\" and \"\(place)\"; give one location")
            }
            location = place
        case .allDay:
            allDay = fragment
        case .recurrence(let part):
            if part.frequency != nil {
                if hasFrequency {
                    throw error(.conflict, "two repeat rules, \"\(recurrenceFragment ?? "")\" and \"\(fragment)\"; give one")
                }
                hasFrequency = true
                recurrence.frequency = part.frequency
                recurrence.interval = part.interval
                recurrence.byDay = part.byDay
                recurrence.byMonthDay = part.byMonthDay
                recurrenceFragment = fragment
                if let start = part.start { dates.append((start, fragment)) }
            }
            if let until = part.until {
                if recurrence.until != nil { throw error(.conflict, "two end dates for the repeat (\"\(fragment)\")") }
                recurrence.until = until
            }
            if let count = part.count {
                if recurrence.count != nil { throw error(.conflict, "two repeat counts (\"\(fragment)\")") }
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
            throw error(.invalidDate, "\"\(fragment)\" is not a date: there is no month \(month)")
        }
        let longest = month == 2 ? 29 : QuickAddDate.daysIn(month: month, year: 2001)
        guard day >= 1, day <= longest else {
            throw error(.invalidDate, "\"\(fragment)\" is not a date: \(Self.monthNames[month - 1]) has \(longest) days at most")
        }
        if let year {
            guard (1900...2999).contains(year) else {
                throw error(.outOfRange, "\"\(fragment)\" is outside the years 1900 to 2999")
            }
            guard QuickAddDate.isValid(year: year, month: month, day: day) else {
                throw error(.invalidDate, "\"\(fragment)\" is not a date: \(year) is not a leap year")
            }
            return QuickAddDate(year: year, month: month, day: day)
        }
        for year in base.year...(base.year + 8) where QuickAddDate.isValid(year: year, month: month, day: day) {
            let date = QuickAddDate(year: year, month: month, day: day)
            if date >= base { return date }
        }
        throw error(.invalidDate, "\"\(fragment)\" is not a date")
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
    static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let rruleDays = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// The first date on or after `base` whose day of month is `day` (months without it are skipped).
    private func dayOfMonth(_ day: Int, from base: QuickAddDate, fragment: String) throws(QuickAddError) -> QuickAddDate {
        guard (1...31).contains(day) else { throw error(.invalidDate, "\"\(fragment)\" is not a day of the month") }
        var month = QuickAddDate(year: base.year, month: base.month, day: 1)
        for _ in 0..<13 {
            if day <= QuickAddDate.daysIn(month: month.month, year: month.year) {
                let date = QuickAddDate(year: month.year, month: month.month, day: day)
                if date >= base { return date }
            }
            month = month.adding(months: 1)
        }
        throw error(.invalidDate, "\"\(fragment)\" is not a day of the month")
    }

    /// A date spec on or after `base` (relative specs count from `today`). Returns the first and last day.
    private func resolve(_ spec: QuickAddDateSpec, today: QuickAddDate, base: QuickAddDate, fragment: String)
        throws(QuickAddError) -> (QuickAddDate, QuickAddDate?)
    {
        switch spec {
        case .relative(let days):
            guard days <= 400_000 else { throw error(.outOfRange, "\"\(fragment)\" is too far away") }
            return (today.adding(days: days), nil)
        case .relativeMonths(let months):
            guard months <= 12_000 else { throw error(.outOfRange, "\"\(fragment)\" is too far away") }
            return (today.adding(months: months), nil)
        case .weekday(let weekday, let next):
            var delta = (weekday - base.weekday + 7) % 7
            if next && delta == 0 { delta = 7 }
            return (base.adding(days: delta), nil)
        case .absolute(let year, let month, let day):
            return (try absolute(year, month, day, from: base, fragment: fragment), nil)
        case .dayOfMonth(let day):
            return (try dayOfMonth(day, from: base, fragment: fragment), nil)
        case .range(let first, let second):
            // One month named for both days ("Dec 16-14", "16.-14. Dezember"): the days are in that month.
            if case .absolute(let y1, let m1, let d1) = first, case .absolute(let y2, let m2, let d2) = second,
                y1 == y2, m1 == m2, d2 < d1
            {
                throw error(.invalidRange, "\"\(fragment)\" ends before it starts")
            }
            let (start, _) = try resolve(first, today: today, base: base, fragment: fragment)
            let (end, _) = try resolve(second, today: today, base: start, fragment: fragment)
            guard end >= start else {
                throw error(.invalidRange, "\"\(fragment)\" ends before it starts")
            }
            return (start, end)
        }
    }

    /// Minutes after midnight of a single time, or of both ends of a range, by the am/pm rules.
    private func clock(_ first: QuickAddTimePoint, _ second: QuickAddTimePoint?, prefixed: Bool, fragment: String)
        throws(QuickAddError) -> (Int, Int?)
    {
        for point in [first] + (second.map { [$0] } ?? []) {
            if point.pm != nil {
                guard (1...12).contains(point.hour) else {
                    throw error(.invalidTime, "\"\(fragment)\" is not a time: with am/pm the hour is 1 to 12")
                }
            } else if !(0...23).contains(point.hour) {
                throw error(.invalidTime, "\"\(fragment)\" is not a time: the hour is 0 to 23")
            }
            guard (0...59).contains(point.minute) else {
                throw error(.invalidTime, "\"\(fragment)\" is not a time: minutes are 0 to 59")
            }
        }
        func minutes(_ point: QuickAddTimePoint, pm: Bool) -> Int { (point.hour % 12 + (pm ? 12 : 0)) * 60 + point.minute }
        func plain(_ point: QuickAddTimePoint) -> Int {
            if let pm = point.pm { return minutes(point, pm: pm) }
            return point.hour * 60 + point.minute
        }
        func isTwelveHour(_ point: QuickAddTimePoint) -> Bool { point.pm == nil && !point.explicit && (1...12).contains(point.hour) }
        let ambiguous = error(
            .ambiguousTime, "\"\(fragment)\" could be morning or evening; add am/pm or write it as 24-hour time like 15:00")
        guard let second else {
            if first.isBare && (1...12).contains(first.hour) { throw ambiguous }
            return (plain(first), nil)
        }
        switch (first.pm, second.pm) {
        case (nil, let pm?) where isTwelveHour(first):
            let end = minutes(second, pm: pm)
            let same = minutes(first, pm: pm)
            return (same < end ? same : minutes(first, pm: !pm), end)
        case (let pm?, nil) where isTwelveHour(second):
            let start = minutes(first, pm: pm)
            let options = [minutes(second, pm: false), minutes(second, pm: true)].sorted()
            return (start, options.first { $0 > start } ?? options[0])
        default:
            let allBare = first.isBare && second.isBare
            if allBare && (1...12).contains(first.hour) && (1...12).contains(second.hour) { throw ambiguous }
            return (plain(first), plain(second))
        }
    }

    func rrule(until: String?) -> String {
        var text = "RRULE:FREQ=\(recurrence.frequency!.rawValue)"
        if recurrence.interval > 1 { text += ";INTERVAL=\(recurrence.interval)" }
        if !recurrence.byDay.isEmpty {
            text += ";BYDAY=" + recurrence.byDay.sorted().map { Self.rruleDays[$0 - 1] }.joined(separator: ",")
        }
        if let day = recurrence.byMonthDay { text += ";BYMONTHDAY=\(day)" }
        if let count = recurrence.count { text += ";COUNT=\(count)" }
        if let until { text += ";UNTIL=\(until)" }
        return text
    }

    mutating func resolve(now: Int, userZone: QuickAddZone, text: String) throws(QuickAddError) -> QuickAddResult {
        guard !dates.isEmpty || time != nil || hasFrequency || allDay != nil else {
            if recurrence.until != nil || recurrence.count != nil {
                throw error(.untilWithoutRepeat, "\"\(text)\" has an end for a repeat but no repeat rule such as \"every Monday\"")
            }
            throw error(.nothingToSchedule, "found no date, time or repeat rule in \"\(text)\"")
        }
        if !hasFrequency && (recurrence.until != nil || recurrence.count != nil) {
            throw error(.untilWithoutRepeat, "\"until\" and \"N times\" need a repeat rule such as \"every Monday\"")
        }
        if recurrence.until != nil && recurrence.count != nil {
            throw error(.conflict, "a repeat can end on a date or after a number of times, not both")
        }
        guard recurrence.interval >= 1, recurrence.interval <= 999 else {
            throw error(.outOfRange, "the repeat interval in \"\(recurrenceFragment ?? text)\" must be 1 to 999")
        }
        if let count = recurrence.count, !(1...999).contains(count) {
            throw error(.outOfRange, "a repeat count must be 1 to 999, not \(count)")
        }

        // The event's zone.
        var eventZone = userZone
        var zoneFragment: String?
        for zone in zones {
            guard let id = zone.id else {
                throw error(.unknownTimeZone, "\"\(zone.fragment)\" is not a time zone the tz database knows")
            }
            if let zoneFragment, id != eventZone.identifier {
                throw error(.conflict, "two time zones, \"\(zoneFragment)\" and \"\(zone.fragment)\"; give one")
            }
            guard let resolved = QuickAddZone(identifier: id) else {
                throw error(.unknownTimeZone, "\"\(zone.fragment)\" is not a time zone the tz database knows")
            }
            eventZone = resolved
            zoneFragment = zone.fragment
        }

        // The date: at most one date; weekday names next to a date must agree with it.
        let today = userZone.date(at: now)
        let exact = dates.filter { if case .weekday(_, false) = $0.spec { false } else { true } }
        let weekdays = dates.filter { if case .weekday(_, false) = $0.spec { true } else { false } }
        if exact.count > 1 {
            throw error(.conflict, "two dates, \"\(exact[0].fragment)\" and \"\(exact[1].fragment)\"; give one")
        }
        var startDate = today
        var lastDay: QuickAddDate?
        if let date = exact.first ?? weekdays.first {
            (startDate, lastDay) = try resolve(date.spec, today: today, base: today, fragment: date.fragment)
            for weekday in weekdays {
                guard case .weekday(let w, _) = weekday.spec, w != startDate.weekday else { continue }
                if exact.isEmpty {
                    throw error(.conflict, "two dates, \"\(weekdays[0].fragment)\" and \"\(weekday.fragment)\"; give one")
                }
                throw error(
                    .conflict,
                    "\"\(exact[0].fragment)\" is a \(Self.weekdayNames[startDate.weekday - 1]), not a \(Self.weekdayNames[w - 1])")
            }
        }

        // A repeat starts on its first matching day; a range of days bounds it.
        var untilDate: QuickAddDate?
        if hasFrequency {
            if !recurrence.byDay.isEmpty {
                while !recurrence.byDay.contains(startDate.weekday) { startDate = startDate.adding(days: 1) }
            }
            if let day = recurrence.byMonthDay {
                startDate = try dayOfMonth(day, from: startDate, fragment: recurrenceFragment ?? text)
            }
            if let last = lastDay {
                if recurrence.until != nil || recurrence.count != nil {
                    throw error(.conflict, "a repeat with a range of days and its own end; give one end")
                }
                untilDate = last
                lastDay = nil
            }
            if let until = recurrence.until {
                (untilDate, _) = try resolve(until, today: today, base: startDate, fragment: "until")
            }
            if let untilDate, untilDate < startDate {
                throw error(.invalidRange, "the repeat ends (\(untilDate)) before it starts (\(startDate))")
            }
        }
        guard (1900...2999).contains(startDate.year), (1900...2999).contains((lastDay ?? startDate).year),
            (1900...2999).contains((untilDate ?? startDate).year)
        else {
            throw error(.outOfRange, "the date \(startDate) is outside the years 1900 to 2999")
        }

        var recurrenceLines: [String] = []
        let start: QuickAddResult.Time
        let end: QuickAddResult.Time
        if let time {
            if let allDay { throw error(.conflict, "\"\(allDay)\" and a time (\"\(time.fragment)\"); give one") }
            if lastDay != nil {
                throw error(.conflict, "a range of days cannot also have a time (\"\(time.fragment)\"); give one day")
            }
            let (startMinutes, endMinutes) = try clock(time.first, time.second, prefixed: time.prefixed, fragment: time.fragment)
            let startSeconds = eventZone.instant(startDate, hour: startMinutes / 60, minute: startMinutes % 60)
            var endSeconds: Int
            if let endMinutes {
                if let duration { throw error(.conflict, "an end time and a duration (\"\(duration.fragment)\"); give one") }
                guard endMinutes != startMinutes else {
                    throw error(.invalidRange, "\"\(time.fragment)\" ends when it starts")
                }
                let endDate = endMinutes < startMinutes ? startDate.adding(days: 1) : startDate
                endSeconds = eventZone.instant(endDate, hour: endMinutes / 60, minute: endMinutes % 60)
            } else if let duration {
                guard duration.seconds > 0, duration.seconds <= 366 * 86_400 else {
                    throw error(.outOfRange, "\"\(duration.fragment)\" must be more than 0 and at most 366 days")
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
                let until = untilDate.map { QuickAddZone.basicUTC(eventZone.instant($0, hour: 23, minute: 59, second: 59)) }
                recurrenceLines = [rrule(until: until)]
            }
        } else {
            var endDate = (lastDay ?? startDate).adding(days: 1)
            if let duration {
                guard let days = duration.wholeDays else {
                    throw error(
                        .durationWithoutTime, "\"\(duration.fragment)\" needs a start time; add one such as 3pm or 15:00")
                }
                if lastDay != nil { throw error(.conflict, "a range of days and a duration (\"\(duration.fragment)\"); give one") }
                guard days >= 1, days <= 366 else {
                    throw error(.outOfRange, "\"\(duration.fragment)\" must be 1 to 366 days")
                }
                endDate = startDate.adding(days: days)
            }
            start = .date(startDate)
            end = .date(endDate)
            if hasFrequency { recurrenceLines = [rrule(until: untilDate?.basicFormat)] }
        }
        return QuickAddResult(
            title: "", start: start, end: end, isAllDay: time == nil, location: location,
            timeZone: eventZone.identifier, recurrence: recurrenceLines)
    }
}
