/// A failure of the sync state (`sync.db`): what is wrong with which file, and what to do.
public struct SyncStateError: Error, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The file or its directory cannot be opened or created.
        public static let cannotOpen = Code(rawValue: "cannot-open")
        /// The file is damaged or is not an SQLite database.
        public static let corrupt = Code(rawValue: "corrupt")
        /// An SQLite database of another program (or an empty one with tables of its own).
        public static let foreign = Code(rawValue: "foreign")
        /// Written by a newer calbridge with a schema this build does not know.
        public static let newerSchema = Code(rawValue: "newer-schema")
        /// Opened for reading only, but written by an older calbridge: a writing open upgrades it.
        public static let olderSchema = Code(rawValue: "older-schema")
        /// Another process held the state's write lock for longer than the busy timeout.
        public static let busy = Code(rawValue: "busy")
        /// A constraint refused a write (two items claiming one event id, a row without a pair).
        public static let constraint = Code(rawValue: "constraint")
        /// Any other SQLite failure (disk full, I/O error).
        public static let storage = Code(rawValue: "storage")
    }

    public var code: Code
    public var message: String
    /// The database file.
    public var path: String
    /// SQLite's error, when the failure came from SQLite.
    public var sqlite: SQLiteError?

    public init(_ code: Code, _ message: String, path: String, sqlite: SQLiteError? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.sqlite = sqlite
    }

    /// Classifies an SQLite failure on `path`.
    init(_ error: SQLiteError) {
        switch error.resultCode {
        case 5, 6: self.init(.busy, "another calbridge process holds the sync state locked", path: error.path, sqlite: error)
        case 11, 26: self.init(.corrupt, "the file is damaged or not a database (\(error.message))", path: error.path, sqlite: error)
        case 19: self.init(.constraint, error.message, path: error.path, sqlite: error)
        case 14: self.init(.cannotOpen, error.message, path: error.path, sqlite: error)
        default: self.init(.storage, error.message, path: error.path, sqlite: error)
        }
    }

    /// What the user can do.
    public var hint: String? {
        switch code {
        case .corrupt, .foreign: "move the file away; the next sync rebuilds the state from both calendars"
        case .newerSchema: "use the calbridge that wrote it, or move the file away to start over"
        case .busy: "wait for the other calbridge (sync --watch?) to finish, or stop it"
        default: nil
        }
    }

    public var description: String {
        "sync state \(path): \(message)" + (hint.map { "; " + $0 } ?? "")
    }
}
