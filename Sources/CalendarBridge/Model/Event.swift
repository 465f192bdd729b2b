import Foundation

/// One calendar event (a single event, a series master, or one occurrence of a series), provider-neutral.
///
/// Both providers map every field both ways unless a field's documentation says otherwise. For
/// `createEvent` the `id` is ignored (pass ""), and the calendar is the one named in the call.
public struct Event: Sendable, Hashable, Codable, Identifiable {
    /// The provider's id ("" for an event not created yet).
    public var id: String
    public var calendarID: String
    public var title: String
    public var body: EventBody?
    public var location: String?
    public var start: EventTime
    /// Exclusive: an all-day event on 1 May ends on 2 May.
    public var end: EventTime
    /// Set on a series master: how it repeats.
    public var recurrence: Recurrence?
    /// Set on an occurrence or exception: the series master's id.
    public var seriesID: String?
    /// Set on an occurrence or exception: when it would start had it not been moved (its identity
    /// within the series).
    public var originalStart: EventTime?
    public var status: EventStatus
    public var organizer: Attendee?
    public var attendees: [Attendee]
    /// Nil: the calendar's default reminders. Empty: no reminder.
    public var reminders: [Reminder]?
    public var showAs: ShowAs
    public var sensitivity: Sensitivity
    /// The join link of an online meeting (Teams, Meet). Read only: providers cannot attach a meeting
    /// by URL, so a copy puts it into the location or body.
    public var onlineMeetingURL: URL?
    /// Where the event opens in the provider's web app. Read only.
    public var webURL: URL?
    /// Outlook categories (Google has none).
    public var categories: [String]
    /// The RFC 5545 UID shared by all copies of an invitation. Read only.
    public var iCalUID: String?
    public var created: Date?
    public var updated: Date?
    /// Set when calbridge created this event as a copy.
    public var origin: OriginMarker?
    /// Provider-specific extension properties (Google private extended properties, Graph single-value
    /// extended properties by name), excluding the origin marker's own.
    public var extendedProperties: [String: String]

    public init(
        id: String = "", calendarID: String = "", title: String, body: EventBody? = nil, location: String? = nil,
        start: EventTime, end: EventTime, recurrence: Recurrence? = nil, seriesID: String? = nil,
        originalStart: EventTime? = nil, status: EventStatus = .confirmed, organizer: Attendee? = nil,
        attendees: [Attendee] = [], reminders: [Reminder]? = nil, showAs: ShowAs = .busy,
        sensitivity: Sensitivity = .normal, onlineMeetingURL: URL? = nil, webURL: URL? = nil,
        categories: [String] = [], iCalUID: String? = nil, created: Date? = nil, updated: Date? = nil,
        origin: OriginMarker? = nil, extendedProperties: [String: String] = [:]
    ) {
        self.id = id
        self.calendarID = calendarID
        self.title = title
        self.body = body
        self.location = location
        self.start = start
        self.end = end
        self.recurrence = recurrence
        self.seriesID = seriesID
        self.originalStart = originalStart
        self.status = status
        self.organizer = organizer
        self.attendees = attendees
        self.reminders = reminders
        self.showAs = showAs
        self.sensitivity = sensitivity
        self.onlineMeetingURL = onlineMeetingURL
        self.webURL = webURL
        self.categories = categories
        self.iCalUID = iCalUID
        self.created = created
        self.updated = updated
        self.origin = origin
        self.extendedProperties = extendedProperties
    }

    public var isAllDay: Bool { start.isAllDay }
    /// A series master (has recurrence rules).
    public var isSeriesMaster: Bool { recurrence != nil }
    /// An occurrence or exception of a series.
    public var isOccurrence: Bool { seriesID != nil }

    /// The extension properties to write: the bag plus the origin marker's.
    public var propertiesToWrite: [String: String] {
        extendedProperties.merging(origin?.properties ?? [:]) { _, marker in marker }
    }

    /// Splits read properties into the origin marker and the remaining bag.
    public static func splitProperties(_ properties: [String: String]) -> (OriginMarker?, [String: String]) {
        // One pass over the members (a copy's are the three marker names): a lookup and three removals
        // from a copy of the dictionary hashed each name again, 4,000 instructions per listed copy.
        var marker: OriginMarker?
        var rest: [String: String] = [:]
        for (name, value) in properties {
            switch name {
            case OriginMarker.markerProperty: marker = OriginMarker(json: value)
            case OriginMarker.eventKeyProperty, OriginMarker.calendarKeyProperty: continue
            default: rest[name] = value
            }
        }
        return (marker, rest)
    }
}
