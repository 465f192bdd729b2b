import CalendarBridge
import Foundation
import ICalendar

/// The CalDAV service's seed (Fixtures/sandbox/caldav.json): users who sign in with an app password, their
/// calendars and events. Event times are `SeedTime`s (`week+1d 09:00`) in the event's or calendar's zone.
struct CalDAVSeed: Decodable {
    struct User: Decodable {
        /// The path segment of the user's principal and home (iCloud's numeric account id).
        var id: String
        var userName: String
        var password: String
        var displayName: String
        /// None: the user makes calendars with MKCALENDAR (a server starts empty).
        var calendars: [Calendar]?
    }

    struct Calendar: Decodable {
        var id: String
        var name: String
        var color: String?
        var timeZone: String?
        var order: Int?
        /// `read` for a calendar the user may only read (a subscribed or shared one); else it is the user's.
        var access: String?
        var events: [SeedEvent]?
    }

    struct SeedEvent: Decodable {
        var uid: String
        var summary: String
        var start: String
        var end: String
        var timeZone: String?
        var location: String?
        var description: String?
        /// An RRULE value (`FREQ=WEEKLY;BYDAY=TU`).
        var rrule: String?
    }

    var users: [User]

    enum Problem: Error, CustomStringConvertible {
        case bad(String)
        var description: String {
            switch self {
            case .bad(let text): "caldav seed: \(text)"
            }
        }
    }

    static func parse(_ data: Data) throws -> CalDAVSeed {
        do {
            return try JSONDecoder().decode(CalDAVSeed.self, from: data)
        } catch {
            throw Problem.bad(
                "not a seed like {\"users\": [{\"id\", \"userName\", \"password\", \"displayName\", \"calendars\"}]}: \(error)")
        }
    }

    /// The iCalendar text of a seeded event, written as a calendar app would (a VTIMEZONE for its zone).
    static func resource(_ event: SeedEvent, calendarZone: String, now: Date) throws -> String {
        let zoneName = event.timeZone ?? calendarZone
        guard let zone = TimeZone(identifier: zoneName) else { throw Problem.bad("unknown time zone '\(zoneName)'") }
        guard let start = SeedTime.resolve(event.start, in: zone, now: now), let end = SeedTime.resolve(event.end, in: zone, now: now)
        else { throw Problem.bad("event \(event.uid): times must be like 'week+1d 09:00' or '2026-12-01T09:00'") }
        let startTime: EventTime
        let endTime: EventTime
        if start.hour == nil {
            guard let first = LocalDate(year: start.year, month: start.month, day: start.day),
                let last = LocalDate(year: end.year, month: end.month, day: end.day)
            else { throw Problem.bad("event \(event.uid): no such date") }
            (startTime, endTime) = (.allDay(date: first), .allDay(date: last))
        } else {
            guard let from = start.date(in: zone), let to = end.date(in: zone) else {
                throw Problem.bad("event \(event.uid): no such time")
            }
            (startTime, endTime) = (.timed(instant: from, zone: zoneName), .timed(instant: to, zone: zoneName))
        }
        let value = Event(
            id: event.uid, title: event.summary, body: event.description.map { .text($0) }, location: event.location, start: startTime,
            end: endTime, recurrence: event.rrule.map { Recurrence(lines: ["RRULE:" + $0]) }, iCalUID: event.uid)
        return try ICalendarWriter.write([value], stamp: now, attendeesAsText: false)
    }
}
