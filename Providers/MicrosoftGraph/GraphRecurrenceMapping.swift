import CalendarBridge
import Foundation

/// Graph `patternedRecurrence` ↔ an RFC 5545 `RRULE`.
///
/// Graph can express one rule of these shapes: daily; weekly on days; monthly on a day number or on the
/// n-th (or last) weekday; yearly likewise; each with an interval, and ending on a date, after a count,
/// or never. Anything else throws `.unsupported`, so a caller can fall back to copying instances.
enum GraphRecurrenceMapping {
    static let weekdays: [(graph: String, rule: RecurrenceRule.Weekday)] = [
        ("sunday", .sunday), ("monday", .monday), ("tuesday", .tuesday), ("wednesday", .wednesday),
        ("thursday", .thursday), ("friday", .friday), ("saturday", .saturday),
    ]
    static let indexes: [(graph: String, ordinal: Int)] = [
        ("first", 1), ("second", 2), ("third", 3), ("fourth", 4), ("last", -1),
    ]

    static func weekday(_ graph: String) -> RecurrenceRule.Weekday? {
        weekdays.first { $0.graph == graph.lowercased() }?.rule
    }

    static func graphName(_ day: RecurrenceRule.Weekday) -> String { weekdays.first { $0.rule == day }!.graph }

    // MARK: reading

    /// The rule for a Graph recurrence. `allDay` picks the `UNTIL` form; `zone` is the series' zone
    /// (an end date means "through that day" in it).
    static func rule(_ r: GraphPatternedRecurrence, allDay: Bool, zone: TimeZone) throws(CalendarError) -> RecurrenceRule {
        let p = r.pattern
        var rule = RecurrenceRule(frequency: .daily, interval: max(1, p.interval ?? 1))
        let days = (p.daysOfWeek ?? []).compactMap(weekday)
        let ordinal = p.index.flatMap { i in indexes.first { $0.graph == i.lowercased() }?.ordinal } ?? 1
        func ordinalDays() -> [RecurrenceRule.WeekdayNumber] {
            // One day: BYDAY=2MO. Several (e.g. "first weekday"): BYDAY=MO,...,FR;BYSETPOS=1.
            if days.count == 1 { return [.init(days[0], ordinal: ordinal)] }
            rule.bySetPosition = [ordinal]
            return days.map { .init($0) }
        }
        switch p.type {
        case "daily":
            rule.frequency = .daily
        case "weekly":
            rule.frequency = .weekly
            rule.byDay = days.map { .init($0) }
            // The week start only changes which days an every-n-weeks rule picks, but it is part of the
            // series as Exchange stores it: written back different (Monday, when none is read), it is a new
            // pattern, and a new pattern drops the series' exceptions and cancellations. So a week start
            // other than the RFC 5545 default (Monday) is kept, as WKST.
            let weekStart = p.firstDayOfWeek.flatMap(weekday)
            if rule.interval > 1 || weekStart != .monday { rule.weekStart = weekStart }
        case "absoluteMonthly":
            rule.frequency = .monthly
            rule.byMonthDay = p.dayOfMonth.map { [$0] } ?? []
        case "relativeMonthly":
            rule.frequency = .monthly
            rule.byDay = ordinalDays()
        case "absoluteYearly":
            rule.frequency = .yearly
            rule.byMonth = p.month.map { [$0] } ?? []
            rule.byMonthDay = p.dayOfMonth.map { [$0] } ?? []
        case "relativeYearly":
            rule.frequency = .yearly
            rule.byMonth = p.month.map { [$0] } ?? []
            rule.byDay = ordinalDays()
        default:
            throw CalendarError(.invalidResponse, "unknown Graph recurrence pattern '\(p.type)'", provider: .microsoft)
        }
        switch r.range.type {
        case "endDate":
            guard let text = r.range.endDate, let end = LocalDate(text) else {
                throw CalendarError(.invalidResponse, "Graph recurrence range has no valid endDate", provider: .microsoft)
            }
            // Inclusive end date → UNTIL at the last second of that day in the series' zone.
            rule.until = allDay
                ? .date(end) : .instant(end.adding(days: 1).startInstant(in: zone).addingTimeInterval(-1))
        case "numbered":
            rule.count = r.range.numberOfOccurrences
        default:
            break
        }
        return rule
    }

    // MARK: writing

