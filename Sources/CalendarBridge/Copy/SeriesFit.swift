import Foundation

/// Whether a target can store a source series as a series, and in what form.
///
/// A series goes to a `patternedRecurrence` target (Exchange) only when the exact mapping
/// (`RecurrencePattern(exactly:…)`) finds a pattern with the same occurrences: one RRULE that Exchange can
/// express and reads as RFC 5545 does (docs/recurrence.md lists where they differ). Anything else is
/// copied as its occurrences, so both sides show the same ones. `EXDATE` lines are not a reason to fall
/// back: the excluded occurrences are deleted on the target after the series is written, as cancelled
/// occurrences are.
public enum SeriesFit {
    /// The recurrence to write on the target for a series starting at `start`, or why the series must be
    /// copied as instances.
    public static func recurrence(
        for recurrence: Recurrence, start: EventTime, on support: ProviderCapabilities.RecurrenceSupport
    ) -> Result<Recurrence, Refusal> {
        switch support {
        case .rfc5545:
            if recurrence.rules.isEmpty {
                let datesOnly = recurrence.lines.contains { $0.uppercased().hasPrefix("RDATE") }
                return .failure(Refusal(datesOnly ? "a series of dates without a rule (RDATE, no RRULE)" : "no readable RRULE"))
            }
            // An RDATE of a period gives one occurrence its own length; a service's series gives every
            // occurrence the series' length (Google stores such lines without reading their ends).
            if recurrence.lines.contains(where: isPeriodDate) {
                return .failure(Refusal("an RDATE with its own duration (VALUE=PERIOD)"))
            }
            return .success(recurrence)
        case .patterned:
            let trimmed = Recurrence(lines: recurrence.withoutExceptionDates.lines)
            if let reason = patternedRefusal(trimmed, start: start) { return .failure(Refusal(reason)) }
            return .success(trimmed)
        }
    }

    /// Why a series falls back to instances.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
        public var description: String { reason }
    }

    /// Whether `line` is an `RDATE` of periods (`RDATE;VALUE=PERIOD:20260105T090000Z/PT2H`).
    static func isPeriodDate(_ line: String) -> Bool {
        let upper = line.uppercased()
        guard upper.hasPrefix("RDATE;"), let colon = upper.firstIndex(of: ":") else { return false }
        return upper[..<colon].contains("VALUE=PERIOD")
    }

    /// Nil when Exchange has a pattern with exactly the recurrence's occurrences; otherwise the reason.
    static func patternedRefusal(_ recurrence: Recurrence, start: EventTime) -> String? {
        if let other = recurrence.otherLines.first {
            let name = other.prefix(while: { $0 != ":" && $0 != ";" }).uppercased()
            return "the target cannot store \(name) lines"
        }
        let rules = recurrence.rules
        guard rules.count == 1, recurrence.lines.count == 1 else {
            return rules.isEmpty ? "no readable RRULE" : "the target stores only one RRULE"
        }
        let local: LocalDateTime
        let zone: TimeZone
        switch start {
        case .allDay(let date):
            local = LocalDateTime(date: date)
            zone = TimeZone(secondsFromGMT: 0)!
        case .timed(let instant, let name):
            zone = TimeZone(identifier: name) ?? TimeZone(secondsFromGMT: 0)!
            local = LocalDateTime(instant: instant, in: zone)
        }
        do {
            _ = try RecurrencePattern(exactly: rules[0], start: local, allDay: start.isAllDay, zone: zone)
            return nil
        } catch {
            return "the target reads this rule differently: " + error.reason
        }
    }
}
