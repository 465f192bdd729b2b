import CalendarBridge
import Foundation
import Sync
import TestSupport
import Testing

@testable import Org

/// The worker in process against a real PostgreSQL, with in-memory calendars for the mailboxes: pairs synced
/// through the PostgreSQL state, outcomes recorded, a 403 suspending, Retry-After honoured, fencing.
@Suite("Org worker on PostgreSQL", .postgres)
struct OrgWorkerTests {
    /// A stop request the test sets.
    final class Stop: SyncStopRequest, @unchecked Sendable {
        private let lock = NSLock()
        private var reason: String?

        var stopReason: String? { lock.withLock { reason } }
        func stop(_ why: String) { lock.withLock { reason = why } }

        func waitForStop(timeout: Duration) async -> String? {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if let reason = stopReason { return reason }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return stopReason
        }
    }

    /// Every mailbox's in-memory calendar, by address.
    struct Calendars: MailboxProviderOpener {
        let providers: [String: InMemoryCalendarProvider]
        func open(_ address: String) async throws -> any ChangeReadingProvider {
            guard let provider = providers[address] else { throw CalendarError(.notFound, "no mailbox \(address)") }
            return provider
        }
    }

    struct World {
        let url: String
        let connection: PostgresConnection
        let calendars: Calendars
        let pairs: [(a: String, b: String)]

        func worker(name: String, log: @escaping @Sendable (OrgWorker.Event) -> Void = { _ in }) async throws -> OrgWorker {
            let configuration = OrgWorker.Configuration(
                name: name, concurrency: 2, interval: .seconds(3600), lease: .seconds(30), poll: .milliseconds(50))
            return OrgWorker(
                configuration: configuration, queue: WorkQueue(connection: try await PostgresConnection(url: url)),
                state: PostgresSyncStateStore(connection: try await PostgresConnection(url: url)), opener: calendars, log: log)
        }

        /// Runs a worker until every mailbox has an outcome (synced, retry or suspended), then stops it.
        func runUntilSettled(_ worker: OrgWorker) async throws {
            let stop = Stop()
            // A task, not an `async let` (Swift 6.3.1's async let teardown bugs: see `concurrently`); stopped on every way out.
            let running = Task { await worker.run(until: stop) }
            defer { stop.stop("test") }
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                // The mailboxes that head a pair: only those are claimed (a second mailbox's last sync comes with its pair's).
                let open = try await connection.execute(
                    """
                    SELECT count(*) FROM org_mailboxes m
                    WHERE state = 'active' AND last_sync_at IS NULL AND last_error IS NULL
                        AND EXISTS (SELECT 1 FROM org_pairs p WHERE p.a = m.address)
                    """)
                if open[0, "count"] == "0" { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            stop.stop("test")
            await running.value
        }
    }

    static let now = Date()

    static func event(_ title: String, hours: Double) -> Event {
        let start = now.addingTimeInterval(hours * 3600).rounded(toMinutes: 30)
        return Event(
            title: title, start: .timed(instant: start, zone: "UTC"), end: .timed(instant: start.addingTimeInterval(1800), zone: "UTC"))
    }

