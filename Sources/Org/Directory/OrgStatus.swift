import Foundation

/// What `calbridge org status` shows: each mailbox's state, reason, last sync and lag, its lease; each
/// pair's state; each shared quota's throttling. Read in one statement each, at the database's now.
package struct OrgStatus: Sendable, Equatable {
    package struct Mailbox: Sendable, Equatable {
        package var address: String
        /// `active`, `suspended` or `failed`.
        package var state: String
        package var reason: String?
        package var lastSync: Date?
        /// Seconds since the last sync (or since enrolment, never synced).
        package var lagSeconds: Int
        package var leaseOwner: String?
        package var attempts: Int
        package var lastError: String?
    }

    package struct Pair: Sendable, Equatable {
        package var a: String
        package var b: String
        package var direction: String
        package var fields: String
        /// `active`, or `suspended` when the pair's own state or either mailbox's is not active.
        package var state: String
        /// How the worker's last run of the pair ended (`ok`, `partial`, `failed`, `interrupted`), nil before its first.
        package var lastOutcome: String? = nil
        /// When that run finished.
        package var lastRun: Date? = nil
        /// Its error, if any.
        package var lastError: String? = nil
    }

    /// A shared request quota (per tenant or Google project) and how often workers waited for it.
    package struct Quota: Sendable, Equatable {
        package var name: String
        package var requests: Int
        package var perSeconds: Double
        package var burst: Int
        /// Requests that could go at once now.
        package var available: Double
        package var granted: Int
        /// Times a worker found the bucket empty and waited.
        package var waits: Int
        package var lastWait: Date?
    }

    package var mailboxes: [Mailbox]
    package var pairs: [Pair]
    package var quotas: [Quota] = []

    package static func read(_ connection: PostgresConnection) async throws -> OrgStatus {
        let mailboxRows = try await connection.execute(
            """
            SELECT address, state, reason, extract(epoch FROM last_sync_at) AS last_sync,
                   floor(extract(epoch FROM now() - coalesce(last_sync_at, created_at)))::bigint AS lag,
                   CASE WHEN lease_expires_at > now() THEN lease_owner END AS lease_owner, attempts, last_error
            FROM org_mailboxes ORDER BY address
            """
        )
        let mailboxes = mailboxRows.rows.indices.map { index in
            Mailbox(
                address: mailboxRows[index, "address"] ?? "", state: mailboxRows[index, "state"] ?? "",
                reason: mailboxRows[index, "reason"],
                lastSync: mailboxRows[index, "last_sync"].flatMap(Double.init).map { Date(timeIntervalSince1970: $0) },
                lagSeconds: mailboxRows[index, "lag"].flatMap { Int($0) } ?? 0, leaseOwner: mailboxRows[index, "lease_owner"],
                attempts: mailboxRows[index, "attempts"].flatMap { Int($0) } ?? 0, lastError: mailboxRows[index, "last_error"]
            )
        }
        let pairRows = try await connection.execute(
            """
            SELECT p.a, p.b, p.direction, p.fields,
                   CASE WHEN p.state = 'active' AND ma.state = 'active' AND mb.state = 'active' THEN 'active' ELSE 'suspended' END AS state,
                   r.outcome, r.finished_at, r.error
            FROM org_pairs p JOIN org_mailboxes ma ON ma.address = p.a JOIN org_mailboxes mb ON mb.address = p.b
            LEFT JOIN sync_runs r ON r.pair = p.a || '|' || p.b
            ORDER BY p.a, p.b
            """
        )
        let pairs = pairRows.rows.map {
            Pair(
                a: $0[0] ?? "", b: $0[1] ?? "", direction: $0[2] ?? "", fields: $0[3] ?? "", state: $0[4] ?? "", lastOutcome: $0[5],
                lastRun: $0[6].flatMap(Double.init).map { Date(timeIntervalSince1970: $0) }, lastError: $0[7])
        }
        let quotaRows = try await connection.execute(
            """
            SELECT name, requests, per_seconds, burst, granted, waits, extract(epoch FROM last_wait_at) AS last_wait,
                   least(burst, tokens + (requests - burst) / per_seconds * greatest(0, extract(epoch FROM clock_timestamp() - refilled_at)))
                       AS available
            FROM org_quotas ORDER BY name
            """
        )
        let quotas = quotaRows.rows.indices.map { index in
            Quota(
                name: quotaRows[index, "name"] ?? "", requests: quotaRows[index, "requests"].flatMap { Int($0) } ?? 0,
                perSeconds: quotaRows[index, "per_seconds"].flatMap(Double.init) ?? 0,
                burst: quotaRows[index, "burst"].flatMap(Double.init).map { Int($0) } ?? 0,
                available: quotaRows[index, "available"].flatMap(Double.init) ?? 0,
                granted: quotaRows[index, "granted"].flatMap { Int($0) } ?? 0, waits: quotaRows[index, "waits"].flatMap { Int($0) } ?? 0,
                lastWait: quotaRows[index, "last_wait"].flatMap(Double.init).map { Date(timeIntervalSince1970: $0) })
        }
        return OrgStatus(mailboxes: mailboxes, pairs: pairs, quotas: quotas)
    }
}
