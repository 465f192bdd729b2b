import CalendarBridge
import Foundation
import HTTP
import Synchronization
import TimeZones

/// Graph event JSON ↔ `Event`, both ways.
struct GraphEventMapping: Sendable {
    let zones: ZoneNames
    /// The zones named so far, by Graph name: a listing names the same few zones in every event, two or
    /// three times each, and resolving a name took 5,000 instructions (3% of a no-change copy).
    let resolvedZones = ResolvedZones()
    /// The mailbox's zone, when known: the last resort for an all-day occurrence's date.
    var mailboxZone: TimeZone? = nil

    /// calbridge's own property set for named extended properties (any fixed GUID works; this one is ours).
    static let propertySet = "{4b1f3c2e-9d7a-4c55-b0e8-6a2d91f7c3e4}"

    /// The Graph id of a named string property: `String {guid} Name <name>`.
    static func propertyID(_ name: String) -> String { "String \(propertySet) Name \(name)" }

    /// The name of one of our properties, or the full id for anyone else's.
    static func propertyName(_ id: String) -> String {
        let prefix = "String \(propertySet) Name "
        return id.lowercased().hasPrefix(prefix.lowercased()) ? String(id.dropFirst(prefix.count)) : id
    }

    // MARK: reading

    /// The IANA zone for a Graph zone name, or a typed error.
    func ianaZone(_ name: String?, field: String, memo: inout ZoneMemo) throws(CalendarError) -> TimeZone {
        guard let name, let zone = memo.zone(named: name, in: self) else {
            throw CalendarError(
                .invalidResponse, "Graph \(field).timeZone '\(name ?? "")' names no known time zone", provider: .microsoft)
        }
        return zone
    }

    /// Parses Graph's `dateTime` (a local time, up to 7 fractional digits, no offset) in its `timeZone`.
    func instant(_ t: GraphDateTimeTimeZone, field: String, memo: inout ZoneMemo) throws(CalendarError) -> Date {
        guard let local = t.local else {
            throw CalendarError(.invalidResponse, "Graph \(field).dateTime '\(t.dateTime)' is not a local date-time", provider: .microsoft)
        }
        return local.instant(in: try ianaZone(t.timeZone, field: field, memo: &memo))
    }

    /// The zones already looked up while mapping one batch of events.
    struct ZoneMemo {
        /// Custom zones by blob and year: a series' occurrences, and a user's other events in the same
        /// custom zone, carry the same definition.
        var custom: [String: String?] = [:]
        /// The zone names met so far with their zones: a listing names the same two or three zones in
        /// every event, five times an event, and the shared `resolvedZones` (a lock and a hash) cost
        /// 1,000 instructions a name (4.5 million in a no-change copy of 1,000 events; callgrind).
        private var named: [(name: String, zone: TimeZone?)] = []

        init() {}

        /// The zone for a Graph zone name, from the names met so far (the first eight kept) or `mapping`.
        mutating func zone(named name: String, in mapping: GraphEventMapping) -> TimeZone? {
            // Lengths first: comparing two different names of one length is the rare case.
            let length = name.utf8.count
            for entry in named where entry.name.utf8.count == length && entry.name == name { return entry.zone }
            let zone = mapping.zone(named: name)
            if named.count < 8 { named.append((name, zone)) }
            return zone
        }
    }

    /// An event's extended properties: ours by name, the zone definitions Outlook keeps (MAPI) by
    /// lower-cased id, anyone else's by full id (they go to the event's bag).
    static func extendedProperties(of g: GraphEvent) -> (properties: [String: String], zoneDefinitions: [String: String]) {
        var properties: [String: String] = [:]
        var zoneDefinitions: [String: String] = [:]
        for p in g.singleValueExtendedProperties ?? [] {
            if MAPITimeZoneDefinition.isZoneProperty(p.id) {
                zoneDefinitions[p.id.lowercased()] = p.value ?? ""
            } else {
                properties[propertyName(p.id)] = p.value ?? ""
            }
        }
        return (properties, zoneDefinitions)
    }

