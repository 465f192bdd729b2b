import CalendarBridge
import Foundation

/// `--repeat RULE` of `edit` (and `add`): quick add's repeat words ("every weekday", "every 2 weeks on
/// Tuesday until 2027-06-30") or a plain RFC 5545 rule (`FREQ=WEEKLY;BYDAY=MO` or `RRULE:FREQ=...`).
enum RepeatOption {
    static let option = Option<String>(
        "repeat", "RULE", "Repeat: quick-add words (\"every weekday\", \"every 2 weeks on Tuesday\") or an RRULE (FREQ=WEEKLY;BYDAY=MO).")

    /// The rule for a series starting at `start`, checked against what the calendar can store.
    static func recurrence(
        _ text: String, start: EventTime, fallbackZone: String, support: ProviderCapabilities.RecurrenceSupport, command: String
    ) throws -> Recurrence {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let upper = trimmed.uppercased()
        let rule: Recurrence
        if upper.hasPrefix("RRULE:") || upper.hasPrefix("FREQ=") {
            let line = upper.hasPrefix("RRULE:") ? "RRULE:" + trimmed.dropFirst(6) : "RRULE:" + trimmed
            guard let parsed = RecurrenceRule(line) else {
                throw UsageError("--repeat: '\(text)' is not an RRULE (write e.g. FREQ=WEEKLY;BYDAY=MO,WE)", command: command)
            }
            rule = Recurrence(rule: parsed)
        } else {
            rule = try words(trimmed, start: start, fallbackZone: fallbackZone, command: command)
        }
        switch SeriesFit.recurrence(for: rule, start: start, on: support) {
        case .success(let fitted): return fitted
        case .failure(let refusal):
            throw UsageError("--repeat \(text): this calendar cannot store the rule (\(refusal.reason))", command: command)
        }
    }

    /// Quick add's reading of "EVENT RULE", from the event's start: only its rule is kept.
    private static func words(_ text: String, start: EventTime, fallbackZone: String, command: String) throws -> Recurrence {
        let zoneName = start.zone ?? fallbackZone
        let refusal = UsageError(
            "--repeat: '\(text)' is not a repeat rule; write e.g. \"every weekday\", \"every 2 weeks on Tuesday\" or an RRULE",
            command: command)
        guard !text.isEmpty, let zone = QuickAddZone(identifier: zoneName) else { throw refusal }
        let result: QuickAddResult
        do {
            result = try QuickAddParser().parse(
                "event " + text, now: start.instant(allDayZone: TimeZone(identifier: zoneName) ?? TimeZone(secondsFromGMT: 0)!), zone: zone)
        } catch {
            throw refusal
        }
        guard !result.recurrence.isEmpty else { throw refusal }
        return Recurrence(lines: result.recurrence)
    }
}
