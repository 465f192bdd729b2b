import CalendarBridge
import Foundation

/// How events are shown: times in one display zone, all-day events as dates.
struct EventFormatting: Sendable {
    /// The zone every timed value is shown in.
    let zone: TimeZone

    /// `2026-12-01T09:00:00-08:00` for a timed value (in the display zone), `2026-12-01` for a date.
    func text(_ time: EventTime) -> String {
        switch time {
        case .timed(let instant, _): RFC3339.format(instant, in: zone)
        case .allDay(let date): date.description
        }
    }

    /// The JSON object of one event (keys sorted when serialised). An all-day `end` is exclusive.
    func json(_ event: Event, calendar: String) -> [String: Any] {
        var object: [String: Any] = [
            "id": event.id,
            "calendar": calendar,
            "title": event.title,
            "start": text(event.start),
            "end": text(event.end),
            "allDay": event.isAllDay,
            "status": event.status.rawValue,
            "showAs": event.showAs.rawValue,
        ]
        if let zone = event.start.zone { object["timeZone"] = zone }
        if let location = event.location, !location.isEmpty { object["location"] = location }
        if let seriesID = event.seriesID { object["seriesId"] = seriesID }
        if let link = event.webURL { object["link"] = link.absoluteString }
        if let meeting = event.onlineMeetingURL { object["onlineMeeting"] = meeting.absoluteString }
        if !event.attendees.isEmpty { object["attendees"] = event.attendees.map(\.email) }
        return object
    }

    /// The event listing as a table (or TSV): date, time span, title (with the repeat marker), location.
    func table(_ events: [Event]) -> Table {
        var table = Table(columns: [
            Table.Column("date", "DATE", shrinkable: false),
            Table.Column("time", "TIME", shrinkable: false),
            Table.Column("title", "TITLE", shrinkOrder: 1),
            Table.Column("location", "LOCATION"),
        ])
        for event in events {
            table.rows.append([dateCell(event), timeCell(event), titleCell(event), event.location ?? ""])
        }
        return table
    }

    /// TSV columns: exact values for scripts (`series_id` is empty for a single event).
    func tsv(_ events: [Event]) -> Table {
        var table = Table(columns: [
            Table.Column("start", "START"), Table.Column("end", "END"), Table.Column("all_day", "ALL DAY"),
            Table.Column("title", "TITLE"), Table.Column("location", "LOCATION"), Table.Column("id", "ID"),
            Table.Column("series_id", "SERIES ID"),
        ])
        for event in events {
            table.rows.append([
                text(event.start), text(event.end), event.isAllDay ? "true" : "false", event.title,
                event.location ?? "", event.id, event.seriesID ?? "",
            ])
        }
        return table
    }

    /// Put before the title of an event that repeats (an occurrence or exception of a series, or a
    /// series itself) in tables; JSON and TSV say it with `seriesId` / `series_id`.
    static let repeatMarker = "\u{21BB}"

    /// The title as a table shows it: `↻ Team sync` for an event that repeats.
    func titleCell(_ event: Event) -> String {
        event.isOccurrence || event.isSeriesMaster ? Self.repeatMarker + " " + event.title : event.title
    }

    /// `Mon 2026-11-30`: the day the event starts, in the display zone.
    func dateCell(_ event: Event) -> String {
        let day: LocalDate
        switch event.start {
        case .allDay(let date): day = date
        case .timed(let instant, _): day = LocalDate(instant: instant, in: zone)
        }
        return Self.weekdayName(day) + " " + day.description
    }

    /// `09:00-09:30`, `22:00-01:00 (+1d)`, `all day`, `all day (3 days)`.
    func timeCell(_ event: Event) -> String {
        switch (event.start, event.end) {
        case (.allDay(let start), .allDay(let end)):
            let days = start.days(to: end)
            return days > 1 ? "all day (\(days) days)" : "all day"
        default:
            let start = event.start.instant(allDayZone: zone), end = event.end.instant(allDayZone: zone)
            let from = LocalDateTime(instant: start, in: zone), to = LocalDateTime(instant: end, in: zone)
            let days = from.date.days(to: to.date)
            return Self.clock(from) + "-" + Self.clock(to) + (days > 0 ? " (+\(days)d)" : "")
        }
    }

    /// A created event, one `field: value` line each (what `add` and `quick-add` print).
    func summary(_ event: Event, calendar: String) -> [String] {
        var lines = [
            "calendar: \(calendar)",
            "id:       \(event.id)",
            "title:    \(event.title)",
        ]
        if event.isAllDay {
            lines.append("start:    \(text(event.start)) (all day)")
            lines.append("end:      \(text(event.end)) (exclusive)")
        } else {
            let own = event.start.zone.map { " (\($0))" } ?? ""
            lines.append("start:    \(ownZoneText(event.start))\(own)")
            lines.append("end:      \(ownZoneText(event.end))")
        }
        if let location = event.location, !location.isEmpty { lines.append("location: \(location)") }
        if !event.attendees.isEmpty { lines.append("invited:  " + event.attendees.map(\.email).joined(separator: ", ")) }
        lines.append("link:     \(event.webURL?.absoluteString ?? "-")")
        return lines
    }

    /// A timed value in its own zone (falling back to the display zone), else the date.
    private func ownZoneText(_ time: EventTime) -> String {
        guard case .timed(let instant, let name) = time else { return text(time) }
        return RFC3339.format(instant, in: TimeZone(identifier: name) ?? zone)
    }

    /// `09:05`.
    static func clock(_ time: LocalDateTime) -> String {
        (time.hour < 10 ? "0" : "") + "\(time.hour):" + (time.minute < 10 ? "0" : "") + "\(time.minute)"
    }

    /// `Mon` .. `Sun`.
    static func weekdayName(_ date: LocalDate) -> String {
        let monday = LocalDate(year: 1970, month: 1, day: 5)!  // a Monday
        return ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][((monday.days(to: date) % 7) + 7) % 7]
    }
}

/// JSON text the way every calbridge command writes it: sorted keys, unescaped slashes.
package enum JSONText {
    package static func render(_ object: Any, pretty: Bool = true) throws -> String {
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        if pretty { options.insert(.prettyPrinted) }
        return TerminalText.escapeJSON(
            String(decoding: try JSONSerialization.data(withJSONObject: object, options: options), as: UTF8.self))
    }
}
