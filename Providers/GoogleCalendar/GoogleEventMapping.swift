import CalendarBridge
import Foundation
import JSON

/// Google event JSON ↔ `Event`, both ways.
enum GoogleEventMapping {
    /// Reads one event. `calendarZone` is the zone of times that state only an offset.
    static func event(_ g: GoogleEvent, calendarID: String, calendarZone: String?) throws(CalendarError) -> Event {
        guard let start = g.start, let end = g.end else {
            // Cancelled occurrences of a series come with no times; everything else must have them.
            if g.status == "cancelled", let original = g.originalStartTime {
                let time = try eventTime(original, calendarZone: calendarZone, field: "originalStartTime")
                return base(g, calendarID: calendarID, start: time, end: time, calendarZone: calendarZone)
            }
            throw CalendarError(.invalidResponse, "Google event \(g.id) has no start or end", provider: .google)
        }
        var event = base(
            g, calendarID: calendarID, start: try eventTime(start, calendarZone: calendarZone, field: "start"),
            end: try eventTime(end, calendarZone: calendarZone, field: "end"), calendarZone: calendarZone)
        if let original = g.originalStartTime {
            event.originalStart = try eventTime(original, calendarZone: calendarZone, field: "originalStartTime")
        }
        return event
    }

    private static func base(
        _ g: GoogleEvent, calendarID: String, start: EventTime, end: EventTime, calendarZone: String?
    ) -> Event {
        let (origin, bag) = (g.extendedProperties?.origin, g.extendedProperties?.private ?? [:])
        var event = Event(
            id: g.id, calendarID: calendarID, title: g.summary ?? "",
            body: g.description.flatMap { $0.isEmpty ? nil : (looksLikeHTML($0) ? .html($0) : .text($0)) },
            location: g.location.flatMap { $0.isEmpty ? nil : $0 }, start: start, end: end,
            recurrence: g.recurrence.flatMap { $0.isEmpty ? nil : Recurrence(lines: $0) },
            seriesID: g.recurringEventId,
            status: EventStatus(rawValue: g.status ?? "confirmed") ?? .confirmed,
            organizer: g.organizer.flatMap { person in
                person.email.map { Attendee(name: person.displayName, email: $0, response: .organizer) }
            },
            attendees: (g.attendees ?? []).compactMap(attendee),
            reminders: reminders(g.reminders),
            showAs: showAs(transparency: g.transparency, eventType: g.eventType),
            sensitivity: sensitivity(g.visibility),
            onlineMeetingURL: meetingURL(g),
            iCalUID: g.iCalUID,
            created: g.created,
            updated: g.updated,
            origin: origin,
            extendedProperties: bag)
        event.setWebURL(text: g.htmlLink)
        return event
    }

    static func eventTime(_ t: GoogleEventDateTime, calendarZone: String?, field: String) throws(CalendarError)
        -> EventTime
    {
        if let date = t.date {
            guard let day = LocalDate(date) else {
                throw CalendarError(.invalidResponse, "Google \(field).date '\(date)' is not YYYY-MM-DD", provider: .google)
            }
            return .allDay(date: day)
        }
        guard let instant = t.instant else {
            throw CalendarError(
                .invalidResponse, "Google \(field).dateTime '\(t.dateTime ?? "")' is not RFC 3339", provider: .google)
        }
        let zone = t.timeZone ?? calendarZone ?? fixedOffsetZone(t.dateTime ?? "")
        return .timed(instant: instant, zone: zone)
    }

    /// `Etc/GMT-1` for `+01:00` (POSIX signs are inverted); `UTC` when the offset is not whole hours.
    static func fixedOffsetZone(_ rfc3339: String) -> String {
        guard let instant = RFC3339.parse(rfc3339), let local = LocalDateTime(rfc3339.prefix(19)) else { return "UTC" }
        let offset = Int(local.instant(in: TimeZone(secondsFromGMT: 0)!).timeIntervalSince(instant))
        guard offset != 0, offset % 3600 == 0 else { return "UTC" }
        let hours = offset / 3600
        return hours > 0 ? "Etc/GMT-\(hours)" : "Etc/GMT+\(-hours)"
    }

