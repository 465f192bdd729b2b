import CalendarBridge
import Foundation
import Sync
import TestSupport
import Testing

@testable import Org

#if canImport(Glibc)
import Glibc
#endif

/// The work queue's own statements against a database that stops answering (a TCP proxy on 127.0.0.1 that holds
/// every byte: no socket error ever reports it): a claim, a renewal and a release each give up at their deadline,
/// the worker takes that as the failure it is and carries on, it writes nothing without a current lease, and it
/// stops within a bounded time; connecting gives up at `connect_timeout`.
@Suite("Work queue with a stalled database", .postgresOverTCP, .serialized)
struct QueueStallTests {
    typealias Stop = OrgWorkerTests.Stop
    typealias LockedEvents = OrgWorkerTests.LockedEvents

    /// The queue's deadline in these tests.
    static let deadline: Duration = .seconds(1)

    /// How long stopping may take: a claim in flight and the release of the leases, each bounded by `deadline`,
    /// are about 2 s; the bound tells that from a hang with room for a loaded 2-core CI machine (4.6 s seen for
    /// 3 s of work).
    static let stopBound: Duration = .seconds(10)

    /// One pair's world whose worker reaches the database only through a proxy the test stalls.
    struct Stalled {
        let world: OrgWorkerTests.World
        let proxy: TCPProxy
        let proxiedURL: String

        static func start() async throws -> Stalled {
            let server = try #require(TestPostgres.current)
            let name = try await server.freshDatabaseName()
            let world = try await OrgWorkerTests.world(pairs: 1, database: server.tcpURL(database: name, port: server.port))
            let proxy = try TCPProxy(forwardingTo: server.port)
            return Stalled(world: world, proxy: proxy, proxiedURL: server.tcpURL(database: name, port: proxy.port))
        }

        /// A worker whose queue goes through the proxy (deadline `QueueStallTests.deadline`); its state store too,
        /// unless `directState`.
        func worker(
            lease: Duration, opener: any MailboxProviderOpener, directState: Bool = false,
            log: @escaping @Sendable (OrgWorker.Event) -> Void
        ) async throws -> OrgWorker {
            let configuration = OrgWorker.Configuration(
                name: "stalled", concurrency: 1, interval: .seconds(3600), lease: lease, poll: .milliseconds(50))
            return OrgWorker(
                configuration: configuration,
                queue: WorkQueue(connection: try await PostgresConnection(url: proxiedURL), timeout: QueueStallTests.deadline),
                state: PostgresSyncStateStore(connection: try await PostgresConnection(url: directState ? world.url : proxiedURL)),
                opener: opener, log: log)
        }

        /// Nothing of the pair was written: no state, no run, each calendar holds only its own event.
        func expectNothingWritten() async throws {
            let items = try await world.connection.execute(
                "SELECT (SELECT count(*) FROM sync_items) + (SELECT count(*) FROM sync_runs) AS n")
            #expect(items[0, "n"] == "0", "no state written")
            let outlook = try #require(world.calendars.providers["outlook0@contoso.test"])
            let google = try #require(world.calendars.providers["google0@fabrikam.test"])
            #expect(await outlook.storedEvents(in: "cal-0").map(\.title) == ["Outlook 0"])
            #expect(await google.storedEvents(in: "google0@fabrikam.test").map(\.title) == ["Google 0"])
        }
    }

    /// Opens the in-memory calendars, each `open` held until the test lets it go (the turn in progress meanwhile).
    final class HeldCalendars: MailboxProviderOpener, @unchecked Sendable {
        let calendars: OrgWorkerTests.Calendars
        private let lock = NSLock()
        private var opened = false
        private var released = false

        init(_ calendars: OrgWorkerTests.Calendars) { self.calendars = calendars }

        var hasOpened: Bool { lock.withLock { opened } }
        func release() { lock.withLock { released = true } }

        func open(_ address: String) async throws -> any ChangeReadingProvider {
            lock.withLock { opened = true }
            while !lock.withLock({ released }) { try await Task.sleep(for: .milliseconds(20)) }
            return try await calendars.open(address)
        }
    }

    /// Waits up to `timeout` for `condition`.
    static func eventually(_ timeout: Duration, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }

    /// A worker running until `stop`; whether it has returned.
    final class Running: @unchecked Sendable {
        private let lock = NSLock()
        private var returned = false

        init(_ worker: OrgWorker, until stop: Stop) {
            Task {
                await worker.run(until: stop)
                self.lock.withLock { self.returned = true }
            }
        }

        var hasReturned: Bool { lock.withLock { returned } }
    }

