import CSQLite

/// SQLite's functions, from the shared library opened the first time a connection needs them.
///
/// Not linked at start-up: loading it and binding its symbols cost every command about 3.7% of a
/// no-change copy's CPU, and only `sync` keeps state in SQLite (README "Copying events: Speed").
package enum SQLiteLibrary {
    /// Why the library cannot be used: the loader's one-line reason.
    package struct LoadError: Error, Sendable, Equatable {
        package var reason: String
    }

    /// The system's SQLite 3 (`libsqlite3.so.0`), opened once for the process.
    package static let system: Result<cb_sqlite_functions, LoadError> = open(soname: "libsqlite3.so.0")

    /// Opens the library `soname` and resolves the functions calbridge calls.
    package static func open(soname: String) -> Result<cb_sqlite_functions, LoadError> {
        var reason = [CChar](repeating: 0, count: 512)
        let functions = reason.withUnsafeMutableBufferPointer { cb_sqlite_open(soname, $0.baseAddress, $0.count) }
        guard let functions else {
            return .failure(LoadError(reason: String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        return .success(functions.pointee)
    }
}
