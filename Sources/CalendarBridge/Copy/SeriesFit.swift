/// Whether a target can store a source series as a series, and in what form.
///
/// Mirrors what Graph's `patternedRecurrence` can express (one RRULE: daily; weekly on days; monthly
/// or yearly on a day number or on the first…fourth or last weekday; with interval, count, end date or
/// no end). `EXDATE` lines are not a reason to fall back: the excluded occurrences are deleted on the
/// target after the series is written, as cancelled occurrences are.
public enum SeriesFit {
    /// The recurrence to write on the target, or why the series must be copied as instances.
    public static func recurrence(
        for recurrence: Recurrence, on support: ProviderCapabilities.RecurrenceSupport
    ) -> Result<Recurrence, Refusal> {
        switch support {
        case .rfc5545:
            return recurrence.rules.isEmpty ? .failure(Refusal("no readable RRULE")) : .success(recurrence)
        case .patterned:
            let kept = recurrence.lines.filter { !isExceptionDate($0) }
            let trimmed = Recurrence(lines: kept)
            if let reason = patternedRefusal(trimmed) { return .failure(Refusal(reason)) }
            return .success(trimmed)
        }
    }

    /// Why a series falls back to instances.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
        public var description: String { reason }
    }

    static func isExceptionDate(_ line: String) -> Bool {
        let upper = line.uppercased()
        return upper.hasPrefix("EXDATE:") || upper.hasPrefix("EXDATE;")
    }

    /// Nil when `patternedRecurrence` can express the recurrence; otherwise the reason.
    static func patternedRefusal(_ recurrence: Recurrence) -> String? {
        if let other = recurrence.otherLines.first {
            let name = other.prefix(while: { $0 != ":" && $0 != ";" }).uppercased()
            return "the target cannot store \(name) lines"
        }
        let rules = recurrence.rules
        guard rules.count == 1, recurrence.lines.count == 1 else {
            return rules.isEmpty ? "no readable RRULE" : "the target stores only one RRULE"
        }
        let rule = rules[0]
        if !rule.otherParts.isEmpty {
            return "the target cannot store " + rule.otherParts.map(\.name).joined(separator: ",")
        }
        let plainDays = rule.byDay.allSatisfy { $0.ordinal == nil }
        func relativeRefusal() -> String? {
            let ordinal: Int
            if rule.byDay.count == 1, let n = rule.byDay[0].ordinal, rule.bySetPosition.isEmpty {
                ordinal = n
            } else if plainDays, rule.bySetPosition.count == 1, !rule.byDay.isEmpty {
                ordinal = rule.bySetPosition[0]
            } else {
                return "the target cannot store this BYDAY/BYSETPOS combination"
            }
            return [1, 2, 3, 4, -1].contains(ordinal) ? nil : "the target cannot store occurrence \(ordinal) of a period"
        }
        func dayNumberRefusal() -> String? {
            rule.byMonthDay.count <= 1 && (rule.byMonthDay.first ?? 1) > 0
                ? nil : "the target cannot store several or negative month days"
        }
        switch rule.frequency {
        case .daily:
            return rule.byDay.isEmpty && rule.byMonthDay.isEmpty && rule.byMonth.isEmpty && rule.bySetPosition.isEmpty
                ? nil : "the target cannot store a daily rule with BY parts"
        case .weekly:
            return plainDays && rule.byMonthDay.isEmpty && rule.byMonth.isEmpty && rule.bySetPosition.isEmpty
                ? nil : "the target cannot store this weekly rule"
        case .monthly, .yearly:
            if rule.frequency == .monthly && !rule.byMonth.isEmpty { return "the target cannot store BYMONTH in a monthly rule" }
            if rule.frequency == .yearly && rule.byMonth.count > 1 { return "the target cannot store several months" }
            if rule.byDay.isEmpty && rule.bySetPosition.isEmpty { return dayNumberRefusal() }
            if rule.byMonthDay.isEmpty { return relativeRefusal() }
            return "the target cannot store BYDAY with BYMONTHDAY"
        case .hourly, .minutely, .secondly:
            return "the target cannot store FREQ=\(rule.frequency.rawValue)"
        }
    }
}
