import CalendarBridge
import Foundation

/// Everything `calbridge show` says about one event: as `field: value` lines and as a JSON object.
struct EventDetails: Sendable {
    let event: Event
    /// The series master of an occurrence, when it could be read (its rule is the occurrence's).
    let series: Event?
    /// The calendar as `calbridge calendars` names it.
    let calendar: String
    /// The `--tz` zone (else `$TZ`, else the system zone).
    let displayZone: TimeZone

    /// The event's own zone: the zone its start names, else the display zone.
    var ownZone: TimeZone { event.start.zone.flatMap(TimeZone.init(identifier:)) ?? displayZone }

    /// A time in `zone` (RFC 3339), or the date of an all-day value.
    static func text(_ time: EventTime, in zone: TimeZone) -> String {
        switch time {
        case .timed(let instant, _): RFC3339.format(instant, in: zone)
        case .allDay(let date): date.description
        }
    }

    /// The rule that makes the event repeat: its own (a master), or its series' (an occurrence).
    var recurrence: Recurrence? { event.recurrence ?? series?.recurrence }

    /// The rule in words, as quick add describes it ("every weekday at 09:30"), from the series' first start.
    var repeatWords: String? {
        guard let recurrence else { return nil }
        let first = series?.start ?? event.start
        let zoneName = first.zone ?? ZoneOptions.name(of: ownZone)
        let start: QuickAddResult.Time
        switch first {
        case .timed(let instant, let name):
            let zone = TimeZone(identifier: name) ?? ownZone
            start = .dateTime(seconds: Int(instant.timeIntervalSince1970), rfc3339: RFC3339.format(instant, in: zone))
        case .allDay(let date):
            start = .date(QuickAddDate(year: date.year, month: date.month, day: date.day))
        }
        return QuickAddRepeatText.describe(recurrence.lines, start: start, zone: zoneName)
    }