    /// - Parameter seriesZones: the recurrence zone of each series master known to the caller (by master
    ///   id), for the dates of its all-day occurrences and exceptions (`seriesZone(_:seriesZones:)`).
    func event(
        _ g: GraphEvent, calendarID: String, memo: inout ZoneMemo, seriesZones: [String: TimeZone] = [:]
    ) throws(CalendarError) -> Event {
        guard let start = g.start, let end = g.end else {
            throw CalendarError(.invalidResponse, "Graph event \(g.id) has no start or end", provider: .microsoft)
        }
        let (properties, zoneDefinitions) = Self.extendedProperties(of: g)
        let startTime: EventTime
        let endTime: EventTime
        let eventZone: TimeZone
        if g.isAllDay == true {
            // All-day events run midnight to midnight in whatever zone they are shown in: the date is the event.
            guard let s = start.local, let e = end.local else {
                throw CalendarError(.invalidResponse, "Graph all-day event \(g.id) has unreadable dates", provider: .microsoft)
            }
            startTime = .allDay(date: s.date)
            endTime = .allDay(date: e.hour == 0 && e.minute == 0 && e.second == 0 ? e.date : e.date.adding(days: 1))
            eventZone = try ianaZone(start.timeZone, field: "start", memo: &memo)
        } else {
            let responseZone = try ianaZone(start.timeZone, field: "start", memo: &memo)
            let startInstant = try instant(start, field: "start", memo: &memo)
            // The event's own zone (originalStartTimeZone) keeps its wall-clock meaning; the instant comes
            // from the response's zone. A custom zone is the IANA zone its stored definition matches; when
            // none matches, the response zone stands in (the instants stay exact either way).
            func custom(_ ids: [String]) -> TimeZone? {
                guard let blob = ids.lazy.compactMap({ zoneDefinitions[$0.lowercased()] }).first else { return nil }
                return customZone(blob, near: startInstant, memo: &memo.custom)
            }
            // A series' zone is the one it expands in; its occurrences carry the master's, so they agree.
            eventZone = g.originalStartTimeZone.flatMap { memo.zone(named: $0, in: self) }
                ?? (Self.isCustom(g.originalStartTimeZone)
                    ? custom([MAPITimeZoneDefinition.recurID, MAPITimeZoneDefinition.startDisplayID]) : nil)
                ?? responseZone
            var endZone = g.originalEndTimeZone.flatMap { memo.zone(named: $0, in: self) }
                ?? (Self.isCustom(g.originalEndTimeZone) ? custom([MAPITimeZoneDefinition.endDisplayID]) : nil)
                ?? eventZone
            let endInstant = try instant(end, field: "end", memo: &memo)
            // An end calbridge wrote in UTC because its wall clock repeats in the event's zone (`dateTime`).
            if g.originalEndTimeZone?.caseInsensitiveEquals("UTC") == true, Self.isRepeatedWallClock(endInstant, in: eventZone) {
                endZone = eventZone
            }
            startTime = .timed(instant: startInstant, zone: Self.name(eventZone))
            endTime = .timed(instant: endInstant, zone: Self.name(endZone))
        }
        let (origin, bag) = Event.splitProperties(properties)

        var event = Event(
            id: g.id, calendarID: calendarID, title: g.subject ?? "",
            body: body(g.body),
            location: g.location?.displayName.flatMap { $0.isEmpty ? nil : $0 },
            start: startTime, end: endTime,
            recurrence: try g.recurrence.map { r throws(CalendarError) in
                var recurrence = Recurrence(rule: try GraphRecurrenceMapping.rule(r, allDay: g.isAllDay == true, zone: eventZone))
                if g.isAllDay == true { recurrence.allDayZone = seriesZone(g).map(Self.name) }
                return recurrence
            },
            seriesID: g.seriesMasterId,
            status: g.isCancelled == true ? .cancelled : .confirmed,
            organizer: g.organizer?.emailAddress.flatMap { a in
                a.address.map { Attendee(name: a.name, email: $0, response: .organizer) }
            },
            attendees: (g.attendees ?? []).compactMap(Self.attendee),
            reminders: g.isReminderOn == false ? [] : g.reminderMinutesBeforeStart.map { [Reminder(minutesBefore: $0)] } ?? [],
            showAs: ShowAs(rawValue: g.showAs ?? "busy") ?? .busy,
            sensitivity: Sensitivity(rawValue: g.sensitivity ?? "normal") ?? .normal,
            onlineMeetingURL: (g.onlineMeeting?.joinUrl ?? g.onlineMeetingUrl).flatMap(URL.init(string:)),
            categories: g.categories ?? [],
            iCalUID: g.iCalUId,
            created: g.createdDateTime,
            updated: g.lastModifiedDateTime,
            origin: origin, extendedProperties: bag)
        event.setWebURL(text: g.webLink)
        if let original = g.originalStart.flatMap(RFC3339.parse) {
            event.originalStart =
                g.isAllDay == true
                ? .allDay(date: LocalDate(instant: original, in: seriesZone(g, seriesZones: seriesZones) ?? eventZone))
                : .timed(instant: original, zone: Self.name(eventZone))
        }
        return event
    }

