import CalendarBridge
import Foundation
import HTTP
import MicrosoftGraph
import TestSupport
import Testing

@Suite("Graph provider: error bodies become CalendarError")
struct GraphErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var fixture: String
        var status: Int
        var retryAfter: String?
        var code: CalendarError.Code
        var testDescription: String { "\(status) \(fixture)" }
    }

    static let cases: [Case] = [
        Case(fixture: "ErrorItemNotFound", status: 404, code: .notFound),
        Case(fixture: "ErrorAccessDenied", status: 403, code: .forbidden),
        Case(fixture: "TooManyRequests", status: 429, retryAfter: "12", code: .rateLimited),
        Case(fixture: "ServiceNotAvailable", status: 503, retryAfter: "30", code: .rateLimited),
        Case(fixture: "ServiceNotAvailable", status: 503, code: .server),
        Case(fixture: "InvalidAuthenticationToken", status: 401, code: .unauthorized),
        Case(fixture: "ErrorInvalidRequest", status: 400, code: .invalidRequest),
        Case(fixture: "ErrorInternalServerError", status: 500, code: .server),
    ]

    @Test("each error shape maps to its code with Graph's code, request id and Retry-After", arguments: cases)
    func mapping(_ c: Case) async throws {
        let transport = RecordingTransport { _ in
            var headers: HTTPHeaders = [:]
            if let r = c.retryAfter { headers["Retry-After"] = r }
            return Fixture.response("graph/error-\(c.fixture).json", status: c.status, headers: headers)
        }
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: URL(string: "http://127.0.0.1:1")!)
        let error = try await #require(throws: CalendarError.self) {
            try await p.getEvent(id: "AAMk=", calendarID: "CAL")
        }
        #expect(error.code == c.code)
        #expect(error.httpStatus == c.status)
        #expect(error.providerCode == (c.fixture == "TooManyRequests" ? "ApplicationThrottled" : c.fixture))
        #expect(error.requestID?.hasPrefix("5a1b2c3d-") == true)
        #expect(error.retryAfterSeconds == c.retryAfter.flatMap(Double.init))
        #expect(error.account == "o365" && error.calendar == "CAL" && error.provider == .microsoft)
        #expect(!error.description.contains("\n"))
    }

    @Test("a refused write reads as a read-only calendar, with the fix in the message")
    func readOnlyWrite() async throws {
        let transport = RecordingTransport { _ in Fixture.response("graph/error-ErrorAccessDenied.json", status: 403) }
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: URL(string: "http://127.0.0.1:1")!)
        let event = Event(title: "X", start: .allDay(date: LocalDate("2026-03-10")!), end: .allDay(date: LocalDate("2026-03-11")!))
        let error = try await #require(throws: CalendarError.self) { try await p.createEvent(event, in: "HOLIDAYS") }
        #expect(error.code == .readOnly)
        #expect(error.description == "account 'o365' (microsoft), calendar 'HOLIDAYS': Access is denied. Check credentials and try again. (HTTP 403, ErrorAccessDenied, request id 5a1b2c3d-0000-4000-8000-000000000002); choose a calendar you can write to ('calbridge calendars' shows access)")
    }

    @Test("an expired token names the account to sign in again")
    func unauthorizedHint() async throws {
        let transport = RecordingTransport { _ in Fixture.response("graph/error-InvalidAuthenticationToken.json", status: 401) }
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: URL(string: "http://127.0.0.1:1")!)
        let error = try await #require(throws: CalendarError.self) { try await p.listCalendars() }
        #expect(error.code == .unauthorized)
        #expect(error.description.hasSuffix("sign in again ('calbridge accounts add o365')"))
    }

    @Test("deleting an event that is already gone succeeds")
    func deleteGone() async throws {
        let transport = RecordingTransport { _ in Fixture.response("graph/error-ErrorItemNotFound.json", status: 404) }
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: URL(string: "http://127.0.0.1:1")!)
        try await p.deleteEvent(id: "AAMk=", calendarID: "CAL")
        #expect(transport.requests.count == 1)
    }
}
