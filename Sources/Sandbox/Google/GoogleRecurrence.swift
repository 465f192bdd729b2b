import Foundation

/// RFC 5545 recurrence (the subset Google's `recurrence` field carries in practice): one RRULE with FREQ
/// DAILY/WEEKLY/MONTHLY/YEARLY, INTERVAL, COUNT, UNTIL, BYDAY (with ordinals in monthly/yearly rules),
/// BYMONTHDAY, BYMONTH and BYSETPOS; EXDATE and RDATE lines. Occurrences are generated on the wall clock of
/// the series' zone, so a weekly 09:00 Europe/Berlin meeting stays at 09:00 across daylight-saving changes.
struct GoogleRecurrence: Equatable {
    enum Frequency: String { case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY" }
    struct WeekdaySpec: Equatable {
        var ordinal: Int?
        var weekday: Int  // 0 = Monday
    }

    var frequency: Frequency
    var interval = 1
    var count: Int?
    /// UNTIL as an instant (date-time) or as a last civil day (date).
    var untilInstant: Date?
    var untilDay: Int?
    var byDay: [WeekdaySpec] = []
    var byMonthDay: [Int] = []
    var byMonth: [Int] = []
    var bySetPos: [Int] = []
    /// `WKST`, 0 = Monday (RFC 5545's default): the day weeks start on, which decides the weeks an
    /// every-n-weeks rule picks.
    var weekStart = 0
    /// Excluded starts: instants for timed series, civil days for all-day series.
    var exInstants: Set<Date> = []
    var exDays: Set<Int> = []
    var rInstants: [Date] = []
    var rDays: [Int] = []

    /// Safety bound: no series expands past this many occurrences in one request.
    static let hardCap = 5000

    enum ParseError: Error { case invalid(String) }

    private static let weekdays = ["MO": 0, "TU": 1, "WE": 2, "TH": 3, "FR": 4, "SA": 5, "SU": 6]

    /// Parses the `recurrence` lines; `zone` resolves floating EXDATE/RDATE values and TZID-less UNTILs.
    static func parse(_ lines: [String], zone: TimeZone) throws -> GoogleRecurrence {
        var rule: GoogleRecurrence?
        var exdates: [(String, String)] = []
        var rdates: [(String, String)] = []
        for raw in lines {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let colon = line.firstIndex(of: ":") else { throw ParseError.invalid(line) }
            // Names are case-insensitive, a TZID's value is not (RFC 5545 §3.2.19 names a zone exactly).
            let head = String(line[..<colon])
            let value = String(line[line.index(after: colon)...])
            let name = head.split(separator: ";").first.map { $0.uppercased() } ?? ""
            switch name {
            case "RRULE":
                guard rule == nil else { throw ParseError.invalid("more than one RRULE") }
                rule = try parseRule(value, zone: zone)
            case "EXDATE": exdates.append((String(head), value))
            case "RDATE": rdates.append((String(head), value))
            case "EXRULE": throw ParseError.invalid("EXRULE is not supported")
            default: throw ParseError.invalid(line)
            }
        }
        guard var result = rule else { throw ParseError.invalid("no RRULE") }
        for (head, value) in exdates {
            let (instants, days) = try parseDates(head: head, value: value, zone: zone)
            result.exInstants.formUnion(instants)
            result.exDays.formUnion(days)
        }
        for (head, value) in rdates {
            let (instants, days) = try parseDates(head: head, value: value, zone: zone)
            result.rInstants += instants
            result.rDays += days
        }
        return result
    }

    private static func parseDates(head: String, value: String, zone: TimeZone) throws -> ([Date], [Int]) {
        var lineZone = zone
        for parameter in head.split(separator: ";").dropFirst() where parameter.uppercased().hasPrefix("TZID=") {
            guard let named = TimeZone(identifier: String(parameter.dropFirst(5))) else { throw ParseError.invalid(head) }
            lineZone = named
        }
        var instants: [Date] = []
        var days: [Int] = []
        for item in value.split(separator: ",") {
            guard let parsed = GoogleTime.parseBasic(String(item)) else { throw ParseError.invalid(value) }
            if parsed.dateOnly {
                days.append(parsed.local.day)
            } else if parsed.utc {
                instants.append(Date(timeIntervalSince1970: TimeInterval(parsed.local.day * 86400 + parsed.local.seconds)))
            } else {
                instants.append(GoogleTime.instant(parsed.local, in: lineZone))
            }
        }
        return (instants, days)
    }

