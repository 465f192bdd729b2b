import CalbridgeSupport
@testable import CalendarBridge
import Foundation
import Testing
import TestSupport

@Suite("Copy projection: field selection, bodies, attendees, content hash")
struct CopyProjectionTests {
    typealias F = CopyFixtures
    static let google = InMemoryCalendarProvider.defaultCapabilities(.google)
    static let graph = InMemoryCalendarProvider.defaultCapabilities(.microsoft)

    static var meeting: Event {
        Event(
            id: "AAMk42", calendarID: "work", title: "Quarterly planning",
            body: .html("<html><head><style>p{margin:0}</style></head><body><p>Numbers &amp; plans</p><p>Bring&nbsp;laptops<br>and coffee</p></body></html>"),
            location: "Room 4", start: F.at("2026-03-10T15:00:00", "Europe/Berlin"), end: F.at("2026-03-10T16:00:00", "Europe/Berlin"),
            organizer: Attendee(name: "Olga Organiser", email: "olga@example.com", response: .organizer),
            attendees: [
                Attendee(name: "Ann Example", email: "ann@example.com", response: .accepted),
                Attendee(email: "bob@example.com", role: .optional),
            ],
            reminders: [Reminder(minutesBefore: 15)], showAs: .tentative, sensitivity: .personal,
            onlineMeetingURL: URL(string: "https://teams.example.com/l/meetup-join/abc"),
            categories: ["Blue category"], updated: Date())
    }

