import Accounts
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension CalbridgeHome {
    /// `sync.db`: the state of every sync pair.
    public var syncDatabase: URL { directory.appendingPathComponent("sync.db") }
}

/// The sync state in SQLite (`$CALBRIDGE_HOME/sync.db`): pairs, each pair's items mapped across both sides,
/// each side's change cursor, and each pair's last run.
///
/// The file is 0600 in a 0700 directory, in WAL mode (readers never wait for the writer), with a versioned
/// schema. Nothing here assumes this is the only process on the file: every write is a transaction that
/// takes the write lock first (`BEGIN IMMEDIATE`) and waits up to the busy timeout for another process's;
/// reads see one consistent snapshot. Open one store per process and share it (it is an actor).
public actor SQLiteSyncStateStore: SyncStateStore {
    /// How long a write waits for another process's lock by default.
    public static let defaultBusyTimeout: Duration = .seconds(10)

    public nonisolated let url: URL
    private let connection: SQLiteConnection

    /// Opens the state, creating the file and its schema when absent.
    /// - Throws: `SyncStateError`: `.corrupt` for a damaged file or one that is not a database,
    ///   `.foreign` for another program's database, `.newerSchema`, `.busy`, `.cannotOpen`.
    public init(url: URL, busyTimeout: Duration = SQLiteSyncStateStore.defaultBusyTimeout) throws(SyncStateError) {
        self.url = url
        let path = url.path
        do {
            try SecureFile().ensureDirectory(url.deletingLastPathComponent())
        } catch {
            throw SyncStateError(.cannotOpen, "cannot prepare its directory: \(error)", path: path)
        }
        try Self.createPrivateFile(path)
        do {
            connection = try SQLiteConnection(path: path, create: false, busyTimeout: busyTimeout)
            try Self.configure(connection, busyTimeout: busyTimeout)
            try Self.prepareSchema(connection)
        } catch {
            throw Self.openingError(error, path: path)
        }
    }

    /// Opens an existing state for reading only (`sync list`, `sync status`): nothing is created, migrated
    /// or written, and a file this user may only read opens too.
    /// - Returns: nil when there is no file (no pair was ever added).
    /// - Throws: `SyncStateError`: `.corrupt`, `.foreign`, `.newerSchema` as `init(url:)`; `.storage` for a
    ///   `.olderSchema` for a state a writing open must upgrade first.
    public init?(readingOnly url: URL, busyTimeout: Duration = SQLiteSyncStateStore.defaultBusyTimeout) throws(SyncStateError) {
        self.url = url
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            connection = try SQLiteConnection(path: path, create: false, readOnly: true, busyTimeout: busyTimeout)
            let applicationID = try connection.rows("PRAGMA application_id").first?.integer(0) ?? 0
            let version = try connection.rows("PRAGMA user_version").first?.integer(0) ?? 0
            if applicationID == 0 && version == 0 {
                // An empty file (created, never written): no pairs yet.
                let tables = try connection.rows("SELECT count(*) FROM sqlite_master").first?.integer(0) ?? 0
                guard tables == 0 else {
                    throw SyncStateError(.foreign, "it is an SQLite database, but not calbridge's sync state", path: path)
                }
                return nil
            }
            guard applicationID == SyncStateSchema.applicationID else {
                throw SyncStateError(.foreign, "it is another program's SQLite database (application id \(applicationID))", path: path)
            }
            guard version <= SyncStateSchema.currentVersion else {
                throw SyncStateError(
                    .newerSchema, "it has schema version \(version); this calbridge knows up to \(SyncStateSchema.currentVersion)",
                    path: path)
            }
            guard version == SyncStateSchema.currentVersion else {
                throw SyncStateError(
                    .olderSchema, "it has the older schema version \(version); run 'calbridge sync' once to upgrade it", path: path)
            }
        } catch {
            throw Self.openingError(error, path: path)
        }
    }

    /// Runs `body` in one write transaction: all of it is stored, or (when it throws) none of it.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SyncStateTransaction) throws -> T) throws -> T {
        let transaction = SQLiteSyncStateTransaction(connection: connection)
        do {
            return try connection.transaction { try body(transaction) }
        } catch let error as SQLiteError {
            throw SyncStateError(error)
        }
    }

    /// Runs `body` on one consistent snapshot of the state (no lock held against writers).
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SyncStateTransaction) throws -> T) throws -> T {
        let transaction = SQLiteSyncStateTransaction(connection: connection)
        do {
            try connection.execute("BEGIN DEFERRED")
            defer { try? connection.execute("COMMIT") }
            return try body(transaction)
        } catch let error as SQLiteError {
            throw SyncStateError(error)
        }
    }

    // MARK: Opening

    /// Creates the file 0600 unless it exists (exclusively, so a concurrent creator's file is not replaced),
    /// and narrows an existing file that others can read.
    /// What went wrong opening the state, as a `SyncStateError` (SQLite's errors keep their code).
    private static func openingError(_ error: any Error, path: String) -> SyncStateError {
        if let error = error as? SyncStateError { return error }
        if let error = error as? SQLiteError { return SyncStateError(error) }
        return SyncStateError(.storage, "\(error)", path: path)
    }

    private static func createPrivateFile(_ path: String) throws(SyncStateError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        guard errno == EEXIST else {
            throw SyncStateError(.cannotOpen, "cannot create it: \(String(cString: strerror(errno)))", path: path)
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw SyncStateError(.cannotOpen, "it exists but is not a regular file", path: path)
        }
        if info.st_mode & 0o077 != 0 { chmod(path, 0o600) }
    }

    private static func configure(_ connection: SQLiteConnection, busyTimeout: Duration) throws {
        try switchToWAL(connection, busyTimeout: busyTimeout)
        try connection.execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL")
    }

    /// WAL is a property of the file, so only the first open of a new file switches it. The switch needs the
    /// file to itself, and SQLite answers SQLITE_BUSY at once instead of calling the busy handler (four stores
    /// opening one new file together failed so in 17 of 30 runs): it is retried until the busy timeout,
    /// looking each time whether another opener has switched the file meanwhile.
    private static func switchToWAL(_ connection: SQLiteConnection, busyTimeout: Duration) throws {
        let clock = ContinuousClock()
        let deadline = clock.now + busyTimeout
        var pause = Duration.milliseconds(1)
        while true {
            // The first statement reads the header: a file that is not a database fails here (SQLITE_NOTADB).
            if try connection.rows("PRAGMA journal_mode").first?.text(0)?.lowercased() == "wal" { return }
            do {
                let mode = try connection.rows("PRAGMA journal_mode = WAL").first?.text(0)
                guard mode?.lowercased() == "wal" else {
                    throw SyncStateError(
                        .storage, "cannot switch to WAL mode (journal_mode is \(mode ?? "unknown"))", path: connection.path)
                }
                return
            } catch let error as SQLiteError where error.isBusy && clock.now + pause < deadline {
                // Blocking, as SQLite's own busy handler does: opening the store is synchronous.
                usleep(UInt32(pause.components.attoseconds / 1_000_000_000_000))
                pause = min(pause * 2, .milliseconds(50))
            }
        }
    }

    private static func prepareSchema(_ connection: SQLiteConnection) throws {
        // In a write transaction, so two processes opening a new file do not both create the schema.
        try connection.transaction {
            let applicationID = try connection.rows("PRAGMA application_id").first?.integer(0) ?? 0
            let version = try connection.rows("PRAGMA user_version").first?.integer(0) ?? 0
            let path = connection.path
            if applicationID == 0 && version == 0 {
                let tables = try connection.rows("SELECT count(*) FROM sqlite_master").first?.integer(0) ?? 0
                guard tables == 0 else {
                    throw SyncStateError(.foreign, "it is an SQLite database, but not calbridge's sync state", path: path)
                }
            } else if applicationID != SyncStateSchema.applicationID {
                throw SyncStateError(
                    .foreign, "it is another program's SQLite database (application id \(applicationID))", path: path)
            }
            guard version <= SyncStateSchema.currentVersion else {
                throw SyncStateError(
                    .newerSchema,
                    "it has schema version \(version); this calbridge knows up to \(SyncStateSchema.currentVersion)",
                    path: path)
            }
            guard version < SyncStateSchema.currentVersion else { return }
            for step in SyncStateSchema.migrations.dropFirst(Int(version)) { try connection.execute(step) }
            try connection.execute("PRAGMA application_id = \(SyncStateSchema.applicationID)")
            try connection.execute("PRAGMA user_version = \(SyncStateSchema.currentVersion)")
        }
    }
}
