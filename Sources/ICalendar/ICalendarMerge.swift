import CLibical
import CalendarBridge
import Foundation

/// Writes calbridge's version of a calendar object resource over the one a server stores without losing what
/// calbridge does not model: the stored `VEVENT`s keep their attendees, organizer, `SEQUENCE`, unknown and
/// other clients' `X-` properties, and their alarms unless the reminders changed; only the properties
/// `ICalendarWriter` writes are replaced (as a PATCH of named members does on Graph and Google).
public enum ICalendarMerge {
    /// The `VEVENT` properties `ICalendarWriter` writes: these come from the written version, all others stay
    /// as stored.
    static let modeled: Set<UInt32> = Set(
        [
            ICAL_UID_PROPERTY, ICAL_DTSTAMP_PROPERTY, ICAL_DTSTART_PROPERTY, ICAL_DTEND_PROPERTY, ICAL_DURATION_PROPERTY,
            ICAL_RECURRENCEID_PROPERTY, ICAL_RRULE_PROPERTY, ICAL_EXDATE_PROPERTY, ICAL_RDATE_PROPERTY, ICAL_SUMMARY_PROPERTY,
            ICAL_LOCATION_PROPERTY, ICAL_DESCRIPTION_PROPERTY, ICAL_URL_PROPERTY, ICAL_CATEGORIES_PROPERTY, ICAL_STATUS_PROPERTY,
            ICAL_TRANSP_PROPERTY, ICAL_CLASS_PROPERTY, ICAL_CREATED_PROPERTY, ICAL_LASTMODIFIED_PROPERTY,
        ].map(\.rawValue))

    /// `written` (one `VCALENDAR` from `ICalendarWriter`) merged onto `stored` (the resource as the server
    /// has it): each written `VEVENT` replaces the modeled properties of the stored one with the same UID and
    /// `RECURRENCE-ID`; a stored event the written version no longer has is gone (an override removed); the
    /// stored calendar's own properties and zones stay, the written zones are added. The stored alarms stay
    /// when the written event has the same reminders; otherwise the alarms calbridge reads as reminders are
    /// replaced by the written ones, and the others (e-mail, absolute or end-relative triggers) stay.
    /// `SEQUENCE`, where the stored event has one, goes up by one from the larger of the stored and the written
    /// one (RFC 5545 §3.8.7.4); where only the written event has one, it is the written one.
    /// - Parameters:
    ///   - replacedXProperties: the `X-` properties calbridge writes (upper-case): replaced like the modeled
    ///     ones; other `X-` properties stay.
    /// - Returns: the merged `VCALENDAR`; `written` unchanged when `stored` is not one calendar libical reads.
    /// - Throws: `ICalendarError` when `written` is not iCalendar libical reads.
    public static func merge(_ written: String, onto stored: String, replacedXProperties: Set<String>) throws(ICalendarError) -> String {
        try LibicalSession.run { () throws(ICalendarError) -> String in
            guard let new = icalparser_parse_string(written) else { throw ICalendarError("libical could not read the written calendar") }
            defer { icalcomponent_free(new) }
            guard icalcomponent_isa(new) == ICAL_VCALENDAR_COMPONENT else { throw ICalendarError("the written text is not one VCALENDAR") }
            guard !stored.utf8.contains(0), let old = icalparser_parse_string(stored) else { return written }
            defer { icalcomponent_free(old) }
            guard icalcomponent_isa(old) == ICAL_VCALENDAR_COMPONENT else { return written }

            let utc = TimeZone(secondsFromGMT: 0)!
            let oldReader = ComponentReader(calendar: old, floating: utc, lines: SourceLines(stored))
            let newReader = ComponentReader(calendar: new, floating: utc, lines: SourceLines(written))
            var storedEvents: [String: (component: OpaquePointer, reminders: [Reminder]?)] = [:]
            for component in components(of: old, ICAL_VEVENT_COMPONENT) {
                guard let parsed = try? oldReader.read(component, line: 0) else { continue }
                storedEvents[key(parsed)] = (component, parsed.event.reminders)
            }

            guard let result = icalcomponent_new_clone(old) else { return written }
            defer { icalcomponent_free(result) }
            for component in components(of: result, ICAL_VEVENT_COMPONENT) {
                icalcomponent_remove_component(result, component)
                icalcomponent_free(component)
            }
            let storedZones = Set(components(of: result, ICAL_VTIMEZONE_COMPONENT).compactMap(tzid))
            for zone in components(of: new, ICAL_VTIMEZONE_COMPONENT) where !storedZones.contains(tzid(zone) ?? "") {
                if let copy = icalcomponent_new_clone(zone) { icalcomponent_add_component(result, copy) }
            }
            for component in components(of: new, ICAL_VEVENT_COMPONENT) {
                guard let parsed = try? newReader.read(component, line: 0), let match = storedEvents[key(parsed)],
                    let merged = icalcomponent_new_clone(match.component)
                else {
                    if let copy = icalcomponent_new_clone(component) { icalcomponent_add_component(result, copy) }
                    continue
                }
                for property in properties(of: merged) where isReplaced(property, replacedXProperties) {
                    icalcomponent_remove_property(merged, property)
                    icalproperty_free(property)
                }
                // SEQUENCE is decided below, never copied: two SEQUENCE lines make a resource servers refuse (400).
                for property in properties(of: component) where icalproperty_isa(property) != ICAL_SEQUENCE_PROPERTY {
                    if let copy = icalproperty_new_clone(property) { icalcomponent_add_property(merged, copy) }
                }
                if parsed.event.reminders != match.reminders {
                    for alarm in components(of: merged, ICAL_VALARM_COMPONENT) where ComponentReader.reminder(ofAlarm: alarm) != nil {
                        icalcomponent_remove_component(merged, alarm)
                        icalcomponent_free(alarm)
                    }
                    for alarm in components(of: component, ICAL_VALARM_COMPONENT) {
                        if let copy = icalcomponent_new_clone(alarm) { icalcomponent_add_component(merged, copy) }
                    }
                }
                let writtenSequence =
                    icalcomponent_get_first_property(component, ICAL_SEQUENCE_PROPERTY) != nil ? icalcomponent_get_sequence(component) : nil
                if icalcomponent_get_first_property(merged, ICAL_SEQUENCE_PROPERTY) != nil {
                    icalcomponent_set_sequence(merged, max(icalcomponent_get_sequence(merged), writtenSequence ?? 0) + 1)
                } else if let writtenSequence {
                    icalcomponent_set_sequence(merged, writtenSequence)
                }
                icalcomponent_add_component(result, merged)
            }
            guard let text = icalcomponent_as_ical_string_r(result) else { throw ICalendarError("libical could not write the calendar") }
            defer { icalmemory_free_buffer(text) }
            return String(cString: text)
        }
    }

