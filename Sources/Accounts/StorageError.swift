/// A problem with calbridge's files: permissions too open, unreadable, unwritable, or corrupt.
public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Group or others may read or write it; the message says which `chmod` fixes it.
        public static let loosePermissions = Code(rawValue: "loose-permissions")
        /// A read or write failed (the message carries the system's reason).
        public static let io = Code(rawValue: "io")
        /// The file is not what calbridge wrote (not JSON, wrong shape).
        public static let corrupt = Code(rawValue: "corrupt")
        /// No such account.
        public static let unknownAccount = Code(rawValue: "unknown-account")
    }

    public var code: Code
    public var path: String
    public var message: String

    public init(_ code: Code, path: String, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public var description: String { message }
}