    /// Stops `running`'s worker and returns how long it took to return (at most 60 s are waited for: a worker that
    /// hangs fails the test instead of holding the run).
    static func stopTimed(_ stop: Stop, _ running: Running) async -> Duration {
        let asked = ContinuousClock.now
        stop.stop("test")
        let returned = await eventually(.seconds(60)) { running.hasReturned }
        #expect(returned, "the worker did not return within 60 s of the stop request")
        return asked.duration(to: .now)
    }

    static func texts(_ events: LockedEvents) -> [String] {
        events.all.map { event in
            switch event {
            case .claimed(let lease): "claimed \(lease.address)"
            case .finished(let address, _, _): "finished \(address)"
            case .leaseLost(let address): "lost \(address)"
            case .interrupted(let address): "interrupted \(address)"
            case .databaseError(let text): "database error: \(text)"
            case .stopped(let reason, let released): "stopped \(reason) \(released)"
            }
        }
    }

    @Test(
        "a claim the stalled database does not answer claims nothing: the worker goes on trying, writes nothing, and stops in bounded time")
    func stalledClaim() async throws {
        let stalled = try await Stalled.start()
        defer { stalled.proxy.stop() }
        let events = LockedEvents()
        let worker = try await stalled.worker(lease: .seconds(30), opener: stalled.world.calendars) { events.append($0) }
        stalled.proxy.stall()
        let stop = Stop()
        let running = Running(worker, until: stop)
        let timedOut = await Self.eventually(.seconds(20)) {
            Self.texts(events).filter { $0.hasPrefix("database error: claiming: the database did not answer") }.count >= 2
        }
        #expect(timedOut, "each claim gave up at its deadline and the worker tried again: \(Self.texts(events))")
        let stopping = await Self.stopTimed(stop, running)
        #expect(stopping < Self.stopBound, "stopped in \(stopping)")
        let texts = Self.texts(events)
        #expect(!texts.contains { $0.hasPrefix("claimed") }, "\(texts)")
        #expect(texts.contains { $0.hasPrefix("database error: releasing the leases") && $0.hasSuffix("left to expire") }, "\(texts)")
        try await stalled.expectNothingWritten()
        // The mailbox is free for a worker that reaches the database (the stalled claims never arrived).
        let claimed = try await WorkQueue(connection: stalled.world.connection).claim(owner: "healthy", limit: 1, lease: .seconds(30))
        #expect(claimed.map(\.address) == ["outlook0@contoso.test"])
    }

    @Test("a renewal the stalled database does not answer counts the lease as lost: the turn stops, records nothing, writes nothing")
    func stalledRenewal() async throws {
        let stalled = try await Stalled.start()
        defer { stalled.proxy.stop() }
        let events = LockedEvents()
        let held = HeldCalendars(stalled.world.calendars)
        // Renewed every 2 s; by its own clock the worker would give the lease up only after 4.5 s.
        let worker = try await stalled.worker(lease: .seconds(6), opener: held) { events.append($0) }
        let stop = Stop()
        let running = Running(worker, until: stop)
        #expect(await Self.eventually(.seconds(30)) { held.hasOpened }, "the turn began: \(Self.texts(events))")
        stalled.proxy.stall()
        let renewalTimedOut = await Self.eventually(.seconds(10)) {
            Self.texts(events).contains {
                $0.hasPrefix("database error: renewing the lease on outlook0@contoso.test: the database did not answer")
            }
        }
        // Only the queue's deadline produces "did not answer" (a stalled socket reports nothing), so the renewal
        // gave up at its deadline; how long that took on a busy machine is no part of the claim.
        #expect(renewalTimedOut, "\(Self.texts(events))")
        held.release()
        #expect(await Self.eventually(.seconds(10)) { Self.texts(events).contains("lost outlook0@contoso.test") }, "\(Self.texts(events))")
        let stopping = await Self.stopTimed(stop, running)
        #expect(stopping < Self.stopBound, "stopped in \(stopping)")
        let texts = Self.texts(events)
        #expect(!texts.contains { $0.hasPrefix("finished") }, "no outcome recorded under a lease that may be lost: \(texts)")
        try await stalled.expectNothingWritten()
    }

