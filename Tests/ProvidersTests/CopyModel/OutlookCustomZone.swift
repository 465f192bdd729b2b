import CalendarBridge
import CopyModel
import Foundation
import HTTP
import Sandbox

/// Outlook events in custom zones, for the copy model (issue 12: "custom-zone Outlook events").
///
/// Outlook desktop stores a zone Exchange does not know by its rules (`tzone://Microsoft/Custom` and a
/// TZDEFINITION); Graph cannot create such events, so they are seeded into the sandbox before the scenario
/// starts. Every third timed source event in a zone listed here (chosen from the seed and the event's
/// index, so the generator's sequence is not changed) is seeded with that zone's rules; the copy must come
/// out in the IANA zone the rules match, with the same instants.
///
/// The model's edits reach them as a user's edits in Outlook would: a new title alone keeps the custom
/// zone; new times are written with the zone's Windows name (Exchange rewrites the zone, as the sandbox
/// does), and later edits still send only what changed.
actor OutlookCustomZone {
    /// The rules of the model's zones as Outlook writes them (bias: UTC = local + bias, in minutes).
    static var rules: [String: [String: Any]] {
        func date(_ month: Int, _ day: Int, _ hour: Int) -> [String: Any] {
            ["month": month, "dayOfWeek": 0, "day": day, "hour": hour, "minute": 0]
        }
        func zone(_ bias: Int, daylight: (Int, Int, Int)? = nil, standard: (Int, Int, Int)? = nil) -> [String: Any] {
            var rule: [String: Any] = ["bias": bias, "standardBias": 0, "daylightBias": daylight == nil ? 0 : -60]
            if let daylight, let standard {
                rule["daylightDate"] = date(daylight.0, daylight.1, daylight.2)
                rule["standardDate"] = date(standard.0, standard.1, standard.2)
            }
            return ["custom": ["keyName": "Customized Time Zone", "rules": [rule]]]
        }
        return [
            // Last Sunday of March 02:00 to last Sunday of October 03:00.
            "Europe/Berlin": zone(-60, daylight: (3, 5, 2), standard: (10, 5, 3)),
            // Second Sunday of March 02:00 to first Sunday of November 02:00.
            "America/New_York": zone(300, daylight: (3, 2, 2), standard: (11, 1, 2)),
            "Asia/Kolkata": zone(-330),
            // First Sunday of October 02:00 to first Sunday of April 03:00.
            "Australia/Sydney": zone(-600, daylight: (10, 1, 2), standard: (4, 1, 3)),
            // Last Sunday of September 02:00 to first Sunday of April 03:00.
            "Pacific/Auckland": zone(-720, daylight: (9, 5, 2), standard: (4, 1, 3)),
        ]
    }

    /// The scenario's source events to seed in custom zones, by model index.
    static func chosen(_ scenario: ModelScenario) -> [Int: ModelEvent] {
        guard scenario.sourceKind == .microsoft else { return [:] }
        var chosen: [Int: ModelEvent] = [:]
        for (index, event) in scenario.liveEvents
        where !event.allDay && rules[event.zone] != nil && (UInt64(index) &+ scenario.seed) % 3 == 0 {
            chosen[index] = event
        }
        return chosen
    }

    /// The sandbox seed with `events` in the first Microsoft user's default calendar.
    static func seed(_ base: SandboxSeed, adding events: [Int: ModelEvent]) throws -> SandboxSeed {
        guard !events.isEmpty else { return base }
        guard var top = try JSONSerialization.jsonObject(with: base.microsoft) as? [String: Any],
            var users = top["users"] as? [[String: Any]], var calendars = users.first?["calendars"] as? [[String: Any]],
            let index = calendars.firstIndex(where: { $0["isDefaultCalendar"] as? Bool == true })
        else { throw ModelProblem(code: "error", step: -1, detail: "the Microsoft seed has no default calendar") }
        calendars[index]["events"] = events.sorted { $0.key < $1.key }.map { seedEvent($0.value, index: $0.key) }
        users[0]["calendars"] = calendars
        top["users"] = users
        var seed = base
        seed.microsoft = try JSONSerialization.data(withJSONObject: top)
        return seed
    }

    /// One seed entry: wall-clock start and end in the custom zone, the rule expanding in it.
    static func seedEvent(_ event: ModelEvent, index: Int) -> [String: Any] {
        func wallClock(_ time: EventTime) -> String {
            guard case .timed(let instant, let zone) = time, let tz = TimeZone(identifier: zone) else { return "" }
            return String(LocalDateTime(instant: instant, in: tz).format(fractionDigits: 0).prefix(16))
        }
        var json: [String: Any] = [
            "key": "model-e\(index)", "subject": event.title, "start": wallClock(event.start), "end": wallClock(event.end),
            "timeZone": rules[event.zone] ?? [:],
        ]
        if let rule = event.rule {
            var recurrence = OutlookZonedAllDay.recurrence(rule, start: event.date, zone: "")
            if var range = recurrence["range"] as? [String: Any] {
                range["recurrenceTimeZone"] = nil  // the seed's default for a custom zone: tzone://Microsoft/Custom
                recurrence["range"] = range
            }
            json["recurrence"] = recurrence
        }
        return json
    }

    let transport: any HTTPTransport
    let baseURL: URL
    /// The seeded events' ids by model title, and their last model version by id.
    private var seededIDs: [String: String] = [:]
    private var current: [String: ModelEvent] = [:]

    init(transport: any HTTPTransport, baseURL: URL) {
        self.transport = transport
        self.baseURL = baseURL
    }

    /// The seeded event's id, found by its title; nil when `event` was not seeded.
    func id(of event: ModelEvent, source: any CalendarProvider, calendarID: String) async throws -> String? {
        if seededIDs.isEmpty {
            // Wider than the scenario's horizon: events start up to a year after it.
            let everything = TimeRange(start: Date(timeIntervalSince1970: 1_577_836_800), end: Date(timeIntervalSince1970: 2_051_222_400))  // 2020 to 2035
            for listed in try await source.listEvents(calendarID: calendarID, range: everything, expand: false)
            where listed.seriesID == nil {
                seededIDs[listed.title] = listed.id
            }
        }
        guard let id = seededIDs[event.title] else { return nil }
        current[id] = event
        return id
    }

    /// Edits a seeded event as Outlook would (a new title alone is sent alone, so the rule and the series'
    /// deletions stay as they are); false when `id` is not one, or is all-day now.
    func update(_ event: ModelEvent, id: String) async throws -> Bool {
        guard let before = current[id], !event.allDay else {
            current[id] = nil
            return false
        }
        var json: [String: Any] = ["subject": event.title]
        let timesChanged = before.date != event.date || before.minute != event.minute || before.duration != event.duration
        if timesChanged || before.rule != event.rule {
            // New times or a new rule: Outlook writes them in a zone Exchange knows; the event leaves its custom zone.
            guard let windows = OutlookZonedAllDay.windowsNames[event.zone], let tz = TimeZone(identifier: event.zone) else { return false }
            // A wall clock that repeats (or is skipped) in the zone names no single instant: Outlook's user
            // cannot pick the second 02:30 of a fall-back night. Such an edit goes through calbridge's
            // provider, which writes that end in UTC (seed 250115: an end 240 minutes after 23:30 CEST).
            for time in [event.start, event.end] {
                guard case .timed(let instant, _) = time else { continue }
                let wall = LocalDateTime(instant: instant, in: tz)
                guard ModelZones.isPlainWallClock(wall.date, minute: wall.hour * 60 + wall.minute, in: event.zone) else {
                    current[id] = nil
                    return false
                }
            }
            func local(_ time: EventTime) -> [String: String] {
                guard case .timed(let instant, _) = time else { return [:] }
                return ["dateTime": LocalDateTime(instant: instant, in: tz).format(fractionDigits: 0), "timeZone": windows]
            }
            json["start"] = local(event.start)
            json["end"] = local(event.end)
            if let rule = event.rule { json["recurrence"] = OutlookZonedAllDay.recurrence(rule, start: event.date, zone: windows) }
        }
        current[id] = event
        var request = HTTPRequest(
            method: .patch, url: baseURL.appendingPathComponent("v1.0/me/events/\(id)"),
            headers: ["Content-Type": "application/json"], body: try JSONSerialization.data(withJSONObject: json))
        request.headers["Prefer"] = "outlook.timezone=\"UTC\""
        let response = try await transport.send(request)
        guard (200..<300).contains(response.status) else {
            throw ModelProblem(code: "error", step: -1, detail: "Graph refused the edit of custom-zone event \(event.title): \(response.status) \(response.bodyText)")
        }
        return true
    }
}
