import CLibical
import CalendarBridge
import Foundation

/// Writes events as one iCalendar (RFC 5545) `VCALENDAR`, through libical (which escapes, folds and
/// checks what it is given).
///
/// Series masters become one `VEVENT` with their `RRULE`/`EXDATE`/`RDATE` lines; an exception (`seriesID`
/// names a master in the list) becomes a `VEVENT` with the master's `UID` and a `RECURRENCE-ID`, a cancelled
/// one an `EXDATE` of its master. Every zone used gets its `VTIMEZONE` (libical's, from the system's zone
/// data, `TZID` the IANA name). Attendees and the organizer are written as text lines in the description,
/// as `copy` writes them, so that no tool reading the file invites anybody.
public enum ICalendarWriter {
    public static let productID = "-//calbridge//calbridge//EN"

    /// The `VCALENDAR` text (CRLF line ends).
    /// - Parameters:
    ///   - name: the calendar's name (`X-WR-CALNAME`), when given.
    ///   - stamp: `DTSTAMP` of events without a last-modified time.
    ///   - xProperties: `X-` properties (name, value) to write into each event's `VEVENT` (a CalDAV provider's
    ///     markers); none by default.
    ///   - attendeesAsText: attendees and organizer as text lines in the description (the default: nobody is
    ///     invited by a file); false writes no attendees at all.
    /// - Throws: `ICalendarError` when a recurrence line is not one libical reads.
    public static func write(
        _ events: [Event], name: String? = nil, stamp: Date = Date(), xProperties: (Event) -> [(String, String)] = { _ in [] },
        attendeesAsText: Bool = true
    ) throws(ICalendarError) -> String {
        try LibicalSession.run { () throws(ICalendarError) -> String in
            let calendar = icalcomponent_new(ICAL_VCALENDAR_COMPONENT)!
            defer { icalcomponent_free(calendar) }
            try add(calendar, "VERSION:2.0")
            try add(calendar, "PRODID:" + productID)
            try add(calendar, "CALSCALE:GREGORIAN")
            if let name, !name.isEmpty {
                let property = icalproperty_new_x(name)
                icalproperty_set_x_name(property, "X-WR-CALNAME")
                icalcomponent_add_property(calendar, property)
            }

            let masters = Dictionary(
                events.filter { $0.recurrence != nil && $0.seriesID == nil }.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            var exdates: [String: [String]] = [:]
            var written: [OpaquePointer] = []
            var masterComponents: [String: OpaquePointer] = [:]
            var zones: Set<String> = []
            var earliestYear = 9999
            for event in events {
                var uid = event.iCalUID ?? event.id
                var recurrenceID: String?
                if let seriesID = event.seriesID, let master = masters[seriesID], let original = event.originalStart {
                    uid = master.iCalUID ?? master.id
                    if event.status == .cancelled {
                        exdates[seriesID, default: []].append(ComponentReader.dateLine("EXDATE", original, seriesStart: master.start))
                        continue
                    }
                    recurrenceID = propertyLine("RECURRENCE-ID", original, zoneOf: master.start)
                } else if let original = event.originalStart {
                    // An occurrence of a series not in the list (its master outside the window).
                    recurrenceID = propertyLine("RECURRENCE-ID", original, zoneOf: original)
                }
                if case .timed(let instant, _) = event.start {
                    earliestYear = min(earliestYear, LocalDate(instant: instant, in: TimeZone(secondsFromGMT: 0)!).year)
                }
                let component = icalcomponent_new(ICAL_VEVENT_COMPONENT)!
                written.append(component)
                icalcomponent_add_property(component, icalproperty_new_uid(uid))
                try add(component, "DTSTAMP:" + utcText(event.updated ?? stamp))
                try add(component, propertyLine("DTSTART", event.start, zoneOf: event.start))
                try add(component, propertyLine("DTEND", event.end, zoneOf: event.start))
                if let recurrenceID { try add(component, recurrenceID) }
                for line in event.recurrence?.lines ?? [] { try add(component, line) }
                // libical refuses an empty SUMMARY when reading: an untitled event has none.
                if !event.title.isEmpty { icalcomponent_add_property(component, icalproperty_new_summary(event.title)) }
                if let location = event.location, !location.isEmpty {
                    icalcomponent_add_property(component, icalproperty_new_location(location))
                }
                let description = Self.description(event, attendees: attendeesAsText)
                if !description.isEmpty { icalcomponent_add_property(component, icalproperty_new_description(description)) }
                if let url = event.webURL { icalcomponent_add_property(component, icalproperty_new_url(url.absoluteString)) }
                // One line a category: libical writes a comma in a value unescaped, which would read as two.
                for category in event.categories where !category.isEmpty {
                    icalcomponent_add_property(component, icalproperty_new_categories(category.replacingOccurrences(of: ",", with: " ")))
                }
                switch event.status {
                case .cancelled: try add(component, "STATUS:CANCELLED")
                case .tentative: try add(component, "STATUS:TENTATIVE")
                case .confirmed: try add(component, "STATUS:CONFIRMED")
                }
                try add(component, event.showAs == .free ? "TRANSP:TRANSPARENT" : "TRANSP:OPAQUE")
                switch event.sensitivity {
                case .private, .personal: try add(component, "CLASS:PRIVATE")
                case .confidential: try add(component, "CLASS:CONFIDENTIAL")
                case .normal: break
                }
                if let created = event.created { try add(component, "CREATED:" + utcText(created)) }
                if let updated = event.updated { try add(component, "LAST-MODIFIED:" + utcText(updated)) }
                if let sequence = event.sequence, sequence > 0 { try add(component, "SEQUENCE:\(sequence)") }
                for reminder in event.reminders ?? [] {
                    let alarm = icalcomponent_new(ICAL_VALARM_COMPONENT)!
                    try add(alarm, "ACTION:DISPLAY")
                    try add(alarm, "TRIGGER:-PT\(max(0, reminder.minutesBefore))M")
                    icalcomponent_add_property(alarm, icalproperty_new_description(event.title.isEmpty ? "Reminder" : event.title))
                    icalcomponent_add_component(component, alarm)
                }
                for (xName, xValue) in xProperties(event) {
                    let property = icalproperty_new_x(xValue)
                    icalproperty_set_x_name(property, xName)
                    icalcomponent_add_property(component, property)
                }
                for zone in [event.start.zone, event.end.zone].compactMap({ $0 }) where !isUTC(zone) { zones.insert(zone) }
                if event.recurrence != nil && event.seriesID == nil { masterComponents[event.id] = component }
            }
            // EXDATEs of cancelled occurrences, on their masters.
            for (id, lines) in exdates {
                guard let component = masterComponents[id] else { continue }
                let existing = Set(masters[id]?.recurrence?.lines ?? [])
                for line in Set(lines).sorted() where !existing.contains(line) { try add(component, line) }
            }
            for zone in zones.sorted() {
                guard let builtin = icaltimezone_get_builtin_timezone(zone), let vtimezone = icaltimezone_get_component(builtin),
                    let copy = icalcomponent_new_clone(vtimezone)
                else { throw ICalendarError("libical has no definition of the time zone '\(zone)' (is tzdata installed?)") }
                if let tzid = icalcomponent_get_first_property(copy, ICAL_TZID_PROPERTY) { icalproperty_set_tzid(tzid, zone) }
                // The zone's rules from the earliest event's year on, not from 1893.
                let start = icaltime_from_string(String(format: "%04d0101T000000Z", max(1970, min(earliestYear, 2100))))
                icaltimezone_truncate_vtimezone(copy, start, icaltime_null_time(), 1)
                icalcomponent_add_component(calendar, copy)
            }
            for component in written { icalcomponent_add_component(calendar, component) }
            guard let text = icalcomponent_as_ical_string_r(calendar) else { throw ICalendarError("libical could not write the calendar") }
            defer { icalmemory_free_buffer(text) }
            return String(cString: text)
        }
    }

    /// The description: the body as plain text, then the attendee lines `copy` writes.
    static func description(_ event: Event, attendees: Bool = true) -> String {
        var parts: [String] = []
        if let body = event.body, !body.isEmpty {
            parts.append(body.isHTML ? HTMLText.plainText(fromHTML: body.content) : body.content)
        }
        let people = CopyProjection(
            fields: .all,
            target: ProviderCapabilities(
                serverQuickAdd: false, recurrence: .rfc5545, personalSensitivity: false, richShowAs: false, categories: false)
        )
        .attendeeLines(attendees ? event : Event(title: "", start: event.start, end: event.end))
        if !people.isEmpty { parts.append(people.joined(separator: "\n")) }
        return parts.joined(separator: "\n\n")
    }

    /// `NAME;TZID=zone:local`, `NAME:utcZ` or `NAME;VALUE=DATE:date`, the time written in the zone of `zoneOf`.
    static func propertyLine(_ name: String, _ time: EventTime, zoneOf reference: EventTime) -> String {
        switch time {
        case .allDay(let date):
            return "\(name);VALUE=DATE:" + date.description.filter(\.isNumber)
        case .timed(let instant, let ownZone):
            let zone = reference.zone ?? ownZone
            guard !isUTC(zone), let tz = TimeZone(identifier: zone) else { return "\(name):" + utcText(instant) }
            return "\(name);TZID=\(zone):" + RecurrenceExpansion.SeriesStart.basic(LocalDateTime(instant: instant, in: tz), isDate: false)
        }
    }

    /// Whether a zone name is UTC under another name (written as `Z` times, with no `VTIMEZONE`).
    static func isUTC(_ zone: String) -> Bool { ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Zulu", "Zulu", "Z"].contains(zone) }

    static func utcText(_ instant: Date) -> String {
        RecurrenceExpansion.SeriesStart.basic(LocalDateTime(instant: instant, in: TimeZone(secondsFromGMT: 0)!), isDate: false) + "Z"
    }

    /// Adds the property of one content line (`NAME;PARAM=x:value`), read by libical.
    static func add(_ component: OpaquePointer, _ line: String) throws(ICalendarError) {
        guard !line.contains(where: { $0 == "\r" || $0 == "\n" }), let property = icalproperty_new_from_string(line) else {
            throw ICalendarError("libical refused the line '\(line.prefix(80))'")
        }
        icalcomponent_add_property(component, property)
    }
}