    /// `count` pairs outlookN@contoso.test (Microsoft-like) with googleN@fabrikam.test (Google-like), both
    /// ways, one event on each side.
    /// - Parameter database: the (empty) database's URL; nil: a fresh one of the suite's server.
    static func world(pairs count: Int, database: String? = nil) async throws -> World {
        let url: String
        if let database { url = database } else { url = try await TestPostgres.database() }
        let connection = try await PostgresConnection(url: url)
        try await OrgSchema.migrate(connection)
        var providers: [String: InMemoryCalendarProvider] = [:]
        var pairs: [(a: String, b: String)] = []
        for index in 0..<count {
            let a = "outlook\(index)@contoso.test", b = "google\(index)@fabrikam.test"
            let outlook = InMemoryCalendarProvider(
                provider: .microsoft, account: a,
                calendars: [
                    CalendarInfo(
                        id: "cal-\(index)", name: "Calendar", account: a, provider: .microsoft, isPrimary: true, accessRole: .owner)
                ])
            let google = InMemoryCalendarProvider(
                provider: .google, account: b,
                calendars: [CalendarInfo(id: b, name: b, account: b, provider: .google, isPrimary: true, accessRole: .owner)])
            _ = await outlook.seed(event("Outlook \(index)", hours: 26), in: "cal-\(index)")
            _ = await google.seed(event("Google \(index)", hours: 50), in: b)
            providers[a] = outlook
            providers[b] = google
            pairs.append((a, b))
        }
        try await connection.execute(
            "INSERT INTO org_mailboxes (address) SELECT unnest($1::text[])", [OrgDirectory.array(pairs.flatMap { [$0.a, $0.b] })])
        for pair in pairs {
            try await connection.execute(
                "INSERT INTO org_pairs (a, b, direction, fields) VALUES ($1, $2, 'both', 'basic')", [pair.a, pair.b])
        }
        return World(url: url, connection: connection, calendars: Calendars(providers: providers), pairs: pairs)
    }

    @Test("two workers sync every pair both ways through the PostgreSQL state, record each mailbox synced, release their leases")
    func syncsPairs() async throws {
        let world = try await Self.world(pairs: 6)
        let first = try await world.worker(name: "w1"), second = try await world.worker(name: "w2")
        _ = try await concurrently({ try await world.runUntilSettled(first) }, { try await world.runUntilSettled(second) })

        for (index, pair) in world.pairs.enumerated() {
            let outlook = try #require(world.calendars.providers[pair.a]), google = try #require(world.calendars.providers[pair.b])
            let outlookTitles = await outlook.storedEvents(in: "cal-\(index)").map(\.title).sorted()
            let googleTitles = await google.storedEvents(in: pair.b).map(\.title).sorted()
            #expect(outlookTitles == ["Google \(index)", "Outlook \(index)"], "\(pair.a)")
            #expect(googleTitles == ["Google \(index)", "Outlook \(index)"], "\(pair.b)")
        }
        let items = try await world.connection.execute("SELECT pair, count(*) AS n FROM sync_items GROUP BY pair ORDER BY pair")
        #expect(items.rows.count == 6 && items.rows.allSatisfy { $0[1] == "2" })
        let runs = try await world.connection.execute("SELECT outcome FROM sync_runs")
        #expect(runs.rows.count == 6 && runs.rows.allSatisfy { $0[0] == "ok" })
        let status = try await OrgStatus.read(world.connection)
        #expect(status.mailboxes.count == 12)
        #expect(status.pairs.count == 6 && status.pairs.allSatisfy { $0.lastOutcome == "ok" && $0.lastRun != nil && $0.lastError == nil })
        #expect(status.mailboxes.allSatisfy { $0.state == "active" && $0.lastSync != nil && $0.leaseOwner == nil && $0.attempts == 0 })
        let held = try await world.connection.execute("SELECT count(*) FROM org_mailboxes WHERE lease_owner IS NOT NULL")
        #expect(held[0, "count"] == "0", "every lease released")
        // Each paired mailbox's primary calendar is remembered for the next worker to open it.
        let calendars = try await world.connection.execute(
            "SELECT address, primary_calendar FROM org_mailboxes WHERE primary_calendar IS NOT NULL ORDER BY address")
        #expect(calendars.rows.count == 12)
        #expect(calendars.rows.first { $0[0] == "outlook4@contoso.test" }?[1] == "cal-4")
    }

