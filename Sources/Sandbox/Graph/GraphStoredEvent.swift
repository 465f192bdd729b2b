import Foundation

/// An event as the emulator stores it: instants for timed events, the zone names exactly as the client wrote
/// them (`originalStartTimeZone`), and series bookkeeping (exceptions are stored events of their own; cancelled
/// occurrences are a list on the master).
struct GraphStoredEvent: Codable, Sendable {
    struct Attendee: Codable, Sendable, Equatable {
        var name: String
        var address: String
        /// required | optional | resource
        var type: String
        /// none | organizer | tentativelyAccepted | accepted | declined | notResponded
        var response: String
    }

    var id: String
    var calendarID: String
    var iCalUId: String
    var changeKey: String
    var createdDateTime: Date
    var lastModifiedDateTime: Date
    var subject: String
    var bodyContentType: String
    var bodyContent: String
    /// Instants. For all-day events: local midnight of the start/end day in `startTimeZone`.
    var start: Date
    var end: Date
    var startTimeZone: String
    var endTimeZone: String
    var isAllDay: Bool
    var location: String
    var attendees: [Attendee]
    var organizerName: String
    var organizerAddress: String
    var isReminderOn: Bool
    var reminderMinutesBeforeStart: Int
    var showAs: String
    var sensitivity: String
    var importance: String
    var categories: [String]
    var isOnlineMeeting: Bool
    var onlineMeetingProvider: String
    var joinUrl: String?
    var recurrence: GraphRecurrence?
    /// `singleValueExtendedProperties`, id → value (ids compared case-insensitively).
    var extendedProperties: [String: String]
    var transactionId: String?
    /// singleInstance | seriesMaster | exception
    var type: String
    var seriesMasterId: String?
    /// For an exception: the start its occurrence had in the series.
    var originalStart: Date?
    /// For a master: original starts of deleted occurrences.
    var cancelledOccurrences: [Date]
    /// For an exception: the members (lowercased) a PATCH of it has set, which its series no longer decides.
    /// Optional, so that state files written before it still load.
    var overriddenMembers: Set<String>? = nil
    /// The rules of a start / end in a custom zone (`startTimeZone` / `endTimeZone` then are
    /// `tzone://Microsoft/Custom`); nil for named zones. The TZDEFINITION blobs Graph shows for them are
    /// ordinary extended properties of the event.
    var customStartZone: GraphCustomZone? = nil
    var customEndZone: GraphCustomZone? = nil

    func extendedValue(_ id: String) -> String? {
        extendedProperties.first { $0.key.caseInsensitiveCompare(id) == .orderedSame }?.value
    }
}
