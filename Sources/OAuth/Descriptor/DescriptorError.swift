/// A provider descriptor that cannot be used, naming the file and the key that is wrong.
public struct DescriptorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the descriptor came from (a file path, or "built-in google").
    public var source: String
    /// The offending key, or nil when the whole document is unreadable.
    public var key: String?
    /// What is wrong with it.
    public var problem: String

    public init(source: String, key: String?, problem: String) {
        self.source = source
        self.key = key
        self.problem = problem
    }

    public var description: String {
        if let key { return "provider descriptor \(source): key \"\(key)\" \(problem)" }
        return "provider descriptor \(source): \(problem)"
    }
}
