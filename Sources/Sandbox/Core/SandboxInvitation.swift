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

    /// The mails an organizer's change of a meeting sends, from its attendees' addresses before (nil: it is
    /// new) and after (nil: it is deleted): an invitation to each new attendee, an update to each kept one, a
    /// cancellation to each removed one. The organizer is not mailed; addresses compare without case.
    static func mails(from organizer: String, subject: String, before: [String]?, after: [String]?) -> [SandboxInvitation] {
        func others(_ list: [String]?) -> [String] { (list ?? []).filter { $0.caseInsensitiveCompare(organizer) != .orderedSame } }
        func contains(_ list: [String], _ address: String) -> Bool { list.contains { $0.caseInsensitiveCompare(address) == .orderedSame } }
        let was = others(before), now = others(after)
        return now.map { SandboxInvitation(from: organizer, to: $0, subject: subject, kind: contains(was, $0) ? .update : .invitation) }
            + was.filter { !contains(now, $0) }.map { SandboxInvitation(from: organizer, to: $0, subject: subject, kind: .cancellation) }
    }
}
