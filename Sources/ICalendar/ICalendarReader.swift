import CLibical
import CalendarBridge
import Foundation
import TimeZones

/// The events of one iCalendar file (RFC 5545) as calbridge's `Event` values, read by libical's parser.
///
/// Every `VEVENT` becomes one event: a single event, a series master (its `RRULE`, `EXDATE` and `RDATE`
/// lines in `recurrence`), or an override of one occurrence (`RECURRENCE-ID`: `seriesID` is the master's id,
/// `originalStart` the occurrence's). Ids are stable across readings of the same file: a master's or single
/// event's id is its `UID`, an override's `UID_20260105T080000Z` (the original start, UTC or a date), so an
/// import keyed by these ids finds its earlier copies again.
public struct ICalendarFile: Sendable, Hashable {
    /// Singles, masters and overrides, in the file's order.
    public var events: [Event]
    /// The calendar's name (`X-WR-CALNAME`), when the file gives one.
    public var name: String?
    /// The line of each event's `BEGIN:VEVENT`, by event id (for errors found after reading).
    public var eventLines: [String: Int]

    public init(events: [Event], name: String? = nil, eventLines: [String: Int] = [:]) {
        self.events = events
        self.name = name
        self.eventLines = eventLines
    }
}

/// Reads iCalendar text into an `ICalendarFile`.
public enum ICalendarReader {
    /// The largest input read (bytes): a calendar of 100,000 events is a few tens of megabytes.
    public static let maxBytes = 50 * 1024 * 1024
    /// The deepest nesting of components read (VCALENDAR > VEVENT > VALARM is 3; VTIMEZONE parts are 3 too).
    public static let maxNesting = 12

    /// Reads `text` (one or more `VCALENDAR`s).
    /// - Parameters:
    ///   - floatingZone: the zone of times without a zone (RFC 5545 "floating" times).
    ///   - xProperties: the `X-` properties (upper-case names) read into each event's `extendedProperties`
    ///     under their own names (a CalDAV provider's markers); none by default.
    /// - Throws: `ICalendarError` naming the line: input over `maxBytes`, no calendar, a property libical
    ///   refused, a date that does not exist, an unknown zone, `RANGE=THISANDFUTURE`, two events with one UID.
    public static func read(_ text: String, floatingZone: TimeZone, xProperties: Set<String> = []) throws(ICalendarError)
        -> ICalendarFile
    {
        let size = text.utf8.count
        guard size <= maxBytes else {
            throw ICalendarError(
                "the iCalendar input is \(size / 1_048_576) MB; calbridge reads at most \(maxBytes / 1_048_576) MB: split the file")
        }
        guard text.utf8.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else {
            throw ICalendarError("the iCalendar input is empty")
        }
        let lines = SourceLines(text)
        // libical frees components recursively: a file nested a million deep would overflow the stack.
        if let (depth, line) = lines.deepestNesting(), depth > maxNesting {
            throw ICalendarError(
                "the iCalendar input nests components \(depth) deep (line \(line)); calendars nest a few levels (VCALENDAR, VEVENT, VALARM): the file is damaged"
            )
        }
        let read = try LibicalSession.run { () throws(ICalendarError) -> (components: [ParsedEvent], name: String?) in
            // libical reads C strings: a NUL byte would end the text early, silently.
            guard !text.utf8.contains(0) else {
                throw ICalendarError("the iCalendar input contains a NUL byte (line \(lines.line(ofByte: 0)))")
            }
            guard let root = icalparser_parse_string(text) else {
                throw ICalendarError("not an iCalendar file: libical found no BEGIN:VCALENDAR (\(LibicalSession.lastError))")
            }
            defer { icalcomponent_free(root) }
            var calendars: [OpaquePointer] = []
            if icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT {
                calendars = [root]
            } else {
                var c = icalcomponent_get_first_component(root, ICAL_VCALENDAR_COMPONENT)
                while let found = c {
                    calendars.append(found)
                    c = icalcomponent_get_next_component(root, ICAL_VCALENDAR_COMPONENT)
                }
            }
            guard !calendars.isEmpty else { throw ICalendarError("not an iCalendar file: no BEGIN:VCALENDAR ... END:VCALENDAR") }
            var parsed: [ParsedEvent] = []
            var name: String?
            for calendar in calendars {
                if name == nil { name = Self.xProperty(calendar, "X-WR-CALNAME") }
                let calendarZone = Self.xProperty(calendar, "X-WR-TIMEZONE").flatMap { name in
                    name.contains("/") ? TimeZone(identifier: name.trimmingCharacters(in: .whitespaces)) : nil
                }
                let reader = ComponentReader(
                    calendar: calendar, floating: floatingZone, calendarZone: calendarZone, lines: lines, xProperties: xProperties)
                var e = icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT)
                while let event = e {
                    parsed.append(try reader.read(event, line: lines.eventLine(parsed.count)))
                    e = icalcomponent_get_next_component(calendar, ICAL_VEVENT_COMPONENT)
                }
            }
            return (parsed, name)
        }
        let events = try assemble(read.components, lines: lines)
        let eventLines = Dictionary(zip(events.map(\.id), read.components.map(\.line)), uniquingKeysWith: { a, _ in a })
        return ICalendarFile(events: events, name: read.name, eventLines: eventLines)
    }

    /// Links overrides to their masters and gives every event its stable id.
    static func assemble(_ parsed: [ParsedEvent], lines: SourceLines) throws(ICalendarError) -> [Event] {
        var masters: [String: ParsedEvent] = [:]
        for p in parsed where p.recurrenceID == nil {
            if let earlier = masters[p.uid] {
                throw ICalendarError(
                    "two events share UID '\(p.uid.prefix(60))' (lines \(earlier.line) and \(p.line)); each VEVENT needs its own UID or a RECURRENCE-ID"
                )
            }
            masters[p.uid] = p
        }
        var seenOverrides: Set<String> = []
        return try parsed.map { p throws(ICalendarError) -> Event in
            var event = p.event
            guard let original = p.recurrenceID else {
                event.id = p.uid
                return event
            }
            event.id = p.uid + "_" + occurrenceKey(original)
            guard seenOverrides.insert(event.id).inserted else {
                throw ICalendarError("two events override the same occurrence of UID '\(p.uid.prefix(60))' (line \(p.line))")
            }
            // An override of a series in the file belongs to it; one without its series stays a single event
            // that remembers which occurrence it was (written back with its RECURRENCE-ID).
            event.originalStart = original
            if let master = masters[p.uid], master.event.recurrence != nil { event.seriesID = p.uid }
            return event
        }
    }

    /// The key of an occurrence in its id: `20260105` for a date, else the UTC time `20260105T080000Z`.
    public static func occurrenceKey(_ start: EventTime) -> String {
        switch start {
        case .allDay(let date):
            return String(date.description.filter(\.isNumber))
        case .timed(let instant, _):
            let local = LocalDateTime(instant: instant, in: TimeZone(secondsFromGMT: 0)!)
            return RecurrenceExpansion.SeriesStart.basic(local, isDate: false) + "Z"
        }
    }

    static func xProperty(_ component: OpaquePointer, _ name: String) -> String? {
        var p = icalcomponent_get_first_property(component, ICAL_X_PROPERTY)
        while let property = p {
            if let n = icalproperty_get_x_name(property), String(cString: n).uppercased() == name, let v = icalproperty_get_x(property) {
                return String(cString: v)
            }
            p = icalcomponent_get_next_property(component, ICAL_X_PROPERTY)
        }
        return nil
    }
}

