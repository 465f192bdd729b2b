import Foundation

/// The organisation database's schema, as numbered migrations applied in order (each in its own
/// transaction, under an advisory lock so that two `org init`s at once apply each step once).
package enum OrgSchema {
    /// Each entry is one schema version; never edit a released one, append the next.
    static let migrations: [String] = [
        """
        CREATE TABLE org_credentials (
            name text PRIMARY KEY,
            provider text NOT NULL CHECK (provider IN ('microsoft', 'google')),
            tenant text,
            client_id text,
            -- Where a worker finds the key material: 'file:PATH' or 'env:NAME'. Never the material itself.
            secret_location text NOT NULL CHECK (secret_location ~ '^(file|env):.'),
            proof text NOT NULL CHECK (proof IN ('certificate', 'secret', 'service-account')),
            token_endpoint text NOT NULL,
            api_base_url text NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE org_domains (
            domain text PRIMARY KEY CHECK (domain = lower(domain)),
            credential text NOT NULL REFERENCES org_credentials (name) ON DELETE CASCADE
        );
        -- The work queue: one row per enrolled mailbox.
        CREATE TABLE org_mailboxes (
            address text PRIMARY KEY CHECK (address = lower(address)),
            state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'suspended', 'failed')),
            reason text,
            due_at timestamptz NOT NULL DEFAULT now(),
            lease_owner text,
            lease_generation bigint NOT NULL DEFAULT 0,
            lease_expires_at timestamptz,
            attempts integer NOT NULL DEFAULT 0,
            last_error text,
            last_sync_at timestamptz,
            created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX org_mailboxes_due ON org_mailboxes (due_at) WHERE state = 'active';
        CREATE TABLE org_pairs (
            a text NOT NULL REFERENCES org_mailboxes (address),
            b text NOT NULL REFERENCES org_mailboxes (address),
            direction text NOT NULL CHECK (direction IN ('a-to-b', 'b-to-a', 'both')),
            fields text NOT NULL CHECK (fields IN ('basic', 'all', 'busy')),
            state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'suspended')),
            created_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (a, b),
            CHECK (a <> b)
        );
        """,
        // v2: the sync state of the organisation's pairs, as a person's sync.db holds it (`PostgresSyncStateStore`).
        // Times are seconds since 1970 as double precision, exactly as the SQLite store keeps them.
        """
        CREATE TABLE sync_pairs (
            name text PRIMARY KEY,
            side_a text NOT NULL,
            side_b text NOT NULL,
            options text NOT NULL,
            created_at double precision NOT NULL
        );
        CREATE TABLE sync_items (
            id bigserial PRIMARY KEY,
            pair text NOT NULL REFERENCES sync_pairs (name) ON DELETE CASCADE,
            id_a text,
            id_b text,
            hash_a text,
            hash_b text,
            series_key text,
            updated_at double precision NOT NULL,
            origin text CHECK (origin IN ('a', 'b')),
            CHECK (id_a IS NOT NULL OR id_b IS NOT NULL)
        );
        CREATE UNIQUE INDEX sync_items_by_a ON sync_items (pair, id_a) WHERE id_a IS NOT NULL;
        CREATE UNIQUE INDEX sync_items_by_b ON sync_items (pair, id_b) WHERE id_b IS NOT NULL;
        CREATE TABLE sync_occurrences (
            pair text NOT NULL REFERENCES sync_pairs (name) ON DELETE CASCADE,
            item_id bigint NOT NULL REFERENCES sync_items (id) ON DELETE CASCADE,
            occurrence_key text NOT NULL,
            state_a text NOT NULL,
            state_b text NOT NULL,
            updated_at double precision NOT NULL,
            PRIMARY KEY (pair, item_id, occurrence_key)
        );
        CREATE INDEX sync_occurrences_by_item ON sync_occurrences (item_id);
        CREATE TABLE sync_cursors (
            pair text NOT NULL REFERENCES sync_pairs (name) ON DELETE CASCADE,
            side text NOT NULL CHECK (side IN ('a', 'b')),
            cursor text NOT NULL,
            updated_at double precision NOT NULL,
            PRIMARY KEY (pair, side)
        );
        CREATE TABLE sync_runs (
            pair text PRIMARY KEY REFERENCES sync_pairs (name) ON DELETE CASCADE,
            started_at double precision NOT NULL,
            finished_at double precision NOT NULL,
            outcome text NOT NULL,
            counts text NOT NULL,
            error text
        );
        CREATE TABLE sync_conflicts (
            id bigserial PRIMARY KEY,
            pair text NOT NULL REFERENCES sync_pairs (name) ON DELETE CASCADE,
            item_id bigint REFERENCES sync_items (id) ON DELETE SET NULL,
            detected_at double precision NOT NULL,
            winner text NOT NULL CHECK (winner IN ('a', 'b')),
            reason text NOT NULL,
            version_a text NOT NULL,
            version_b text NOT NULL
        );
        CREATE INDEX sync_conflicts_by_pair ON sync_conflicts (pair, detected_at);
        """,
        // v3: request quotas per tenant and per Google project, held across all workers (`OrgRequestQuota`): a token
        // bucket per row. It refills at (requests - burst) per `per_seconds` and holds at most `burst`, so no window
        // of `per_seconds` grants more than `requests`. Times are the database's clock (`clock_timestamp()`, not the
        // transaction's start, as a taker may wait for the row lock).
        """
        -- Each mailbox's primary calendar, found once by whichever worker opens it first: a worker that meets the
        -- mailbox for the first time then needs no calendar listing (an idle pair stays at two requests).
        ALTER TABLE org_mailboxes ADD COLUMN primary_calendar text;
        CREATE TABLE org_quotas (
            name text PRIMARY KEY CHECK (name ~ '^(tenant|project):.'),
            requests integer NOT NULL CHECK (requests >= 2),
            per_seconds double precision NOT NULL CHECK (per_seconds > 0),
            burst double precision NOT NULL CHECK (burst >= 1 AND burst < requests),
            tokens double precision NOT NULL,
            refilled_at timestamptz NOT NULL DEFAULT clock_timestamp(),
            granted bigint NOT NULL DEFAULT 0,
            waits bigint NOT NULL DEFAULT 0,
            last_wait_at timestamptz
        );
        -- Takes `cost` requests from a quota. Returns 0 when granted, the seconds until enough have refilled when
        -- not (nothing is taken then), NULL when no such quota is configured. One short statement per request.
        CREATE FUNCTION calbridge_take_quota(quota text, cost double precision) RETURNS double precision
        LANGUAGE plpgsql AS $$
        DECLARE
            q org_quotas%ROWTYPE;
            t timestamptz;
            rate double precision;
            need double precision;
            available double precision;
        BEGIN
            SELECT * INTO q FROM org_quotas WHERE name = quota FOR UPDATE;
            IF NOT FOUND THEN
                RETURN NULL;
            END IF;
            t := clock_timestamp();
            rate := (q.requests - q.burst) / q.per_seconds;
            -- A batch larger than the bucket waits for a full bucket and leaves it in debt.
            need := least(cost, q.burst);
            available := least(q.burst, q.tokens + rate * greatest(0, extract(epoch FROM t - q.refilled_at)));
            IF available >= need THEN
                UPDATE org_quotas SET tokens = available - cost, refilled_at = t, granted = granted + 1 WHERE name = quota;
                RETURN 0;
            END IF;
            UPDATE org_quotas SET tokens = available, refilled_at = t, waits = waits + 1, last_wait_at = t WHERE name = quota;
            RETURN (need - available) / rate;
        END
        $$;
        """,
    ]

    /// The newest version this calbridge knows.
    package static var currentVersion: Int { migrations.count }

    /// Brings the database to `currentVersion`.
    /// - Returns: the versions before and after.
    /// - Throws: `OrgError` for a database a newer calbridge migrated, or the database's refusal.
    @discardableResult
    package static func migrate(_ connection: PostgresConnection) async throws -> (from: Int, to: Int) {
        try await connection.execute("CREATE TABLE IF NOT EXISTS calbridge_schema (version integer NOT NULL)")
        return try await connection.transaction { connection in try await migrateHoldingLock(connection) }
    }

    /// The migration inside its transaction, under the advisory lock. Kept apart from `migrate` and never
    /// inlined, as `PostgresConnection.transaction` is: Swift 6.3.1's optimizer crashed (signal 11, splitting
    /// `migrate`'s coroutine) on the two inlined into it in a release build.
    @inline(never)
    private static func migrateHoldingLock(_ connection: PostgresConnection) async throws -> (from: Int, to: Int) {
        // One migrator at a time, across every machine (released at commit).
        try await connection.execute("SELECT pg_advisory_xact_lock(7320584411)")
        let rows = try await connection.execute("SELECT max(version) AS version FROM calbridge_schema")
        let from = rows[0, "version"].flatMap { Int($0) } ?? 0
        guard from <= currentVersion else {
            throw OrgError.usage(
                "the database's schema is version \(from), newer than this calbridge knows (\(currentVersion)); upgrade calbridge")
        }
        for version in from..<currentVersion {
            try await connection.executeScript(migrations[version])
            try await connection.execute("INSERT INTO calbridge_schema (version) VALUES ($1)", [String(version + 1)])
        }
        return (from, currentVersion)
    }

    /// Checks that the database is at `currentVersion` (every command but `org init`).
    package static func requireCurrent(_ connection: PostgresConnection) async throws {
        guard let version = try await storedVersion(connection) else {
            throw OrgError.usage("the database has no calbridge schema yet; run 'calbridge org init' first")
        }
        guard version == currentVersion else {
            throw OrgError.usage(
                version < currentVersion
                    ? "the database's schema is version \(version); run 'calbridge org init' to migrate it to \(currentVersion)"
                    : "the database's schema is version \(version), newer than this calbridge knows (\(currentVersion)); upgrade calbridge")
        }
    }

    /// The schema version, or nil when `org init` never ran (no version table). Waits at most the connection's
    /// `statementTimeout`, else `WorkQueue.defaultTimeout`, for the answer: a worker starting against a database that
    /// stopped answering fails instead of hanging.
    static func storedVersion(_ connection: PostgresConnection) async throws(PostgresError) -> Int? {
        let rows: PostgresRows
        do {
            rows = try await connection.execute(
                "SELECT max(version) AS version FROM calbridge_schema",
                timeout: connection.statementTimeout ?? WorkQueue.defaultTimeout)
        } catch {
            // 42P01: undefined_table.
            guard error.sqlState == "42P01" else { throw error }
            return nil
        }
        return rows[0, "version"].flatMap { Int($0) } ?? 0
    }
}

/// What went wrong in an organisation command: bad input (exit 2) or the database/runtime (exit 1).
package enum OrgError: Error, Sendable, Equatable, CustomStringConvertible {
    case usage(String)
    case database(PostgresError)

    package var description: String {
        switch self {
        case .usage(let text): text
        case .database(let error): error.description
        }
    }
}