    static let htmlMarkerTexts = ["<br", "<p>", "<p ", "</", "<b>", "<i>", "<ul", "<a href", "<html", "<div"]
    static let htmlMarkers = htmlMarkerTexts.map { Array($0.utf8) }

    static func looksLikeHTML(_ text: String) -> Bool {
        // ASCII text (nearly every description): the same test on bytes, folded to lower case, looking
        // only where a '<' is (every marker starts with one), not with Foundation's `lowercased().contains`
        // or a scan per marker: every listed description goes through here.
        var text = text
        let ascii: Bool? = text.withUTF8 { bytes in
            var high: UInt8 = 0
            for byte in bytes { high |= byte }
            guard high < 0x80 else { return nil }
            for start in bytes.indices where bytes[start] == UInt8(ascii: "<") {
                for marker in htmlMarkers where marker.count <= bytes.count - start {
                    var matches = true
                    for (offset, expected) in marker.enumerated() {
                        let byte = bytes[start + offset]
                        let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                        if lowered != expected { matches = false; break }
                    }
                    if matches { return true }
                }
            }
            return false
        }
        if let ascii { return ascii }
        let lowered = text.lowercased()
        return htmlMarkerTexts.contains { lowered.contains($0) }
    }

    static func attendee(_ a: GoogleAttendee) -> Attendee? {
        guard let email = a.email else { return nil }
        let role: Attendee.Role = a.resource == true ? .resource : (a.optional == true ? .optional : .required)
        let response: Attendee.Response =
            switch a.responseStatus {
            case "accepted": .accepted
            case "declined": .declined
            case "tentative": .tentative
            default: .needsAction
            }
        return Attendee(name: a.displayName, email: email, role: role, response: response)
    }

    static func reminders(_ r: GoogleReminders?) -> [Reminder]? {
        guard let r, r.useDefault != true else { return nil }
        return (r.overrides ?? []).compactMap { o in
            guard let minutes = o.minutes else { return nil }
            return Reminder(minutesBefore: minutes, method: o.method == "email" ? .email : .popup)
        }
    }

    /// Google keeps at most 5 reminder overrides, each 0 to 40,320 minutes (four weeks) before the start, and
    /// refuses the whole event otherwise. An Outlook reminder set further ahead is kept as early as Google
    /// allows; of more than five, the five nearest the start are kept.
    static let maxReminderMinutes = 40_320
    static let maxReminderOverrides = 5

    static func storable(_ reminders: [Reminder]) -> [Reminder] {
        var seen = Set<Reminder>()
        return reminders
            .map { Reminder(minutesBefore: min(max($0.minutesBefore, 0), maxReminderMinutes), method: $0.method) }
            .sorted { $0.minutesBefore < $1.minutesBefore }
            .filter { seen.insert($0).inserted }
            .prefix(maxReminderOverrides).map { $0 }
    }

    static func showAs(transparency: String?, eventType: String?) -> ShowAs {
        switch eventType {
        case "outOfOffice": return .oof
        case "workingLocation": return .workingElsewhere
        default: return transparency == "transparent" ? .free : .busy
        }
    }

    static func sensitivity(_ visibility: String?) -> Sensitivity {
        switch visibility {
        case "private": .private
        case "confidential": .confidential
        default: .normal
        }
    }

    static func meetingURL(_ g: GoogleEvent) -> URL? {
        if let video = g.conferenceData?.entryPoints?.first(where: { $0.entryPointType == "video" })?.uri {
            return URL(string: video)
        }
        return g.hangoutLink.flatMap(URL.init(string:))
    }

    // MARK: writing

