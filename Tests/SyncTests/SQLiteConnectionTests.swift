import CSQLite
import Foundation
import TestSupport
import Testing

@testable import Sync

/// The connection over the system's SQLite (linked as a system library).
@Suite("SQLite connection")
struct SQLiteConnectionTests {
    @Test("each column type round-trips through a bound statement; a wrong parameter count is an error, not a crash")
    func roundTrip() throws {
        let temp = try TemporaryDirectory()
        let path = temp.url.appendingPathComponent("plain.db").path
        let connection = try SQLiteConnection(path: path, create: true, busyTimeout: .seconds(1))
        try connection.execute("CREATE TABLE t (n INTEGER, x REAL, s TEXT, z)")
        try connection.run("INSERT INTO t VALUES (?, ?, ?, ?)", [.integer(-7), .real(2.5), .text("zwölf ✓"), .null])
        #expect(connection.lastInsertRowID == 1)
        let rows = try connection.rows("SELECT n, x, s, z FROM t")
        #expect(rows.map(\.values) == [[.integer(-7), .real(2.5), .text("zwölf ✓"), .null]])
        let error = #expect(throws: SQLiteError.self) { try connection.rows("SELECT ?", [.integer(1), .integer(2)]) }
        #expect(error?.resultCode == SQLITE_RANGE)
        #expect(throws: SQLiteError.self) { try connection.run("INSERT INTO t VALUES (?)", [.integer(1)]) }
    }

    @Test("a file that cannot be opened fails as 'cannot open', naming the path; without create, no file is made")
    func cannotOpen() throws {
        let temp = try TemporaryDirectory()
        let path = temp.url.appendingPathComponent("missing/sync.db").path
        let error = #expect(throws: SQLiteError.self) {
            try SQLiteConnection(path: path, create: true, busyTimeout: .seconds(1))
        }
        #expect(error?.resultCode == SQLITE_CANTOPEN)
        let state = error.map(SyncStateError.init)
        #expect(state?.code == .cannotOpen)
        #expect(state?.description.contains(path) == true)
        let absent = temp.url.appendingPathComponent("absent.db").path
        #expect(throws: SQLiteError.self) { try SQLiteConnection(path: absent, create: false, busyTimeout: .seconds(1)) }
        #expect(!FileManager.default.fileExists(atPath: absent))
    }
}
