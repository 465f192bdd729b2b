import CalendarBridge
import Foundation
import HTTP
import TestSupport
import Testing
@testable import GoogleCalendar
@testable import MicrosoftGraph

/// Creation and update stamps are parsed where they lie in a listing: the dates the mapping made of their
/// text before, nil for text that is no timestamp, and a listing refused for a stamp that is no string.
@Suite("Providers: listed creation and update stamps, parsed as read")
struct ListedStampTests {
    static let base = URL(string: "http://127.0.0.1:1")!
    static let range = TimeRange(start: Date(timeIntervalSince1970: 1_795_000_000), end: Date(timeIntervalSince1970: 1_795_600_000))
    static let stamps: [(json: String, date: Date?)] = [
        (#""2026-03-01T10:00:00.123Z""#, RFC3339.parse("2026-03-01T10:00:00.123Z")),
        (#""2026-03-01T11:00:00+01:00""#, Date(timeIntervalSince1970: 1_772_359_200)),
        (#""yesterday""#, nil), (#""2026-03-01T10:00:00""#, nil), ("null", nil), (#""2026-03-01T10:00:00\u005A""#, RFC3339.parse("2026-03-01T10:00:00Z")),
    ]

    static func respond(_ body: String) -> RecordingTransport {
        RecordingTransport { _ in HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8)) }
    }

    @Test("Google: created and updated", arguments: 0..<6)
    func google(index: Int) async throws {
        let (json, date) = Self.stamps[index]
        let body = #"{"items":[{"id":"e1","summary":"a","start":{"dateTime":"2026-11-20T10:00:00Z"},"#
            + #""end":{"dateTime":"2026-11-20T11:00:00Z"},"created":\#(json),"updated":\#(json)}],"timeZone":"UTC"}"#
        let provider = GoogleCalendarProvider(account: "work", transport: Self.respond(body), baseURL: Self.base)
        let events = try await provider.listEvents(calendarID: "primary", range: Self.range, expand: true)
        #expect(events.count == 1)
        #expect(events.first?.created == date)
        #expect(events.first?.updated == date)
    }

    @Test("Graph: createdDateTime and lastModifiedDateTime", arguments: 0..<6)
    func graph(index: Int) async throws {
        let (json, date) = Self.stamps[index]
        let body = #"{"value":[{"id":"e1","subject":"a","start":{"dateTime":"2026-11-20T10:00:00.0000000","timeZone":"UTC"},"#
            + #""end":{"dateTime":"2026-11-20T11:00:00.0000000","timeZone":"UTC"},"createdDateTime":\#(json),"#
            + #""lastModifiedDateTime":\#(json)}]}"#
        let provider = GraphCalendarProvider(account: "o365", transport: Self.respond(body), baseURL: Self.base)
        let events = try await provider.listEvents(calendarID: "cal", range: Self.range, expand: true)
        #expect(events.count == 1)
        #expect(events.first?.created == date)
        #expect(events.first?.updated == date)
    }

    @Test("a stamp that is not a string fails the listing, as before")
    func notAString() async throws {
        let google = #"{"items":[{"id":"e1","start":{"date":"2026-11-20"},"end":{"date":"2026-11-21"},"created":5}]}"#
        let g = GoogleCalendarProvider(account: "work", transport: Self.respond(google), baseURL: Self.base)
        await #expect(throws: CalendarError.self) { try await g.listEvents(calendarID: "primary", range: Self.range, expand: true) }
        let graph = #"{"value":[{"id":"e1","start":{"dateTime":"2026-11-20T10:00:00","timeZone":"UTC"},"#
            + #""end":{"dateTime":"2026-11-20T11:00:00","timeZone":"UTC"},"lastModifiedDateTime":true}]}"#
        let m = GraphCalendarProvider(account: "o365", transport: Self.respond(graph), baseURL: Self.base)
        await #expect(throws: CalendarError.self) { try await m.listEvents(calendarID: "cal", range: Self.range, expand: true) }
    }

    @Test("Google times: a zone of its own, the page's, or the offset's; text that is no time named in the error")
    func googleTimes() async throws {
        func listed(_ start: String, pageZone: String?) async throws -> [Event] {
            let zone = pageZone.map { #","timeZone":"\#($0)""# } ?? ""
            let body = #"{"items":[{"id":"e1","start":\#(start),"end":{"dateTime":"2026-11-20T12:00:00Z","timeZone":"UTC"}}]\#(zone)}"#
            let provider = GoogleCalendarProvider(account: "work", transport: Self.respond(body), baseURL: Self.base)
            return try await provider.listEvents(calendarID: "primary", range: Self.range, expand: true)
        }
        let instant = Date(timeIntervalSince1970: 1_795_165_200)  // 2026-11-20T09:00:00Z
        let own = try await listed(#"{"dateTime":"2026-11-20T10:00:00+01:00","timeZone":"Europe/Paris"}"#, pageZone: "UTC")
        #expect(own.first?.start == .timed(instant: instant, zone: "Europe/Paris"))
        let page = try await listed(#"{"timeZone":null,"dateTime":"2026-11-20T10:00:00+01:00"}"#, pageZone: "Asia/Tokyo")
        #expect(page.first?.start == .timed(instant: instant, zone: "Asia/Tokyo"))
        let offset = try await listed(#"{"dateTime":"2026-11-20T10:00:00+01:00"}"#, pageZone: nil)
        #expect(offset.first?.start == .timed(instant: instant, zone: "Etc/GMT-1"))
        let repeated = try await listed(#"{"dateTime":"bad","dateTime":"2026-11-20T11:00:00+02:00"}"#, pageZone: nil)
        #expect(repeated.first?.start == .timed(instant: instant, zone: "Etc/GMT-2"))
        let error = try await #require(throws: CalendarError.self) {
            try await listed(#"{"dateTime":"2026-11-20 10:00","timeZone":"UTC"}"#, pageZone: nil)
        }
        #expect(error.description.contains("Google start.dateTime '2026-11-20 10:00' is not RFC 3339"), "\(error)")
        let missing = try await #require(throws: CalendarError.self) { try await listed(#"{"timeZone":"UTC"}"#, pageZone: nil) }
        #expect(missing.description.contains("Google start.dateTime '' is not RFC 3339"), "\(missing)")
    }

    @Test("Graph times: text that is no local date-time named in the error")
    func graphTimes() async throws {
        let body = #"{"value":[{"id":"e1","start":{"dateTime":"20 Nov 2026","timeZone":"UTC"},"#
            + #""end":{"dateTime":"2026-11-20T11:00:00","timeZone":"UTC"}}]}"#
        let provider = GraphCalendarProvider(account: "o365", transport: Self.respond(body), baseURL: Self.base)
        let error = try await #require(throws: CalendarError.self) {
            try await provider.listEvents(calendarID: "cal", range: Self.range, expand: true)
        }
        #expect(error.description.contains("Graph start.dateTime '20 Nov 2026' is not a local date-time"), "\(error)")
    }
}
