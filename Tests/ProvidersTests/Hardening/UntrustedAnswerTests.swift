import CalendarBridge
import Foundation
import HTTP
import TestSupport
import Testing
@testable import GoogleCalendar
@testable import MicrosoftGraph

/// Server answers that used to crash or hang calbridge (issue 13), each answered by a typed error now.
@Suite("Providers: hostile or broken server answers end in errors, never a crash or an endless loop")
struct UntrustedAnswerTests {
    static let base = URL(string: "http://127.0.0.1:1")!
    static let range = TimeRange(start: Date(timeIntervalSince1970: 1_795_000_000), end: Date(timeIntervalSince1970: 1_795_600_000))

    @Test("Google: a server repeating the same nextPageToken ends the listing with an error naming it")
    func googleRepeatedToken() async throws {
        let transport = RecordingTransport { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                         body: Data(#"{"items": [], "nextPageToken": "same", "timeZone": "UTC"}"#.utf8))
        }
        let provider = GoogleCalendarProvider(account: "work", transport: transport, baseURL: Self.base)
        let error = try await #require(throws: CalendarError.self) {
            try await provider.listEvents(calendarID: "primary", range: Self.range, expand: true)
        }
        #expect(error.code == .invalidResponse)
        #expect(error.description.contains("127.0.0.1:1 sent the same next-page token twice"), "\(error)")
        #expect(transport.requests.count == 2)
    }

    @Test("Google calendar list: the same repeated token is refused too")
    func googleRepeatedCalendarListToken() async throws {
        let transport = RecordingTransport { _ in
            HTTPResponse(status: 200, headers: [:], body: Data(#"{"items": [], "nextPageToken": "again"}"#.utf8))
        }
        let provider = GoogleCalendarProvider(account: "work", transport: transport, baseURL: Self.base)
        await #expect(throws: CalendarError.self) { try await provider.listCalendars() }
        #expect(transport.requests.count == 2)
    }

    @Test("Graph: a server repeating the same @odata.nextLink ends the listing with an error naming it")
    func graphRepeatedLink() async throws {
        let link = "http://127.0.0.1:1/v1.0/me/calendars?$skiptoken=loop"
        let transport = RecordingTransport { _ in
            HTTPResponse(status: 200, headers: [:], body: Data(#"{"value": [], "@odata.nextLink": "\#(link)"}"#.utf8))
        }
        let provider = GraphCalendarProvider(account: "o365", transport: transport, baseURL: Self.base)
        let error = try await #require(throws: CalendarError.self) { try await provider.listCalendars() }
        #expect(error.code == .invalidResponse)
        #expect(error.description.contains("127.0.0.1:1 sent the same next-page token twice"), "\(error)")
        #expect(transport.requests.count == 2)
    }

    @Test("a server that sends ever-new tokens is stopped at the page cap")
    func pageCap() throws {
        var pages = PageGuard(server: Self.base, provider: .google, account: "work", calendar: nil, maxPages: 3)
        #expect(try pages.next("a") == "a")
        #expect(try pages.next("b") == "b")
        let error = try #require(throws: CalendarError.self) { try pages.next("c") }
        #expect(error.description.contains("more than 3 pages"))
        var done = PageGuard(server: Self.base, provider: .google, account: nil, calendar: nil, maxPages: 1)
        #expect(try done.next(nil) == nil)
    }

    @Test("a 429 with Retry-After: 1e300 is a rate-limit error with a sane wait, described without trapping",
          arguments: ["1e300", "inf", "1e20", "nan", "-5"])
    func absurdRetryAfter(_ value: String) async throws {
        let transport = RecordingTransport { _ in
            HTTPResponse(status: 429, headers: ["Retry-After": value, "Content-Type": "application/json"],
                         body: Data(#"{"error": {"code": 429, "message": "Rate Limit Exceeded", "errors": [{"reason": "rateLimitExceeded"}]}}"#.utf8))
        }
        let provider = GoogleCalendarProvider(account: "work", transport: transport, baseURL: Self.base)
        let error = try await #require(throws: CalendarError.self) {
            try await provider.getEvent(id: "e1", calendarID: "primary")
        }
        #expect(error.code == .rateLimited)
        if let seconds = error.retryAfterSeconds { #expect(seconds.isFinite && seconds >= 0 && seconds <= 86_400) }
        #expect(error.description.contains("try again"))
        // Built by hand with an absurd value, the description is still safe.
        #expect(CalendarError(.rateLimited, "x", retryAfterSeconds: .infinity).description.contains("try again later"))
        #expect(CalendarError(.rateLimited, "x", retryAfterSeconds: 1e300).description.contains("try again in 86400 s"))
    }

    @Test("a Google batch part with Content-Length: -1 is a decode error, not a crash",
          arguments: ["-1", "abc", "-9223372036854775808"])
    func negativeBatchLength(_ length: String) throws {
        let body = "--b\r\nContent-Type: application/http\r\nContent-ID: <response-item-0>\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n\r\n{}\r\n--b--\r\n"
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "multipart/mixed; boundary=b"], body: Data(body.utf8))
        let error = try #require(throws: GoogleBatchCodec.DecodeError.self) { try GoogleBatchCodec.decode(response) }
        #expect(error.description.contains("bad Content-Length '\(length)'"))
    }

    @Test("Graph $batch answers: a status outside 100-599 or a missing id leaves that request unanswered")
    func graphBatchAnswers() throws {
        let json = #"{"responses": [{"id": "1", "status": 200, "body": {"id": "e"}}, {"id": "2", "status": 99999999999}, {"status": 200}, {"id": "4", "status": -1}]}"#
        let answers = try #require(GraphCalendarProvider.batchAnswers(Data(json.utf8)))
        #expect(answers.keys.sorted() == ["1"])
        #expect(GraphCalendarProvider.batchAnswers(Data("[]".utf8)) == nil)
    }
}
