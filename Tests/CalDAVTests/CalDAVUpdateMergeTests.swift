import CalDAV
import CalendarBridge
import Foundation
import TestSupport
import Testing

/// An update of an event another client made keeps what calbridge does not model: its attendees and
/// organizer, `SEQUENCE`, other clients' properties and the alarms the user set (replaced only where the
/// reminders change, and then only the alarms calbridge reads as reminders). On both servers.
@Suite(.enabled(if: CalDAVTestServer.unavailableReason == nil, "\(CalDAVTestServer.unavailableReason ?? "")"))
struct CalDAVUpdateMergeTests {
    /// A meeting as a calendar app writes it: organizer, two attendees, a display alarm with its own text, an
    /// e-mail alarm, an Apple property; weekly, with one occurrence moved that has an attendee of its own.
    static let meeting = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Example Corp//Calendar App 1.0//EN\r
        BEGIN:VEVENT\r
        UID:meeting-42@example.com\r
        DTSTAMP:20261201T120000Z\r
        DTSTART:20270105T140000Z\r
        DTEND:20270105T150000Z\r
        RRULE:FREQ=WEEKLY;COUNT=3\r
        SUMMARY:Design review\r
        LOCATION:Room 7\r
        SEQUENCE:3\r
        ORGANIZER;CN=Olga Organizer:mailto:olga@example.com\r
        ATTENDEE;CN=Ann;PARTSTAT=ACCEPTED;ROLE=REQ-PARTICIPANT:mailto:ann@example.com\r
        ATTENDEE;CN=Bob;PARTSTAT=NEEDS-ACTION;ROLE=OPT-PARTICIPANT:mailto:bob@example.com\r
        X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Bring the prototype\r
        TRIGGER:-PT30M\r
        END:VALARM\r
        BEGIN:VALARM\r
        ACTION:EMAIL\r
        SUMMARY:Review tomorrow\r
        DESCRIPTION:Review tomorrow\r
        ATTENDEE:mailto:olga@example.com\r
        TRIGGER:-P1D\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:meeting-42@example.com\r
        DTSTAMP:20261201T120000Z\r
        RECURRENCE-ID:20270112T140000Z\r
        DTSTART:20270112T160000Z\r
        DTEND:20270112T170000Z\r
        SUMMARY:Design review\r
        SEQUENCE:3\r
        ORGANIZER;CN=Olga Organizer:mailto:olga@example.com\r
        ATTENDEE;CN=Carol;PARTSTAT=TENTATIVE:mailto:carol@example.com\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    static let january = CalDAVServerTests.january

    @Test(
        "an update of one field keeps attendees, organizer, alarms and other properties; SEQUENCE goes up",
        arguments: CalDAVTestServer.Kind.allCases)
    func oneField(kind: CalDAVTestServer.Kind) async throws {
        let fixture = try await CalDAVServerTests.Fixture(kind)
        defer { fixture.stop() }
        #expect(try await fixture.put("meeting.ics", Self.meeting).status == 201)
        let master = try await fixture.provider.getEvent(id: "meeting.ics", calendarID: "work")
        #expect(master.attendees.map(\.email) == ["ann@example.com", "bob@example.com"])

        var renamed = master
        renamed.title = "Design review (v2)"
        let returned = try await fixture.provider.updateEvent(renamed, fields: .title)
        #expect(returned.title == "Design review (v2)")
        #expect(returned.attendees.count == 2, "the event returned is the one stored")

        let text = try await fixture.resourceText("meeting.ics").text
        let master2 = try #require(Self.component(text, 0))
        #expect(master2.contains("SUMMARY:Design review (v2)"))
        #expect(master2.contains("LOCATION:Room 7"))
        #expect(master2.contains("mailto:ann@example.com") && master2.contains("mailto:bob@example.com"), "\(master2)")
        // Xandikos quotes the CN parameter, Radicale does not.
        let organizer = master2.components(separatedBy: .newlines).first { $0.hasPrefix("ORGANIZER") } ?? ""
        #expect(organizer.contains("Olga Organizer") && organizer.contains("mailto:olga@example.com"), "\(master2)")
        #expect(master2.contains("PARTSTAT=ACCEPTED"))
        #expect(master2.contains("SEQUENCE:4"), "\(master2)")
        #expect(master2.contains("X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC"))
        #expect(master2.contains("Bring the prototype") && master2.contains("ACTION:EMAIL"), "both alarms stay: \(master2)")
        #expect(master2.components(separatedBy: "BEGIN:VALARM").count == 3, "no alarm added: \(master2)")
        // The override keeps its own attendee and its moved time.
        let override = try #require(Self.component(text, 1))
        #expect(override.contains("mailto:carol@example.com"), "\(override)")
        #expect(override.contains("RECURRENCE-ID:20270112T140000Z") || override.contains("RECURRENCE-ID;"), "\(override)")
        #expect(override.contains("DTSTART:20270112T160000Z"), "\(override)")
        #expect(text.components(separatedBy: "BEGIN:VEVENT").count == 3)
    }

