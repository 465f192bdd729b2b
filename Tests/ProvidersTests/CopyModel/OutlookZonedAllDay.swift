import CalendarBridge
import CopyModel
import Foundation
import HTTP

/// Creates all-day events on the sandbox's Graph API as Outlook clients do: midnight to midnight in the
/// mailbox's zone (here the model event's zone), with the series' `recurrenceTimeZone` set to it. Graph
/// then answers each occurrence's `originalStart` as midnight in that zone, in UTC: the day before for
/// zones east of UTC (issue 12, case 1). calbridge's own provider writes all-day events in UTC, so the
/// model needs this to reach that case.
struct OutlookZonedAllDay: Sendable {
    let transport: any HTTPTransport
    let baseURL: URL

    /// The event's id, or nil when the event is not one to create this way (timed, or in UTC).
    func create(_ event: ModelEvent) async throws -> String? {
        guard let (json, windows) = Self.body(event) else { return nil }
        let answer = try await send(.post, "v1.0/me/events", json, zone: windows, event: event)
        guard let id = answer["id"] as? String else {
            throw ModelProblem(code: "error", step: -1, detail: "Graph answered a zoned all-day event without an id")
        }
        return id
    }

    /// Edits such an event as Outlook does, keeping its zone (calbridge's provider would write it in UTC,
    /// and Outlook resets a series whose start moves: its exceptions and deletions would be dropped, which
    /// no user's edit in Outlook does). False when the event is not one to edit this way.
    func update(_ event: ModelEvent, id: String) async throws -> Bool {
        guard let (json, windows) = Self.body(event) else { return false }
        _ = try await send(.patch, "v1.0/me/events/\(id)", json, zone: windows, event: event)
        return true
    }

    /// Subject, all-day start and end in the event's Windows zone, and the rule with that zone; and the zone.
    static func body(_ event: ModelEvent) -> ([String: Any], String)? {
        guard event.allDay, event.zone != "UTC", let windows = windowsNames[event.zone] else { return nil }
        func local(_ date: LocalDate) -> [String: String] { ["dateTime": "\(date)T00:00:00.0000000", "timeZone": windows] }
        var json: [String: Any] = [
            "subject": event.title, "isAllDay": true, "start": local(event.date), "end": local(event.date.adding(days: event.duration)),
        ]
        if let rule = event.rule { json["recurrence"] = recurrence(rule, start: event.date, zone: windows) }
        return (json, windows)
    }

    private func send(_ method: HTTPMethod, _ path: String, _ json: [String: Any], zone: String, event: ModelEvent) async throws -> [String: Any] {
        var request = HTTPRequest(
            method: method, url: baseURL.appendingPathComponent(path),
            headers: ["Content-Type": "application/json"], body: try JSONSerialization.data(withJSONObject: json))
        request.headers["Prefer"] = "outlook.timezone=\"\(zone)\""
        let response = try await transport.send(request)
        guard (200..<300).contains(response.status),
            let answer = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        else {
            throw ModelProblem(code: "error", step: -1, detail: "Graph refused the zoned all-day event \(event.title): \(response.status) \(response.bodyText)")
        }
        return answer
    }

    /// Graph's `patternedRecurrence` for a model rule.
    static func recurrence(_ rule: ModelRule, start: LocalDate, zone: String) -> [String: Any] {
        let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        var pattern: [String: Any] = ["interval": rule.interval, "firstDayOfWeek": "sunday"]
        switch rule.pattern {
        case .daily: pattern["type"] = "daily"
        case .weekly(let weekdays):
            pattern["type"] = "weekly"
            pattern["daysOfWeek"] = weekdays.map { days[$0] }
        case .monthlyDay(let day):
            pattern["type"] = "absoluteMonthly"
            pattern["dayOfMonth"] = day
        case .monthlyNth(let ordinal, let weekday):
            pattern["type"] = "relativeMonthly"
            pattern["daysOfWeek"] = [days[weekday]]
            pattern["index"] = ["first", "second", "third", "fourth"].indices.contains(ordinal - 1) ? ["first", "second", "third", "fourth"][ordinal - 1] : "last"
        case .yearly(let month, let day, _):
            pattern["type"] = "absoluteYearly"
            pattern["month"] = month
            pattern["dayOfMonth"] = day
        }
        var range: [String: Any] = ["startDate": start.description, "recurrenceTimeZone": zone]
        switch rule.end {
        case .count(let n):
            range["type"] = "numbered"
            range["numberOfOccurrences"] = n
        case .until(let date):
            range["type"] = "endDate"
            range["endDate"] = date.description
        case .never: range["type"] = "noEnd"
        }
        return ["pattern": pattern, "range": range]
    }

    /// The Windows names of the model's event zones (CLDR windowsZones.xml).
    static let windowsNames = [
        "Europe/Berlin": "W. Europe Standard Time", "Europe/London": "GMT Standard Time",
        "America/New_York": "Eastern Standard Time", "America/Los_Angeles": "Pacific Standard Time",
        "America/St_Johns": "Newfoundland Standard Time", "Asia/Kolkata": "India Standard Time",
        "Asia/Kathmandu": "Nepal Standard Time", "Asia/Tokyo": "Tokyo Standard Time",
        "Australia/Adelaide": "Cen. Australia Standard Time", "Australia/Sydney": "AUS Eastern Standard Time",
        "Pacific/Auckland": "New Zealand Standard Time", "America/Sao_Paulo": "E. South America Standard Time",
        "Pacific/Honolulu": "Hawaiian Standard Time", "Africa/Johannesburg": "South Africa Standard Time",
    ]
}
