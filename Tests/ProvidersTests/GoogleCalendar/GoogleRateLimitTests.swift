import CalendarBridge
import Foundation
import HTTP
import Testing
import TestSupport
@testable import GoogleCalendar

/// Google's "slow down" 403s are one list, read by the plain-call retry (the registration's middleware)
/// and by the error mapping that batch retries go by.
@Suite("Google rate-limit 403s: the same reasons on a plain call and in a batch")
struct GoogleRateLimitTests {
    static func forbidden(_ reason: String) -> HTTPResponse {
        let body = #"{"error": {"code": 403, "message": "slow down", "errors": [{"reason": "\#(reason)", "domain": "usageLimits"}]}}"#
        return HTTPResponse(status: 403, headers: ["Retry-After": "0", "Content-Type": "application/json"], body: Data(body.utf8))
    }

    @Test("a plain call retries each rate-limit reason, and the mapping calls it rateLimited",
          arguments: ["rateLimitExceeded", "userRateLimitExceeded", "quotaExceeded"])
    func retried(_ reason: String) async throws {
        let base = RecordingTransport { request in
            // The first answer is the 403, the second a success.
            request.headers["X-Attempt"] == nil ? Self.forbidden(reason) : HTTPResponse(status: 200)
        }
        let counting = CountingTransport(base: base)
        let transport = MiddlewareTransport(base: counting, middlewares: GoogleCalendarRegistration.registration.middlewares)
        let response = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/calendar/v3/users/me/calendarList")!))
        #expect(response.status == 200)
        #expect(counting.count == 2)
        #expect(GoogleErrorMapping.error(for: Self.forbidden(reason), account: "a", calendar: nil).code == .rateLimited)
    }

    @Test("a 403 for another reason is neither retried nor a rate limit")
    func notRetried() async throws {
        let counting = CountingTransport(base: RecordingTransport { _ in Self.forbidden("forbiddenForNonOrganizer") })
        let transport = MiddlewareTransport(base: counting, middlewares: GoogleCalendarRegistration.registration.middlewares)
        let response = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/calendar/v3/x")!))
        #expect(response.status == 403)
        #expect(counting.count == 1)
        #expect(GoogleErrorMapping.error(for: response, account: "a", calendar: nil).code == .forbidden)
    }
}

/// Marks every attempt after the first (`X-Attempt`) and counts them.
final class CountingTransport: HTTPTransport, @unchecked Sendable {
    private let base: any HTTPTransport
    private let lock = NSLock()
    private var sent = 0
    init(base: any HTTPTransport) { self.base = base }
    var count: Int { lock.withLock { sent } }
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        let attempt = lock.withLock { sent += 1; return sent }
        if attempt > 1 { request.headers["X-Attempt"] = String(attempt) }
        return try await base.send(request)
    }
}
