import CalendarBridge
import Foundation
import HTTP
import Sync
import Testing

@testable import Org

/// A shared quota whose database stops answering (a stalled peer on 127.0.0.1, which no socket error ever
/// reports): each take gives up within its bound, the turn that needed it is retried, and takes work again once
/// the database answers.
@Suite("Org request quota with a stalled database", .postgresOverTCP, .serialized)
struct QuotaStallTests {
    static let get = HTTPRequest(method: .get, url: URL(string: "https://graph.microsoft.com/v1.0/users/a@contoso.com/calendars")!)

    @Test("a take from a stalled database fails within its bound, again while the stall lasts, and works after it")
    func stalledTakeIsBounded() async throws {
        let server = try #require(TestPostgres.current)
        let name = try await server.freshDatabaseName()
        let direct = try await PostgresConnection(url: server.tcpURL(database: name, port: server.port))
        try await OrgSchema.migrate(direct)
        try await OrgQuota(name: "tenant:contoso", requests: 1000, per: .seconds(3600), burst: 100).save(direct)
        let proxy = try TCPProxy(forwardingTo: server.port)
        defer { proxy.stop() }
        let quota = OrgRequestQuota(
            name: "tenant:contoso", connection: try await PostgresConnection(url: server.tcpURL(database: name, port: proxy.port)),
            answerWithin: .seconds(1))
        try await quota.acquire(for: Self.get)

        proxy.stall()
        // The first take is in flight when the time runs out; the second finds the connection reconnecting.
        for attempt in 1...2 {
            let started = ContinuousClock.now
            let error = await #expect(throws: OrgQuotaUnavailable.self) { try await quota.acquire(for: Self.get) }
            let waited = started.duration(to: .now)
            #expect(error?.reason.code == .timedOut, "take \(attempt): \(String(describing: error))")
            #expect(waited >= .milliseconds(900) && waited < .seconds(5), "take \(attempt) waited \(waited)")
        }

        proxy.restore()
        // Takes work again without a new connection made by the caller (the reconnect held by the stall ends first).
        var granted = false
        let deadline = ContinuousClock.now + .seconds(30)
        while !granted && ContinuousClock.now < deadline {
            do {
                try await quota.acquire(for: Self.get)
                granted = true
            } catch is OrgQuotaUnavailable {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        #expect(granted, "no take was granted within 30 s of the stall's end")
        let count = try await direct.execute("SELECT granted FROM org_quotas WHERE name = 'tenant:contoso'")[0, "granted"]
        #expect(count.flatMap { Int($0) } ?? 0 >= 2, "granted: \(count ?? "nil")")
    }

    @Test("a statement queued behind one that hangs gives up at its own deadline and is never sent")
    func queuedStatementGivesUp() async throws {
        let server = try #require(TestPostgres.current)
        let name = try await server.freshDatabaseName()
        let connection = try await PostgresConnection(url: server.tcpURL(database: name, port: server.port))
        let admin = try await PostgresConnection(url: server.tcpURL(database: name, port: server.port))
        try await admin.execute("CREATE TABLE marks (n int)")
        // The first statement sleeps 6 s (no timeout of its own); the second, queued behind it, may wait 0.5 s.
        // Giving up before 4 s tells its own deadline from waiting for the first (5.8 s) on a loaded machine.
        let slow = Task { try await connection.execute("SELECT pg_sleep(6)") }
        try await Task.sleep(for: .milliseconds(200))
        let started = ContinuousClock.now
        let error = await #expect(throws: PostgresError.self) {
            try await connection.execute("INSERT INTO marks VALUES (1)", timeout: .milliseconds(500))
        }
        #expect(error?.code == .timedOut)
        #expect(started.duration(to: .now) < .seconds(4))
        _ = try await slow.value
        try await connection.execute("INSERT INTO marks VALUES (2)", timeout: .seconds(5))
        let marks = try await admin.execute("SELECT n FROM marks ORDER BY n").rows.map { $0[0] }
        #expect(marks == ["2"], "the statement that gave up was not sent: \(marks)")
    }

    @Test("a pair whose quota could not be taken is retried after the backoff, not suspended")
    func unavailableQuotaRetriesTheTurn() async throws {
        let worker = OrgWorker(
            configuration: OrgWorker.Configuration(name: "w"), queue: WorkQueue(connection: try await Self.anyConnection()),
            state: PostgresSyncStateStore(connection: try await Self.anyConnection()), opener: NoMailboxes(), log: { _ in })
        let pair = SyncPair(
            record: SyncPairRecord(name: "a|b", sideA: "a", sideB: "b", options: "{}", created: Date()),
            options: SyncPairOptions(direction: .both, fields: .basic, labelA: "a", labelB: "b"))
        let unavailable = OrgQuotaUnavailable(
            name: "tenant:contoso", reason: PostgresError(code: .timedOut, message: "no answer within 10.0 seconds"))
        let failure = SyncPairFailure(error: unavailable, message: String(describing: unavailable), needsSignIn: false)
        let lease = MailboxLease(address: "a", owner: "w", generation: 1, expiresAt: Date().addingTimeInterval(60), attempts: 1)
        let outcome = worker.decide(
            [SyncPairRunner.Result(pair: pair, report: nil, failure: failure, started: Date(), finished: Date())], lease: lease)
        guard case .retry(let error, let retryIn) = outcome else {
            Issue.record("expected a retry, got \(outcome)")
            return
        }
        #expect(error.contains("the quota tenant:contoso could not be taken: the database did not answer"))
        #expect(retryIn >= .seconds(15) && retryIn <= .seconds(30))
    }

    static func anyConnection() async throws -> PostgresConnection {
        let server = try #require(TestPostgres.current)
        return try await PostgresConnection(url: server.url())
    }

    struct NoMailboxes: MailboxProviderOpener {
        func open(_ address: String) async throws -> any ChangeReadingProvider { throw CalendarError(.notFound, "no mailbox \(address)") }
    }
}
