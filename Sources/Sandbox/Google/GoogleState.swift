import Foundation

/// Everything the Google emulator knows: users with their calendar lists, calendars with their events, and
/// the change counter behind etags and sync tokens. Codable, so `--state FILE` can persist it.
struct GoogleState: Codable, Sendable {
    var users: [GoogleUserRecord]
    var calendars: [String: GoogleCalendarRecord]
    /// Bumped on every write; an event's `changeSeq` is the counter value of its last write.
    var changeCounter: Int
    /// Distinguishes sync tokens of this run from tokens of an earlier state (a restart without `--state`).
    var epoch: String

    func user(_ email: String) -> GoogleUserRecord? { users.first { $0.email.caseInsensitiveEquals(email) } }
}

/// A seeded Google account and its calendar list.
struct GoogleUserRecord: Codable, Sendable {
    var email: String
    var displayName: String
    var entries: [GoogleListEntry]

    /// The entry for a calendar id, `primary` meaning the user's primary calendar.
    func entry(_ calendarID: String) -> GoogleListEntry? {
        if calendarID == "primary" { return entries.first { $0.primary } }
        return entries.first { $0.calendarID == calendarID }
    }
}

/// One row of a user's calendar list: the per-user view of a calendar.
struct GoogleListEntry: Codable, Sendable {
    var calendarID: String
    var accessRole: String
    var primary: Bool
    var hidden: Bool
    var selected: Bool
    var colorID: String
    var backgroundColor: String
    var foregroundColor: String
    var summaryOverride: String?
    var defaultReminders: [GoogleJSON]

    static let roleRank = ["freeBusyReader": 1, "reader": 2, "writerWithoutPrivateAccess": 3, "writer": 3, "owner": 4]
    var rank: Int { GoogleListEntry.roleRank[accessRole] ?? 0 }
    var canWrite: Bool { rank >= 3 }
}

/// A calendar and its events (stored once, seen by every user whose list has it).
struct GoogleCalendarRecord: Codable, Sendable {
    var id: String
    var summary: String
    var description: String?
    var location: String?
    var timeZone: String
    var dataOwner: String?
    var created: Date
    var events: [String: GoogleEventRecord]
    var nextOrder: Int
}

/// One stored event: the resource as Google would hold it (times normalised to UTC `dateTime` or `date`),
/// plus the derived values listing needs.
struct GoogleEventRecord: Codable, Sendable {
    var resource: [String: GoogleJSON]
    var changeSeq: Int
    var order: Int
    var start: Date
    var end: Date
    var allDay: Bool

    var id: String { resource["id"]?.stringValue ?? "" }
    var status: String { resource["status"]?.stringValue ?? "confirmed" }
    var isCancelled: Bool { status == "cancelled" }
    var recurrence: [String]? { resource["recurrence"]?.arrayValue?.compactMap(\.stringValue) }
    var isRecurringMaster: Bool { !(recurrence?.isEmpty ?? true) }
    var recurringEventID: String? { resource["recurringEventId"]?.stringValue }
    var updated: String { resource["updated"]?.stringValue ?? "" }
}
