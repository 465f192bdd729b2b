import CalendarBridge
import Foundation
import JSON

// Microsoft Graph v1.0 resources as the API sends them (calendar, event, dateTimeTimeZone,
// patternedRecurrence, user, mailboxSettings, OData collections and errors). Only what calbridge maps
// is declared; the rest is ignored when decoding.

struct GraphCollection<Item> {
    var value: [Item]
    var nextLink: String?
}

extension GraphCollection: Decodable where Item: Decodable {
    enum CodingKeys: String, CodingKey {
        case value
        case nextLink = "@odata.nextLink"
    }
}

struct GraphCalendar: JSONReadable {
    var id: String
    var name: String?
    var color: String?
    var hexColor: String?
    var isDefaultCalendar: Bool?
    var canEdit: Bool?
    var canShare: Bool?
    var owner: GraphEmailAddress?
}

struct GraphEmailAddress: JSONReadable {
    var name: String?
    var address: String?
}

struct GraphDateTimeTimeZone: JSONReadable {
    /// `dateTime` parsed as read: nil when it is not a local date-time, whose text `dateTime` then keeps
    /// for the error (it is left empty otherwise: a heap string per time, two per event, built only to
    /// be parsed; callgrind, a no-change copy of 1,000 events).
    var local: LocalDateTime?
    var dateTime: String
    var timeZone: String?
}

struct GraphEvent: JSONReadable {
    var id: String
    var subject: String?
    var body: GraphItemBody?
    var start: GraphDateTimeTimeZone?
    var end: GraphDateTimeTimeZone?
    var originalStartTimeZone: String?
    var originalEndTimeZone: String?
    var originalStart: String?
    var isAllDay: Bool?
    var isCancelled: Bool?
    var location: GraphLocation?
    var attendees: [GraphAttendee]?
    var organizer: GraphRecipient?
    var showAs: String?
    var sensitivity: String?
    var isReminderOn: Bool?
    var reminderMinutesBeforeStart: Int?
    var recurrence: GraphPatternedRecurrence?
    var seriesMasterId: String?
    var type: String?
    var onlineMeeting: GraphOnlineMeeting?
    var onlineMeetingUrl: String?
    var webLink: String?
    /// Parsed as read: nil also for text that is not a timestamp (strings built only to be parsed by
    /// the mapping, two per event).
    var createdDateTime: Date?
    var lastModifiedDateTime: Date?
    var categories: [String]?
    var iCalUId: String?
    var singleValueExtendedProperties: [GraphExtendedProperty]?
}

struct GraphItemBody: JSONReadable {
    var contentType: String?
    var content: String?
}

struct GraphLocation: JSONReadable {
    var displayName: String?
}

struct GraphRecipient: JSONReadable {
    var emailAddress: GraphEmailAddress?
}

struct GraphAttendee: JSONReadable {
    struct Status: JSONReadable {
        var response: String?
    }
    var type: String?
    var status: Status?
    var emailAddress: GraphEmailAddress?
}

struct GraphOnlineMeeting: JSONReadable {
    var joinUrl: String?
}

struct GraphExtendedProperty: JSONReadable {
    var id: String
    var value: String?
}

struct GraphPatternedRecurrence: JSONReadable {
    struct Pattern: JSONReadable {
        var type: String
        var interval: Int?
        var month: Int?
        var dayOfMonth: Int?
        var daysOfWeek: [String]?
        var firstDayOfWeek: String?
        var index: String?
    }
    struct Range: JSONReadable {
        var type: String
        var startDate: String?
        var endDate: String?
        var recurrenceTimeZone: String?
        var numberOfOccurrences: Int?
    }
    var pattern: Pattern
    var range: Range
}

extension GraphEvent {
    /// The fields of a `$select=id,isCancelled` read (is the event there?).
    struct Head: JSONReadable {
        var id: String?
        var isCancelled: Bool?
        /// A master's recurrence (its zone dates its all-day instances).
        var recurrence: GraphPatternedRecurrence?
    }
}

struct GraphUser: Decodable {
    var id: String?
    var displayName: String?
    var mail: String?
    var userPrincipalName: String?
}

struct GraphMailboxSettings: Decodable {
    var timeZone: String?
}

/// `{"error": {"code": "ErrorItemNotFound", "message": "...", "innerError": {"request-id": "...", "date": "..."}}}`
struct GraphErrorBody: Decodable {
    struct Detail: Decodable {
        var code: String?
        var message: String?
        var innerError: Inner?
    }
    struct Inner: Decodable {
        var requestID: String?
        var clientRequestID: String?
        enum CodingKeys: String, CodingKey {
            case requestID = "request-id"
            case clientRequestID = "client-request-id"
        }
    }
    var error: Detail
}
