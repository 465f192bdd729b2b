import CalendarBridge
import Foundation
import JSON

// Google Calendar v3 resources as the API sends them (see the discovery document, schemas `Event`,
// `CalendarListEntry`, `Events`, `CalendarList`). Only what calbridge maps is declared; the rest is
// ignored when decoding.

struct GoogleCalendarList: Decodable {
    var items: [GoogleCalendarListEntry]?
    var nextPageToken: String?
}

struct GoogleCalendarListEntry: Decodable {
    var id: String
    var summary: String?
    var summaryOverride: String?
    var primary: Bool?
    var accessRole: String?
    var timeZone: String?
    var backgroundColor: String?
    var deleted: Bool?
}

struct GoogleEvents: JSONReadable {
    var items: [GoogleEvent]?
    var nextPageToken: String?
    /// The calendar's zone: the zone of event times that state only an offset.
    var timeZone: String?
}

struct GoogleEvent: JSONReadable {
    var id: String
    var status: String?
    var htmlLink: String?
    /// Parsed as read: nil also for text that is not a timestamp (a heap string per stamp and event was
    /// built only to be parsed by the mapping; 2,300 in a no-change copy of 1,000 events).
    var created: Date?
    var updated: Date?
    var summary: String?
    var description: String?
    var location: String?
    var start: GoogleEventDateTime?
    var end: GoogleEventDateTime?
    var recurrence: [String]?
    var recurringEventId: String?
    var originalStartTime: GoogleEventDateTime?
    var transparency: String?
    var visibility: String?
    var iCalUID: String?
    var organizer: GooglePerson?
    var attendees: [GoogleAttendee]?
    var hangoutLink: String?
    var conferenceData: GoogleConferenceData?
    var extendedProperties: GoogleExtendedProperties?
    var reminders: GoogleReminders?
    var eventType: String?
}

struct GoogleEventDateTime: JSONReadable {
    var date: String?
    /// `dateTime` parsed as read (nil when absent or not RFC 3339).
    var instant: Date?
    /// `dateTime`'s text, kept only where the mapping may need it: when it did not parse (for the error)
    /// or no `timeZone` came with it (for the zone of its offset). A heap string per time, two per event,
    /// built only to be parsed otherwise.
    var dateTime: String?
    var timeZone: String?
}

struct GooglePerson: JSONReadable {
    var email: String?
    var displayName: String?
}

struct GoogleAttendee: JSONReadable {
    var email: String?
    var displayName: String?
    var optional: Bool?
    var resource: Bool?
    var organizer: Bool?
    var responseStatus: String?
}

struct GoogleConferenceData: JSONReadable {
    struct EntryPoint: JSONReadable {
        var entryPointType: String?
        var uri: String?
    }
    var entryPoints: [EntryPoint]?
}

/// A class, read once and only read after: as a struct, each copy of it (with the event's, and again
/// where the mapping takes the marker and the properties) retained and released each of its strings.
final class GoogleExtendedProperties: JSONReadable {
    /// The private properties as `Event.splitProperties` splits them: the origin marker, and the
    /// properties that are not calbridge's.
    let origin: OriginMarker?
    let `private`: [String: String]?
    let shared: [String: String]?

    init(origin: OriginMarker?, private: [String: String]?, shared: [String: String]?) {
        self.origin = origin
        self.private = `private`
        self.shared = shared
    }
}

struct GoogleReminders: JSONReadable {
    struct Override: JSONReadable {
        var method: String?
        var minutes: Int?
    }
    var useDefault: Bool?
    var overrides: [Override]?
}

/// The error body of every Google API: `{"error": {"code", "message", "errors": [{"reason", ...}], "status"}}`.
struct GoogleErrorBody: Decodable {
    struct Detail: Decodable {
        var code: Int?
        var message: String?
        var status: String?
        var errors: [Item]?
    }
    struct Item: Decodable {
        var domain: String?
        var reason: String?
        var message: String?
    }
    var error: Detail
}
