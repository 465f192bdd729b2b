import CLibical
import CalendarBridge
import Foundation
import TimeZones

/// Reads one `VEVENT` of a parsed calendar into an `Event` (inside `LibicalSession.run`).
struct ComponentReader {
    /// The `VCALENDAR` the events are in (its `VTIMEZONE`s name zones).
    let calendar: OpaquePointer
    /// The zone of floating times.
    let floating: TimeZone
    /// The calendar's `X-WR-TIMEZONE` (Google's and Apple's exports): UTC and floating times are shown in it,
    /// and series in UTC repeat on its clock, as the services that write it mean (and recurring-ical-events reads).
    let calendarZone: TimeZone?
    let lines: SourceLines
    /// The calendar's `VTIMEZONE`s that name no known zone, read by their own rules.
    let customZones: CustomZones
    /// The `X-` properties read into `Event.extendedProperties` (upper-case names; others are ignored).
    let xProperties: Set<String>

    init(
        calendar: OpaquePointer, floating: TimeZone, calendarZone: TimeZone? = nil, lines: SourceLines, xProperties: Set<String> = []
    ) {
        self.calendar = calendar
        self.floating = floating
        self.calendarZone = calendarZone
        self.lines = lines
        self.xProperties = xProperties
        customZones = CustomZones(calendar: calendar)
    }

    /// Reads the event that begins on line `line`.
    func read(_ component: OpaquePointer, line: Int) throws(ICalendarError) -> ParsedEvent {
        let uid = text(icalcomponent_get_uid(component)) ?? ""
        if uid.isEmpty { throw ICalendarError("the event on line \(line) has no UID; every VEVENT needs one") }
        // RFC 5545 TEXT has no control characters; a UID with one could not be written back as the same UID.
        if uid.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw ICalendarError("the UID of the event on line \(line) contains a control character; a UID is one line of text")
        }
        if let error = firstError(in: component) {
            throw ICalendarError(
                "libical refused a line of event '\(uid.prefix(60))' (line \(lines.line(of: error.value, after: line))): \(error.message)")
        }
        guard let startProperty = icalcomponent_get_first_property(component, ICAL_DTSTART_PROPERTY) else {
            throw ICalendarError("event '\(uid.prefix(60))' (line \(line)) has no DTSTART")
        }
        let start = try time(icalproperty_get_dtstart(startProperty), property: startProperty, name: "DTSTART", line: line)
        if icalcomponent_get_first_property(component, ICAL_RRULE_PROPERTY) != nil,
            let tzid = unsolvedCustomZone(icalproperty_get_dtstart(startProperty), property: startProperty)
        {
            throw ICalendarError(
                "event '\(uid.prefix(60))' (line \(lines.line(of: tzid, after: line))) repeats in the file's own time zone '\(tzid.prefix(60))', whose rules match no IANA zone, so its occurrences cannot be placed: give DTSTART an IANA TZID (Europe/Berlin)"
            )
        }
        let end: EventTime
        if let p = icalcomponent_get_first_property(component, ICAL_DTEND_PROPERTY) {
            end = try time(icalproperty_get_dtend(p), property: p, name: "DTEND", line: line)
        } else if let p = icalcomponent_get_first_property(component, ICAL_DURATION_PROPERTY) {
            let seconds = Int(icaldurationtype_as_int(icalproperty_get_duration(p)))
            switch start {
            case .allDay(let date): end = .allDay(date: date.adding(days: max(1, seconds / 86_400)))
            case .timed(let instant, let zone): end = .timed(instant: instant.addingTimeInterval(TimeInterval(max(0, seconds))), zone: zone)
            }
        } else {
            // RFC 5545 §3.6.1: a date lasts that day; a time has no duration.
            switch start {
            case .allDay(let date): end = .allDay(date: date.adding(days: 1))
            case .timed: end = start
            }
        }
        guard end.isAllDay == start.isAllDay else {
            throw ICalendarError("event '\(uid.prefix(60))' (line \(line)): DTSTART and DTEND must both be dates or both be times")
        }
        let utc = TimeZone(secondsFromGMT: 0)!
        guard end.instant(allDayZone: utc) >= start.instant(allDayZone: utc) else {
            throw ICalendarError("event '\(uid.prefix(60))' (line \(line)) ends before it starts")
        }

