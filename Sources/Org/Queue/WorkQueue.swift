import Foundation

/// The work queue in the organisation database: one row per enrolled mailbox (`org_mailboxes`), claimed by
/// workers with `SELECT ... FOR UPDATE SKIP LOCKED`, so that many workers on many machines never take the
/// same mailbox and never wait for each other's rows.
///
/// Every time is the database's (`now()`), never a worker's clock. Statements are single and short (no
/// provider call ever runs inside a transaction); a write that must belong to a lease goes through
/// `whileHolding`, which checks the generation in the same transaction.
package struct WorkQueue: Sendable {
    package let connection: PostgresConnection

    package init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Claims up to `limit` due mailboxes for `owner`: active, due, and not leased (or the lease expired).
    /// Each claim raises the mailbox's lease generation and counts an attempt.
    package func claim(owner: String, limit: Int, lease: Duration) async throws(PostgresError) -> [MailboxLease] {
        let rows = try await connection.execute(
            """
            WITH due AS (
                SELECT address FROM org_mailboxes
                WHERE state = 'active' AND due_at <= now() AND (lease_expires_at IS NULL OR lease_expires_at <= now())
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
            [owner, String(max(0, limit)), Self.seconds(lease)]
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
            [lease.address, lease.owner, String(lease.generation), Self.seconds(length)]
        )
        guard let expires = rows[0, "expires"].flatMap(Double.init) else { throw LeaseLost(lease: lease) }
        var renewed = lease
        renewed.expiresAt = Date(timeIntervalSince1970: expires)
        return renewed
    }

    /// Ends a lease with its outcome (next due time, error, suspension).
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
        let rows = try await connection.execute(
            """
            UPDATE org_mailboxes SET lease_owner = NULL, lease_expires_at = NULL, \(assignment)
            WHERE address = $1 AND lease_owner = $2 AND lease_generation = $3 AND lease_expires_at > now()
            """,
            parameters
        )
        guard rows.affected == 1 else { throw LeaseLost(lease: lease) }
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
            "UPDATE org_mailboxes SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = $1", [owner]
        ).affected
    }

    /// Seconds as SQL text, to the millisecond.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.3f", Double(seconds) + Double(attoseconds) / 1e18)
    }
}
