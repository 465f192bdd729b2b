import CalendarBridge
import Foundation
import Testing

@Suite struct EventQueryTests {
    private func event(_ title: String, location: String? = nil, body: EventBody? = nil) -> Event {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        return Event(
            title: title, body: body, location: location, start: .timed(instant: start, zone: "UTC"),
            end: .timed(instant: start.addingTimeInterval(3600), zone: "UTC"))
    }

    @Test func everyWordMustOccurIgnoringCaseAndAccents() throws {
        let query = try #require(EventQuery("cafe TEAM"))
        #expect(query.matches(event("Team lunch", location: "Café Central")))
        #expect(!query.matches(event("Team lunch", location: "Canteen")))
        #expect(!query.matches(event("Café", location: "Canteen")))
    }

    @Test func wordsMatchInsideLongerWordsAsTyped() throws {
        #expect(try #require(EventQuery("stand")).matches(event("Daily Stand-up")))
        #expect(!(try #require(EventQuery("standup")).matches(event("Daily Stand-up"))))
    }

    @Test func descriptionsAreSearchedAsPlainText() throws {
        let query = try #require(EventQuery("agenda bold"))
        #expect(query.matches(event("Review", body: .html("<p>The agenda is <b>bold</b></p>"))))
        #expect(!(try #require(EventQuery("<b>")).matches(event("Review", body: .html("<p><b>x</b></p>")))))
        #expect(query.matches(event("Review", body: .text("agenda: bold moves"))))
    }

    @Test func aQueryWithoutWordsIsRefused() {
        #expect(EventQuery("") == nil)
        #expect(EventQuery(" \t ") == nil)
    }
}