    @Test("basic: details kept, attendees and the meeting link go into the body, never as attendees")
    func basic() {
        let copy = CopyProjection(fields: .basic, target: Self.google).copy(of: Self.meeting)
        #expect(copy.title == "Quarterly planning")
        #expect(copy.location == "Room 4")
        #expect(copy.attendees.isEmpty)
        #expect(copy.organizer == nil)
        #expect(copy.start == Self.meeting.start && copy.end == Self.meeting.end)
        #expect(copy.reminders == [Reminder(minutesBefore: 15)])
        // Google: no tentative show-as and no "personal" sensitivity.
        #expect(copy.showAs == .busy)
        #expect(copy.sensitivity == .private)
        #expect(copy.categories.isEmpty)
        #expect(
            copy.body == .text(
                """
                Numbers & plans

                Bring laptops
                and coffee

                Online meeting: https://teams.example.com/l/meetup-join/abc
                Organizer: Olga Organiser <olga@example.com>
                Attendees:
                - Ann Example <ann@example.com>
                - bob@example.com (optional)
                """))
    }

    @Test("all: categories where the target has them; HTML stays HTML on Graph with the notes inside <body>")
    func allOnGraph() throws {
        let copy = CopyProjection(fields: .all, target: Self.graph).copy(of: Self.meeting)
        #expect(copy.categories == ["Blue category"])
        #expect(copy.showAs == .tentative)
        #expect(copy.sensitivity == .personal)
        guard case .html(let html)? = copy.body else {
            Issue.record("expected an HTML body")
            return
        }
        #expect(html.hasSuffix("</body></html>"))
        #expect(html.contains("<p>Online meeting: https://teams.example.com/l/meetup-join/abc<br>Organizer: Olga Organiser &lt;olga@example.com&gt;<br>"))
        #expect(CopyProjection(fields: .all, target: Self.google).copy(of: Self.meeting).categories.isEmpty)
    }

    @Test("busy: only the time, titled Busy, private, nothing else")
    func busy() {
        let copy = CopyProjection(fields: .busy, target: Self.graph).copy(of: Self.meeting)
        #expect(copy.title == "Busy")
        #expect(copy.sensitivity == .private)
        #expect(copy.body == nil && copy.location == nil)
        #expect(copy.attendees.isEmpty && copy.categories.isEmpty)
        #expect(copy.reminders == [])
        #expect(copy.start == Self.meeting.start && copy.end == Self.meeting.end)
    }

    @Test("a meeting link goes into the location when there is none")
    func meetingIntoLocation() {
        var event = Self.meeting
        event.location = nil
        event.attendees = []
        event.body = nil
        let copy = CopyProjection(fields: .basic, target: Self.graph).copy(of: event)
        #expect(copy.location == "https://teams.example.com/l/meetup-join/abc")
        #expect(copy.body == nil)
    }

    @Test("the hash is stable across ids, stamps and calendars, and changes with copied content")
    func hash() {
        let projection = CopyProjection(fields: .basic, target: Self.graph)
        let base = CopyProjection.contentHash(of: projection.copy(of: Self.meeting))
        var other = Self.meeting
        other.id = "different"
        other.calendarID = "elsewhere"
        other.updated = Date.distantPast
        other.webURL = URL(string: "https://example.invalid")
        #expect(CopyProjection.contentHash(of: projection.copy(of: other)) == base)
        #expect(base.count == 64)

        var retitled = Self.meeting
        retitled.title = "Quarterly planning!"
        #expect(CopyProjection.contentHash(of: projection.copy(of: retitled)) != base)
        var rezoned = Self.meeting
        // Same instant, other zone: a different event for a copy (its wall-clock time differs).
        rezoned.start = .timed(instant: Self.meeting.start.instant(allDayZone: F.utc), zone: "Europe/London")
        #expect(CopyProjection.contentHash(of: projection.copy(of: rezoned)) != base)
        // Busy copies ignore the title.
        let busy = CopyProjection(fields: .busy, target: Self.graph)
        #expect(CopyProjection.contentHash(of: busy.copy(of: retitled)) == CopyProjection.contentHash(of: busy.copy(of: Self.meeting)))
    }

    @Test("HTML to text: tags stripped, entities decoded, line breaks kept", arguments: [
        ("<p>One</p><p>Two</p>", "One\n\nTwo"),
        ("a<br>b<br/>c", "a\nb\nc"),
        ("Fish &amp; chips &lt;3 &#8364;5 &#x1F600; &copy;", "Fish & chips <3 €5 😀 ©"),
        ("<ul><li>x</li><li>y</li></ul>", "- x\n- y"),
        ("<div>Hello\n   world</div>", "Hello world"),
        ("<html><head><title>t</title><style>.a{}</style></head><body><script>x()</script>Hi</body></html>", "Hi"),
        ("a &unknown; b & c", "a &unknown; b & c"),
        ("<!-- note -->Text", "Text"),
    ])
    func htmlToText(html: String, text: String) {
        #expect(HTMLText.plainText(fromHTML: html) == text)
    }

    @Test("text into HTML is escaped")
    func textToHTML() {
        #expect(HTMLText.html(fromText: "a < b & \"c\"\nd") == "a &lt; b &amp; &quot;c&quot;<br>d")
    }

    /// The lines as the former formula wrote them (lower-cased addresses compared, names trimmed).
    static func formerLines(_ source: Event) -> [String] {
        func person(_ a: Attendee) -> String {
            guard let name = a.name.map(\.trimmingWhitespaces), !name.isEmpty, name != a.email else { return a.email }
            return "\(name) <\(a.email)>"
        }
        guard !source.attendees.isEmpty else { return [] }
        var lines: [String] = []
        if let organizer = source.organizer { lines.append("Organizer: " + person(organizer)) }
        let organizerEmail = source.organizer?.email.lowercased()
        let others = source.attendees.filter { $0.email.lowercased() != organizerEmail }
        if !others.isEmpty {
            lines.append("Attendees:")
            lines += others.map { "- " + person($0) + ($0.role == .optional ? " (optional)" : "") }
        }
        return lines
    }

    @Test("attendee lines: 3,000 seeded events with names, case and non-ASCII variants, as the former formula wrote them")
    func attendeeLines() {
        var rng = SplitMix64(seed: 2026_12_033)
        let emails = ["olga@example.com", "Olga@Example.com", "OLGA@EXAMPLE.COM", "bob@example.com", "ÉVA@example.com", "éva@example.com", "x"]
        let names = [nil, "", " ", "Olga", " Olga Organiser ", "olga@example.com", "Éva", "\u{00A0}Bob"]
        let projection = CopyProjection(fields: .basic, target: Self.graph)
        for _ in 0..<3_000 {
            func person() -> Attendee {
                Attendee(name: names[Int(rng.next() % UInt64(names.count))], email: emails[Int(rng.next() % UInt64(emails.count))],
                         role: rng.next() % 3 == 0 ? .optional : .required)
            }
            var event = Self.meeting
            event.organizer = rng.next() % 4 == 0 ? nil : person()
            event.attendees = (0..<Int(rng.next() % 4)).map { _ in person() }
            #expect(projection.attendeeLines(event) == Self.formerLines(event))
        }
    }
}
