@testable import CalendarBridge
import Foundation
import Testing

/// `Event` keeps its fields in one shared box and a provider's web link as text until read: neither may
/// show. Copies stay independent values, and an event whose link is pending is equal to, hashes as and
/// encodes as the event built with `URL(string:)` of the same text.
@Suite("Event: a value with shared storage and a web link parsed on first read")
struct EventValueTests {
    static let base = Event(
        id: "e1", calendarID: "c1", title: "Planning", body: .text("agenda"), location: "Room 4",
        start: .timed(instant: Date(timeIntervalSince1970: 1_800_000_000), zone: "Europe/Berlin"),
        end: .timed(instant: Date(timeIntervalSince1970: 1_800_003_600), zone: "Europe/Berlin"),
        attendees: [Attendee(name: "Ana", email: "ana@example.com", response: .accepted)],
        categories: ["Blue"], extendedProperties: ["k": "v"])

    @Test("a copy changed in place leaves the original as it was")
    func copiesAreIndependent() {
        let original = Self.base
        var copy = original
        #expect(copy == original)
        copy.title = "Retro"
        copy.attendees.append(Attendee(name: "Bo", email: "bo@example.com", response: .needsAction))
        copy.extendedProperties["k"] = "w"
        copy.webURL = URL(string: "https://example.com/changed")
        #expect(original.title == "Planning")
        #expect(original.attendees.count == 1)
        #expect(original.extendedProperties == ["k": "v"])
        #expect(original.webURL == nil)
        #expect(copy.title == "Retro" && copy.attendees.count == 2 && copy.extendedProperties["k"] == "w")
        #expect(copy != original)
        var back = copy
        back.title = "Planning"
        back.attendees.removeLast()
        back.extendedProperties["k"] = "v"
        back.webURL = nil
        #expect(back == original)
        #expect(back.hashValue == original.hashValue)
    }

    /// Texts `URL(string:)` takes as they are, percent-encodes, or refuses.
    static let linkTexts = [
        "https://www.google.com/calendar/event?eid=abc123", "https://outlook.office365.com/owa/?itemid=AAMk%2F&exvsurl=1",
        "https://example.com/a b", "", "http://[::1", "not a url", "https://münchen.example/ä?q=ö", "mailto:x@example.com",
    ]

    @Test("a pending web link reads, compares, hashes and encodes as the parsed one", arguments: linkTexts)
    func pendingLinkIsTheParsedLink(text: String) throws {
        var pending = Self.base
        pending.setWebURL(text: text)
        var parsed = Self.base
        parsed.webURL = URL(string: text)
        #expect(pending.webURL == parsed.webURL)
        #expect(pending == parsed)
        #expect(parsed == pending)
        #expect(pending.hashValue == parsed.hashValue)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let pendingJSON = try encoder.encode(pending)
        #expect(pendingJSON == (try encoder.encode(parsed)))
        #expect(!String(decoding: pendingJSON, as: UTF8.self).contains("webURLText"))
        #expect(try JSONDecoder().decode(Event.self, from: pendingJSON) == parsed)
        // Set after a pending link, a URL replaces it; nil clears it.
        pending.webURL = URL(string: "https://example.com/other")
        #expect(pending.webURL == URL(string: "https://example.com/other"))
        pending.webURL = nil
        #expect(pending.webURL == nil && pending == Self.base)
    }

    @Test("two pending links compare by the URLs they parse to")
    func pendingLinksCompareAsURLs() {
        var a = Self.base
        a.setWebURL(text: "https://example.com/x")
        var b = Self.base
        b.setWebURL(text: "https://example.com/x")
        var c = Self.base
        c.setWebURL(text: "https://example.com/y")
        var invalid = Self.base
        invalid.setWebURL(text: "http://[::1")
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(a != c)
        // A text `URL(string:)` refuses is no link at all, as it was when the mapping parsed it.
        #expect(invalid == Self.base && invalid.hashValue == Self.base.hashValue)
    }
}