    private static func parseRule(_ text: String, zone: TimeZone) throws -> GoogleRecurrence {
        var parts: [String: String] = [:]
        for pair in text.split(separator: ";") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            guard kv.count == 2 else { throw ParseError.invalid(text) }
            parts[kv[0].uppercased()] = kv[1].uppercased()
        }
        guard let freqText = parts["FREQ"], let frequency = Frequency(rawValue: freqText) else {
            throw ParseError.invalid("FREQ")
        }
        var rule = GoogleRecurrence(frequency: frequency)
        if let value = parts["INTERVAL"] {
            guard let interval = Int(value), interval >= 1 else { throw ParseError.invalid("INTERVAL") }
            rule.interval = interval
        }
        if let value = parts["COUNT"] {
            guard let count = Int(value), count >= 1 else { throw ParseError.invalid("COUNT") }
            rule.count = count
        }
        if let value = parts["UNTIL"] {
            guard rule.count == nil, let parsed = GoogleTime.parseBasic(value) else { throw ParseError.invalid("UNTIL") }
            if parsed.dateOnly {
                rule.untilDay = parsed.local.day
            } else if parsed.utc {
                rule.untilInstant = Date(timeIntervalSince1970: TimeInterval(parsed.local.day * 86400 + parsed.local.seconds))
            } else {
                rule.untilInstant = GoogleTime.instant(parsed.local, in: zone)
            }
        }
        if let value = parts["BYDAY"] {
            for item in value.split(separator: ",") {
                let code = String(item.suffix(2))
                guard let weekday = weekdays[code] else { throw ParseError.invalid("BYDAY") }
                let prefix = item.dropLast(2)
                var ordinal: Int?
                if !prefix.isEmpty {
                    guard let number = Int(prefix.hasPrefix("+") ? prefix.dropFirst() : prefix), number != 0,
                          abs(number) <= 53 else { throw ParseError.invalid("BYDAY") }
                    ordinal = number
                }
                rule.byDay.append(WeekdaySpec(ordinal: ordinal, weekday: weekday))
            }
        }
        func numbers(_ key: String, _ range: ClosedRange<Int>) throws -> [Int] {
            guard let value = parts[key] else { return [] }
            return try value.split(separator: ",").map {
                guard let number = Int($0), range.contains(abs(number)), number != 0 else { throw ParseError.invalid(key) }
                return number
            }
        }
        if let value = parts["WKST"] {
            guard let day = weekdays[value] else { throw ParseError.invalid("WKST") }
            rule.weekStart = day
        }
        rule.byMonthDay = try numbers("BYMONTHDAY", 1...31)
        rule.byMonth = try numbers("BYMONTH", 1...12)
        rule.bySetPos = try numbers("BYSETPOS", 1...366)
        if rule.byMonth.contains(where: { $0 < 0 }) { throw ParseError.invalid("BYMONTH") }
        return rule
    }

    /// Occurrence starts (wall clock) of a series starting at `start`, in order, up to `limit` occurrences or
    /// until the wall clock passes `endDay` (exclusive; nil = no bound but the hard cap). EXDATEs are not
    /// applied here (see `starts`).
    private func ruleStarts(from start: GoogleTime.Local, endDay: Int?, limit: Int) -> [GoogleTime.Local] {
        var result: [GoogleTime.Local] = []
        let startCivil = GoogleTime.civil(start.day)
        var emitted = 0
        var period = 0
        // An empty rule (BYMONTHDAY=31 with BYMONTH=2) would loop forever: bound the periods walked too.
        let maxPeriods = 200_000
        while period < maxPeriods {
            var candidates: [Int] = []
            var periodFirstDay: Int
            switch frequency {
            case .daily:
                let day = start.day + period * interval
                periodFirstDay = day
                if matchesFilters(day: day, checkWeekday: true) { candidates = [day] }
            case .weekly:
                let weekStart = start.day - (GoogleTime.weekday(start.day) - self.weekStart + 7) % 7 + period * interval * 7
                periodFirstDay = weekStart
                let weekdays = byDay.isEmpty ? [GoogleTime.weekday(start.day)] : byDay.map(\.weekday)
                candidates = weekdays.map { weekStart + ($0 - self.weekStart + 7) % 7 }.filter { matchesMonth($0) }.sorted()
            case .monthly:
                let monthIndex = startCivil.month - 1 + period * interval
                let year = startCivil.year + GoogleTime.floorDiv(monthIndex, 12)
                let month = monthIndex - GoogleTime.floorDiv(monthIndex, 12) * 12 + 1
                periodFirstDay = GoogleTime.days(year: year, month: month, day: 1)
                if byMonth.isEmpty || byMonth.contains(month) {
                    candidates = daysInMonth(year: year, month: month, defaultDay: startCivil.day)
                }
            case .yearly:
                let year = startCivil.year + period * interval
                periodFirstDay = GoogleTime.days(year: year, month: 1, day: 1)
                if byMonth.isEmpty && byMonthDay.isEmpty && !byDay.isEmpty {
                    candidates = weekdayDays(from: periodFirstDay, to: GoogleTime.days(year: year + 1, month: 1, day: 1))
                } else {
                    let months = byMonth.isEmpty ? [startCivil.month] : byMonth.sorted()
                    for month in months {
                        candidates += daysInMonth(year: year, month: month, defaultDay: startCivil.day)
                    }
                }
            }
            if let endDay, periodFirstDay >= endDay { break }
            candidates = Array(Set(candidates)).sorted()
            if !bySetPos.isEmpty {
                candidates = bySetPos.compactMap { position in
                    let index = position > 0 ? position - 1 : candidates.count + position
                    return candidates.indices.contains(index) ? candidates[index] : nil
                }.sorted()
            }
            for day in candidates {
                let local = GoogleTime.Local(day: day, seconds: start.seconds)
                guard local >= start else { continue }
                if let untilDay, day > untilDay { return result }
                if let endDay, day >= endDay { return result }
                result.append(local)
                emitted += 1
                if let count, emitted >= count { return result }
                if result.count >= limit { return result }
            }
            period += 1
        }
        return result
    }

