/// How an event series repeats, as RFC 5545 lines (the form Google stores: `RRULE:FREQ=WEEKLY;BYDAY=MO`,
/// `EXDATE;TZID=Europe/Berlin:20260105T090000`, `RDATE...`).
///
/// Providers that store recurrence differently (Graph's `patternedRecurrence`) convert to and from an
/// `RRULE` line; `rules` gives the parsed form.
public struct Recurrence: Sendable, Hashable, Codable {
    public var lines: [String]

    public init(lines: [String]) { self.lines = lines }

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
}