    @Test("a 403 outside the app's scope suspends the mailbox with the reason; a 429 waits for its Retry-After")
    func failures() async throws {
        let world = try await Self.world(pairs: 2)
        await world.calendars.providers["outlook0@contoso.test"]?.failReads(
            with: CalendarError(.forbidden, "Access is denied.", provider: .microsoft, httpStatus: 403, providerCode: "ErrorAccessDenied"))
        await world.calendars.providers["outlook1@contoso.test"]?.failReads(
            with: CalendarError(
                .rateLimited, "Too many requests", provider: .microsoft, httpStatus: 429, providerCode: "ApplicationThrottled",
                retryAfterSeconds: 600))
        try await world.runUntilSettled(try await world.worker(name: "w"))

        let rows = try await world.connection.execute(
            """
            SELECT address, state, reason, last_error, extract(epoch FROM due_at - now()) AS due_in FROM org_mailboxes
            WHERE address LIKE 'outlook%' ORDER BY address
            """)
        #expect(rows[0, "state"] == "suspended")
        #expect(rows[0, "reason"]?.contains("ErrorAccessDenied") == true, "\(rows[0, "reason"] ?? "")")
        #expect(rows[1, "state"] == "active")
        #expect(rows[1, "last_error"]?.contains("Too many requests") == true)
        let dueIn = try #require(rows[1, "due_in"].flatMap(Double.init))
        #expect(dueIn > 540 && dueIn <= 600, "due again after Retry-After (600 s): \(dueIn)")
    }

    @Test("fencing: once another worker holds the mailbox, the first one's state writes are refused and nothing is written")
    func fencing() async throws {
        let world = try await Self.world(pairs: 1)
        let queue = WorkQueue(connection: world.connection)
        let stale = try #require(try await queue.claim(owner: "slow", limit: 1, lease: .milliseconds(300)).first)
        try await Task.sleep(for: .milliseconds(600))
        let current = try #require(try await queue.claim(owner: "fast", limit: 1, lease: .seconds(60)).first)
        #expect(current.address == stale.address && current.generation == stale.generation + 1)

        let store = PostgresSyncStateStore(connection: try await PostgresConnection(url: world.url))
        await #expect(throws: LeaseLost.self) {
            try await store.fenced(by: stale).write { tx in
                try tx.savePair(SyncPairRecord(name: "x", sideA: "a", sideB: "b", options: "{}", created: Self.now))
            }
        }
        try await store.fenced(by: current).write { tx in
            try tx.savePair(SyncPairRecord(name: "y", sideA: "a", sideB: "b", options: "{}", created: Self.now))
        }
        #expect(try await store.read { tx in try tx.pairs().map(\.name) } == ["y"])

        // A whole turn under the stale lease: its first state write is refused, so nothing of it is stored.
        let events = LockedEvents()
        let worker = try await world.worker(name: "slow") { events.append($0) }
        await worker.work(stale, stop: Stop())
        let stored = try await world.connection.execute("SELECT count(*) FROM sync_items")
        #expect(stored[0, "count"] == "0")
        let owner = try await world.connection.execute("SELECT lease_owner FROM org_mailboxes WHERE address = $1", [stale.address])
        #expect(owner[0, "lease_owner"] == "fast", "the stale worker's outcome is not recorded")
        #expect(events.all.contains { if case .leaseLost = $0 { true } else { false } })
    }