/// One `VEVENT` read, before overrides are linked to masters.
struct ParsedEvent: Sendable {
    var event: Event
    var uid: String
    var recurrenceID: EventTime?
    var line: Int
}

/// Line numbers of the input, for errors (libical keeps none): a property's line is found by its text.
struct SourceLines: Sendable {
    let text: String

    /// The line of each `BEGIN:VEVENT`, in order (libical gives the events in the file's order).
    let eventLines: [Int]

    init(_ text: String) {
        self.text = text
        var found: [Int] = []
        var number = 0
        for line in Self.split(text) {
            number += 1
            if line.count >= 12, String(decoding: line.prefix(12), as: UTF8.self).uppercased() == "BEGIN:VEVENT" { found.append(number) }
        }
        eventLines = found
    }

    /// The line of the `index`th event (0-based), 1 when unknown.
    func eventLine(_ index: Int) -> Int { index < eventLines.count ? eventLines[index] : 1 }

    /// The 1-based line of the first occurrence of `needle` at or after the line `after`, else `after`.
    func line(of needle: String, after: Int = 1) -> Int {
        guard !needle.isEmpty else { return after }
        var number = 0
        for line in Self.split(text) {
            number += 1
            if number >= after, String(decoding: line, as: UTF8.self).contains(needle) { return number }
        }
        return after
    }

    /// The lines, split at LF bytes (a CR LF pair is one `Character`, so splitting characters at "\n" would
    /// find no line ends in an iCalendar file).
    static func split(_ text: String) -> [Substring.UTF8View] {
        text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
    }

    /// The deepest nesting of `BEGIN:` lines and the line where it is first reached; nil without any. Folded
    /// lines are read unfolded (a `BEGIN:` split over two lines is still one), as libical reads them.
    func deepestNesting() -> (depth: Int, line: Int)? {
        var depth = 0
        var deepest: (depth: Int, line: Int)?
        var number = 0
        var logicalStart = 0
        var prefix: [UInt8] = []
        func finish() {
            let word = String(decoding: prefix, as: UTF8.self).uppercased()
            if word.hasPrefix("BEGIN:") {
                depth += 1
                if depth > (deepest?.depth ?? 0) { deepest = (depth, logicalStart) }
            } else if word.hasPrefix("END:") {
                depth = max(0, depth - 1)
            }
        }
        for line in Self.split(text) {
            number += 1
            var bytes = line
            if bytes.last == 0x0D { bytes = bytes.dropLast() }
            if let first = bytes.first, first == 0x20 || first == 0x09 {
                // A continuation: its bytes extend the logical line's first six.
                if prefix.count < 6 { prefix += bytes.dropFirst().prefix(6 - prefix.count) }
                continue
            }
            if number > 1 { finish() }
            logicalStart = number
            prefix = Array(bytes.prefix(6))
        }
        finish()
        return deepest
    }

    /// The line of the first byte `byte`.
    func line(ofByte byte: UInt8) -> Int {
        var number = 1
        for b in text.utf8 {
            if b == byte { return number }
            if b == 0x0A { number += 1 }
        }
        return number
    }
}