    @Test(
        "the whole model written (sync's update of a copy) keeps the attendees; new reminders replace only the display alarm",
        arguments: CalDAVTestServer.Kind.allCases)
    func wholeModelAndReminders(kind: CalDAVTestServer.Kind) async throws {
        let fixture = try await CalDAVServerTests.Fixture(kind)
        defer { fixture.stop() }
        #expect(try await fixture.put("meeting.ics", Self.meeting).status == 201)
        let master = try await fixture.provider.getEvent(id: "meeting.ics", calendarID: "work")

        // As a copy from another service arrives: no attendees (calbridge invites nobody), a new reminder.
        var model = Event(title: "Design review", location: "Room 8", start: master.start, end: master.end, recurrence: master.recurrence)
        model.id = master.id
        model.calendarID = "work"
        model.reminders = [Reminder(minutesBefore: 10)]
        _ = try await fixture.provider.updateEvent(model, fields: .all)

        let text = try await fixture.resourceText("meeting.ics").text
        let written = try #require(Self.component(text, 0))
        #expect(written.contains("LOCATION:Room 8"))
        #expect(written.contains("mailto:ann@example.com") && written.contains("mailto:olga@example.com"), "\(written)")
        #expect(!written.contains("Bring the prototype"), "the display alarm is replaced: \(written)")
        #expect(written.contains("TRIGGER:-PT10M"), "\(written)")
        #expect(written.contains("ACTION:EMAIL"), "the e-mail alarm (not a reminder calbridge models) stays: \(written)")
        let read = try await fixture.provider.getEvent(id: "meeting.ics", calendarID: "work")
        #expect(read.reminders == [Reminder(minutesBefore: 10)])
        #expect(read.attendees.count == 2)

        // An occurrence cancelled: an EXDATE on the master, which keeps its attendees.
        let occurrences = try await fixture.provider.listEvents(calendarID: "work", range: Self.january, expand: true)
            .sorted { $0.start.instant(allDayZone: CalDAVServerTests.utc) < $1.start.instant(allDayZone: CalDAVServerTests.utc) }
        #expect(occurrences.count == 3)
        try await fixture.provider.deleteEvent(id: occurrences[2].id, calendarID: "work")
        let after = try await fixture.resourceText("meeting.ics").text
        let cancelled = try #require(Self.component(after, 0))
        #expect(cancelled.contains("EXDATE"), "\(cancelled)")
        #expect(cancelled.contains("mailto:bob@example.com"), "\(cancelled)")
    }

    /// The `n`th `VEVENT` of a resource's text, unfolded.
    static func component(_ text: String, _ n: Int) -> String? {
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\n ", with: "")
        let parts = unfolded.components(separatedBy: "BEGIN:VEVENT").dropFirst()
        guard n < parts.count else { return nil }
        return parts[parts.startIndex + n].components(separatedBy: "END:VEVENT").first
    }
}