    /// The `patternedRecurrence` JSON for a recurrence starting at `start` (local date in `zone`).
    /// - Throws: `.unsupported` when Graph cannot express the rule.
    static func json(
        _ recurrence: Recurrence, start: LocalDate, zone: TimeZone, windowsZone: String
    ) throws(CalendarError) -> [String: Any] {
        func unsupported(_ why: String) -> CalendarError {
            CalendarError(.unsupported, "Outlook cannot store this recurrence: \(why)", provider: .microsoft)
        }
        if let other = recurrence.otherLines.first {
            throw unsupported("'\(other.prefix(40))' (exception or extra dates)")
        }
        let rules = recurrence.rules
        guard rules.count == 1, recurrence.lines.count == 1 else {
            throw unsupported(rules.isEmpty ? "no readable RRULE" : "more than one rule")
        }
        let rule = rules[0]
        guard rule.otherParts.isEmpty else { throw unsupported("\(rule.otherParts.map(\.name).joined(separator: ","))") }
        var pattern: [String: Any] = ["interval": rule.interval]
        let startWeekday = weekdayOf(start)
        let plainDays = rule.byDay.allSatisfy { $0.ordinal == nil }

        func relative() throws(CalendarError) {
            // BYDAY=2MO, or BYDAY=MO,TU;BYSETPOS=2.
            let ordinal: Int
            if rule.byDay.count == 1, let n = rule.byDay[0].ordinal, rule.bySetPosition.isEmpty {
                ordinal = n
            } else if plainDays, rule.bySetPosition.count == 1 {
                ordinal = rule.bySetPosition[0]
            } else {
                throw unsupported("BYDAY/BYSETPOS combination")
            }
            guard let index = indexes.first(where: { $0.ordinal == ordinal })?.graph else {
                throw unsupported("occurrence \(ordinal) within the period")
            }
            pattern["index"] = index
            pattern["daysOfWeek"] = rule.byDay.map { graphName($0.weekday) }
        }

        /// Monthly and yearly alike: a day of the month (`absolute…`) or the n-th weekday (`relative…`).
        func dayOrWeekday(period: String) throws(CalendarError) {
            if rule.byDay.isEmpty && rule.bySetPosition.isEmpty {
                guard rule.byMonthDay.count <= 1, (rule.byMonthDay.first ?? 1) > 0 else {
                    throw unsupported("several or negative month days")
                }
                pattern["type"] = "absolute" + period
                pattern["dayOfMonth"] = rule.byMonthDay.first ?? start.day
            } else if rule.byMonthDay.isEmpty {
                pattern["type"] = "relative" + period
                try relative()
            } else {
                throw unsupported("BYDAY with BYMONTHDAY")
            }
        }

        switch rule.frequency {
        case .daily where rule.byDay.isEmpty && rule.byMonthDay.isEmpty && rule.byMonth.isEmpty && rule.bySetPosition.isEmpty:
            pattern["type"] = "daily"
        case .weekly where plainDays && rule.byMonthDay.isEmpty && rule.byMonth.isEmpty && rule.bySetPosition.isEmpty:
            pattern["type"] = "weekly"
            pattern["daysOfWeek"] = (rule.byDay.isEmpty ? [startWeekday] : rule.byDay.map(\.weekday)).map(graphName)
            pattern["firstDayOfWeek"] = graphName(rule.weekStart ?? .monday)
        case .monthly where rule.byMonth.isEmpty:
            try dayOrWeekday(period: "Monthly")
        case .yearly where rule.byMonth.count <= 1:
            pattern["month"] = rule.byMonth.first ?? start.month
            try dayOrWeekday(period: "Yearly")
        default:
            throw unsupported("FREQ=\(rule.frequency.rawValue) with these parts")
        }

        var range: [String: Any] = ["startDate": start.description, "recurrenceTimeZone": windowsZone]
        if let count = rule.count {
            range["type"] = "numbered"
            range["numberOfOccurrences"] = count
        } else if let until = rule.until {
            range["type"] = "endDate"
            switch until {
            case .date(let date): range["endDate"] = date.description
            case .instant(let instant): range["endDate"] = LocalDate(instant: instant, in: zone).description
            }
        } else {
            range["type"] = "noEnd"
        }
        return ["pattern": pattern, "range": range]
    }

    static func weekdayOf(_ date: LocalDate) -> RecurrenceRule.Weekday {
        // 3 January 2000 was a Monday.
        let order: [RecurrenceRule.Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]
        let days = LocalDate(year: 2000, month: 1, day: 3)!.days(to: date)
        return order[((days % 7) + 7) % 7]
    }
}
