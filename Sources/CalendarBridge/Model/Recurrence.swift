/// How an event series repeats, as RFC 5545 lines (the form Google stores: `RRULE:FREQ=WEEKLY;BYDAY=MO`,
/// `EXDATE;TZID=Europe/Berlin:20260105T090000`, `RDATE...`).
///
/// Providers that store recurrence differently (Graph's `patternedRecurrence`) convert to and from an
/// `RRULE` line; `rules` gives the parsed form.
public struct Recurrence: Sendable, Hashable, Codable {
    public var lines: [String]
    /// For an all-day series: the IANA zone whose midnights its dates are, when the provider keeps one
    /// (Graph's `recurrenceTimeZone`; Outlook writes the mailbox's zone). Writing it back keeps the series
    /// where it is: Outlook resets a series whose start moves, dropping its exceptions and deletions.
    /// Nil: the provider's default (UTC on Graph). Timed series repeat in their start's zone.
    public var allDayZone: String?

    public init(lines: [String]) { self.lines = lines }

    public init(lines: [String], allDayZone: String?) {
        self.lines = lines
        self.allDayZone = allDayZone
    }

    /// A recurrence made of one rule.
    public init(rule: RecurrenceRule) { lines = [rule.line] }

    /// The parsed `RRULE` lines (lines that do not parse are left out; `lines` keeps them).
    public var rules: [RecurrenceRule] {
        lines.compactMap { line in
            guard line.uppercased().hasPrefix("RRULE:") else { return nil }
            return RecurrenceRule(line)
        }
    }

    /// Every line that is not an `RRULE` (exception and extra dates).
    public var otherLines: [String] { lines.filter { !$0.uppercased().hasPrefix("RRULE:") } }

    /// Whether the series cancels occurrences with `EXDATE` lines.
    public var hasExceptionDates: Bool { lines.contains(where: Self.isExceptionDate) }

    /// The series without its `EXDATE` lines: the rule and its extra dates, the cancelled occurrences back.
    public var withoutExceptionDates: Recurrence {
        var rule = self
        rule.lines = lines.filter { !Self.isExceptionDate($0) }
        return rule
    }

    /// Whether `line` is an `EXDATE` line (`EXDATE:…` or `EXDATE;TZID=…:…`).
    public static func isExceptionDate(_ line: String) -> Bool {
        let upper = line.uppercased()
        return upper.hasPrefix("EXDATE:") || upper.hasPrefix("EXDATE;")
    }
}
