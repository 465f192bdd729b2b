import CalendarBridge
import Foundation
import ICalendar
import Testing

/// iCalendar text <-> `Event`, both directions, through libical.
@Suite("iCalendar: reading and writing events")
struct ICalendarMappingTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let utc = TimeZone(secondsFromGMT: 0)!

    static func calendar(_ body: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body.replacingOccurrences(of: "\n", with: "\r\n") + "END:VCALENDAR\r\n"
    }

    static func instant(_ text: String, _ zone: TimeZone) -> Date { LocalDateTime(text)!.instant(in: zone) }

    static func read(_ body: String, floating: TimeZone = utc) throws -> [Event] {
        try ICalendarReader.read(calendar(body), floatingZone: floating).events
    }

    @Test("zones: IANA, Windows (Outlook's files), UTC and floating times")
    func zones() throws {
        let events = try Self.read(
            """
            BEGIN:VEVENT
            UID:iana
            DTSTART;TZID=Europe/Berlin:20260105T090000
            DTEND;TZID=Europe/Berlin:20260105T100000
            SUMMARY:IANA
            END:VEVENT
            BEGIN:VEVENT
            UID:windows
            DTSTART;TZID=W. Europe Standard Time:20260705T090000
            DURATION:PT90M
            SUMMARY:Windows
            END:VEVENT
            BEGIN:VEVENT
            UID:utc
            DTSTART:20260105T090000Z
            DTEND:20260105T093000Z
            SUMMARY:UTC
            END:VEVENT
            BEGIN:VEVENT
            UID:floating
            DTSTART:20260105T090000
            DTEND:20260105T100000
            SUMMARY:Floating
            END:VEVENT

            """, floating: TimeZone(identifier: "America/New_York")!)
        #expect(events.map(\.id) == ["iana", "windows", "utc", "floating"])
        #expect(events[0].start == .timed(instant: Self.instant("2026-01-05T08:00:00", Self.utc), zone: "Europe/Berlin"))
        // Summer time in Berlin: 09:00 is 07:00 UTC.
        #expect(events[1].start == .timed(instant: Self.instant("2026-07-05T07:00:00", Self.utc), zone: "Europe/Berlin"))
        #expect(events[1].end == .timed(instant: Self.instant("2026-07-05T08:30:00", Self.utc), zone: "Europe/Berlin"))
        #expect(events[2].start == .timed(instant: Self.instant("2026-01-05T09:00:00", Self.utc), zone: "UTC"))
        #expect(events[3].start == .timed(instant: Self.instant("2026-01-05T14:00:00", Self.utc), zone: "America/New_York"))
    }

    @Test("all-day events, fields, alarms, attendees")
    func fields() throws {
        let events = try Self.read(
            """
            BEGIN:VEVENT
            UID:day@example.com
            DTSTART;VALUE=DATE:20260501
            DTEND;VALUE=DATE:20260503
            SUMMARY:Trip\\, long
            LOCATION:Lisbon
            DESCRIPTION:line one\\nline two
            URL:https://example.com/trip
            STATUS:TENTATIVE
            TRANSP:TRANSPARENT
            CLASS:PRIVATE
            LAST-MODIFIED:20260401T120000Z
            ORGANIZER;CN=Ann:mailto:ann@example.com
            ATTENDEE;CN=Bob;ROLE=OPT-PARTICIPANT;PARTSTAT=ACCEPTED:mailto:bob@example.com
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:-PT15M
            DESCRIPTION:x
            END:VALARM
            BEGIN:VALARM
            ACTION:EMAIL
            TRIGGER:-P1D
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:oneday
            DTSTART;VALUE=DATE:20260601
            SUMMARY:No end
            END:VEVENT

            """)
        let e = events[0]
        #expect(e.start == .allDay(date: LocalDate(year: 2026, month: 5, day: 1)!))
        #expect(e.end == .allDay(date: LocalDate(year: 2026, month: 5, day: 3)!))
        #expect(e.title == "Trip, long")
        #expect(e.location == "Lisbon")
        #expect(e.body == .text("line one\nline two"))
        #expect(e.webURL == URL(string: "https://example.com/trip"))
        #expect(e.status == .tentative)
        #expect(e.showAs == .free)
        #expect(e.sensitivity == .private)
        #expect(e.updated == Self.instant("2026-04-01T12:00:00", Self.utc))
        #expect(e.organizer?.email == "ann@example.com")
        #expect(e.attendees == [Attendee(name: "Bob", email: "bob@example.com", role: .optional, response: .accepted)])
        #expect(e.reminders == [Reminder(minutesBefore: 15)])
        #expect(e.iCalUID == "day@example.com")
        #expect(events[1].end == .allDay(date: LocalDate(year: 2026, month: 6, day: 2)!))
        #expect(events[1].reminders == nil)
    }

    @Test("an empty SUMMARY is an untitled event (found by the fuzz target: it was written, then refused when read)")
    func untitled() throws {
        let events = try Self.read("BEGIN:VEVENT\nUID:u\nDTSTART:20260101T090000Z\nSUMMARY:\nEND:VEVENT\n")
        #expect(events.map(\.title) == [""])
        let text = try ICalendarWriter.write(events)
        #expect(!text.contains("SUMMARY"))
        #expect(try ICalendarReader.read(text, floatingZone: Self.utc).events.map(\.id) == ["u"])
    }

    static let series = """
        BEGIN:VEVENT
        UID:weekly
        DTSTART;TZID=Europe/Berlin:20260105T090000
        DTEND;TZID=Europe/Berlin:20260105T093000
        RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=MO
        EXDATE;TZID=Europe/Berlin:20260119T090000
        SUMMARY:Standup
        END:VEVENT
        BEGIN:VEVENT
        UID:weekly
        RECURRENCE-ID;TZID=Europe/Berlin:20260112T090000
        DTSTART;TZID=Europe/Berlin:20260112T110000
        DTEND;TZID=Europe/Berlin:20260112T113000
        SUMMARY:Standup (moved)
        END:VEVENT
        BEGIN:VEVENT
        UID:weekly
        RECURRENCE-ID;TZID=Europe/Berlin:20260126T090000
        DTSTART;TZID=Europe/Berlin:20260126T090000
        DTEND;TZID=Europe/Berlin:20260126T093000
        STATUS:CANCELLED
        SUMMARY:Standup
        END:VEVENT

        """

    @Test("a series with an override, an EXDATE and a cancelled occurrence, expanded as a calendar")
    func seriesAsProvider() async throws {
        let file = try ICalendarReader.read(Self.calendar(Self.series), floatingZone: Self.utc)
        let master = try #require(file.events.first)
        #expect(master.id == "weekly")
        #expect(master.recurrence?.lines == ["RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=MO", "EXDATE;TZID=Europe/Berlin:20260119T090000"])
        #expect(file.events[1].id == "weekly_20260112T080000Z")
        #expect(file.events[1].seriesID == "weekly")
        #expect(file.events[2].status == .cancelled)

        let provider = ICalendarFileProvider(file: file, account: "test.ics")
        let range = TimeRange(start: Self.instant("2026-01-01T00:00:00", Self.utc), end: Self.instant("2026-03-01T00:00:00", Self.utc))
        let occurrences = try await provider.listEvents(calendarID: ICalendarFileProvider.calendarID, range: range, expand: true)
        // Six Mondays from 5 Jan, less 19 Jan (EXDATE) and 26 Jan (cancelled); 12 Jan moved to 11:00.
        let starts = occurrences.compactMap { $0.start.localText }
        #expect(starts == ["2026-01-05T09:00:00", "2026-01-12T11:00:00", "2026-02-02T09:00:00", "2026-02-09T09:00:00"])
        #expect(occurrences[1].title == "Standup (moved)")
        let byID = try await provider.getEvent(id: "weekly_20260202T080000Z", calendarID: ICalendarFileProvider.calendarID)
        #expect(byID.originalStart == .timed(instant: Self.instant("2026-02-02T08:00:00", Self.utc), zone: "Europe/Berlin"))
    }

    @Test("written and read back: the same events, one VTIMEZONE per zone, cancelled occurrences as EXDATEs")
    func roundTrip() throws {
        let file = try ICalendarReader.read(Self.calendar(Self.series), floatingZone: Self.utc)
        var events = file.events
        var single = Event(
            title: "Lunch", location: "Café",
            start: .timed(instant: Self.instant("2026-03-01T12:00:00", Self.utc), zone: "America/New_York"),
            end: .timed(instant: Self.instant("2026-03-01T13:00:00", Self.utc), zone: "America/New_York"),
            reminders: [Reminder(minutesBefore: 10)])
        single.id = "lunch"
        single.attendees = [Attendee(name: "Bob", email: "bob@example.com")]
        var day = Event(
            title: "Holiday", start: .allDay(date: LocalDate(year: 2026, month: 5, day: 1)!),
            end: .allDay(date: LocalDate(year: 2026, month: 5, day: 2)!))
        day.id = "holiday"
        events += [single, day]
        let text = try ICalendarWriter.write(events, name: "Work")
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(text.contains("PRODID:-//calbridge//calbridge//EN"))
        #expect(text.components(separatedBy: "BEGIN:VTIMEZONE").count - 1 == 2)
        #expect(text.contains("TZID:Europe/Berlin\r\n"))
        #expect(text.contains("EXDATE;TZID=Europe/Berlin:20260126T090000"))
        #expect(!text.contains("ATTENDEE"))

        let back = try ICalendarReader.read(text, floatingZone: Self.utc)
        #expect(back.name == "Work")
        #expect(back.events.map(\.id) == ["weekly", "weekly_20260112T080000Z", "lunch", "holiday"])
        #expect(back.events[0].start == events[0].start)
        #expect(back.events[0].recurrence?.lines.contains("EXDATE;TZID=Europe/Berlin:20260126T090000") == true)
        #expect(back.events[1].start == events[1].start)
        #expect(back.events[2].start == single.start)
        #expect(back.events[2].end == single.end)
        #expect(back.events[2].location == "Café")
        #expect(back.events[2].reminders == [Reminder(minutesBefore: 10)])
        #expect(back.events[2].body?.content.contains("Bob <bob@example.com>") == true)
        #expect(back.events[3].start == day.start)
        #expect(back.events[3].end == day.end)
    }

    @Test(
        "refused with a clear error naming the line",
        arguments: [
            (
                "THISANDFUTURE",
                "BEGIN:VEVENT\nUID:a\nRECURRENCE-ID;RANGE=THISANDFUTURE:20260105T090000Z\nDTSTART:20260105T100000Z\nEND:VEVENT\n",
                "THISANDFUTURE"
            ),
            ("no such date", "BEGIN:VEVENT\nUID:a\nDTSTART:20260231T090000Z\nEND:VEVENT\n", "line 6"),
            ("garbage date", "BEGIN:VEVENT\nUID:a\nDTSTART:20260101T090000Z\nDTEND:2026XX01\nEND:VEVENT\n", "line 7"),
            ("unknown zone", "BEGIN:VEVENT\nUID:a\nDTSTART;TZID=Mars/Olympus:20260101T090000\nEND:VEVENT\n", "Mars/Olympus"),
            (
                "duplicate UID",
                "BEGIN:VEVENT\nUID:a\nDTSTART:20260101T090000Z\nEND:VEVENT\nBEGIN:VEVENT\nUID:a\nDTSTART:20260102T090000Z\nEND:VEVENT\n",
                "lines 4 and 8"
            ),
            ("no UID", "BEGIN:VEVENT\nDTSTART:20260101T090000Z\nEND:VEVENT\n", "line 4 has no UID"),
            // Found by the fuzz target: a CR inside a UID, which no writer can give back as the same UID.
            ("control character in UID", "BEGIN:VEVENT\nUID:a\rb\nDTSTART:20260101T090000Z\nEND:VEVENT\n", "control character"),
            ("ends before start", "BEGIN:VEVENT\nUID:a\nDTSTART:20260101T090000Z\nDTEND:20260101T080000Z\nEND:VEVENT\n", "ends before"),
        ])
    func refused(_ name: String, _ body: String, _ expected: String) {
        do {
            let events = try Self.read(body)
            Issue.record("\(name): read \(events.count) events")
        } catch let error as ICalendarError {
            #expect(error.message.contains(expected), "\(name): \(error.message)")
        } catch {
            Issue.record("\(name): \(error)")
        }
    }

    @Test("hostile input: too large, empty, not iCalendar, NUL bytes")
    func hostile() {
        let big = String(repeating: "X", count: ICalendarReader.maxBytes + 1)
        #expect(throws: ICalendarError.self) { try ICalendarReader.read(big, floatingZone: Self.utc) }
        for text in ["", "   \n", "hello world", "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n", "BEGIN:VCALENDAR\r\nUID:\0x\r\nEND:VCALENDAR\r\n"] {
            #expect(throws: ICalendarError.self, "\(text.debugDescription)") {
                _ = try ICalendarReader.read(text, floatingZone: Self.utc)
            }
        }
    }

    @Test("CATEGORIES: every value read (libical splits a line only at its first comma), written one a line, read back")
    func categories() throws {
        let events = try Self.read(
            "BEGIN:VEVENT\nUID:c\nDTSTART:20260105T090000Z\nCATEGORIES:Work,Travel,Q1\nCATEGORIES:Work\nEND:VEVENT\n")
        #expect(events.first?.categories == ["Work", "Travel", "Q1"])
        let text = try ICalendarWriter.write(events)
        #expect(text.components(separatedBy: "CATEGORIES:").count == 4)
        #expect(try ICalendarReader.read(text, floatingZone: Self.utc).events.first?.categories == ["Work", "Travel", "Q1"])
    }
}
