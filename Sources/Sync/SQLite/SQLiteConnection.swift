import CSQLite
import Foundation

/// One open SQLite database file: prepared statements, transactions, nothing else.
///
/// Not thread-safe by itself: the owner (an actor) serialises its use. Several connections, in this process
/// or others, may share a file; each waits up to its busy timeout for another's write lock.
package final class SQLiteConnection {
    private var handle: OpaquePointer?
    package let path: String

    /// Opens (creating when `create`) the file at `path`; `readOnly` opens it for reading only (never
    /// creating it, and working on a file this user cannot write). `busyTimeout` is how long a statement
    /// waits for another connection's lock before failing busy.
    package init(path: String, create: Bool, readOnly: Bool = false, busyTimeout: Duration) throws(SQLiteError) {
        self.path = path
        var db: OpaquePointer?
        let flags =
            readOnly
            ? SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
            : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "cannot open the database"
            _ = sqlite3_close_v2(db)
            throw SQLiteError(resultCode: status, message: message, path: path)
        }
        handle = db
        _ = sqlite3_extended_result_codes(db, 0)
        let milliseconds = busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        _ = sqlite3_busy_timeout(db, Int32(clamping: milliseconds))
    }

    deinit { _ = sqlite3_close_v2(handle) }

    /// Runs SQL without results (one or more statements, no parameters).
    package func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        defer { sqlite3_free(errorMessage) }
        guard status == SQLITE_OK else {
            throw SQLiteError(resultCode: status, message: errorMessage.map { String(cString: $0) } ?? lastMessage, path: path)
        }
    }

    /// A prepared statement with `values` bound to its `?` parameters in order.
    package func prepare(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status) }
        let prepared = SQLiteStatement(statement, connection: self)
        try prepared.bind(values)
        return prepared
    }

    /// Runs one statement that returns no rows; returns the number of rows it changed.
    @discardableResult
    package func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int {
        let statement = try prepare(sql, values)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// Every row of a query.
    package func rows(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> [SQLiteRow] {
        let statement = try prepare(sql, values)
        var rows: [SQLiteRow] = []
        while try statement.step() { rows.append(statement.row()) }
        return rows
    }

    /// The rowid of the last insert on this connection.
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// `BEGIN IMMEDIATE` takes the write lock at the start (waiting up to the busy timeout), so two writers
    /// never both read and then fail to upgrade; readers in WAL mode are not blocked.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    var lastMessage: String { sqlite3_errmsg(handle).map { String(cString: $0) } ?? "unknown SQLite error" }

    func error(_ status: Int32) -> SQLiteError { SQLiteError(resultCode: status, message: lastMessage, path: path) }
}

/// A value bound to a parameter or read from a column.
package enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    package static func optional(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
}

/// One result row, copied out of the statement.
package struct SQLiteRow: Sendable {
    package var values: [SQLiteValue]

    /// The column's text, nil for NULL or a non-text value.
    package func text(_ index: Int) -> String? {
        guard values.indices.contains(index), case .text(let text) = values[index] else { return nil }
        return text
    }

    package func integer(_ index: Int) -> Int64? {
        guard values.indices.contains(index), case .integer(let value) = values[index] else { return nil }
        return value
    }

    /// A REAL column, or an INTEGER one read as a double.
    package func real(_ index: Int) -> Double? {
        guard values.indices.contains(index) else { return nil }
        switch values[index] {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }
}

/// A prepared statement, finalized when released.
package final class SQLiteStatement {
    private let statement: OpaquePointer
    private let connection: SQLiteConnection
    /// SQLite's SQLITE_TRANSIENT (a C macro Swift cannot import): copy bound text now.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit { _ = sqlite3_finalize(statement) }

    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        guard values.count == Int(sqlite3_bind_parameter_count(statement)) else {
            throw SQLiteError(
                resultCode: SQLITE_RANGE,
                message: "\(values.count) values for \(sqlite3_bind_parameter_count(statement)) parameters",
                path: connection.path)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            case .real(let number): status = sqlite3_bind_double(statement, index, number)
            case .text(let text): status = sqlite3_bind_text(statement, index, text, -1, Self.transient)
            }
            guard status == SQLITE_OK else { throw connection.error(status) }
        }
    }

    /// Advances to the next row: true when there is one, false when done.
    func step() throws(SQLiteError) -> Bool {
        let status = sqlite3_step(statement)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(status)
        }
    }

    func row() -> SQLiteRow {
        let count = sqlite3_column_count(statement)
        var values: [SQLiteValue] = []
        values.reserveCapacity(Int(count))
        for index in 0..<count {
            switch sqlite3_column_type(statement, index) {
            case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(statement, index)))
            case SQLITE_FLOAT: values.append(.real(sqlite3_column_double(statement, index)))
            case SQLITE_TEXT:
                values.append(sqlite3_column_text(statement, index).map { .text(String(cString: $0)) } ?? .null)
            default: values.append(.null)
            }
        }
        return SQLiteRow(values: values)
    }
}
