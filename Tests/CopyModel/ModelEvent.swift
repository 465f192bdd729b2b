import CalendarBridge
import Foundation

/// How a generated series repeats: the subset of RFC 5545 both targets can store as a series.
package struct ModelRule: Sendable, Hashable, CustomStringConvertible {
    package enum Pattern: Sendable, Hashable {
        case daily
        /// Weekdays 0 = Monday ... 6 = Sunday.
        case weekly(days: [Int])
        case monthlyDay(Int)
        /// Ordinal 1...4 or -1 (last); weekday 0 = Monday.
        case monthlyNth(ordinal: Int, weekday: Int)
        case yearly(month: Int, day: Int, explicit: Bool)
    }

    package enum End: Sendable, Hashable {
        case count(Int)
        /// The last date an occurrence may fall on (in the series' zone).
        case until(LocalDate)
        case never
    }

    package var pattern: Pattern
    package var interval: Int
    package var end: End

    package var description: String { rruleBody(allDay: true, zone: "UTC") }

    /// The `RRULE` text after `RRULE:`. A timed series' `UNTIL` is the last second of the until date in the
    /// series' zone, in UTC, so Google (an instant) and Graph (an end date) stop on the same day: the second
    /// before the next day's midnight, as a day of a DST change is 23 or 25 hours long (86,399 seconds after
    /// midnight of New Zealand's 2027-09-26 was 00:59:59 the next day, and Graph's end date followed it;
    /// seed 80190).
    package func rruleBody(allDay: Bool, zone: String) -> String {
        var parts: [String]
        switch pattern {
        case .daily: parts = ["FREQ=DAILY"]
        case .weekly(let days): parts = ["FREQ=WEEKLY", "BYDAY=" + days.map { ModelZones.weekdayCodes[$0] }.joined(separator: ",")]
        case .monthlyDay(let day): parts = ["FREQ=MONTHLY", "BYMONTHDAY=\(day)"]
        case .monthlyNth(let ordinal, let weekday): parts = ["FREQ=MONTHLY", "BYDAY=\(ordinal)\(ModelZones.weekdayCodes[weekday])"]
        case .yearly(let month, let day, let explicit):
            parts = explicit ? ["FREQ=YEARLY", "BYMONTH=\(month)", "BYMONTHDAY=\(day)"] : ["FREQ=YEARLY"]
        }
        if interval > 1 { parts.append("INTERVAL=\(interval)") }
        switch end {
        case .count(let n): parts.append("COUNT=\(n)")
        case .until(let date):
            if allDay {
                parts.append("UNTIL=" + date.description.replacingOccurrences(of: "-", with: ""))
            } else {
                let last = ModelZones.instant(date.adding(days: 1), minute: 0, in: zone).addingTimeInterval(-1)
                let utc = LocalDateTime(instant: last, in: TimeZone(secondsFromGMT: 0)!)
                parts.append("UNTIL=" + utc.format(fractionDigits: 0).replacingOccurrences(of: "-", with: "")
                    .replacingOccurrences(of: ":", with: "") + "Z")
            }
        case .never: break
        }
        return parts.joined(separator: ";")
    }
}

/// A change made to one occurrence of a source series.
package enum ModelException: Sendable, Hashable {
    case cancelled
    case moved(start: EventTime, end: EventTime)
}

/// One source event as the model knows it: what the user made, independent of any provider.
package struct ModelEvent: Sendable, Hashable {
    package var title: String
    package var allDay: Bool
    /// The (first) start date, local to `zone` for timed events.
    package var date: LocalDate
    /// Start minute after midnight (timed events).
    package var minute: Int
    package var zone: String
    /// Minutes (timed) or days (all-day).
    package var duration: Int
    package var rule: ModelRule?
    /// By occurrence key (`ModelOccurrence.key`).
    package var exceptions: [String: ModelException] = [:]
    package var deleted = false

    package var start: EventTime {
        allDay ? .allDay(date: date) : .timed(instant: ModelZones.instant(date, minute: minute, in: zone), zone: zone)
    }

    package var end: EventTime {
        switch start {
        case .allDay(let d): return .allDay(date: d.adding(days: duration))
        case .timed(let instant, let zone): return .timed(instant: instant.addingTimeInterval(Double(duration * 60)), zone: zone)
        }
    }

    package var recurrenceLines: [String]? {
        rule.map { ["RRULE:" + $0.rruleBody(allDay: allDay, zone: zone)] }
    }

    /// The event to create on the source provider.
    package var event: Event {
        Event(title: title, start: start, end: end, recurrence: recurrenceLines.map(Recurrence.init(lines:)))
    }

    package var summary: String {
        let when = allDay ? "\(date) all-day \(duration)d (\(zone))" : "\(date) \(minute / 60):\(minute % 60 < 10 ? "0" : "")\(minute % 60) \(zone) \(duration)min"
        return "\"\(title)\" \(when)" + (rule.map { " RRULE:\($0.rruleBody(allDay: allDay, zone: zone))" } ?? "")
    }
}

/// One occurrence of a source event (a single event is its own one occurrence).
package struct ModelOccurrence: Sendable, Hashable {
    /// `single:<event>` or `occ:<event>@<original start key>`.
    package var key: String
    package var event: Int
    package var start: EventTime
    package var end: EventTime
    /// The unmoved start (equal to `start` for singles and unmoved occurrences).
    package var original: EventTime
    package var originalEnd: EventTime
    package var cancelled: Bool
    package var isSeries: Bool
}

/// Keys for times: an instant in milliseconds, or a date (the shape the engine's occurrence keys have).
package enum ModelKey {
    package static func time(_ time: EventTime) -> String {
        switch time {
        case .allDay(let date): return "date:\(date)"
        case .timed(let instant, _): return "at:\(Int64((instant.timeIntervalSince1970 * 1000).rounded()))"
        }
    }

    package static func single(_ event: Int) -> String { "single:\(event)" }
    package static func occurrence(_ event: Int, _ original: EventTime) -> String { "occ:\(event)@\(time(original))" }

    /// A time as text for comparisons and messages: the wall clock with zone, or the date.
    package static func text(_ time: EventTime) -> String {
        switch time {
        case .allDay(let date): return date.description
        case .timed(let instant, let zone):
            return LocalDateTime(instant: instant, in: ModelZones.zone(zone)).format(fractionDigits: 0) + " " + zone
        }
    }
}