    @Test("a REPEATABLE READ transaction held open on the queue, with one mailbox's row locked, slows the workers but does not stop them")
    func heldTransactionAgainstTheWorkers() async throws {
        let world = try await Self.world(pairs: 8)
        let held = "outlook3@contoso.test"
        // A long report reading the queue and the state in one snapshot, and one row locked as a slow writer would.
        let holder = try await PostgresConnection(url: world.url)
        try await holder.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        _ = try await holder.execute("SELECT count(*) FROM org_mailboxes")
        _ = try await holder.execute("SELECT count(*) FROM sync_items")
        try await holder.execute("SELECT address FROM org_mailboxes WHERE address = $1 FOR UPDATE", [held])

        // The held mailbox's pair (and so its second mailbox, synced only with it) waits for the transaction.
        let heldPair = [held, "google3@fabrikam.test"]
        func synced(_ extra: String = "") async throws -> Int {
            let rows = try await world.connection.execute(
                "SELECT count(*) FROM org_mailboxes WHERE last_sync_at IS NOT NULL" + extra,
                extra.isEmpty ? [] : [OrgDirectory.array(heldPair)])
            return rows[0, "count"].flatMap { Int($0) } ?? 0
        }
        let stop = Stop()
        let first = try await world.worker(name: "w1"), second = try await world.worker(name: "w2")
        let one = Task { await first.run(until: stop) }
        let two = Task { await second.run(until: stop) }
        defer { stop.stop("test") }

        // While the transaction is open, every other pair's mailboxes are synced (14 of 16) and the held pair's are not.
        let others = " AND address <> ALL($1::text[])"
        let deadline = Date().addingTimeInterval(90)
        while try await synced(others) < 14 && Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(try await synced(others) == 14, "the other mailboxes progressed meanwhile")
        #expect(try await synced() == 14, "the locked mailbox was skipped, not waited for")
        let google3 = try #require(world.calendars.providers["google3@fabrikam.test"])
        #expect(await google3.storedEvents(in: "google3@fabrikam.test").map(\.title) == ["Google 3"])
        // The transaction really was open all along: its snapshot still sees nothing synced.
        let snapshot = try await holder.execute("SELECT count(*) FROM org_mailboxes WHERE last_sync_at IS NOT NULL")
        #expect(snapshot[0, "count"] == "0")

        try await holder.execute("COMMIT")
        let after = Date().addingTimeInterval(60)
        while try await synced() < 16 && Date() < after { try await Task.sleep(for: .milliseconds(100)) }
        stop.stop("test")
        _ = await (one.value, two.value)
        #expect(try await synced() == 16, "once the transaction ended, the held mailbox converged too")
        let outlook3 = try #require(world.calendars.providers[held])
        #expect(await outlook3.storedEvents(in: "cal-3").map(\.title).sorted() == ["Google 3", "Outlook 3"])
        #expect(await google3.storedEvents(in: "google3@fabrikam.test").map(\.title).sorted() == ["Google 3", "Outlook 3"])
    }

    final class LockedEvents: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [OrgWorker.Event] = []
        func append(_ event: OrgWorker.Event) { lock.withLock { events.append(event) } }
        var all: [OrgWorker.Event] { lock.withLock { events } }
    }
}

/// A turn's lease as this process sees it, without the database.
@Suite("Lease holder")
struct LeaseHolderTests {
    static let lease = MailboxLease(address: "a@contoso.com", owner: "w", generation: 3, expiresAt: Date(), attempts: 1)

    @Test("a lease not renewed counts as lost once three quarters of its length have passed since it was asked for")
    func lostWithoutRenewal() {
        let now = ContinuousClock.now
        #expect(!LeaseHolder(Self.lease, length: .seconds(60), askedAt: now).isLost)
        #expect(!LeaseHolder(Self.lease, length: .seconds(60), askedAt: now - .seconds(44)).isLost)
        #expect(LeaseHolder(Self.lease, length: .seconds(60), askedAt: now - .seconds(46)).isLost)
    }

    @Test("a renewal extends it from the moment it was asked for; an older renewal never shortens it; markLost is final")
    func renewal() {
        let now = ContinuousClock.now
        let holder = LeaseHolder(Self.lease, length: .seconds(60), askedAt: now - .seconds(50))
        #expect(holder.isLost)
        var renewed = Self.lease
        renewed.expiresAt = Date().addingTimeInterval(60)
        holder.renewed(renewed, askedAt: now - .seconds(10))
        #expect(!holder.isLost)
        #expect(holder.lease == renewed)
        holder.renewed(renewed, askedAt: now - .seconds(100))
        #expect(!holder.isLost)
        holder.markLost()
        #expect(holder.isLost)
    }
}

extension Date {
    /// Rounded down to a multiple of `minutes`.
    func rounded(toMinutes minutes: Int) -> Date {
        let step = Double(minutes * 60)
        return Date(timeIntervalSince1970: (timeIntervalSince1970 / step).rounded(.down) * step)
    }
}