    /// The PATCH body writing `fields` of `event`.
    static func patchBody(for event: Event, fields: EventFields) throws(CalendarError) -> [String: Any] {
        var body = fields.select(
            from: try body(for: event, patching: true),
            members: [
                .title: ["summary"], .times: ["start", "end"], .location: ["location"], .recurrence: ["recurrence"],
                .body: ["description"], .reminders: ["reminders"], .showAs: ["transparency"], .sensitivity: ["visibility"],
            ])
        // A rule removed: an empty array replaces the stored one (patch semantics), leaving a single event.
        if fields != .all, fields.contains(.recurrence), event.recurrence == nil { body["recurrence"] = [String]() }
        return body
    }

    /// The JSON body for insert (with `id`) or patch. Read-only fields (links, created, iCalUID,
    /// online meeting, organizer) are not written; nil text fields are written empty so a patch clears them.
    /// - Parameter patching: the body is for `events.patch`, which merges objects field by field: a
    ///   start switching between timed and all-day must clear the other form's fields (`null`), and
    ///   default reminders must clear the overrides, or Google keeps both ("Invalid start time.").
    static func body(for event: Event, id: String? = nil, patching: Bool = false) throws(CalendarError) -> [String: Any] {
        var json: [String: Any] = [
            "summary": event.title,
            "description": event.body?.content ?? "",
            "location": event.location ?? "",
            "start": try dateTime(event.start, field: "start", patching: patching),
            "end": try dateTime(event.end, field: "end", patching: patching),
            "transparency": event.showAs == .free ? "transparent" : "opaque",
            "visibility": visibility(event.sensitivity),
            "attendees": event.attendees.map(attendeeJSON),
        ]
        if let id { json["id"] = id }
        if event.status != .cancelled { json["status"] = event.status.rawValue }
        if let recurrence = event.recurrence { json["recurrence"] = recurrence.lines }
        if let reminders = event.reminders {
            json["reminders"] = [
                "useDefault": false,
                "overrides": Self.storable(reminders).map {
                    ["method": $0.method == .email ? "email" : "popup", "minutes": $0.minutesBefore]
                },
            ] as [String: Any]
        } else {
            json["reminders"] = patching ? ["useDefault": true, "overrides": NSNull()] as [String: Any] : ["useDefault": true]
        }
        let properties = event.propertiesToWrite
        if !properties.isEmpty { json["extendedProperties"] = ["private": properties] }
        return json
    }