    /// An event's UID and, for an override, its occurrence key.
    static func key(_ parsed: ParsedEvent) -> String {
        parsed.uid + "\u{1F}" + (parsed.recurrenceID.map(ICalendarReader.occurrenceKey) ?? "")
    }

    static func isReplaced(_ property: OpaquePointer, _ xNames: Set<String>) -> Bool {
        let kind = icalproperty_isa(property)
        if kind == ICAL_X_PROPERTY {
            guard let name = icalproperty_get_x_name(property) else { return false }
            return xNames.contains(String(cString: name).uppercased())
        }
        return modeled.contains(kind.rawValue)
    }

    static func tzid(_ zone: OpaquePointer) -> String? {
        guard let property = icalcomponent_get_first_property(zone, ICAL_TZID_PROPERTY), let value = icalproperty_get_tzid(property) else {
            return nil
        }
        return String(cString: value)
    }

    /// The direct subcomponents of a kind, collected first (so that the caller may remove them).
    static func components(of parent: OpaquePointer, _ kind: icalcomponent_kind) -> [OpaquePointer] {
        var found: [OpaquePointer] = []
        var next = icalcomponent_get_first_component(parent, kind)
        while let component = next {
            found.append(component)
            next = icalcomponent_get_next_component(parent, kind)
        }
        return found
    }

    /// Every property of a component, collected first.
    static func properties(of component: OpaquePointer) -> [OpaquePointer] {
        var found: [OpaquePointer] = []
        var next = icalcomponent_get_first_property(component, ICAL_ANY_PROPERTY)
        while let property = next {
            found.append(property)
            next = icalcomponent_get_next_property(component, ICAL_ANY_PROPERTY)
        }
        return found
    }
}
