/// Why libical refused a recurrence, or why a series could not be expanded.
public struct ICalendarError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in one line naming the offending text and how to fix it.
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
