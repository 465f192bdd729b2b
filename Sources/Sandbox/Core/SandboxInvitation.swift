/// A mail to an attendee the real service would have sent: Graph mails every attendee of a new meeting, an
/// update to them for every change of it and a cancellation when it (or one occurrence) is deleted or they are
/// removed (it has no way not to); Google mails guests only when the write asks (`sendUpdates=all` or
/// `externalOnly`). The sandbox sends nothing; it records the mail so that tests can see who would have
/// been mailed, and about what.
package struct SandboxInvitation: Sendable, Equatable, CustomStringConvertible {
    /// What the mail says.
    package enum Kind: String, Sendable {
        /// A meeting request (a new meeting, or an attendee added to one).
        case invitation
        /// A changed meeting.
        case update
        /// A deleted meeting or occurrence, or an attendee removed.
        case cancellation
    }

    /// The organizer's address.
    package var from: String
    /// The attendee's address.
    package var to: String
    /// The event's title.
    package var subject: String
    package var kind: Kind

    package init(from: String, to: String, subject: String, kind: Kind = .invitation) {
        self.from = from
        self.to = to
        self.subject = subject
        self.kind = kind
    }

    package var description: String { "\(from) -> \(to): \(subject)" + (kind == .invitation ? "" : " (\(kind.rawValue))") }
}