        var recurrenceID: EventTime?
        if let p = icalcomponent_get_first_property(component, ICAL_RECURRENCEID_PROPERTY) {
            if let range = icalproperty_get_first_parameter(p, ICAL_RANGE_PARAMETER),
                icalparameter_get_range(range) == ICAL_RANGE_THISANDFUTURE
            {
                throw ICalendarError(
                    "event '\(uid.prefix(60))' (line \(lines.line(of: "RANGE=", after: line))) changes this and all future occurrences (RANGE=THISANDFUTURE), which calbridge does not read: split the series into two in the file"
                )
            }
            recurrenceID = try time(icalproperty_get_recurrenceid(p), property: p, name: "RECURRENCE-ID", line: line)
        }

        var event = Event(title: summary(component), start: start, end: end)
        event.iCalUID = uid
        event.recurrence = try recurrence(component, start: start, line: line)
        if recurrenceID != nil { event.recurrence = nil }
        if let recurrence = event.recurrence, let date = LocalDate(start.localText?.prefix(10) ?? "") {
            for rule in recurrence.lines where rule.hasPrefix("RRULE:") {
                do throws(ICalendarError) {
                    try RuleFeasibility.check(rule, from: date)
                } catch {
                    throw ICalendarError("event '\(uid.prefix(60))' (line \(lines.line(of: "RRULE", after: line))): \(error.message)")
                }
            }
        }
        event.location = text(icalcomponent_get_location(component)).flatMap { $0.isEmpty ? nil : $0 }
        event.body = text(icalcomponent_get_description(component)).flatMap { $0.isEmpty ? nil : EventBody.text($0) }
        if let p = icalcomponent_get_first_property(component, ICAL_URL_PROPERTY), let url = text(icalproperty_get_url(p)) {
            event.webURL = URL(string: url)
        }
        switch icalcomponent_get_status(component) {
        case ICAL_STATUS_CANCELLED: event.status = .cancelled
        case ICAL_STATUS_TENTATIVE: event.status = .tentative
        default: event.status = .confirmed
        }
        if let p = icalcomponent_get_first_property(component, ICAL_TRANSP_PROPERTY) {
            let transp = icalproperty_get_transp(p)
            event.showAs = transp == ICAL_TRANSP_TRANSPARENT || transp == ICAL_TRANSP_TRANSPARENTNOCONFLICT ? .free : .busy
        }
        if let p = icalcomponent_get_first_property(component, ICAL_CLASS_PROPERTY) {
            switch icalproperty_get_class(p) {
            case ICAL_CLASS_PRIVATE: event.sensitivity = .private
            case ICAL_CLASS_CONFIDENTIAL: event.sensitivity = .confidential
            default: event.sensitivity = .normal
            }
        }
        if let p = icalcomponent_get_first_property(component, ICAL_LASTMODIFIED_PROPERTY) {
            event.updated = instant(icalproperty_get_lastmodified(p))
        }
        // RFC 5545 §3.8.7.4: SEQUENCE is 0 when absent. A negative one (libical reads what is written) counts as 0.
        let sequence = icalcomponent_get_first_property(component, ICAL_SEQUENCE_PROPERTY).map { Int(icalproperty_get_sequence($0)) }
        event.sequence = max(0, sequence ?? 0)
        if let p = icalcomponent_get_first_property(component, ICAL_CREATED_PROPERTY) {
            event.created = instant(icalproperty_get_created(p))
        }
        if let p = icalcomponent_get_first_property(component, ICAL_ORGANIZER_PROPERTY), let address = text(icalproperty_get_organizer(p)) {
            event.organizer = attendee(p, address: address)
            event.organizer?.response = .organizer
        }
        each(component, ICAL_ATTENDEE_PROPERTY) { p in
            if let address = text(icalproperty_get_attendee(p)) { event.attendees.append(attendee(p, address: address)) }
        }
        // libical 3.0 splits a CATEGORIES line at its first comma only ("A,B,C" reads as "A" and "B,C"), so each
        // value is split again: a category with an escaped comma in it reads as two.
        each(component, ICAL_CATEGORIES_PROPERTY) { p in
            for name in (text(icalproperty_get_categories(p)) ?? "").split(separator: ",") {
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty, !event.categories.contains(trimmed) { event.categories.append(trimmed) }
            }
        }
        event.reminders = reminders(component)
        if !xProperties.isEmpty {
            each(component, ICAL_X_PROPERTY) { p in
                guard let n = icalproperty_get_x_name(p), let v = icalproperty_get_x(p) else { return }
                let name = String(cString: n).uppercased()
                if xProperties.contains(name) { event.extendedProperties[name] = String(cString: v) }
            }
        }
        return ParsedEvent(event: event, uid: uid, recurrenceID: recurrenceID, line: line)
    }

    // MARK: Times

    /// A `DATE` or `DATE-TIME` value as an event time: UTC, in its `TZID`'s zone, or floating in `floating`.
    func time(_ t: icaltimetype, property: OpaquePointer, name: String, line: Int) throws(ICalendarError) -> EventTime {
        let written = text(icalproperty_get_value_as_string(property)) ?? ""
        guard icaltime_is_null_time(t) == 0, let date = LocalDate(year: Int(t.year), month: Int(t.month), day: Int(t.day)) else {
            throw ICalendarError("\(name) '\(written.prefix(40))' (line \(lines.line(of: written, after: line))) is not a real date")
        }
        if t.is_date != 0 { return .allDay(date: date) }
        guard (0...23).contains(t.hour), (0...59).contains(t.minute), (0...60).contains(t.second) else {
            throw ICalendarError("\(name) '\(written.prefix(40))' (line \(lines.line(of: written, after: line))) is not a real time of day")
        }
        let local = LocalDateTime(date: date, hour: Int(t.hour), minute: Int(t.minute), second: min(59, Int(t.second)))
        if icaltime_is_utc(t) != 0 {
            return .timed(instant: local.instant(in: TimeZone(secondsFromGMT: 0)!), zone: calendarZone?.identifier ?? "UTC")
        }
        if let parameter = icalproperty_get_first_parameter(property, ICAL_TZID_PARAMETER),
            let tzid = text(icalparameter_get_tzid(parameter))
        {
            if let zone = ianaZone(tzid) { return .timed(instant: local.instant(in: zone), zone: zone.identifier) }
            // The file's own VTIMEZONE: the instant by its rules, in the IANA zone that keeps the same offsets
            // (else a fixed offset: a single time is still right; a series is refused in `read`).
            if let custom = customZones.read(local, tzid: trimmedTZID(tzid)) {
                return .timed(instant: custom.instant, zone: custom.iana ?? CustomZones.fixedZone(custom.offset))
            }
            throw ICalendarError(
                "unknown time zone '\(tzid.prefix(60))' in \(name) (line \(lines.line(of: tzid, after: line))): calbridge reads IANA names (Europe/Berlin), Windows names (W. Europe Standard Time) and zones defined by a VTIMEZONE in the file"
            )
        }
        let zone = calendarZone ?? floating
        return .timed(instant: local.instant(in: zone), zone: zone.identifier)
    }

    /// The `TZID` of a time in a `VTIMEZONE` of the file that matches no IANA zone; nil for any other time.
    func unsolvedCustomZone(_ t: icaltimetype, property: OpaquePointer) -> String? {
        guard t.is_date == 0, icaltime_is_utc(t) == 0, let parameter = icalproperty_get_first_parameter(property, ICAL_TZID_PARAMETER),
            let tzid = text(icalparameter_get_tzid(parameter)), ianaZone(tzid) == nil,
            let date = LocalDate(year: Int(t.year), month: Int(t.month), day: Int(t.day))
        else { return nil }
        let local = LocalDateTime(date: date, hour: Int(t.hour), minute: Int(t.minute), second: min(59, Int(t.second)))
        guard let custom = customZones.read(local, tzid: trimmedTZID(tzid)), custom.iana == nil else { return nil }
        return tzid
    }

    func trimmedTZID(_ tzid: String) -> String { tzid.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }

    /// The IANA zone a `TZID` names: an IANA name, a Windows name (Outlook's files, through CLDR's table),
    /// an IANA name behind a path (`/mozilla.org/20050126_1/Europe/Berlin`), or the `X-LIC-LOCATION` of the
    /// file's `VTIMEZONE` of that id.
    func ianaZone(_ tzid: String) -> TimeZone? {
        func known(_ name: String) -> TimeZone? {
            guard name.contains("/") || name == "UTC" || name == "GMT" else { return nil }
            return TimeZone(identifier: name)
        }
        let trimmed = trimmedTZID(tzid)
        if let zone = known(trimmed) { return zone }
        if let name = WindowsZones.ianaIdentifier(forWindowsName: trimmed), let zone = TimeZone(identifier: name) { return zone }
        let parts = trimmed.split(separator: "/")
        for count in [3, 2] where parts.count >= count && trimmed.hasPrefix("/") || parts.count > count {
            if let zone = known(parts.suffix(count).joined(separator: "/")) { return zone }
        }
        if let vtimezone = icalcomponent_get_timezone(calendar, trimmed),
            let location = text(icaltimezone_get_location(vtimezone)), location != trimmed
        {
            return known(location)
        }
        return nil
    }

    func instant(_ t: icaltimetype) -> Date? {
        guard icaltime_is_null_time(t) == 0, let date = LocalDate(year: Int(t.year), month: Int(t.month), day: Int(t.day)) else {
            return nil
        }
        return LocalDateTime(date: date, hour: Int(t.hour), minute: Int(t.minute), second: min(59, Int(t.second)))
            .instant(in: TimeZone(secondsFromGMT: 0)!)
    }

    // MARK: Recurrence

    /// `RRULE` lines as libical writes them back, `EXDATE` and `RDATE` one value per line in IANA terms (an
    /// `RDATE` period as its UTC start and length: `RDATE;VALUE=PERIOD:20260105T080000Z/PT5400S`). `RDATE`s
    /// without an `RRULE` make a series too: its `DTSTART` and those dates.
    func recurrence(_ component: OpaquePointer, start: EventTime, line: Int) throws(ICalendarError) -> Recurrence? {
        var lines: [String] = []
        var failure: ICalendarError?
        each(component, ICAL_RRULE_PROPERTY) { p in
            var rule = icalproperty_get_rrule(p)
            guard let text = text(icalrecurrencetype_as_string(&rule)) else { return }
            lines.append("RRULE:" + text)
        }
        guard !lines.isEmpty || icalcomponent_get_first_property(component, ICAL_RDATE_PROPERTY) != nil else { return nil }
        for (kind, name) in [(ICAL_EXDATE_PROPERTY, "EXDATE"), (ICAL_RDATE_PROPERTY, "RDATE")] {
            each(component, kind) { p in
                guard failure == nil else { return }
                let value = kind == ICAL_EXDATE_PROPERTY ? icalproperty_get_exdate(p) : icalproperty_get_rdate(p).time
                do throws(ICalendarError) {
                    if kind == ICAL_RDATE_PROPERTY, icaltime_is_null_time(value) != 0 {
                        lines.append(try periodLine(icalproperty_get_rdate(p).period, property: p, seriesStart: start, line: line))
                        return
                    }
                    let time = try self.time(value, property: p, name: name, line: line)
                    lines.append(Self.dateLine(name, time, seriesStart: start))
                } catch { failure = error }
            }
        }
        if let failure { throw failure }
        return Recurrence(lines: lines)
    }

    /// An `RDATE` of a period as one line: its start in UTC and its length in seconds (for an all-day series,
    /// its start's date: a date has no length of its own).
    func periodLine(_ period: icalperiodtype, property: OpaquePointer, seriesStart: EventTime, line: Int) throws(ICalendarError) -> String {
        let start = try time(period.start, property: property, name: "RDATE", line: line)
        let seconds: Int
        if icaltime_is_null_time(period.end) == 0 {
            let end = try time(period.end, property: property, name: "RDATE", line: line)
            seconds = Int(end.instant(allDayZone: floating).timeIntervalSince(start.instant(allDayZone: floating)))
        } else {
            seconds = Int(icaldurationtype_as_int(period.duration))
        }
        let written = text(icalproperty_get_value_as_string(property)) ?? ""
        guard seconds >= 0 else {
            throw ICalendarError(
                "RDATE '\(written.prefix(40))' (line \(lines.line(of: written, after: line))) is a period that ends before it starts")
        }
        guard case .timed(let instant, _) = start, !seriesStart.isAllDay else {
            return Self.dateLine("RDATE", start, seriesStart: seriesStart)
        }
        let utc = RecurrenceExpansion.SeriesStart.basic(LocalDateTime(instant: instant, in: TimeZone(secondsFromGMT: 0)!), isDate: false)
        return "RDATE;VALUE=PERIOD:\(utc)Z/PT\(seconds)S"
    }

    /// An `EXDATE`/`RDATE` line of one value: a date for an all-day series, else the wall-clock time in the
    /// series' zone (`EXDATE;TZID=Europe/Berlin:20260105T090000`), as Google stores them.
    static func dateLine(_ name: String, _ time: EventTime, seriesStart: EventTime) -> String {
        switch (seriesStart, time) {
        case (.allDay, _):
            let date = time.localText.map { String($0.prefix(10)) } ?? ""
            return "\(name);VALUE=DATE:" + date.filter(\.isNumber)
        case (.timed(_, let zone), .timed(let instant, _)):
            let tz = TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0)!
            let local = RecurrenceExpansion.SeriesStart.basic(LocalDateTime(instant: instant, in: tz), isDate: false)
            return ICalendarWriter.isUTC(zone) ? "\(name):\(local)Z" : "\(name);TZID=\(zone):\(local)"
        case (.timed(let instant, let zone), .allDay(let date)):
            // A date excluded from a timed series: the occurrence on that date, at the series' time of day.
            let tz = TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0)!
            var local = LocalDateTime(instant: instant, in: tz)
            local.date = date
            let text = RecurrenceExpansion.SeriesStart.basic(local, isDate: false)
            return ICalendarWriter.isUTC(zone) ? "\(name):\(text)Z" : "\(name);TZID=\(zone):\(text)"
        }
    }

    // MARK: People and alarms

    func attendee(_ p: OpaquePointer, address: String) -> Attendee {
        var email = address
        if email.lowercased().hasPrefix("mailto:") { email = String(email.dropFirst(7)) }
        var a = Attendee(email: email)
        if let cn = icalproperty_get_first_parameter(p, ICAL_CN_PARAMETER) { a.name = text(icalparameter_get_cn(cn)) }
        if let role = icalproperty_get_first_parameter(p, ICAL_ROLE_PARAMETER) {
            switch icalparameter_get_role(role) {
            case ICAL_ROLE_OPTPARTICIPANT, ICAL_ROLE_NONPARTICIPANT: a.role = .optional
            default: a.role = .required
            }
        }
        if let cutype = icalproperty_get_first_parameter(p, ICAL_CUTYPE_PARAMETER),
            icalparameter_get_cutype(cutype) == ICAL_CUTYPE_RESOURCE || icalparameter_get_cutype(cutype) == ICAL_CUTYPE_ROOM
        {
            a.role = .resource
        }
        if let partstat = icalproperty_get_first_parameter(p, ICAL_PARTSTAT_PARAMETER) {
            switch icalparameter_get_partstat(partstat) {
            case ICAL_PARTSTAT_ACCEPTED: a.response = .accepted
            case ICAL_PARTSTAT_DECLINED: a.response = .declined
            case ICAL_PARTSTAT_TENTATIVE: a.response = .tentative
            default: a.response = .needsAction
            }
        }
        return a
    }

    /// Display and audio alarms before the start (`TRIGGER:-PT15M`), as pop-up reminders; nil when the
    /// event has none (the target calendar's defaults apply).
    func reminders(_ component: OpaquePointer) -> [Reminder]? {
        var found: [Reminder] = []
        var alarm = icalcomponent_get_first_component(component, ICAL_VALARM_COMPONENT)
        while let a = alarm {
            defer { alarm = icalcomponent_get_next_component(component, ICAL_VALARM_COMPONENT) }
            if let reminder = Self.reminder(ofAlarm: a), !found.contains(reminder) { found.append(reminder) }
        }
        return found.isEmpty ? nil : found
    }

    /// The reminder a `VALARM` is: a display or audio alarm up to four weeks before the start; nil for any
    /// other alarm (e-mail, an absolute time, relative to the end), which calbridge does not model.
    static func reminder(ofAlarm alarm: OpaquePointer) -> Reminder? {
        guard let actionProperty = icalcomponent_get_first_property(alarm, ICAL_ACTION_PROPERTY),
            let triggerProperty = icalcomponent_get_first_property(alarm, ICAL_TRIGGER_PROPERTY)
        else { return nil }
        let action = icalproperty_get_action(actionProperty)
        guard action == ICAL_ACTION_DISPLAY || action == ICAL_ACTION_AUDIO else { return nil }
        if let related = icalproperty_get_first_parameter(triggerProperty, ICAL_RELATED_PARAMETER),
            icalparameter_get_related(related) == ICAL_RELATED_END
        {
            return nil
        }
        let trigger = icalproperty_get_trigger(triggerProperty)
        guard icaltime_is_null_time(trigger.time) != 0 else { return nil }
        let seconds = Int(icaldurationtype_as_int(trigger.duration))
        guard seconds <= 0, seconds >= -4 * 7 * 86_400 else { return nil }
        return Reminder(minutesBefore: -seconds / 60)
    }

    // MARK: Helpers

    func summary(_ component: OpaquePointer) -> String { text(icalcomponent_get_summary(component)) ?? "" }

    func text(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }

    func each(_ component: OpaquePointer, _ kind: icalproperty_kind, _ body: (OpaquePointer) -> Void) {
        var p = icalcomponent_get_first_property(component, kind)
        while let property = p {
            body(property)
            p = icalcomponent_get_next_property(component, kind)
        }
    }

    /// libical's first `X-LIC-ERROR` in the event or its alarms: its message, and the refused text (the
    /// part after the last colon) to find its line by.
    func firstError(in component: OpaquePointer) -> (message: String, value: String)? {
        var components = [component]
        var alarm = icalcomponent_get_first_component(component, ICAL_ANY_COMPONENT)
        while let a = alarm {
            components.append(a)
            alarm = icalcomponent_get_next_component(component, ICAL_ANY_COMPONENT)
        }
        for c in components {
            var property = icalcomponent_get_first_property(c, ICAL_XLICERROR_PROPERTY)
            while let p = property, let message = text(icalproperty_get_xlicerror(p)) {
                property = icalcomponent_get_next_property(c, ICAL_XLICERROR_PROPERTY)
                // An empty property (`SUMMARY:`, common in real files) is dropped by libical: nothing is lost.
                if message.hasPrefix("No value for") { continue }
                // A property name libical does not know (LINK, SUBCALENDAR-ID): dropped, as unknown properties are.
                if message.hasPrefix("Parse error in property name") { continue }
                let value = message.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                return (message, value)
            }
        }
        return nil
    }
}
