import Foundation

/// Validation and normalisation of an event's `start` / `end` (EventDateTime), and their rendering.
///
/// Stored form: all-day `{"date": "YYYY-MM-DD"}`; timed `{"dateTime": "<UTC, Z>", "timeZone"?: IANA}`.
/// Rendered form: `dateTime` with the offset of the response zone (the `timeZone` parameter, else the
/// calendar's zone), `timeZone` as the client gave it.
enum GoogleEventTimes {
    struct Normalized {
        var start: GoogleJSON
        var end: GoogleJSON
        var startInstant: Date
        var endInstant: Date
        var allDay: Bool
    }

    enum Value {
        case date(Int)
        case dateTime(Date, zone: String?)
    }

    /// Parses one EventDateTime object; `field` is `start`, `end` or `originalStartTime`.
    static func parse(_ json: GoogleJSON?, field: String, requireZone: Bool) throws(GoogleAPIError) -> Value {
        guard let json else { throw .required("Missing \(field) time.") }
        guard let object = json.objectValue else { throw .invalid("Invalid \(field) time.") }
        var zoneName: String?
        if let zoneValue = object["timeZone"], zoneValue != .null {
            guard let name = zoneValue.stringValue, TimeZone(identifier: name) != nil, !name.isEmpty else {
                throw .invalid("Invalid time zone definition for \(field) time.")
            }
            zoneName = name
        }
        let date = object["date"].flatMap { $0 == .null ? nil : $0 }
        let dateTime = object["dateTime"].flatMap { $0 == .null ? nil : $0 }
        switch (date, dateTime) {
        case (nil, nil): throw .required("Missing \(field) time.")
        case (.some, .some): throw .invalid("Invalid \(field) time.")
        case (let date?, nil):
            guard let text = date.stringValue, let day = GoogleTime.parseDate(text) else {
                throw .invalid("Invalid \(field) time.")
            }
            return .date(day)
        case (nil, let dateTime?):
            guard let text = dateTime.stringValue, let parsed = GoogleTime.parseDateTime(text) else {
                throw .invalid("Invalid \(field) time.")
            }
            if requireZone && zoneName == nil { throw .required("Missing time zone definition for \(field) time.") }
            if let instant = parsed.instant { return .dateTime(instant, zone: zoneName) }
            guard let zoneName, let zone = TimeZone(identifier: zoneName) else {
                throw .required("Missing time zone definition for \(field) time.")
            }
            return .dateTime(GoogleTime.instant(parsed.local, in: zone), zone: zoneName)
        }
    }

    static func stored(_ value: Value) -> GoogleJSON {
        switch value {
        case .date(let day): return ["date": .string(GoogleTime.formatDate(day))]
        case .dateTime(let instant, let zone):
            var object: [String: GoogleJSON] = ["dateTime": .string(GoogleTime.formatDateTime(instant, in: utc))]
            if let zone { object["timeZone"] = .string(zone) }
            return .object(object)
        }
    }

    static let utc = TimeZone(secondsFromGMT: 0)!

    /// The instant an all-day date begins in the calendar's zone.
    static func instant(_ value: Value, calendarZone: TimeZone) -> Date {
        switch value {
        case .date(let day): GoogleTime.instant(GoogleTime.Local(day: day, seconds: 0), in: calendarZone)
        case .dateTime(let instant, _): instant
        }
    }

    /// Validates and normalises `start`/`end` of an event resource.
    static func normalize(_ resource: [String: GoogleJSON], calendarZone: TimeZone) throws(GoogleAPIError) -> Normalized {
        let recurring = !(resource["recurrence"]?.arrayValue?.isEmpty ?? true)
        let start = try parse(resource["start"], field: "start", requireZone: false)
        let end = try parse(resource["end"], field: "end", requireZone: false)
        switch (start, end) {
        case (.date(let s), .date(let e)):
            guard e > s else { throw .timeRangeEmpty(location: "end") }
        case (.dateTime(let s, let zone), .dateTime(let e, _)):
            guard e >= s else { throw .timeRangeEmpty(location: "end") }
            if recurring && zone == nil { throw .required("Missing time zone definition for start time.") }
        default:
            throw .invalid("Start and end times must either both be date or both be dateTime.")
        }
        if case .date = start {} else if recurring, case .dateTime(_, nil) = end {
            // Google requires the zone on both ends of a recurring series.
            throw .required("Missing time zone definition for end time.")
        }
        return Normalized(
            start: stored(start), end: stored(end), startInstant: instant(start, calendarZone: calendarZone),
            endInstant: instant(end, calendarZone: calendarZone), allDay: { if case .date = start { true } else { false } }())
    }

    /// Renders a stored EventDateTime in the response zone.
    static func render(_ stored: GoogleJSON?, in zone: TimeZone) -> GoogleJSON? {
        guard let object = stored?.objectValue else { return stored }
        guard let text = object["dateTime"]?.stringValue, let instant = GoogleTime.parseDateTime(text)?.instant else {
            return stored
        }
        var result = object
        result["dateTime"] = .string(GoogleTime.formatDateTime(instant, in: zone))
        return .object(result)
    }
}
