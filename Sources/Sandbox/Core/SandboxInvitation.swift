/// An invitation mail the real service would have sent: Graph mails every attendee of a new event (it has
/// no way not to); Google mails guests only when the write asks (`sendUpdates=all` or `externalOnly`).
/// The sandbox sends nothing; it records the mail so that tests can see who would have been invited.
public struct SandboxInvitation: Sendable, Equatable, CustomStringConvertible {
    /// The organizer's address.
    public var from: String
    /// The attendee's address.
    public var to: String
    /// The event's title.
    public var subject: String

    public init(from: String, to: String, subject: String) {
        self.from = from
        self.to = to
        self.subject = subject
    }

    public var description: String { "\(from) -> \(to): \(subject)" }
}