    /// The zone an all-day occurrence's `originalStart` is midnight in (microsoft-graph-docs #2804, #7163:
    /// Graph gives it as that midnight converted to UTC, so in a zone east of UTC its UTC date is the day
    /// before): the series' `recurrence.range.recurrenceTimeZone` (an occurrence or exception has no
    /// recurrence of its own: its master's, from `seriesZones`; empty on an attendee's copy), else the
    /// event's `originalStartTimeZone`, else the mailbox zone. `originalStartTimeZone` is the zone of
    /// `start`, not of `originalStart` (microsoft-graph-docs #2804), so it comes after the master's.
    func seriesZone(_ g: GraphEvent, seriesZones: [String: TimeZone] = [:]) -> TimeZone? {
        recurrenceZone(g) ?? g.seriesMasterId.flatMap { seriesZones[$0] } ?? namedZone(g.originalStartTimeZone) ?? mailboxZone
    }

    /// A series master's `recurrence.range.recurrenceTimeZone` as a zone (nil when missing or empty).
    func recurrenceZone(_ g: GraphEvent) -> TimeZone? {
        namedZone(g.recurrence?.range.recurrenceTimeZone.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Whether the wall clock `instant` shows in `zone` names a second instant too (clocks went back over
    /// it). Offsets change months apart, so the offsets a day either side are the only other candidates.
    static func isRepeatedWallClock(_ instant: Date, in zone: TimeZone) -> Bool {
        let offset = zone.secondsFromGMT(for: instant)
        let others = Set([-86_400.0, 86_400.0].map { zone.secondsFromGMT(for: instant.addingTimeInterval($0)) })
        return others.contains { other in
            other != offset && zone.secondsFromGMT(for: instant.addingTimeInterval(Double(offset - other))) == other
        }
    }

    /// The IANA spelling of a zone, with Foundation's "GMT" for UTC written as "UTC".
    static func name(_ zone: TimeZone) -> String { zone.identifier == "GMT" ? "UTC" : zone.identifier }

    /// The tz zone for a named Graph zone; nil for a custom, missing or unknown one.
    func namedZone(_ name: String?) -> TimeZone? {
        name.flatMap(zone(named:))
    }

    /// The IANA zone for a Graph zone name, once per name.
    func zone(named name: String) -> TimeZone? {
        resolvedZones.zone(named: name) { zones.toIANA($0).flatMap(TimeZone.init(identifier:)) }
    }

    static func isCustom(_ name: String?) -> Bool {
        // ASCII case only (Foundation's comparison, which folds all of Unicode, was 4,400 instructions a call).
        name?.caseInsensitiveEquals("tzone://Microsoft/Custom") == true
    }

    /// The IANA zone equal to a custom zone's definition for the three years from the event's start
    /// (a single event needs only its own instants; a series is checked for its first years).
    func customZone(_ blob: String, near instant: Date, memo: inout [String: String?]) -> TimeZone? {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(secondsFromGMT: 0)!
        let year = utc.component(.year, from: instant)
        let key = "\(year)|\(blob)"
        if let known = memo[key] { return known.flatMap(TimeZone.init(identifier:)) }
        var found: String?
        if let definition = MAPITimeZoneDefinition.parse(base64: blob),
           let from = utc.date(from: DateComponents(year: year, month: 1, day: 1)) {
            let span = DateInterval(start: from, duration: 3 * 366 * 86_400)
            found = WindowsZones.ianaZone(equivalentTo: definition, over: span)
        }
        memo[key] = found
        return found.flatMap(TimeZone.init(identifier:))
    }

    func body(_ b: GraphItemBody?) -> EventBody? {
        guard let content = b?.content, !content.isEmpty else { return nil }
        return b?.contentType?.lowercased() == "html" ? .html(content) : .text(content)
    }

    static func attendee(_ a: GraphAttendee) -> Attendee? {
        guard let address = a.emailAddress?.address else { return nil }
        let role: Attendee.Role =
            switch a.type {
            case "optional": .optional
            case "resource": .resource
            default: .required
            }
        let response: Attendee.Response =
            switch a.status?.response {
            case "accepted": .accepted
            case "declined": .declined
            case "tentativelyAccepted": .tentative
            case "organizer": .organizer
            default: .needsAction
            }
        return Attendee(name: a.emailAddress?.name, email: address, role: role, response: response)
    }

    // MARK: writing

    /// The PATCH body writing `fields` of `event`. A series' pattern goes with its times: the range's
    /// `startDate` must be the start's date.
    func body(for event: Event, fields: EventFields) throws(CalendarError) -> [String: Any] {
        var body = fields.select(
            from: try body(for: event),
            members: [
                .title: ["subject"], .times: ["start", "end", "isAllDay", "recurrence"], .location: ["location"],
                .recurrence: ["recurrence"], .body: ["body"], .reminders: ["isReminderOn", "reminderMinutesBeforeStart"],
                .showAs: ["showAs"], .sensitivity: ["sensitivity"],
            ])
        // A rule removed: `null` turns the series master into a single event.
        if fields != .all, fields.contains(.recurrence), event.recurrence == nil { body["recurrence"] = NSNull() }
        return body
    }

    /// The JSON body for create or patch. Read-only fields (links, created, iCalUID, online meeting,
    /// organizer, status) are not written. Attendees are written as given: Graph then sends invitations
    /// (it has no "send no updates" switch), so callers that copy leave them out.
    func body(for event: Event, transactionID: String? = nil) throws(CalendarError) -> [String: Any] {
        var json: [String: Any] = [
            "subject": event.title,
            "body": ["contentType": event.body?.isHTML == true ? "html" : "text", "content": event.body?.content ?? ""],
            "location": ["displayName": event.location ?? ""],
            "showAs": event.showAs.rawValue,
            "sensitivity": event.sensitivity.rawValue,
            "categories": event.categories,
            "attendees": event.attendees.map(Self.attendeeJSON),
        ]
        if let transactionID { json["transactionId"] = transactionID }
        let allDayZone = event.recurrence?.allDayZone
        let (start, startZone, windows) = try dateTime(event.start, isAllDay: event.isAllDay, field: "start", allDayZone: allDayZone)
        let (end, _, _) = try dateTime(
            event.end, isAllDay: event.isAllDay, field: "end", exactInstant: event.recurrence == nil, allDayZone: allDayZone)
        json["start"] = start
        json["end"] = end
        json["isAllDay"] = event.isAllDay
        if let reminders = event.reminders {
            json["isReminderOn"] = !reminders.isEmpty
            if let first = reminders.min(by: { $0.minutesBefore < $1.minutesBefore }) {
                json["reminderMinutesBeforeStart"] = first.minutesBefore
            }
        }
        if let recurrence = event.recurrence {
            let startLocal: LocalDateTime =
                switch event.start {
                case .allDay(let date): LocalDateTime(date: date)
                case .timed(let instant, _): LocalDateTime(instant: instant, in: startZone)
                }
            json["recurrence"] = try GraphRecurrenceMapping.json(
                recurrence, start: startLocal, allDay: event.isAllDay, zone: startZone, windowsZone: windows)
        }
        let properties = event.propertiesToWrite
        if !properties.isEmpty {
            json["singleValueExtendedProperties"] = properties.sorted { $0.key < $1.key }.map {
                ["id": Self.propertyID($0.key), "value": $0.value]
            }
        }
        return json
    }

    /// `{dateTime, timeZone}` for a time: the wall-clock time in the event's zone, labelled with its
    /// Windows name; UTC when the zone has no Windows name (the instant is kept, the zone is not).
    ///
    /// With `exactInstant`, a wall clock that happens twice in its zone (the hour repeated when clocks go
    /// back) is written in UTC too: how Exchange reads such a time is not documented (RFC 5545 takes the
    /// first, .NET's `TimeZoneInfo` the second), and a single event's end must keep its instant. Reading
    /// maps such an end back to the event's zone. A series' times stay wall clocks: its zone is its meaning.
    ///
    /// All-day times are midnights in UTC, or in `allDayZone` (a series' `Recurrence.allDayZone`) when it
    /// has a Windows name.
    func dateTime(_ time: EventTime, isAllDay: Bool, field: String, exactInstant: Bool = false, allDayZone: String? = nil)
        throws(CalendarError) -> ([String: String], TimeZone, String)
    {
        switch time {
        case .allDay(let date):
            let midnight = LocalDateTime(date: date).format(fractionDigits: 0)
            if let name = allDayZone, let tz = TimeZone(identifier: name), let windows = zones.toWindows(name) {
                return (["dateTime": midnight, "timeZone": windows], tz, windows)
            }
            let utc = TimeZone(identifier: "UTC")!
            return (["dateTime": midnight, "timeZone": "UTC"], utc, "UTC")
        case .timed(let instant, let zone):
            guard !isAllDay else {
                throw CalendarError(.invalidRequest, "event \(field) has a time but the event is all-day", provider: .microsoft)
            }
            guard let tz = TimeZone(identifier: zone) else {
                throw CalendarError(.invalidRequest, "event \(field) zone '\(zone)' is not an IANA time zone", provider: .microsoft)
            }
            if let windows = zones.toWindows(zone), !(exactInstant && Self.isRepeatedWallClock(instant, in: tz)) {
                let local = LocalDateTime(instant: instant, in: tz).format(fractionDigits: 0)
                return (["dateTime": local, "timeZone": windows], tz, windows)
            }
            let utc = TimeZone(identifier: "UTC")!
            let local = LocalDateTime(instant: instant, in: utc).format(fractionDigits: 0)
            return (["dateTime": local, "timeZone": "UTC"], utc, "UTC")
        }
    }

    static func attendeeJSON(_ a: Attendee) -> [String: Any] {
        var address: [String: String] = ["address": a.email]
        if let name = a.name { address["name"] = name }
        return ["type": a.role.rawValue, "emailAddress": address]
    }
}

/// Graph zone names and the zones they resolved to (nil: no known zone), shared by the copies of one
/// provider's mapping.
final class ResolvedZones: Sendable {
    private let zones = Mutex<[String: TimeZone?]>([:])

    func zone(named name: String, resolve: (String) -> TimeZone?) -> TimeZone? {
        if let known = zones.withLock({ $0[name] }) { return known }
        let zone = resolve(name)
        zones.withLock { $0[name] = zone }
        return zone
    }
}