    /// The description as plain text (HTML bodies converted), nil when empty.
    var plainDescription: String? {
        guard let body = event.body, !body.isEmpty else { return nil }
        let text = body.isHTML ? HTMLText.plainText(fromHTML: body.content) : body.content
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    static func remindersText(_ reminders: [Reminder]?) -> String {
        guard let reminders else { return "the calendar's default" }
        guard !reminders.isEmpty else { return "none" }
        return reminders.map { "\($0.minutesBefore) min before (\($0.method.rawValue))" }.joined(separator: ", ")
    }

    static func attendeeText(_ attendee: Attendee) -> String {
        let name = attendee.name.map { $0.isEmpty || $0 == attendee.email ? "" : "\($0) " } ?? ""
        let role = attendee.role == .required ? "" : ", \(attendee.role.rawValue)"
        return "\(name)<\(attendee.email)>: \(attendee.response.rawValue)\(role)"
    }

    /// The copy's origin in words: which event of which calendar it was copied from.
    static func originText(_ origin: OriginMarker) -> String {
        "a calbridge copy of \(origin.provider.rawValue) event \(origin.eventID) in calendar \(origin.calendarID) of \(origin.account)"
    }

    /// The marker of the event, or of its series (occurrences may not carry the master's properties).
    var origin: OriginMarker? { event.origin ?? series?.origin }

    /// `field: value` lines, the description last, indented.
    func lines() -> [String] {
        var rows: [(String, String)] = [("calendar", calendar), ("id", event.id), ("title", event.title)]
        if event.isAllDay {
            rows.append(("start", "\(Self.text(event.start, in: ownZone)) (all day)"))
            if case .allDay(let end) = event.end { rows.append(("end", "\(end.adding(days: -1)) (last day)")) }
        } else {
            let own = ZoneOptions.name(of: ownZone)
            rows.append(("start", "\(Self.text(event.start, in: ownZone)) (\(event.start.zone ?? own))"))
            rows.append(("end", "\(Self.text(event.end, in: ownZone))"))
            if ownZone.secondsFromGMT(for: event.start.instant(allDayZone: ownZone))
                != displayZone.secondsFromGMT(for: event.start.instant(allDayZone: ownZone)) || ownZone.identifier != displayZone.identifier
            {
                let shown = ZoneOptions.name(of: displayZone)
                rows.append(("in \(shown)", "\(Self.text(event.start, in: displayZone)) to \(Self.text(event.end, in: displayZone))"))
            }
        }
        rows.append(("all day", event.isAllDay ? "yes" : "no"))
        if event.status != .confirmed { rows.append(("status", event.status.rawValue)) }
        if let location = event.location, !location.isEmpty { rows.append(("location", location)) }
        if let organizer = event.organizer { rows.append(("organizer", Self.attendeeText(organizer))) }
        for (index, attendee) in event.attendees.enumerated() {
            rows.append((index == 0 ? "attendees" : "", Self.attendeeText(attendee)))
        }
        rows.append(("reminders", Self.remindersText(event.reminders)))
        rows.append(("show as", event.showAs.rawValue))
        rows.append(("privacy", event.sensitivity.rawValue))
        if let recurrence {
            rows.append(("repeats", repeatWords ?? recurrence.lines.joined(separator: " ")))
            for line in recurrence.lines { rows.append(("rule", line)) }
        }
        if let seriesID = event.seriesID {
            let original = event.originalStart.map { ", originally \(Self.text($0, in: ownZone))" } ?? ""
            rows.append(("series", "an occurrence of \(seriesID)\(original)"))
        }
        if let meeting = event.onlineMeetingURL { rows.append(("meeting", meeting.absoluteString)) }
        if !event.categories.isEmpty { rows.append(("categories", event.categories.joined(separator: ", "))) }
        rows.append(("copy", origin.map(Self.originText) ?? "no"))
        rows.append(("link", event.webURL?.absoluteString ?? "-"))
        let width = rows.map(\.0.count).max() ?? 0
        var lines = rows.map { name, value in
            (name.isEmpty ? "" : name + ":").padding(toLength: width + 2, withPad: " ", startingAt: 0) + value
        }
        if let description = plainDescription {
            lines.append("description:")
            lines += description.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        }
        return lines
    }

    /// The JSON object: `events`' keys plus the details (keys sorted when serialised).
    func json() -> [String: Any] {
        var object = EventFormatting(zone: displayZone).json(event, calendar: calendar)
        object["startInOwnZone"] = Self.text(event.start, in: ownZone)
        object["endInOwnZone"] = Self.text(event.end, in: ownZone)
        object["displayTimeZone"] = ZoneOptions.name(of: displayZone)
        object["privacy"] = event.sensitivity.rawValue
        object["description"] = plainDescription ?? NSNull()
        object["organizer"] = event.organizer.map(Self.attendeeJSON) ?? NSNull()
        object["attendees"] = event.attendees.map(Self.attendeeJSON)
        if let reminders = event.reminders {
            object["reminders"] = reminders.map { ["minutesBefore": $0.minutesBefore, "method": $0.method.rawValue] as [String: Any] }
        } else {
            object["reminders"] = NSNull()  // the calendar's default
        }
        object["recurrence"] = recurrence?.lines ?? []
        object["repeat"] = recurrence == nil ? NSNull() : (repeatWords ?? NSNull())
        if let original = event.originalStart { object["originalStart"] = Self.text(original, in: ownZone) }
        if !event.categories.isEmpty { object["categories"] = event.categories }
        if let origin {
            object["copyOf"] = [
                "provider": origin.provider.rawValue, "account": origin.account, "calendarId": origin.calendarID,
                "eventId": origin.eventID,
            ]
        } else {
            object["copyOf"] = NSNull()
        }
        return object
    }

    static func attendeeJSON(_ attendee: Attendee) -> [String: Any] {
        var object: [String: Any] = ["email": attendee.email, "response": attendee.response.rawValue, "role": attendee.role.rawValue]
        if let name = attendee.name, !name.isEmpty { object["name"] = name }
        return object
    }
}