    private func matchesMonth(_ day: Int) -> Bool {
        byMonth.isEmpty || byMonth.contains(GoogleTime.civil(day).month)
    }

    private func matchesFilters(day: Int, checkWeekday: Bool) -> Bool {
        let c = GoogleTime.civil(day)
        if !byMonth.isEmpty && !byMonth.contains(c.month) { return false }
        if !byMonthDay.isEmpty {
            let length = GoogleTime.daysInMonth(year: c.year, month: c.month)
            if !byMonthDay.contains(where: { ($0 > 0 ? $0 : length + 1 + $0) == c.day }) { return false }
        }
        if checkWeekday && !byDay.isEmpty && !byDay.contains(where: { $0.weekday == GoogleTime.weekday(day) }) {
            return false
        }
        return true
    }

    /// The days of one month a MONTHLY (or per-month YEARLY) rule selects.
    private func daysInMonth(year: Int, month: Int, defaultDay: Int) -> [Int] {
        let first = GoogleTime.days(year: year, month: month, day: 1)
        let length = GoogleTime.daysInMonth(year: year, month: month)
        var monthDays: [Int]?
        if !byMonthDay.isEmpty {
            monthDays = byMonthDay.compactMap { value in
                let day = value > 0 ? value : length + 1 + value
                return (1...length).contains(day) ? first + day - 1 : nil
            }
        }
        var weekdayMatches: [Int]?
        if !byDay.isEmpty { weekdayMatches = weekdayDays(from: first, to: first + length) }
        switch (monthDays, weekdayMatches) {
        case let (days?, matches?): return days.filter { matches.contains($0) }
        case let (days?, nil): return days
        case let (nil, matches?): return matches
        case (nil, nil): return defaultDay <= length ? [first + defaultDay - 1] : []
        }
    }

    /// Days in [from, to) matching BYDAY, ordinals counted within that span.
    private func weekdayDays(from: Int, to: Int) -> [Int] {
        var result: [Int] = []
        for spec in byDay {
            var matching: [Int] = []
            let offset = (spec.weekday - GoogleTime.weekday(from) + 7) % 7
            var day = from + offset
            while day < to {
                matching.append(day)
                day += 7
            }
            if let ordinal = spec.ordinal {
                let index = ordinal > 0 ? ordinal - 1 : matching.count + ordinal
                if matching.indices.contains(index) { result.append(matching[index]) }
            } else {
                result += matching
            }
        }
        return result
    }

    /// Timed series: occurrence start instants (EXDATEs removed, RDATEs added), those starting before `before`
    /// (nil: up to the hard cap).
    func starts(timedFrom start: Date, zone: TimeZone, before: Date?) -> [Date] {
        let startLocal = GoogleTime.local(start, in: zone)
        // A day of slack on the bound covers any zone offset.
        let endDay = before.map { GoogleTime.floorDiv(Int($0.timeIntervalSince1970), 86400) + 2 }
        var instants = ruleStarts(from: startLocal, endDay: endDay, limit: GoogleRecurrence.hardCap)
            .map { GoogleTime.instant($0, in: zone) }
        if let untilInstant { instants = instants.filter { $0 <= untilInstant } }
        instants += rInstants.filter { $0 >= start }
        var seen = Set<Date>()
        instants = instants.filter { !exInstants.contains($0) && seen.insert($0).inserted }.sorted()
        if let before { instants = instants.filter { $0 < before } }
        return Array(instants.prefix(GoogleRecurrence.hardCap))
    }

    /// All-day series: occurrence start days, those before `beforeDay` (nil: up to the hard cap).
    func starts(allDayFrom startDay: Int, beforeDay: Int?) -> [Int] {
        var days = ruleStarts(from: GoogleTime.Local(day: startDay, seconds: 0), endDay: beforeDay, limit: GoogleRecurrence.hardCap)
            .map(\.day)
        if let untilInstant { days = days.filter { TimeInterval($0 * 86400) <= untilInstant.timeIntervalSince1970 } }
        days += rDays.filter { $0 >= startDay }
        var seen = Set<Int>()
        days = days.filter { !exDays.contains($0) && seen.insert($0).inserted }.sorted()
        if let beforeDay { days = days.filter { $0 < beforeDay } }
        return Array(days.prefix(GoogleRecurrence.hardCap))
    }
}
