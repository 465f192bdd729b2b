import CLibPQ
import Foundation

/// One connection to PostgreSQL through libpq. The only type that touches libpq's pointers.
///
/// libpq blocks while the server works, so every call runs on this connection's own serial queue, never
/// on Swift's cooperative threads (two of them on a 2-core machine: one statement waiting on a row lock
/// there could stall every task, the lock holder's included). Parameters are sent separately from the SQL
/// text (`PQexecParams`), never spliced in.
package final class PostgresConnection: @unchecked Sendable {
    private let connection: OpaquePointer
    private let queue: DispatchQueue
    /// How long a statement or session without a timeout of its own waits for the server's answer; nil: for ever.
    /// Migrations (`executeScript`) are never cut short.
    package let statementTimeout: Duration?

    /// How long connecting may take, in seconds, when neither the URL (`connect_timeout`) nor the environment
    /// (`PGCONNECT_TIMEOUT`) says: libpq's own default is to wait forever, and a server that accepts the
    /// connection and never answers (a stalled network, a hung host) would hold the caller for good. It bounds
    /// every reconnection too (`PQreset` keeps the parameters).
    package static let defaultConnectTimeout = 10

    /// Connects with a `postgresql://` URL or a `key=value` string (libpq's own syntax, so `PGPASSWORD`,
    /// `~/.pgpass` and `sslmode` work as libpq documents them). Connecting gives up after `connect_timeout`
    /// seconds: the URL's, else `PGCONNECT_TIMEOUT`'s, else `defaultConnectTimeout`.
    /// - Parameter statementTimeout: the deadline of every statement and session that names none.
    /// - Throws: `PostgresError` with libpq's reason; the URL itself, which may carry a password, is not in it.
    package init(url: String, statementTimeout: Duration? = nil) async throws(PostgresError) {
        let queue = DispatchQueue(label: "calbridge.postgres")
        // The default goes before the URL: libpq lets the expanded URL's own settings override earlier keywords.
        // libpq reads PGCONNECT_TIMEOUT from this process's environment itself, for keywords not given.
        let timeoutSet = !(ProcessInfo.processInfo.environment["PGCONNECT_TIMEOUT"] ?? "").isEmpty
        let parameters = (timeoutSet ? [] : [("connect_timeout", String(Self.defaultConnectTimeout))]) + [("dbname", url)]
        let opened: Result<Handle, PostgresError> = await withCheckedContinuation { continuation in
            queue.async {
                guard let connection = Self.connect(parameters) else {
                    continuation.resume(
                        returning: .failure(PostgresError(code: .cannotConnect, message: "libpq could not allocate a connection")))
                    return
                }
                guard PQstatus(connection) == CONNECTION_OK else {
                    let reason = PostgresError.text(PQerrorMessage(connection))
                    PQfinish(connection)
                    continuation.resume(returning: .failure(PostgresError(code: .cannotConnect, message: reason)))
                    return
                }
                continuation.resume(returning: .success(Handle(pointer: connection)))
            }
        }
        self.connection = try opened.get().pointer
        self.queue = queue
        self.statementTimeout = statementTimeout
    }

    /// `PQconnectdbParams` with `dbname` expanded (a URL or `key=value` string in it sets its parameters).
    private static func connect(_ parameters: [(String, String)]) -> OpaquePointer? {
        let keywords: [UnsafeMutablePointer<CChar>?] = parameters.map { strdup($0.0) } + [nil]
        let values: [UnsafeMutablePointer<CChar>?] = parameters.map { strdup($0.1) } + [nil]
        defer { for pointer in keywords + values { free(pointer) } }
        return keywords.withUnsafeBufferPointer { keywordBuffer in
            values.withUnsafeBufferPointer { valueBuffer in
                keywordBuffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { keywordPointers in
                    valueBuffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { valuePointers in
                        PQconnectdbParams(keywordPointers.baseAddress, valuePointers.baseAddress, 1)
                    }
                }
            }
        }
    }

    deinit { PQfinish(connection) }

    /// libpq's connection pointer, handed from the connecting queue to the new instance (used by one queue at a time).
    private struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Runs one statement with text parameters (`$1`, `$2`, ...; nil is SQL NULL).
    ///
    /// With a `timeout` (else the connection's `statementTimeout`) it gives up after that long: a database that stopped answering (a stalled network, a
    /// server that hangs) must not hold the caller forever. A statement still queued behind another when the
    /// time is up is not sent; one in flight has its socket shut down, so libpq returns at once and the next
    /// statement connects again (`reconnectIfLost`).
    /// - Throws: `PostgresError` with the server's SQLSTATE and message, or `.timedOut` when the time ran out.
    @discardableResult
    package func execute(
        _ sql: String, _ parameters: [String?] = [], timeout: Duration? = nil
    ) async throws(PostgresError) -> PostgresRows {
        try await onQueue(timeout: timeout ?? statementTimeout, timedOut: Self.timedOut) { Self.run($0, sql, parameters) }.get()
    }

    private static func timedOut(_ timeout: Duration) -> PostgresError {
        PostgresError(code: .timedOut, message: "no answer within \(timeout)")
    }

    /// Runs several statements without parameters (`PQexec`: the migrations).
    package func executeScript(_ sql: String) async throws(PostgresError) {
        _ = try await onQueue(timeout: nil, timedOut: Self.timedOut) { Self.collect($0, PQexec($0, sql)) }.get()
    }

    /// Runs `body` inside one transaction (`BEGIN` with `isolation`, `COMMIT`; `ROLLBACK` when it throws).
    /// Never inlined: Swift 6.3.1's optimizer crashed (signal 11, splitting the caller's coroutine) on its
    /// typed-throws calls inside do/catch inlined into `OrgSchema.migrate` in a release build.
    @inline(never)
    package func transaction<T: Sendable>(
        isolation: String = "READ COMMITTED", _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await execute("BEGIN ISOLATION LEVEL " + isolation)
        do {
            let value = try await body(self)
            try await execute("COMMIT")
            return value
        } catch {
            _ = try? await execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` on the connection's queue, its statements synchronous (`PostgresSession`): for work that is
    /// a synchronous closure, as the sync state's transactions are. Nothing else uses the connection until
    /// `body` returns, so a transaction begun and ended inside it is never interleaved with other statements.
    ///
    /// With a `timeout`, the whole of `body` gets that long, as one statement of `execute(_:_:timeout:)` does: when
    /// the time is up before it starts, it never runs; while it runs, the socket is shut down, so its statements
    /// fail at once, its transaction is never committed by this side, and the call throws `PostgresError` with
    /// `.timedOut`. (A COMMIT the server already received may still take effect: as with any connection lost.)
    package func withSession<T: Sendable>(
        timeout: Duration? = nil, _ body: @escaping @Sendable (PostgresSession) throws -> T
    ) async throws -> T {
        try await onQueue(timeout: timeout ?? statementTimeout, timedOut: { Self.timedOut($0) as any Error }) { connection in
            Result { try body(PostgresSession(connection: connection)) }
        }.get()
    }

    /// The one way onto the connection's queue: `work` runs there with libpq's pointer, after reconnecting a lost
    /// connection, and the caller resumes with its result. With a `timeout`, whichever comes first, the result or
    /// the deadline, resumes the caller (`StatementWatch`): work whose time ran out while queued neither reconnects
    /// (which a stalled server holds for the connect timeout) nor runs.
    private func onQueue<Success: Sendable, Failure: Error>(
        timeout: Duration?, timedOut: (Duration) -> Failure,
        _ work: @escaping @Sendable (OpaquePointer) -> Result<Success, Failure>
    ) async -> Result<Success, Failure> {
        await withCheckedContinuation { continuation in
            let watch = StatementWatch<Success, Failure>(continuation, timedOut: timeout.map(timedOut))
            queue.async {
                guard watch.isQueued else { return }
                Self.reconnectIfLost(self.connection)
                guard watch.begin(socket: timeout == nil ? -1 : PQsocket(self.connection)) else { return }
                watch.end(work(self.connection))
            }
            if let timeout { watch.arm(timeout) }
        }
    }

    /// Connects again (`PQreset`, the same parameters) when an earlier statement found the connection lost (the
    /// server restarted, the network cut off): a long-running worker recovers by itself once the database is
    /// reachable again. Only before a call's first statement: a transaction that lost its connection already
    /// failed with `.connectionLost`, and nothing runs on in it. If the server is still unreachable, this
    /// call's statements fail with `.connectionLost` and the next call tries again.
    private static func reconnectIfLost(_ connection: OpaquePointer) {
        if PQstatus(connection) == CONNECTION_BAD { PQreset(connection) }
    }

    fileprivate static func run(
        _ connection: OpaquePointer, _ sql: String, _ parameters: [String?]
    ) -> Result<PostgresRows, PostgresError> {
        // strdup'ed C strings live until PQexecParams returns.
        let values: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.flatMap { strdup($0) } }
        defer { for value in values { free(value) } }
        let result = values.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { pointers in
                PQexecParams(connection, sql, Int32(parameters.count), nil, pointers.baseAddress, nil, nil, 0)
            }
        }
        return collect(connection, result)
    }

    /// Reads and frees one result.
    private static func collect(_ connection: OpaquePointer, _ result: OpaquePointer?) -> Result<PostgresRows, PostgresError> {
        guard let result else {
            return .failure(PostgresError(code: .connectionLost, message: PostgresError.text(PQerrorMessage(connection))))
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            var rows: [[String?]] = []
            let rowCount = PQntuples(result), columnCount = PQnfields(result)
            rows.reserveCapacity(Int(rowCount))
            for row in 0..<rowCount {
                var values: [String?] = []
                values.reserveCapacity(Int(columnCount))
                for column in 0..<columnCount {
                    values.append(PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column)))
                }
                rows.append(values)
            }
            let columns = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
            let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
            return .success(PostgresRows(columns: columns, rows: rows, affected: affected))
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            let message =
                PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                ?? PostgresError.text(PQresultErrorMessage(result))
            if PQstatus(connection) != CONNECTION_OK {
                return .failure(PostgresError(code: .connectionLost, message: message))
            }
            return .failure(PostgresError(code: .server, sqlState: state, message: message))
        }
    }
}

/// One statement (or one session) of `PostgresConnection.execute(_:_:timeout:)` and its deadline: whichever comes
/// first, the answer or the deadline, resumes the caller, exactly once. At the deadline a statement still queued is
/// skipped, and one in flight has its socket shut down (through a duplicate held until `end`, under the lock).
private final class StatementWatch<Success: Sendable, Failure: Error>: @unchecked Sendable {
    typealias Outcome = Result<Success, Failure>

    private enum Phase {
        case queued
        case running
        case timedOut
        case done
    }

    private let lock = NSLock()
    /// Nil without a deadline (`arm` is never called, so the phase never becomes `.timedOut`).
    private let timedOutError: Failure?
    // Guarded by `lock`.
    private var phase = Phase.queued
    private var continuation: CheckedContinuation<Outcome, Never>?
    private var timer: Task<Void, Never>?
    /// A duplicate of the connection's socket while the statement runs: shutting it down at the deadline reaches the
    /// same connection, and its number cannot have been reused by another file in the meantime (libpq may close its
    /// own descriptor as the statement fails, before `end`).
    private var watched: Int32 = -1

    init(_ continuation: CheckedContinuation<Outcome, Never>, timedOut: Failure?) {
        self.continuation = continuation
        self.timedOutError = timedOut
    }

    /// Starts the deadline: `expire()` after `timeout`, unless the statement ended first. A task's sleep, not a
    /// dispatch timer: the dispatch threads are the ones libpq blocks, and a timer waiting for a free one would
    /// fire late just when the database stalls.
    func arm(_ timeout: Duration) {
        let timer = Task { [self] in
            do {
                try await Task.sleep(for: timeout)
            } catch {
                return
            }
            expire()
        }
        let ended = lock.withLock {
            if case .done = phase { return true }
            self.timer = timer
            return false
        }
        if ended { timer.cancel() }
    }

    /// Whether the statement still waits for its turn (its time not yet up).
    var isQueued: Bool {
        lock.withLock {
            if case .queued = phase { return true }
            return false
        }
    }

    /// On the connection's queue, before sending: false when the deadline passed while the statement was queued.
    func begin(socket: Int32) -> Bool {
        lock.withLock {
            guard case .queued = phase else { return false }
            phase = .running
            watched = socket >= 0 ? dup(socket) : -1
            return true
        }
    }

    /// On the connection's queue, with the statement's result.
    func end(_ result: Outcome) {
        let resume: (CheckedContinuation<Outcome, Never>, Outcome)? = lock.withLock {
            defer {
                phase = .done
                timer?.cancel()
                timer = nil
                if watched >= 0 { close(watched) }
                watched = -1
            }
            guard let continuation else { return nil }
            self.continuation = nil
            if case .timedOut = phase, let timedOutError { return (continuation, .failure(timedOutError)) }
            return (continuation, result)
        }
        if let (continuation, result) = resume { continuation.resume(returning: result) }
    }

    /// At the deadline.
    func expire() {
        guard let timedOutError else { return }
        let resume: CheckedContinuation<Outcome, Never>? = lock.withLock {
            switch phase {
            case .queued:
                phase = .timedOut
                defer { continuation = nil }
                return continuation
            case .running:
                // libpq, blocked reading the answer, sees the connection closed and returns; `end` resumes.
                phase = .timedOut
                if watched >= 0 { shutdown(watched, Int32(SHUT_RDWR)) }
                return nil
            case .timedOut, .done:
                return nil
            }
        }
        resume?.resume(returning: .failure(timedOutError))
    }
}

/// The connection inside `PostgresConnection.withSession`: statements run at once on the calling (the
/// connection's) queue. Valid only inside that call.
package struct PostgresSession {
    fileprivate let connection: OpaquePointer

    /// Runs one statement with text parameters (`$1`, `$2`, ...; nil is SQL NULL).
    /// - Throws: `PostgresError` with the server's SQLSTATE and message.
    @discardableResult
    package func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresRows {
        try PostgresConnection.run(connection, sql, parameters).get()
    }
}

/// The rows of one statement's answer, as text (PostgreSQL's text format).
package struct PostgresRows: Sendable {
    package var columns: [String]
    package var rows: [[String?]]
    /// Rows inserted, updated or deleted (`PQcmdTuples`).
    package var affected: Int

    /// The value of `column` in row `row`.
    package subscript(row: Int, column: String) -> String? {
        guard let index = columns.firstIndex(of: column), rows.indices.contains(row) else { return nil }
        return rows[row][index]
    }
}

/// A statement or connection that failed: libpq's or the server's reason, the server's SQLSTATE.
package struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Code: Sendable, Equatable {
        case cannotConnect
        case connectionLost
        /// No answer within the caller's time (`execute(_:_:timeout:)`).
        case timedOut
        case server
    }

    package var code: Code
    /// The five-character SQLSTATE (`40001` serialization failure, `23505` unique violation), empty if none.
    package var sqlState: String = ""
    package var message: String

    package var description: String {
        switch code {
        case .cannotConnect: "cannot connect to the database: \(message)"
        case .connectionLost: "the database connection was lost: \(message)"
        case .timedOut: "the database did not answer: \(message)"
        case .server: "the database refused a statement: \(message)" + (sqlState.isEmpty ? "" : " (SQLSTATE \(sqlState))")
        }
    }

    static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer).split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
    }
}
