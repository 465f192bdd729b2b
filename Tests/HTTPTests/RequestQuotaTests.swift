import Foundation
import HTTP
import Testing
import TestSupport

/// The per-account request budget: requests over it wait for the window to slide, none is refused.
@Suite("Request quota")
struct RequestQuotaTests {
    @Test("at most N requests start in any interval; the rest wait for the oldest to leave the window")
    func slidingWindow() async throws {
        let quota = RequestQuota(.init(requests: 3, per: .milliseconds(300)))
        let clock = ContinuousClock()
        let started = clock.now
        var starts: [ContinuousClock.Instant] = []
        for _ in 0..<7 {
            try await quota.acquire()
            starts.append(clock.now)
        }
        // 7 requests at 3 per 300 ms: the 4th waits for the 1st's window, the 7th for the 4th's.
        #expect(clock.now - started >= .milliseconds(600))
        for i in 3..<starts.count {
            #expect(starts[i] - starts[i - 3] >= .milliseconds(300), "request \(i + 1) started within the window of request \(i - 2)")
        }
    }

    @Test("the middleware counts every request that passes, shared by all callers of one quota")
    func sharedByCallers() async throws {
        let quota = RequestQuota(.init(requests: 4, per: .seconds(60)))
        let base = RecordingTransport(json: "{}")
        let transport = MiddlewareTransport(base: base, middlewares: [QuotaMiddleware(quota)])
        let other = MiddlewareTransport(base: base, middlewares: [QuotaMiddleware(quota)])
        let request = HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1/x")!)
        _ = try await transport.send(request)
        _ = try await other.send(request)
        _ = try await transport.send(request)
        #expect(await quota.inWindow == 3)
        let waiting = Task { _ = try await other.send(request); _ = try await other.send(request) }
        // Waits for the fourth request to be counted (however long the task takes to be scheduled), not a
        // fixed time; the fifth then waits for the minute, which the cancellation shows: it throws only
        // from inside `acquire`, and the base transport saw four requests.
        let deadline = ContinuousClock.now + .seconds(30)
        while await quota.inWindow < 4, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await quota.inWindow == 4)
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(await quota.inWindow == 4, "the fifth request waited: the minute's budget is spent")
        #expect(base.requests.count == 4)
    }
}
