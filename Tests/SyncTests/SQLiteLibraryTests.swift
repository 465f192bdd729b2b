import CSQLite
import Foundation
import Testing
import TestSupport

@testable import Sync

/// SQLite opened at first use (`SQLiteLibrary`), not linked: found, missing, or not SQLite.
@Suite("SQLite library")
struct SQLiteLibraryTests {
    @Test("the system's libsqlite3.so.0 opens with every function, and a connection runs SQL through it")
    func systemLibrary() throws {
        let functions = try SQLiteLibrary.system.get()
        let temp = try TemporaryDirectory()
        let path = temp.url.appendingPathComponent("plain.db").path
        let connection = try SQLiteConnection(
            path: path, create: true, busyTimeout: .seconds(1), library: .success(functions))
        try connection.execute("CREATE TABLE t (n INTEGER, x REAL, s TEXT, z)")
        try connection.run("INSERT INTO t VALUES (?, ?, ?, ?)", [.integer(-7), .real(2.5), .text("zwölf ✓"), .null])
        #expect(connection.lastInsertRowID == 1)
        let rows = try connection.rows("SELECT n, x, s, z FROM t")
        #expect(rows.map(\.values) == [[.integer(-7), .real(2.5), .text("zwölf ✓"), .null]])
        #expect(throws: SQLiteError.self) { try connection.run("INSERT INTO t VALUES (?)", [.integer(1), .integer(2)]) }
    }

    @Test("a library that cannot be opened is named in a one-line reason")
    func missingLibrary() {
        let result = SQLiteLibrary.open(soname: "libcalbridge-no-such-sqlite.so.0")
        guard case .failure(let failure) = result else {
            Issue.record("a missing library opened")
            return
        }
        #expect(failure.reason.contains("libcalbridge-no-such-sqlite.so.0"))
        #expect(!failure.reason.contains("\n"))
    }

    @Test("a library without SQLite's functions is refused, naming the first one missing")
    func notSQLite() {
        guard case .failure(let failure) = SQLiteLibrary.open(soname: "libm.so.6") else {
            Issue.record("libm.so.6 taken for SQLite")
            return
        }
        #expect(failure.reason == "libm.so.6 has no function sqlite3_open_v2")
    }

    @Test("without SQLite, opening the sync state fails as 'cannot open', saying what to install; no file is made")
    func connectionWithoutLibrary() throws {
        let temp = try TemporaryDirectory()
        let path = temp.url.appendingPathComponent("sync.db").path
        let missing = SQLiteLibrary.open(soname: "libcalbridge-no-such-sqlite.so.0")
        let error = #expect(throws: SQLiteError.self) {
            try SQLiteConnection(path: path, create: true, busyTimeout: .seconds(1), library: missing)
        }
        #expect(error?.resultCode == SQLITE_CANTOPEN)
        #expect(error?.message.contains("libcalbridge-no-such-sqlite.so.0") == true)
        #expect(error?.message.contains("install SQLite 3") == true)
        #expect(!FileManager.default.fileExists(atPath: path))
        let state = error.map(SyncStateError.init)
        #expect(state?.code == .cannotOpen)
        #expect(state?.description.contains(path) == true)
    }
}
