import CalendarBridge
import Foundation
import GoogleCalendar
import HTTP
import TestSupport
import Testing

@Suite("Google provider: error bodies become CalendarError")
struct GoogleErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var fixture: String
        var status: Int
        var code: CalendarError.Code
        var reason: String
        var testDescription: String { "\(status) \(reason)" }
    }

    static let cases: [Case] = [
        Case(fixture: "error-rateLimitExceeded", status: 403, code: .rateLimited, reason: "rateLimitExceeded"),
        Case(fixture: "error-userRateLimitExceeded", status: 403, code: .rateLimited, reason: "userRateLimitExceeded"),
        Case(fixture: "error-rateLimit429", status: 429, code: .rateLimited, reason: "rateLimitExceeded"),
        Case(fixture: "error-requiredAccessLevel", status: 403, code: .readOnly, reason: "requiredAccessLevel"),
        Case(fixture: "error-forbidden", status: 403, code: .forbidden, reason: "forbidden"),
        Case(fixture: "error-notFound", status: 404, code: .notFound, reason: "notFound"),
        Case(fixture: "error-duplicate", status: 409, code: .conflict, reason: "duplicate"),
        Case(fixture: "error-authError", status: 401, code: .unauthorized, reason: "authError"),
        Case(fixture: "error-backendError", status: 503, code: .server, reason: "backendError"),
        Case(fixture: "error-badRequest", status: 400, code: .invalidRequest, reason: "timeRangeEmpty"),
    ]

    @Test("each error shape maps to its code with status, reason, account and calendar", arguments: cases)
    func mapping(_ c: Case) async throws {
        let transport = RecordingTransport { _ in
            Fixture.response("google/\(c.fixture).json", status: c.status, headers: ["Retry-After": "7"])
        }
        let p = GoogleCalendarProvider(account: "work", transport: transport, baseURL: URL(string: "http://127.0.0.1:1")!)
        let error = try await #require(throws: CalendarError.self) {
            try await p.getEvent(id: "e1", calendarID: "team@group.calendar.google.com")
        }
        #expect(error.code == c.code)
        #expect(error.httpStatus == c.status)
        #expect(error.providerCode == c.reason)
        #expect(error.provider == .google)
        #expect(error.account == "work")
        #expect(error.calendar == "team@group.calendar.google.com")
        #expect(error.retryAfterSeconds == 7)
        #expect(!error.description.contains("\n"))
        #expect(error.description.contains("HTTP \(c.status)"))
    }

    @Test("the one-line description names account, calendar, server message and a fix")
    func description() async throws {
        let transport = RecordingTransport { _ in Fixture.response("google/error-requiredAccessLevel.json", status: 403) }
        let p = GoogleCalendarProvider(account: "work", transport: transport, baseURL: URL(string: "http://127.0.0.1:1")!)
        let error = try await #require(throws: CalendarError.self) {
            try await p.deleteEvent(id: "e1", calendarID: "en.usa#holiday@group.v.calendar.google.com")
        }
        #expect(error.description == "account 'work' (google), calendar 'en.usa#holiday@group.v.calendar.google.com': You need to have writer access to this calendar. (HTTP 403, requiredAccessLevel); choose a calendar you can write to ('calbridge calendars' shows access)")
    }

    @Test("a non-JSON error body still gives a readable error; a transport failure becomes .transport")
    func otherFailures() async throws {
        let html = RecordingTransport { _ in HTTPResponse(status: 502, body: Data("<html>Bad Gateway</html>".utf8)) }
        let p = GoogleCalendarProvider(account: "work", transport: html, baseURL: URL(string: "http://127.0.0.1:1")!)
        let e1 = try await #require(throws: CalendarError.self) { try await p.listCalendars() }
        #expect(e1.code == .server)
        #expect(e1.message == "<html>Bad Gateway</html>")

        let down = RecordingTransport { request in
            throw HTTPError(code: .connect, url: request.url, message: "connection refused")
        }
        let p2 = GoogleCalendarProvider(account: "work", transport: down, baseURL: URL(string: "http://127.0.0.1:1")!)
        let e2 = try await #require(throws: CalendarError.self) { try await p2.listCalendars() }
        #expect(e2.code == .transport)
        #expect(e2.account == "work")
        #expect(!e2.description.contains("maxResults"), "no query string in messages")
    }
}
