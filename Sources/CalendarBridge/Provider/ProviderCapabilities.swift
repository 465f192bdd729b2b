/// What a provider can do beyond the common operations, so callers choose a path up front instead of
/// catching `.unsupported`.
public struct ProviderCapabilities: Sendable, Hashable {
    /// The service parses free text itself (Google quickAdd).
    public var serverQuickAdd: Bool
    /// Recurrence rules the service can store as a series (others must be copied as instances).
    public var recurrence: RecurrenceSupport
    /// Whether `Sensitivity.personal` is stored as such (Graph) or folded into `.private` (Google).
    public var personalSensitivity: Bool
    /// Whether `ShowAs.tentative`, `.oof` and `.workingElsewhere` can be written.
    public var richShowAs: Bool
    /// Whether events carry categories.
    public var categories: Bool
    /// Whether event bodies are written as HTML (Graph). False: the copy engine writes a plain-text
    /// rendering of HTML bodies (tags stripped, entities decoded, line breaks kept).
    public var htmlBody: Bool
    /// The most writes one `applyWrites` call sends together: the service's batch limit (Google batch 50,
    /// Graph `$batch` 20), so that a copy sends as few requests as the service allows.
    public var maxWritesPerBatch: Int
    /// What the service does when an event is created with attendees (`add --attendees` says it).
    public var invitations: AttendeeInvitations

    public init(
        serverQuickAdd: Bool, recurrence: RecurrenceSupport, personalSensitivity: Bool, richShowAs: Bool,
        categories: Bool, htmlBody: Bool = true, maxWritesPerBatch: Int = 20,
        invitations: AttendeeInvitations = .sentByService
    ) {
        self.serverQuickAdd = serverQuickAdd
        self.recurrence = recurrence
        self.personalSensitivity = personalSensitivity
        self.richShowAs = richShowAs
        self.categories = categories
        self.htmlBody = htmlBody
        self.maxWritesPerBatch = max(1, maxWritesPerBatch)
        self.invitations = invitations
    }

    /// Whether creating an event with attendees mails them an invitation.
    public enum AttendeeInvitations: Sendable, Hashable {
        /// The service mails every attendee an invitation and its API has no way to stop it (Graph, as
        /// Outlook itself does). The cautious default for a provider that does not say.
        case sentByService
        /// No mail goes out; `how` names the mechanism (Google: `sendUpdates=none`).
        case notSent(how: String)
    }

    /// Which recurrence a provider can store.
    public enum RecurrenceSupport: Sendable, Hashable {
        /// Any RFC 5545 lines (Google).
        case rfc5545
        /// Graph's `patternedRecurrence`: one rule, daily/weekly/monthly/yearly patterns, no EXDATE/RDATE.
        case patterned
    }
}