    @Test("a release the stalled database does not answer is left to the lease's expiry; the worker carries on and stops in bounded time")
    func stalledRelease() async throws {
        let stalled = try await Stalled.start()
        defer { stalled.proxy.stop() }
        let events = LockedEvents()
        // The turn's first provider write stalls the queue's connection: the state (on its own connection) is
        // still written, the release that follows gets no answer. (The lease, 30 s, is not renewed before.)
        let proxy = stalled.proxy
        for provider in stalled.world.calendars.providers.values {
            await provider.failWrites { _ in
                proxy.stall()
                return nil
            }
        }
        let worker = try await stalled.worker(lease: .seconds(30), opener: stalled.world.calendars, directState: true) {
            events.append($0)
        }
        let stop = Stop()
        let running = Running(worker, until: stop)
        let releaseTimedOut = await Self.eventually(.seconds(30)) {
            Self.texts(events).contains {
                $0.hasPrefix("database error: recording the outcome for outlook0@contoso.test: the database did not answer")
                    && $0.hasSuffix("left to expire")
            }
        }
        #expect(releaseTimedOut, "\(Self.texts(events))")
        // The worker carries on: its next claims give up at their deadline too.
        #expect(
            await Self.eventually(.seconds(10)) { Self.texts(events).contains { $0.hasPrefix("database error: claiming") } },
            "\(Self.texts(events))")
        let stopping = await Self.stopTimed(stop, running)
        #expect(stopping < Self.stopBound, "stopped in \(stopping)")
        #expect(!Self.texts(events).contains { $0.hasPrefix("finished") })

