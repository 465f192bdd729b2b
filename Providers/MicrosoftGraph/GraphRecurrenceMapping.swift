import CalendarBridge
import Foundation

/// Graph `patternedRecurrence` JSON ↔ `RecurrencePattern`; the rule it means is CalendarBridge's exact
/// mapping (`RecurrenceRule(exactly:…)`, `RecurrencePattern(exactly:…)`), so a pattern read here and the
/// rule written for Google have the same occurrences, and a rule Exchange would read differently is refused
/// (`.unsupported`) instead of written as if it were the same. Package access for the benchmarks, which write
/// the same JSON into the sandbox's seed documents.
package enum GraphRecurrenceMapping {
    static let weekdays: [(graph: String, rule: RecurrenceRule.Weekday)] = [
        ("sunday", .sunday), ("monday", .monday), ("tuesday", .tuesday), ("wednesday", .wednesday),
        ("thursday", .thursday), ("friday", .friday), ("saturday", .saturday),
    ]

    static func weekday(_ graph: String) -> RecurrenceRule.Weekday? {
        weekdays.first { $0.graph == graph.lowercased() }?.rule
    }

    static func graphName(_ day: RecurrenceRule.Weekday) -> String { weekdays.first { $0.rule == day }!.graph }

    // MARK: reading

    static func invalid(_ why: String) -> CalendarError {
        CalendarError(.invalidResponse, "Graph recurrence: \(why)", provider: .microsoft)
    }

    /// The pattern a Graph recurrence stores.
    static func pattern(_ r: GraphPatternedRecurrence) throws(CalendarError) -> RecurrencePattern {
        let p = r.pattern
        guard let kind = RecurrencePattern.Kind.allCases.first(where: { $0.rawValue.lowercased() == p.type.lowercased() }) else {
            throw invalid("unknown pattern type '\(p.type)'")
        }
        guard let startText = r.range.startDate, let start = LocalDate(startText) else { throw invalid("no valid range startDate") }
        var pattern = RecurrencePattern(
            kind: kind, interval: max(1, p.interval ?? 1), daysOfWeek: (p.daysOfWeek ?? []).compactMap(weekday),
            firstDayOfWeek: p.firstDayOfWeek.flatMap(weekday) ?? .sunday, startDate: start)
        switch kind {
        case .absoluteMonthly, .absoluteYearly:
            guard let day = p.dayOfMonth, (1...31).contains(day) else { throw invalid("dayOfMonth missing or out of range") }
            pattern.dayOfMonth = day
        case .relativeMonthly, .relativeYearly:
            guard !pattern.daysOfWeek.isEmpty else { throw invalid("daysOfWeek missing") }
            pattern.index = RecurrencePattern.Index(rawValue: (p.index ?? "first").lowercased()) ?? .first
        case .weekly:
            guard !pattern.daysOfWeek.isEmpty else { throw invalid("daysOfWeek missing") }
        case .daily:
            break
        }
        if kind == .absoluteYearly || kind == .relativeYearly {
            guard let month = p.month, (1...12).contains(month) else { throw invalid("month missing or out of range") }
            pattern.month = month
        }
        switch r.range.type {
        case "endDate":
            guard let text = r.range.endDate, let end = LocalDate(text) else { throw invalid("range has no valid endDate") }
            pattern.end = .date(end)
        case "numbered":
            guard let n = r.range.numberOfOccurrences, n > 0 else { throw invalid("numbered range without numberOfOccurrences") }
            pattern.end = .count(n)
        default:
            pattern.end = .never
        }
        return pattern
    }

    /// The rule for a Graph recurrence: the same occurrences as Exchange's. `allDay` picks the `UNTIL`
    /// form; `zone` is the series' zone (an end date means "through that day" in it).
    static func rule(_ r: GraphPatternedRecurrence, allDay: Bool, zone: TimeZone) throws(CalendarError) -> RecurrenceRule {
        RecurrenceRule(exactly: try pattern(r), allDay: allDay, zone: zone)
    }

    // MARK: writing

    /// The `patternedRecurrence` JSON for a recurrence starting at `start` (wall clock in `zone`).
    /// - Throws: `.unsupported` when Exchange has no pattern with exactly the rule's occurrences.
    package static func json(
        _ recurrence: Recurrence, start: LocalDateTime, allDay: Bool, zone: TimeZone, windowsZone: String
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
        let pattern: RecurrencePattern
        do {
            pattern = try RecurrencePattern(exactly: rules[0], start: start, allDay: allDay, zone: zone)
        } catch {
            throw unsupported(error.reason)
        }
        return json(pattern, windowsZone: windowsZone)
    }

    static func json(_ pattern: RecurrencePattern, windowsZone: String) -> [String: Any] {
        var json: [String: Any] = ["type": pattern.kind.rawValue, "interval": pattern.interval]
        if let month = pattern.month { json["month"] = month }
        if let day = pattern.dayOfMonth { json["dayOfMonth"] = day }
        if !pattern.daysOfWeek.isEmpty { json["daysOfWeek"] = pattern.daysOfWeek.map(graphName) }
        if let index = pattern.index { json["index"] = index.rawValue }
        if pattern.kind == .weekly { json["firstDayOfWeek"] = graphName(pattern.firstDayOfWeek) }
        var range: [String: Any] = ["startDate": pattern.startDate.description, "recurrenceTimeZone": windowsZone]
        switch pattern.end {
        case .count(let n):
            range["type"] = "numbered"
            range["numberOfOccurrences"] = n
        case .date(let date):
            range["type"] = "endDate"
            range["endDate"] = date.description
        case .never:
            range["type"] = "noEnd"
        }
        return ["pattern": json, "range": range]
    }
}
