/// An alert before an event starts.
public struct Reminder: Sendable, Hashable, Codable {
    /// How the user is alerted.
    public enum Method: String, Sendable, Hashable, Codable {
        /// A notification on the user's devices (Google `popup`; Graph's only kind).
        case popup
        case email
    }

    public var minutesBefore: Int
    public var method: Method

    public init(minutesBefore: Int, method: Method = .popup) {
        self.minutesBefore = minutesBefore
        self.method = method
    }
}
