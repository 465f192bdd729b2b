import Foundation
import Testing

@testable import Org

/// The work queue against a real PostgreSQL: claims, leases, fencing, a held transaction.
@Suite("Work queue on PostgreSQL", .postgres)
struct WorkQueueTests {
    /// A migrated database with `count` enrolled mailboxes `userN@contoso.com`, all due now, each the first of a pair
    /// (with `peerN@fabrikam.com`, which heads none and so is never claimed).
    static func queue(mailboxes count: Int) async throws -> (url: String, queue: WorkQueue) {
        let url = try await TestPostgres.database()
        let connection = try await PostgresConnection(url: url)
        try await OrgSchema.migrate(connection)
        let addresses = (0..<count).map { "user\($0)@contoso.com" }, peers = (0..<count).map { "peer\($0)@fabrikam.com" }
        try await connection.execute(
            "INSERT INTO org_mailboxes (address) SELECT unnest($1::text[])", [OrgDirectory.array(addresses + peers)]
        )
        try await connection.execute(
            "INSERT INTO org_pairs (a, b, direction, fields) SELECT unnest($1::text[]), unnest($2::text[]), 'both', 'basic'",
            [OrgDirectory.array(addresses), OrgDirectory.array(peers)])
        return (url, WorkQueue(connection: connection))
    }

    @Test("a mailbox that heads no active pair is never claimed: its turn would do nothing; a synced pair sets its last sync")
    func secondMailboxesAreNotClaimed() async throws {
        let (_, queue) = try await Self.queue(mailboxes: 3)
        try await queue.connection.execute("UPDATE org_pairs SET state = 'suspended' WHERE a = 'user2@contoso.com'")
        let claimed = try await queue.claim(owner: "w", limit: 10, lease: .seconds(60))
        #expect(Set(claimed.map(\.address)) == ["user0@contoso.com", "user1@contoso.com"])
        let first = try #require(claimed.first { $0.address == "user0@contoso.com" })
        let second = try #require(claimed.first { $0.address == "user1@contoso.com" })
        try await queue.release(first, .synced(nextIn: .seconds(300)))
        try await queue.release(second, .retry(error: "e", retryIn: .seconds(30)))
        let synced = try await queue.connection.execute(
            "SELECT address FROM org_mailboxes WHERE last_sync_at IS NOT NULL ORDER BY address")
        #expect(synced.rows.map { $0[0] } == ["peer0@fabrikam.com", "user0@contoso.com"], "only a synced turn's second mailbox")
    }

