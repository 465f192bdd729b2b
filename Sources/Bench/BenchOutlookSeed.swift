import CLI
import CalendarBridge
import Foundation
import MicrosoftGraph
import Sandbox

/// Events put into the sandbox's Outlook through its seed document (`Fixtures/sandbox/microsoft.json`'s
/// format), not through Graph: the sandbox starts with them, as it starts with its built-in events.
///
/// At 10,000 events, seeding through Graph meets the sandbox's per-mailbox budget (10,000 requests in 10
/// minutes, as Outlook's) and waits out a 345 s `Retry-After`; the budget is the service's, so a benchmark
/// goes around the API instead of weakening it.
enum BenchOutlookSeed {
    /// The built-in seed with `events` added to the calendar named `calendar` of the first Outlook user.
    /// Series are written as Graph's `patternedRecurrence` (`GraphRecurrenceMapping`, as the provider writes
    /// them); other lines of a recurrence (EXDATE) are the caller's to drop first.
    static func seed(_ events: [Event], calendar: String) throws -> SandboxSeed {
        var seed = SandboxSeed.builtIn
        guard var root = try JSONSerialization.jsonObject(with: seed.microsoft) as? [String: Any],
            var users = root["users"] as? [[String: Any]], var user = users.first,
            var calendars = user["calendars"] as? [[String: Any]],
            let index = calendars.firstIndex(where: { $0["name"] as? String == calendar })
        else { throw InputError("the sandbox's Outlook seed has no calendar '\(calendar)' for its first user", exitCode: .failure) }
        var entries = calendars[index]["events"] as? [[String: Any]] ?? []
        entries.reserveCapacity(entries.count + events.count)
        for (number, event) in events.enumerated() { entries.append(try entry(event, key: "bench-\(number)")) }
        calendars[index]["events"] = entries
        user["calendars"] = calendars
        users[0] = user
        root["users"] = users
        seed.microsoft = try JSONSerialization.data(withJSONObject: root)
        return seed
    }

    /// One event of the seed document: wall-clock times in the event's zone (an all-day event's dates), and
    /// what `copy` carries (title, location, body, reminder, free/busy, sensitivity, the rule).
    static func entry(_ event: Event, key: String) throws -> [String: Any] {
        var entry: [String: Any] = [
            "key": key, "subject": event.title, "showAs": event.showAs.rawValue, "sensitivity": event.sensitivity.rawValue,
            "isReminderOn": !(event.reminders ?? []).isEmpty,
        ]
        if let location = event.location { entry["location"] = location }
        if let body = event.body { entry["body"] = ["contentType": body.isHTML ? "html" : "text", "content": body.content] }
        if let minutes = event.reminders?.map(\.minutesBefore).min() { entry["reminderMinutesBeforeStart"] = minutes }
        let zoneName: String
        let start: LocalDateTime
        switch (event.start, event.end) {
        case (.allDay(let first), .allDay(let end)):
            zoneName = "UTC"
            start = LocalDateTime(date: first)
            entry["isAllDay"] = true
            entry["start"] = first.description
            entry["end"] = end.description
        case (.timed(let instant, let zone), .timed(let endInstant, _)):
            guard let tz = TimeZone(identifier: zone) else { throw InputError("no time zone '\(zone)'", exitCode: .failure) }
            zoneName = zone
            start = LocalDateTime(instant: instant, in: tz)
            entry["start"] = seedTime(start)
            entry["end"] = seedTime(LocalDateTime(instant: endInstant, in: tz))
        default:
            throw InputError("'\(event.title)' mixes an all-day and a timed end", exitCode: .failure)
        }
        entry["timeZone"] = zoneName
        if let recurrence = event.recurrence {
            let zone = TimeZone(identifier: zoneName) ?? TimeZone(secondsFromGMT: 0)!
            do {
                entry["recurrence"] = try GraphRecurrenceMapping.json(
                    recurrence, start: start, allDay: event.isAllDay, zone: zone, windowsZone: zoneName)
            } catch {
                throw InputError("'\(event.title)': \(error)", exitCode: .failure)
            }
        }
        return entry
    }

    /// `2026-03-04T09:30`: an absolute seed time (the seed's relative `week+2d` form is for fixtures).
    private static func seedTime(_ local: LocalDateTime) -> String {
        local.date.description + String(format: "T%02d:%02d", local.hour, local.minute)
    }
}