    /// The insert body of `event` (`body(for:id:)`, not patching) as JSON, written from the event in key
    /// order: the bytes `SortedJSONWriter.data` writes for that dictionary (`GoogleInsertBodyTests`
    /// compare the two), without building and sorting it. Nil when an extended property's name is one
    /// `SortedJSONWriter` leaves to `JSONSerialization`: the caller writes the dictionary then.
    static func insertBody(for event: Event, id: String?) throws(CalendarError) -> Data? {
        // Zones checked start first, as `body(for:)` does, so that an error names the same field.
        let startZone = try zone(of: event.start, field: "start")
        let endZone = try zone(of: event.end, field: "end")
        var out = SortedJSONWriter.Output(capacity: 1024 + event.title.utf8.count + (event.body?.content.utf8.count ?? 0))
        out.raw(#"{"attendees":["#)
        for (index, attendee) in event.attendees.enumerated() {
            if index > 0 { out.raw(",") }
            if let name = attendee.name {
                out.raw(#"{"displayName":"#)
                out.string(name)
                out.raw(#","email":"#)
            } else {
                out.raw(#"{"email":"#)
            }
            out.string(attendee.email)
            if attendee.role == .optional { out.raw(#","optional":true"#) }
            if attendee.role == .resource { out.raw(#","resource":true"#) }
            out.raw(#","responseStatus":"#)
            out.string(responseStatus(attendee.response))
            out.raw("}")
        }
        out.raw(#"],"description":"#)
        out.string(event.body?.content ?? "")
        out.raw(#","end":"#)
        writeDateTime(event.end, zone: endZone, into: &out)
        let properties = event.propertiesToWrite
        if !properties.isEmpty {
            out.raw(#","extendedProperties":{"private":"#)
            guard out.stringMap(properties) else { return nil }
            out.raw("}")
        }
        if let id {
            out.raw(#","id":"#)
            out.string(id)
        }
        out.raw(#","location":"#)
        out.string(event.location ?? "")
        if let recurrence = event.recurrence {
            out.raw(#","recurrence":"#)
            out.strings(recurrence.lines)
        }
        if let reminders = event.reminders {
            out.raw(#","reminders":{"overrides":["#)
            for (index, reminder) in storable(reminders).enumerated() {
                out.raw(index > 0 ? #",{"method":"# : #"{"method":"#)
                out.string(reminder.method == .email ? "email" : "popup")
                out.raw(#","minutes":"#)
                out.int(reminder.minutesBefore)
                out.raw("}")
            }
            out.raw(#"],"useDefault":false}"#)
        } else {
            out.raw(#","reminders":{"useDefault":true}"#)
        }
        out.raw(#","start":"#)
        writeDateTime(event.start, zone: startZone, into: &out)
        if event.status != .cancelled {
            out.raw(#","status":"#)
            out.string(event.status.rawValue)
        }
        out.raw(#","summary":"#)
        out.string(event.title)
        out.raw(#","transparency":"#)
        out.string(event.showAs == .free ? "transparent" : "opaque")
        out.raw(#","visibility":"#)
        out.string(visibility(event.sensitivity))
        out.raw("}")
        return Data(out.bytes)
    }

    /// `dateTime(_:field:)` (not patching), written; `zone` is `zone(of:field:)`'s for `time`.
    private static func writeDateTime(_ time: EventTime, zone tz: TimeZone?, into out: inout SortedJSONWriter.Output) {
        switch time {
        case .allDay(let date):
            out.raw(#"{"date":"#)
            out.string(date.description)
            out.raw("}")
        case .timed(let instant, let zone):
            out.raw(#"{"dateTime":"#)
            out.string(RFC3339.format(instant, in: tz ?? .gmt))
            out.raw(#","timeZone":"#)
            out.string(zone)
            out.raw("}")
        }
    }

    /// The zone of a timed event time (nil for a date); an error naming `field` when it is no IANA zone.
    static func zone(of time: EventTime, field: String) throws(CalendarError) -> TimeZone? {
        guard case .timed(_, let zone) = time else { return nil }
        guard let tz = TimeZone(identifier: zone) else {
            throw CalendarError(.invalidRequest, "event \(field) zone '\(zone)' is not an IANA time zone", provider: .google)
        }
        return tz
    }

    static func dateTime(_ time: EventTime, field: String, patching: Bool = false) throws(CalendarError) -> [String: Any] {
        switch time {
        case .allDay(let date):
            return patching ? ["date": date.description, "dateTime": NSNull(), "timeZone": NSNull()] : ["date": date.description]
        case .timed(let instant, let zone):
            let tz = try Self.zone(of: time, field: field) ?? .gmt
            let json: [String: Any] = ["dateTime": RFC3339.format(instant, in: tz), "timeZone": zone]
            return patching ? json.merging(["date": NSNull()]) { a, _ in a } : json
        }
    }

    static func visibility(_ s: Sensitivity) -> String {
        switch s {
        case .normal: "default"
        case .personal, .private: "private"
        case .confidential: "confidential"
        }
    }

    static func attendeeJSON(_ a: Attendee) -> [String: Any] {
        var json: [String: Any] = ["email": a.email]
        if let name = a.name { json["displayName"] = name }
        if a.role == .optional { json["optional"] = true }
        if a.role == .resource { json["resource"] = true }
        json["responseStatus"] = responseStatus(a.response)
        return json
    }

    static func responseStatus(_ response: Attendee.Response) -> String {
        switch response {
        case .accepted, .organizer: "accepted"
        case .declined: "declined"
        case .tentative: "tentative"
        case .needsAction: "needsAction"
        }
    }
}
