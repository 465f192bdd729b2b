import CalendarBridge
import Foundation
import HTTP
import MicrosoftGraph
import TestSupport
import Testing

/// Counts requests in flight and remembers the peak.
final class InFlightCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private(set) var peakValue = 0
    func enter() { lock.withLock { current += 1; peakValue = max(peakValue, current) } }
    func leave() { lock.withLock { current -= 1 } }
    var peak: Int { lock.withLock { peakValue } }
}

@Suite("Graph provider: per-mailbox concurrency")
struct GraphConcurrencyTests {
    @Test("never more than 4 requests of one mailbox in flight, and they do overlap")
    func limit() async throws {
        let counter = InFlightCounter()
        let transport = RecordingTransport { _ in
            counter.enter()
            try await Task.sleep(for: .milliseconds(40))
            counter.leave()
            return HTTPResponse(status: 200, body: Data(#"{"value": []}"#.utf8))
        }
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: URL(string: "http://127.0.0.1:1")!)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<12 { group.addTask { _ = try await p.listCalendars() } }
            try await group.waitForAll()
        }
        #expect(transport.requests.count == 12)
        #expect(counter.peak <= GraphCalendarProvider.maxConcurrentRequests)
        #expect(counter.peak >= 2, "requests run concurrently up to the limit")
    }

    @Test("a failing request releases its slot")
    func failureReleases() async throws {
        let transport = RecordingTransport { request in
            throw HTTPError(code: .connect, url: request.url, message: "refused")
        }
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: URL(string: "http://127.0.0.1:1")!)
        for _ in 0..<6 {
            await #expect(throws: CalendarError.self) { try await p.listCalendars() }
        }
        #expect(transport.requests.count == 6)
    }
}