        // The pair itself synced (its state on its own connection); the queue's row still holds the lease until it
        // expires (nothing recorded), and no other worker can claim the mailbox before.
        let outlook = try #require(stalled.world.calendars.providers["outlook0@contoso.test"])
        #expect(await outlook.storedEvents(in: "cal-0").map(\.title).sorted() == ["Google 0", "Outlook 0"])
        let row = try await stalled.world.connection.execute(
            """
            SELECT lease_owner, lease_expires_at > now() AS held, last_sync_at FROM org_mailboxes
            WHERE address = 'outlook0@contoso.test'
            """)
        #expect(row[0, "lease_owner"] == "stalled" && row[0, "held"] == "t" && row[0, "last_sync_at"] == nil, "\(row.rows)")
        let queue = WorkQueue(connection: stalled.world.connection)
        let claimed = try await queue.claim(owner: "healthy", limit: 2, lease: .seconds(30)).map(\.address)
        #expect(!claimed.contains("outlook0@contoso.test"), "\(claimed)")
    }

    @Test("connecting to a peer that accepts and never answers gives up at connect_timeout: the default, or the URL's own")
    func stalledConnect() async throws {
        let server = try #require(TestPostgres.current)
        let proxy = try TCPProxy(forwardingTo: server.port)
        defer { proxy.stop() }
        proxy.stall()
        let url = server.tcpURL(database: "postgres", port: proxy.port)
        @Sendable func attempt(_ url: String) async -> (error: PostgresError?, took: Duration) {
            let started = ContinuousClock.now
            do {
                _ = try await PostgresConnection(url: url)
                return (nil, started.duration(to: .now))
            } catch {
                return (error, started.duration(to: .now))
            }
        }
        let (defaulted, own) = try await concurrently({ await attempt(url) }, { await attempt(url + "?connect_timeout=2") })
        let limit = Duration.seconds(PostgresConnection.defaultConnectTimeout)
        #expect(defaulted.error?.code == .cannotConnect, "\(String(describing: defaulted.error))")
        #expect(defaulted.took >= limit - .milliseconds(500) && defaulted.took < limit + .seconds(5), "took \(defaulted.took)")
        #expect(own.error?.code == .cannotConnect, "\(String(describing: own.error))")
        #expect(own.took >= .milliseconds(1500) && own.took < limit - .seconds(2), "the URL's connect_timeout=2 wins: took \(own.took)")
    }

    @Test("a worker's start-up reads (the schema's version, the credentials) give up on a stalled database instead of hanging")
    func stalledStartUp() async throws {
        let server = try #require(TestPostgres.current)
        let name = try await server.freshDatabaseName()
        try await OrgSchema.migrate(try await PostgresConnection(url: server.tcpURL(database: name, port: server.port)))
        let proxy = try TCPProxy(forwardingTo: server.port)
        defer { proxy.stop() }
        let schema = try await PostgresConnection(url: server.tcpURL(database: name, port: proxy.port))
        let directory = OrgDirectory(connection: try await PostgresConnection(url: server.tcpURL(database: name, port: proxy.port)))
        proxy.stall()
        let started = ContinuousClock.now
        let (versionRead, credentialsRead) = try await concurrently(
            { await Result<Void, any Error> { try await OrgSchema.requireCurrent(schema) } },
            { await Result<[OrgCredential], any Error> { try await directory.credentials() } })
        #expect((try? versionRead.get()) == nil && (versionRead.failure as? PostgresError)?.code == .timedOut, "\(versionRead)")
        #expect((credentialsRead.failure as? PostgresError)?.code == .timedOut, "\(credentialsRead)")
        let took = started.duration(to: .now)
        #expect(took < WorkQueue.defaultTimeout + .seconds(5), "gave up after \(took)")
    }

    @Test(
        "SIGTERM while the database is stalled: calbridge worker still stops within a bounded time and exits 0, its leases left to expire")
    func sigtermWhileStalled() async throws {
        let server = try #require(TestPostgres.current)
        let name = try await server.freshDatabaseName()
        let direct = try await PostgresConnection(url: server.tcpURL(database: name, port: server.port))
        try await OrgSchema.migrate(direct)
        let proxy = try TCPProxy(forwardingTo: server.port)
        defer { proxy.stop() }
        let worker = try RunningCalbridge(
            ["worker", "--name", "stalled", "--concurrency", "2"],
            environment: ["NO_COLOR": "1", "CALBRIDGE_DATABASE_URL": server.tcpURL(database: name, port: proxy.port)])
        defer { worker.stop() }
        _ = try await worker.stderrLine(timeout: 120) { $0.hasPrefix("worker stalled:") }
        try await Task.sleep(for: .milliseconds(500))
        proxy.stall()
        try await Task.sleep(for: .seconds(2))
        let asked = ContinuousClock.now
        worker.signal(SIGTERM)
        // A claim in flight, then the release of the leases: each waits at most the queue's deadline.
        let bound = WorkQueue.defaultTimeout * 3
        let status = try await worker.wait(timeout: 60)
        let took = asked.duration(to: .now)
        #expect(status == 0, "\(worker.stderr.suffix(600))")
        #expect(took < bound, "exited \(took) after SIGTERM: \(worker.stderr.suffix(600))")
        #expect(worker.stderr.contains("releasing the leases: the database did not answer"), "\(worker.stderr.suffix(600))")
        #expect(worker.stderr.contains("worker stopped (SIGTERM)"), "\(worker.stderr.suffix(600))")
    }

    @Test("a connection's statementTimeout bounds the statements and sessions that name none; a statement's own timeout wins")
    func statementTimeout() async throws {
        let server = try #require(TestPostgres.current)
        let proxy = try TCPProxy(forwardingTo: server.port)
        defer { proxy.stop() }
        let url = server.tcpURL(database: "postgres", port: proxy.port)
        let bounded = try await PostgresConnection(url: url, statementTimeout: .seconds(1))
        #expect(try await bounded.execute("SELECT 1 AS one")[0, "one"] == "1")
        proxy.stall()
        // Only the deadline that fired says its length: 1 s from the connection, 2 s from the statement.
        let plain = await #expect(throws: PostgresError.self) { try await bounded.execute("SELECT 2") }
        #expect(plain?.code == .timedOut && plain?.message.contains("1.0 seconds") == true, "\(String(describing: plain))")
        let own = await #expect(throws: PostgresError.self) { try await bounded.execute("SELECT 3", timeout: .seconds(2)) }
        #expect(own?.code == .timedOut && own?.message.contains("2.0 seconds") == true, "\(String(describing: own))")
        let session = await #expect(throws: PostgresError.self) { try await bounded.withSession { try $0.execute("SELECT 4") } }
        #expect(session?.code == .timedOut, "\(String(describing: session))")
    }

    @Test("calbridge worker --database-timeout 2s: a claim the stalled database does not answer gives up after 2 s, not the default")
    func workerDatabaseTimeoutOption() async throws {
        let server = try #require(TestPostgres.current)
        let name = try await server.freshDatabaseName()
        try await OrgSchema.migrate(try await PostgresConnection(url: server.tcpURL(database: name, port: server.port)))
        let proxy = try TCPProxy(forwardingTo: server.port)
        defer { proxy.stop() }
        let worker = try RunningCalbridge(
            ["worker", "--name", "bounded", "--database-timeout", "2s"],
            environment: ["NO_COLOR": "1", "CALBRIDGE_DATABASE_URL": server.tcpURL(database: name, port: proxy.port)])
        defer { worker.stop() }
        _ = try await worker.stderrLine(timeout: 120) { $0.hasPrefix("worker bounded:") }
        proxy.stall()
        let line = try await worker.stderrLine(timeout: 60) { $0.contains("claiming: the database did not answer") }
        #expect(line.contains("2.0 seconds"), "\(line)")
        worker.signal(SIGTERM)
        #expect(try await worker.wait(timeout: 60) == 0, "\(worker.stderr.suffix(600))")
    }
}

extension Result {
    /// The error, if it failed.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// `body`'s value or error.
    init(catching body: () async throws(Failure) -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
