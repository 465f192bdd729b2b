import CalendarBridge
import Foundation
import ICalendar

/// One calendar object resource (RFC 4791 §4.1): one `.ics` with one UID, the series master with its
/// overrides, or a single event, as calbridge's events.
///
/// Ids: the resource's name (`<name>.ics`) for its master or single event, `<name>_<original start>` for an
/// occurrence (`ICalendarReader.occurrenceKey`: `20260105T080000Z` or `20260105`), so that an id leads
/// straight to its resource. `iCalUID` keeps the UID.
struct CalDAVResource: Sendable {
    /// The resource's name in its calendar collection (the last segment of its href, decoded).
    var name: String
    /// The entity tag the server gave (for `If-Match`), nil when it gave none.
    var etag: String?
    /// The master or single event first, then its overrides.
    var events: [Event]
    /// The calendar data as the server gave it (nil for a resource calbridge makes): a write of the resource
    /// is merged onto it, so that what calbridge does not model (attendees, other clients' properties, alarms)
    /// stays.
    var stored: String?

    /// The `X-` properties that carry the origin marker (`OriginMarker`'s three properties), by property name.
    static let markerProperties: [(xName: String, property: String)] = [
        ("X-CALBRIDGE-ORIGIN", OriginMarker.markerProperty),
        ("X-CALBRIDGE-ORIGIN-KEY", OriginMarker.eventKeyProperty),
        ("X-CALBRIDGE-ORIGIN-CALENDAR", OriginMarker.calendarKeyProperty),
    ]

    /// Reads a resource's calendar data.
    /// - Throws: `ICalendarError` when it is not iCalendar calbridge reads.
    init(name: String, etag: String?, calendarData: String, calendarID: String) throws(ICalendarError) {
        self.name = name
        self.etag = etag
        stored = calendarData
        let file = try ICalendarReader.read(
            calendarData, floatingZone: TimeZone(secondsFromGMT: 0)!, xProperties: Set(Self.markerProperties.map(\.xName)))
        var events: [Event] = []
        for read in file.events {
            var event = read
            let uid = event.iCalUID ?? event.id
            event.id = name + event.id.dropFirst(min(uid.count, event.id.count))
            if event.seriesID != nil { event.seriesID = name }
            if event.originalStart != nil, event.seriesID == nil, !event.id.hasPrefix(name + "_") {
                // An override whose master is not in the resource (a server that stores only the exception).
                event.id = name + "_" + ICalendarReader.occurrenceKey(event.originalStart!)
            }
            event.calendarID = calendarID
            var properties: [String: String] = [:]
            for (xName, property) in Self.markerProperties {
                if let value = event.extendedProperties[xName] { properties[property] = Self.decodeValue(value) }
            }
            let (marker, _) = Event.splitProperties(properties)
            event.origin = marker
            event.extendedProperties = [:]
            events.append(event)
        }
        // The master (or single event) first.
        self.events = events.filter { $0.seriesID == nil } + events.filter { $0.seriesID != nil }
    }

    init(name: String, etag: String?, events: [Event]) {
        self.name = name
        self.etag = etag
        self.events = events
    }

    /// The master or single event.
    var main: Event? { events.first { $0.seriesID == nil } }

    /// The resource as iCalendar text: the markers as `X-` properties, every zone's `VTIMEZONE`, no
    /// attendees of calbridge's (calbridge invites nobody through CalDAV); merged onto the stored data when
    /// there is one (`ICalendarMerge`: its attendees, organizer, alarms and other properties stay).
    func calendarData() throws(ICalendarError) -> String {
        let written = try ICalendarWriter.write(
            events,
            xProperties: { event in
                let properties = event.origin?.properties ?? [:]
                return Self.markerProperties.compactMap { xName, property in properties[property].map { (xName, Self.encodeValue($0)) } }
            }, attendeesAsText: false)
        guard let stored else { return written }
        return try ICalendarMerge.merge(written, onto: stored, replacedXProperties: Set(Self.markerProperties.map(\.xName)))
    }

    /// A marker value as written: base64, because servers re-serialize `X-` values as TEXT and escape the
    /// commas and semicolons of its JSON (Radicale writes `\,`), which a raw value would not survive.
    static func encodeValue(_ value: String) -> String { "b64:" + Data(value.utf8).base64EncodedString() }

    /// A marker value as read: base64 as calbridge writes it, else the text with RFC 5545 TEXT escapes undone.
    static func decodeValue(_ value: String) -> String {
        if value.hasPrefix("b64:"), let data = Data(base64Encoded: String(value.dropFirst(4))) {
            return String(decoding: data, as: UTF8.self)
        }
        var out = ""
        var escaped = false
        for character in value {
            if escaped {
                out.append(character == "n" || character == "N" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// The resource's events as a read-only calendar, for expansion with libical (`ICalendarFileProvider`).
    static func expansion(of resources: [CalDAVResource]) -> ICalendarFileProvider {
        ICalendarFileProvider(file: ICalendarFile(events: resources.flatMap(\.events)), account: "caldav")
    }

    /// The resource name and the occurrence key of an event id (`name_20260105T080000Z`), or the name alone.
    static func split(id: String) -> (name: String, occurrence: String?) {
        guard let underscore = id.lastIndex(of: "_") else { return (id, nil) }
        let key = id[id.index(after: underscore)...]
        let digits = key.filter(\.isNumber).count
        let isKey = (key.count == 8 && digits == 8) || (key.count == 16 && digits == 14 && key.dropFirst(8).first == "T" && key.last == "Z")
        return isKey ? (String(id[..<underscore]), String(key)) : (id, nil)
    }
}
