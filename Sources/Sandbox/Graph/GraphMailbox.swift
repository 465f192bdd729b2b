import Foundation

/// One user's mailbox: profile, settings, calendars and their events. Codable, so `snapshot()` is its JSON.
struct GraphMailbox: Codable, Sendable {
    var id: String
    var displayName: String
    var givenName: String
    var surname: String
    var mail: String
    var userPrincipalName: String
    var jobTitle: String?
    var officeLocation: String?
    var mobilePhone: String?
    var businessPhones: [String]
    var preferredLanguage: String
    /// `mailboxSettings.timeZone`, a Windows name as Outlook stores it.
    var timeZone: String
    var calendars: [GraphCalendar]
    var events: [GraphStoredEvent]
    /// `transactionId` → id of the event it created, for POST de-duplication.
    var transactions: [String: String]

    var defaultCalendar: GraphCalendar? { calendars.first(where: \.isDefaultCalendar) ?? calendars.first }

    func calendar(id: String) -> GraphCalendar? { calendars.first { $0.id == id } }

    func eventIndex(id: String) -> Int? { events.firstIndex { $0.id == id } }
}

/// A calendar as `/me/calendars` lists it.
struct GraphCalendar: Codable, Sendable {
    var id: String
    var name: String
    var color: String
    var hexColor: String
    var isDefaultCalendar: Bool
    var canEdit: Bool
    var canShare: Bool
    var canViewPrivateItems: Bool
    var isRemovable: Bool
    var ownerName: String
    var ownerAddress: String
    var changeKey: String
}

/// Everything the Graph emulator persists.
struct GraphState: Codable, Sendable {
    var mailboxes: [GraphMailbox]
    /// The sync states behind calendarView delta tokens (absent in state files written before delta existed).
    var delta: GraphDeltaStore? = nil
}
