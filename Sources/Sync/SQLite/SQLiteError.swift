/// A failure of the SQLite layer, with SQLite's own result code and message and the file concerned.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite's primary result code (`SQLITE_BUSY` = 5, `SQLITE_CORRUPT` = 11, `SQLITE_NOTADB` = 26, ...).
    public var resultCode: Int32
    /// SQLite's message (`sqlite3_errmsg`), or calbridge's for errors found above SQLite.
    public var message: String
    /// The database file.
    public var path: String

    public init(resultCode: Int32, message: String, path: String) {
        self.resultCode = resultCode
        self.message = message
        self.path = path
    }

    /// The file is locked by another connection for longer than the busy timeout.
    public var isBusy: Bool { resultCode == 5 || resultCode == 6 }
    /// The file is damaged, or is not an SQLite database at all.
    public var isCorruptOrNotADatabase: Bool { resultCode == 11 || resultCode == 26 }

    public var description: String { "\(path): \(message) (SQLite error \(resultCode))" }
}
