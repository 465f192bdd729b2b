import Foundation

/// The work queue in the organisation database: one row per enrolled mailbox (`org_mailboxes`), claimed by
/// workers with `SELECT ... FOR UPDATE SKIP LOCKED`, so that many workers on many machines never take the
/// same mailbox and never wait for each other's rows.
///
/// Every time is the database's (`now()`), never a worker's clock. Statements are single and short (no
/// provider call ever runs inside a transaction); a write that must belong to a lease goes through
/// `whileHolding`, which checks the generation in the same transaction.
///
/// Each of `claim`, `renew`, `release` and `releaseAll` waits at most `timeout` for the database's answer
/// (`PostgresConnection.execute(_:_:timeout:)`), then throws `PostgresError` with `.timedOut`: a database that
/// stopped answering never holds a worker. What a timeout means is the caller's to take as the failure it is: a
/// claim that timed out claimed nothing for this worker (if the server still ran it, that lease expires unused);
/// a renewal that timed out may have lost the lease; a release that timed out is left to the lease's expiry.
package struct WorkQueue: Sendable {
    package let connection: PostgresConnection
    /// How long each statement may wait for the database's answer.
    package let timeout: Duration

    /// The default `timeout`: far above a healthy database's answer (milliseconds), below the default lease (2m).
    package static let defaultTimeout: Duration = .seconds(10)

    package init(connection: PostgresConnection, timeout: Duration = WorkQueue.defaultTimeout) {
        self.connection = connection
        self.timeout = timeout
    }

    /// Claims up to `limit` due mailboxes for `owner`: active, due, not leased (or the lease expired), and the
    /// first mailbox (`a`) of at least one active pair. Each claim raises the mailbox's lease generation and counts
    /// an attempt.
    ///
    /// A pair runs under its first mailbox's lease, which covers the second mailbox (`b`) too while the turn
    /// touches it. A mailbox that is only ever a second one is therefore never claimed on its own: its turn
    /// would do nothing but cost a claim, a lease and a release (half of every idle cycle's claims in a
    /// migration's CSV, one pair per person). Its last sync is set when its pair's turn ends synced (`release`).
    package func claim(owner: String, limit: Int, lease: Duration) async throws(PostgresError) -> [MailboxLease] {
        let rows = try await connection.execute(
            """
            WITH due AS (
                SELECT address FROM org_mailboxes
                WHERE state = 'active' AND due_at <= now() AND (lease_expires_at IS NULL OR lease_expires_at <= now())
                    AND EXISTS (SELECT 1 FROM org_pairs p WHERE p.a = org_mailboxes.address AND p.state = 'active')
                ORDER BY due_at
                LIMIT $2
                FOR UPDATE SKIP LOCKED
            )
            UPDATE org_mailboxes AS m
            SET lease_owner = $1, lease_generation = m.lease_generation + 1,
                lease_expires_at = now() + make_interval(secs => $3::double precision), attempts = m.attempts + 1
            FROM due WHERE m.address = due.address
            RETURNING m.address, m.lease_generation, extract(epoch FROM m.lease_expires_at) AS expires, m.attempts
            """,
            [owner, String(max(0, limit)), Self.seconds(lease)], timeout: timeout
        )
        return rows.rows.indices.compactMap { index in
            guard let address = rows[index, "address"], let generation = rows[index, "lease_generation"].flatMap({ Int64($0) }),
                let expires = rows[index, "expires"].flatMap({ Double($0) })
            else { return nil }
            return MailboxLease(
                address: address, owner: owner, generation: generation, expiresAt: Date(timeIntervalSince1970: expires),
                attempts: rows[index, "attempts"].flatMap { Int($0) } ?? 1)
        }
    }

    /// Extends a lease held now by another `lease` from the database's now.
    /// - Throws: `LeaseLost` when the lease expired or another claim replaced it.
    package func renew(_ lease: MailboxLease, for length: Duration) async throws -> MailboxLease {
        let rows = try await connection.execute(
            """
            UPDATE org_mailboxes SET lease_expires_at = now() + make_interval(secs => $4::double precision)
            WHERE address = $1 AND lease_owner = $2 AND lease_generation = $3 AND lease_expires_at > now()
            RETURNING extract(epoch FROM lease_expires_at) AS expires
            """,
            [lease.address, lease.owner, String(lease.generation), Self.seconds(length)], timeout: timeout
        )
        guard let expires = rows[0, "expires"].flatMap(Double.init) else { throw LeaseLost(lease: lease) }
        var renewed = lease
        renewed.expiresAt = Date(timeIntervalSince1970: expires)
        return renewed
    }

    /// Ends a lease with its outcome (next due time, error, suspension). A synced turn also sets the last sync of
    /// the second mailboxes of its pairs that head no pair themselves (never claimed, they have no turn of their
    /// own to record it), in the same statement.
    /// - Throws: `LeaseLost` when it is no longer current: the outcome of a stale worker is not recorded.
    package func release(_ lease: MailboxLease, _ outcome: MailboxOutcome) async throws {
        let assignment: String
        var parameters: [String?] = [lease.address, lease.owner, String(lease.generation)]
        switch outcome {
        case .synced(let next):
            assignment =
                "due_at = now() + make_interval(secs => $4::double precision), attempts = 0, last_error = NULL, last_sync_at = now()"
            parameters.append(Self.seconds(next))
        case .retry(let error, let retryIn):
            assignment = "due_at = now() + make_interval(secs => $4::double precision), last_error = $5"
            parameters += [Self.seconds(retryIn), error]
        case .suspend(let reason):
            assignment = "state = 'suspended', reason = $4, last_error = $4"
            parameters.append(reason)
        }
        let seconds: String
        if case .synced = outcome {
            seconds = """
                , seconds AS (
                    UPDATE org_mailboxes AS mb SET last_sync_at = now()
                    FROM org_pairs AS p, released AS r
                    WHERE p.a = r.address AND p.state = 'active' AND mb.address = p.b AND mb.state = 'active'
                        AND NOT EXISTS (SELECT 1 FROM org_pairs AS h WHERE h.a = mb.address)
                    RETURNING 1
                )
                """
        } else {
            seconds = ""
        }
        let rows = try await connection.execute(
            """
            WITH released AS (
                UPDATE org_mailboxes SET lease_owner = NULL, lease_expires_at = NULL, \(assignment)
                WHERE address = $1 AND lease_owner = $2 AND lease_generation = $3 AND lease_expires_at > now()
                RETURNING address
            )\(seconds)
            SELECT count(*) AS released FROM released
            """,
            parameters, timeout: timeout
        )
        guard rows[0, "released"] == "1" else { throw LeaseLost(lease: lease) }
    }

    /// Runs `body`'s statements in one transaction only while `lease` is current: the mailbox's row is locked
    /// and its generation and expiry checked first, so no claim can replace the lease before the commit.
    /// - Throws: `LeaseLost` (nothing written) when the lease is stale.
    package func whileHolding<T: Sendable>(_ lease: MailboxLease, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await connection.transaction { connection in
            let rows = try await connection.execute(
                """
                SELECT 1 FROM org_mailboxes
                WHERE address = $1 AND lease_owner = $2 AND lease_generation = $3 AND lease_expires_at > now()
                FOR UPDATE
                """,
                [lease.address, lease.owner, String(lease.generation)]
            )
            guard rows.rows.count == 1 else { throw LeaseLost(lease: lease) }
            return try await body(connection)
        }
    }

    /// Releases every lease `owner` holds without recording an outcome (a worker stopping on SIGTERM): the
    /// mailboxes are claimable at once, due as they were.
    @discardableResult
    package func releaseAll(owner: String) async throws(PostgresError) -> Int {
        try await connection.execute(
            "UPDATE org_mailboxes SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = $1", [owner], timeout: timeout
        ).affected
    }

    /// Seconds as SQL text, to the millisecond.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.3f", Double(seconds) + Double(attoseconds) / 1e18)
    }
}
