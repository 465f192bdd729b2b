/// Whether a change or deletion of a meeting may mail its attendees (`calbridge edit` and `delete` ask).
///
/// What the services do (checked 2026-12):
/// - Microsoft Graph: every update of a meeting the user organises mails its attendees, and deleting it (or
///   one occurrence) on the organizer's calendar mails them a cancellation ("Delete event", Graph v1.0
///   reference, learn.microsoft.com/en-us/graph/api/event-delete). The API has no switch to stop either
///   (microsoftgraph/microsoft-graph-docs#2309: "not possible at the moment"; msgraph-sdk-dotnet#1549,
///   #1996: updates mail every attendee). `ProviderCapabilities.invitations == .sentByService`.
/// - Google Calendar: `events.patch` and `events.delete` mail guests only with `sendUpdates=all` (or
///   `externalOnly`); `none` mails nobody (Calendar API v3 reference, events.patch and events.delete).
public enum AttendeeMail: Sendable, Hashable {
    /// Nobody is mailed (Google: `sendUpdates=none`). Where the service cannot avoid the mail (Graph), this
    /// is what a write of an event without attendees to mail does anyway.
    case none
    /// The attendees are mailed as the service mails them for a change made in its own app (Google:
    /// `sendUpdates=all`; Graph: its writes always do).
    case asService
}
