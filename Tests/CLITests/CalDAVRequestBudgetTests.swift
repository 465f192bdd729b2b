import Accounts
import CalDAV
import Foundation
import HTTP
import ProviderSeam
import TestSupport
import Testing

/// The account's service decides its CalDAV request budget: a generic server (`accounts add caldav`) gets none
/// on calbridge's side and is trusted to answer 429 or 503 with `Retry-After` when it wants less, which is
/// honoured; iCloud keeps a budget fitted to what its clients report (`CalDAVRegistration.iCloudRequestQuota`).
/// Each test opens the account as every command does (`AccountSessions`: the registration's middleware and
/// budget around a stored password) over an in-memory transport that records when each request arrived.
@Suite("CalDAV request budgets: per service, and the server's own Retry-After")
struct CalDAVRequestBudgetTests {
    /// Records each request and the moment it arrived; answers with `answer(n)` for the n-th (0-based).
    final class Server: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var arrivals: [ContinuousClock.Instant] = []
        private let answer: @Sendable (Int) -> HTTPResponse

        init(answer: @escaping @Sendable (Int) -> HTTPResponse = { _ in HTTPResponse(status: 201) }) { self.answer = answer }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let index = lock.withLock {
                arrivals.append(ContinuousClock.now)
                return arrivals.count - 1
            }
            return answer(index)
        }

        var received: [ContinuousClock.Instant] { lock.withLock { arrivals } }
    }

    /// The authenticated transport of a stored `provider` account (`caldav`, `icloud`, `fastmail`) over `server`.
    static func accountTransport(_ provider: String, server: Server, home: URL) async throws -> any HTTPTransport {
        let calbridgeHome = CalbridgeHome(directory: home)
        try await FilePasswordStore(home: calbridgeHome).save("app-password", account: "dav")
        let record = AccountRecord(
            name: "dav", provider: provider, api: CalDAVRegistration.api, user: "ann",
            credential: .password(PasswordAccountCredential(server: URL(string: "http://127.0.0.1:5232/")!, userName: "ann")))
        let sessions = AccountSessions(home: calbridgeHome, providers: ProviderRegistry(CalDAVRegistration.all), transport: server)
        return try sessions.session(for: record).transport
    }

    static func put(_ n: Int) -> HTTPRequest {
        HTTPRequest(method: .put, url: URL(string: "http://127.0.0.1:5232/ann/work/event-\(n).ics")!, body: Data("BEGIN:VCALENDAR".utf8))
    }

    @Test("a generic CalDAV account sends 400 writes at once, with no client-side budget (100 per 10 s took 30 s and more)")
    func genericServerIsNotThrottled() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let server = Server()
        let transport = try await Self.accountTransport("caldav", server: server, home: temp.url.appendingPathComponent("home"))
        let started = ContinuousClock.now
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for n in 0..<400 { group.addTask { try await transport.send(Self.put(n)).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 400 && statuses.allSatisfy { $0 == 201 })
        #expect(server.received.count == 400)
        // Under a budget of 100 requests per 10 s the last 100 could not start before 30 s had passed.
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(CalDAVRegistration.registration.requestQuota == nil)
    }

    @Test("a generic CalDAV server's 503 and 429 with Retry-After: 1 are waited out and the write sent again", arguments: [503, 429])
    func retryAfterIsHonoured(status: Int) async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let server = Server { index in
            index == 0 ? HTTPResponse(status: status, headers: ["Retry-After": "1"]) : HTTPResponse(status: 201)
        }
        let transport = try await Self.accountTransport("caldav", server: server, home: temp.url.appendingPathComponent("home"))
        let response = try await transport.send(Self.put(1))
        #expect(response.status == 201)
        let arrivals = server.received
        try #require(arrivals.count == 2)
        // The second attempt waited the server's second (not the policy's 0.5 s back-off, with jitter less).
        #expect(arrivals[1] - arrivals[0] >= .milliseconds(950))
    }

    @Test("an iCloud account keeps its budget: the 241st request in a minute waits")
    func iCloudKeepsItsBudget() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let server = Server()
        let transport = try await Self.accountTransport("icloud", server: server, home: temp.url.appendingPathComponent("home"))
        let budget = CalDAVRegistration.iCloudRequestQuota.requests
        #expect(budget == 240 && CalDAVRegistration.iCloudRequestQuota.interval == .seconds(60))
        let sends = Task {
            await withTaskGroup(of: Void.self) { group in
                for n in 0...budget { group.addTask { _ = try? await transport.send(Self.put(n)) } }
            }
        }
        let deadline = ContinuousClock.now + .seconds(20)
        while server.received.count < budget && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.received.count == budget)
        try await Task.sleep(for: .milliseconds(500))
        #expect(server.received.count == budget, "the request over iCloud's budget was sent at once")
        sends.cancel()
        await sends.value
    }
}