    @Test("eight claimers on eight connections at once: every due mailbox is claimed exactly once")
    func concurrentClaimsNeverOverlap() async throws {
        let (url, _) = try await Self.queue(mailboxes: 200)
        let claims = try await withThrowingTaskGroup(of: [MailboxLease].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    let queue = WorkQueue(connection: try await PostgresConnection(url: url))
                    var mine: [MailboxLease] = []
                    while true {
                        let batch = try await queue.claim(owner: "worker-\(worker)", limit: 7, lease: .seconds(60))
                        if batch.isEmpty { return mine }
                        mine += batch
                    }
                }
            }
            var all: [MailboxLease] = []
            for try await batch in group { all += batch }
            return all
        }
        #expect(claims.count == 200)
        #expect(Set(claims.map(\.address)).count == 200)
        // Several workers took part (each loops until the queue is empty, so the split depends on timing).
        #expect(Set(claims.map(\.owner)).count > 1)
        #expect(claims.allSatisfy { $0.generation == 1 })
    }

    @Test("a held lease keeps the mailbox from others; once it expires the mailbox is claimable again, with the next generation")
    func expiryReleasesTheMailbox() async throws {
        let (_, queue) = try await Self.queue(mailboxes: 1)
        let first = try #require(try await queue.claim(owner: "a", limit: 10, lease: .seconds(120)).first)
        #expect(try await queue.claim(owner: "b", limit: 10, lease: .seconds(60)).isEmpty)
        // The lease runs out (on the database's clock, as every lease time is).
        try await queue.connection.execute("UPDATE org_mailboxes SET lease_expires_at = now() - interval '1 second'")
        let second = try #require(try await queue.claim(owner: "b", limit: 10, lease: .milliseconds(300)).first)
        #expect(second.address == first.address)
        #expect(second.generation == first.generation + 1)
        // And in real time: a 300 ms lease, nothing renews it.
        try await Task.sleep(for: .milliseconds(700))
        let third = try #require(try await queue.claim(owner: "c", limit: 10, lease: .seconds(60)).first)
        #expect(third.generation == second.generation + 1)
    }

    @Test("a worker whose lease was taken over writes nothing: renew, release and guarded writes are refused")
    func staleWorkerIsFenced() async throws {
        let (url, queue) = try await Self.queue(mailboxes: 1)
        let stale = try #require(try await queue.claim(owner: "a", limit: 1, lease: .milliseconds(500)).first)
        try await Task.sleep(for: .milliseconds(800))
        let other = WorkQueue(connection: try await PostgresConnection(url: url))
        let current = try #require(try await other.claim(owner: "b", limit: 1, lease: .seconds(60)).first)

        await #expect(throws: LeaseLost.self) { _ = try await queue.renew(stale, for: .seconds(60)) }
        await #expect(throws: LeaseLost.self) { try await queue.release(stale, .synced(nextIn: .seconds(300))) }
        await #expect(throws: LeaseLost.self) {
            try await queue.whileHolding(stale) { connection in
                try await connection.execute(
                    "UPDATE org_mailboxes SET last_error = 'written by a stale worker' WHERE address = $1", [stale.address])
            }
        }
        // The current holder's guarded write goes through, and the stale one left no trace.
        _ = try await other.whileHolding(current) { connection in
            try await connection.execute("UPDATE org_mailboxes SET reason = 'written by the holder' WHERE address = $1", [current.address])
        }
        let rows = try await other.connection.execute(
            "SELECT last_error, reason, lease_owner FROM org_mailboxes WHERE address = $1", [current.address])
        #expect(rows[0, "last_error"] == nil)
        #expect(rows[0, "reason"] == "written by the holder")
        #expect(rows[0, "lease_owner"] == "b")
        _ = try await other.renew(current, for: .seconds(60))
        try await other.release(current, .synced(nextIn: .seconds(300)))
    }

    @Test("released mailboxes fall due after their interval; a suspended one is never claimed again")
    func outcomesScheduleTheNextTurn() async throws {
        let (_, queue) = try await Self.queue(mailboxes: 3)
        let leases = try await queue.claim(owner: "w", limit: 3, lease: .seconds(60)).sorted { $0.address < $1.address }
        #expect(leases.count == 3)
        try await queue.release(leases[0], .synced(nextIn: .milliseconds(300)))
        try await queue.release(leases[1], .retry(error: "HTTP 503", retryIn: .seconds(600)))
        try await queue.release(leases[2], .suspend(reason: "403 ErrorAccessDenied: outside the app's RBAC scope"))
        try await Task.sleep(for: .milliseconds(600))
        let again = try await queue.claim(owner: "w", limit: 3, lease: .seconds(60))
        #expect(again.map(\.address) == [leases[0].address])
        let status = try await OrgStatus.read(queue.connection)
        let suspended = try #require(status.mailboxes.first { $0.address == leases[2].address })
        #expect(suspended.state == "suspended")
        #expect(suspended.reason?.contains("RBAC") == true)
        let retried = try #require(status.mailboxes.first { $0.address == leases[1].address })
        #expect(retried.lastError == "HTTP 503")
        #expect(retried.attempts == 1)
    }

    @Test("a REPEATABLE READ transaction held open does not stop the queue; a row it locks is skipped until it ends")
    func heldTransactionDoesNotStopTheQueue() async throws {
        let (url, queue) = try await Self.queue(mailboxes: 20)
        let holder = try await PostgresConnection(url: url)
        try await holder.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        // A long report reading everything, and one row locked as a slow writer would.
        _ = try await holder.execute("SELECT count(*) FROM org_mailboxes")
        try await holder.execute("SELECT address FROM org_mailboxes WHERE address = 'user7@contoso.com' FOR UPDATE")

        let started = Date()
        var claimed: [MailboxLease] = []
        while true {
            let batch = try await queue.claim(owner: "w", limit: 5, lease: .seconds(60))
            if batch.isEmpty { break }
            claimed += batch
            for lease in batch { try await queue.release(lease, .synced(nextIn: .seconds(3600))) }
        }
        #expect(claimed.count == 19)
        #expect(!claimed.contains { $0.address == "user7@contoso.com" })
        #expect(Date().timeIntervalSince(started) < 60)

        try await holder.execute("COMMIT")
        let after = try await queue.claim(owner: "w", limit: 5, lease: .seconds(60))
        #expect(after.map(\.address) == ["user7@contoso.com"])
    }

    @Test("a connection the server dropped connects again at its next call; the call that found it lost failed")
    func droppedConnectionReconnects() async throws {
        let (url, queue) = try await Self.queue(mailboxes: 2)
        let pid = try #require(try await queue.connection.execute("SELECT pg_backend_pid() AS pid")[0, "pid"])
        let admin = try await PostgresConnection(url: url)
        try await admin.execute("SELECT pg_terminate_backend($1::int)", [pid])
        let lost = await #expect(throws: PostgresError.self) { _ = try await queue.claim(owner: "w", limit: 1, lease: .seconds(60)) }
        #expect(lost?.code == .connectionLost)
        let claimed = try await queue.claim(owner: "w", limit: 2, lease: .seconds(60))
        #expect(claimed.count == 2, "the worker's queue works again without a restart")
        let newPID = try await queue.connection.execute("SELECT pg_backend_pid() AS pid")[0, "pid"]
        #expect(newPID != pid)
    }

    @Test("org init twice: the second finds the schema current and changes nothing")
    func migrationIsIdempotent() async throws {
        let url = try await TestPostgres.database()
        let connection = try await PostgresConnection(url: url)
        let first = try await OrgSchema.migrate(connection)
        let second = try await OrgSchema.migrate(connection)
        #expect(first.from == 0 && first.to == OrgSchema.currentVersion)
        #expect(second.from == OrgSchema.currentVersion)
        try await OrgSchema.requireCurrent(connection)
        let fresh = try await PostgresConnection(url: try await TestPostgres.database())
        await #expect(throws: OrgError.self) { try await OrgSchema.requireCurrent(fresh) }
    }
}
