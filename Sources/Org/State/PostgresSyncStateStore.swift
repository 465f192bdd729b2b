import Foundation
import Sync

/// The sync state of an organisation's pairs in PostgreSQL (the `sync_*` tables), behind the same
/// `SyncStateStore` protocol as a person's `sync.db`, so the engine runs alike on both.
///
/// With a `fence`, every write first locks the mailbox's queue row and checks that the lease is still this
/// worker's generation and unexpired, in the same transaction: a worker whose lease was lost writes nothing
/// (`LeaseLost`), and no claim can replace the lease before the write commits. Reads need no lease.
///
/// With a `timeout`, each read or write transaction as a whole waits at most that long for the database
/// (`PostgresConnection.withSession(timeout:_:)`), then fails with a `SyncStateError` saying the database did not
/// answer: nothing of it was committed by this side, and the worker's turn ends as a failure.
package struct PostgresSyncStateStore: SyncStateStore {
    package let connection: PostgresConnection
    /// The lease every write must hold; nil: none (tests, `org` commands).
    package let fence: MailboxLease?
    /// How long one transaction may take; nil: no limit.
    package let timeout: Duration?

    /// - Parameters:
    ///   - connection: a connection to a database at `OrgSchema.currentVersion`.
    ///   - fence: the lease writes are made under.
    ///   - timeout: how long one transaction may wait for the database; nil: no limit.
    package init(connection: PostgresConnection, fence: MailboxLease? = nil, timeout: Duration? = nil) {
        self.connection = connection
        self.fence = fence
        self.timeout = timeout
    }

    /// The same store writing under another lease.
    package func fenced(by lease: MailboxLease) -> PostgresSyncStateStore {
        PostgresSyncStateStore(connection: connection, fence: lease, timeout: timeout)
    }

    /// The same store, each transaction bounded by `timeout`.
    package func bounded(by timeout: Duration) -> PostgresSyncStateStore {
        PostgresSyncStateStore(connection: connection, fence: fence, timeout: timeout)
    }

    package func write<T: Sendable>(_ body: @escaping @Sendable (any SyncStateTransaction) throws -> T) async throws -> T {
        let fence = self.fence
        return try await session { session in
            try Self.inTransaction(session, "BEGIN ISOLATION LEVEL READ COMMITTED") {
                if let fence {
                    let rows = try session.execute(
                        """
                        SELECT 1 FROM org_mailboxes
                        WHERE address = $1 AND lease_owner = $2 AND lease_generation = $3 AND lease_expires_at > now()
                        FOR SHARE
                        """,
                        [fence.address, fence.owner, String(fence.generation)])
                    guard rows.rows.count == 1 else { throw LeaseLost(lease: fence) }
                }
                return try body(PostgresSyncStateTransaction(session: session))
            }
        }
    }

    package func read<T: Sendable>(_ body: @escaping @Sendable (any SyncStateTransaction) throws -> T) async throws -> T {
        try await session { session in
            try Self.inTransaction(session, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                try body(PostgresSyncStateTransaction(session: session))
            }
        }
    }

    /// `body` on the connection within `timeout`; the time running out as the state's error.
    private func session<T: Sendable>(_ body: @escaping @Sendable (PostgresSession) throws -> T) async throws -> T {
        do {
            return try await connection.withSession(timeout: timeout, body)
        } catch let error as PostgresError {
            throw PostgresSyncStateTransaction.stateError(error)
        }
    }

    /// `begin`, `body`, then COMMIT, or ROLLBACK when `body` throws; the server's refusals as `SyncStateError`.
    private static func inTransaction<T>(_ session: PostgresSession, _ begin: String, _ body: () throws -> T) throws -> T {
        do {
            try session.execute(begin)
        } catch {
            throw PostgresSyncStateTransaction.stateError(error)
        }
        do {
            let value = try body()
            try session.execute("COMMIT")
            return value
        } catch {
            _ = try? session.execute("ROLLBACK")
            if let error = error as? PostgresError { throw PostgresSyncStateTransaction.stateError(error) }
            throw error
        }
    }
}
