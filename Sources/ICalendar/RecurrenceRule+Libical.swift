import CLibical
import CalendarBridge
import Foundation

extension RecurrenceRule {
    /// Reads an `RRULE` as libical does, so a rule calbridge accepts is one RFC 5545 tools accept too.
    /// - Throws: `ICalendarError` naming the rule when libical refuses it (an unknown part, a value out of
    ///   range, `COUNT` together with `UNTIL`).
    public init(validating line: String) throws(ICalendarError) {
        var text = Substring(line.trimmingCharacters(in: .whitespacesAndNewlines))
        if text.uppercased().hasPrefix("RRULE:") { text = text.dropFirst(6) }
        let value = String(text)
        let accepted = LibicalSession.run { () -> Bool in
            icalrecurrencetype_from_string(value).freq != ICAL_NO_RECURRENCE
        }
        guard accepted, let rule = RecurrenceRule(value) else {
            throw ICalendarError("not a valid RRULE: '\(value.prefix(80))' (RFC 5545 §3.3.10, e.g. FREQ=WEEKLY;BYDAY=MO)")
        }
        self = rule
    }
}
