import Foundation
import JSON

/// One calendar event (a single event, a series master, or one occurrence of a series), provider-neutral.
///
/// Both providers map every field both ways unless a field's documentation says otherwise. For
/// `createEvent` the `id` is ignored (pass ""), and the calendar is the one named in the call.
///
/// A value type whose fields live in one shared, copy-on-write box: an event passes through listings,
/// plans, projections and reports, and copying its two dozen strings, arrays and optionals inline costs a
/// reference-count increment and decrement per field per copy. Boxed, a copy is one increment; a field
/// written to an event whose box is shared copies the box first.
public struct Event: Sendable, Hashable, Codable, Identifiable {
    /// The fields, as `Event` had them inline: their synthesized `Hashable` and `Codable`, applied to
    /// `resolved`, are `Event`'s.
    private struct Fields: Hashable, Codable {
        var id: String
        var calendarID: String
        var title: String
        var body: EventBody?
        var location: String?
        var start: EventTime
        var end: EventTime
        var recurrence: Recurrence?
        var seriesID: String?
        var originalStart: EventTime?
        var status: EventStatus
        var organizer: Attendee?
        var attendees: [Attendee]
        var reminders: [Reminder]?
        var showAs: ShowAs
        var sensitivity: Sensitivity
        var onlineMeetingURL: URL?
        var webURL: URL?
        var categories: [String]
        var iCalUID: String?
        var created: Date?
        var updated: Date?
        var sequence: Int? = nil
        var origin: OriginMarker?
        var extendedProperties: [String: String]
        /// A provider's web link not parsed yet (`webURL` is nil meanwhile): most listed events are never
        /// shown, and `URL(string:)` is costly. Not encoded, not compared:
        /// `resolved` parses it first.
        var webURLText: String? = nil

        enum CodingKeys: String, CodingKey {
            case id, calendarID, title, body, location, start, end, recurrence, seriesID, originalStart, status,
                organizer, attendees, reminders, showAs, sensitivity, onlineMeetingURL, webURL, categories, iCalUID,
                created, updated, sequence, origin, extendedProperties
        }

        /// The fields with a pending web link parsed: what equality, hashing and encoding see.
        var resolved: Fields {
            guard let text = webURLText else { return self }
            var fields = self
            fields.webURL = URL(string: text)
            fields.webURLText = nil
            return fields
        }
    }

    /// Shared between copies of an event; written only through `makeUnique()`, when this event holds the
    /// only reference, so no two threads ever see it change.
    ///
    /// Its one property is exempt from the runtime's exclusivity checks: it is reached only through this
    /// struct's accessors, which never overlap, and events' fields are read often enough for a check on
    /// every read to show.
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
    }

    /// The provider's id ("" for an event not created yet).
    public var id: String {
        get { storage.fields.id }
        _modify {
            makeUnique()
            yield &storage.fields.id
        }
    }

    public var calendarID: String {
        get { storage.fields.calendarID }
        _modify {
            makeUnique()
            yield &storage.fields.calendarID
        }
    }

    public var title: String {
        get { storage.fields.title }
        _modify {
            makeUnique()
            yield &storage.fields.title
        }
    }

    public var body: EventBody? {
        get { storage.fields.body }
        _modify {
            makeUnique()
            yield &storage.fields.body
        }
    }

    public var location: String? {
        get { storage.fields.location }
        _modify {
            makeUnique()
            yield &storage.fields.location
        }
    }

    public var start: EventTime {
        get { storage.fields.start }
        _modify {
            makeUnique()
            yield &storage.fields.start
        }
    }

    /// Exclusive: an all-day event on 1 May ends on 2 May.
    public var end: EventTime {
        get { storage.fields.end }
        _modify {
            makeUnique()
            yield &storage.fields.end
        }
    }

    /// Set on a series master: how it repeats.
    public var recurrence: Recurrence? {
        get { storage.fields.recurrence }
        _modify {
            makeUnique()
            yield &storage.fields.recurrence
        }
    }

    /// Set on an occurrence or exception: the series master's id.
    public var seriesID: String? {
        get { storage.fields.seriesID }
        _modify {
            makeUnique()
            yield &storage.fields.seriesID
        }
    }

    /// Set on an occurrence or exception: when it would start had it not been moved (its identity
    /// within the series).
    public var originalStart: EventTime? {
        get { storage.fields.originalStart }
        _modify {
            makeUnique()
            yield &storage.fields.originalStart
        }
    }

    public var status: EventStatus {
        get { storage.fields.status }
        _modify {
            makeUnique()
            yield &storage.fields.status
        }
    }

    public var organizer: Attendee? {
        get { storage.fields.organizer }
        _modify {
            makeUnique()
            yield &storage.fields.organizer
        }
    }

    public var attendees: [Attendee] {
        get { storage.fields.attendees }
        _modify {
            makeUnique()
            yield &storage.fields.attendees
        }
    }

    /// Nil: the calendar's default reminders. Empty: no reminder.
    public var reminders: [Reminder]? {
        get { storage.fields.reminders }
        _modify {
            makeUnique()
            yield &storage.fields.reminders
        }
    }

    public var showAs: ShowAs {
        get { storage.fields.showAs }
        _modify {
            makeUnique()
            yield &storage.fields.showAs
        }
    }

    public var sensitivity: Sensitivity {
        get { storage.fields.sensitivity }
        _modify {
            makeUnique()
            yield &storage.fields.sensitivity
        }
    }

    /// The join link of an online meeting (Teams, Meet). Read only: providers cannot attach a meeting
    /// by URL, so a copy puts it into the location or body.
    public var onlineMeetingURL: URL? {
        get { storage.fields.onlineMeetingURL }
        _modify {
            makeUnique()
            yield &storage.fields.onlineMeetingURL
        }
    }

    /// Where the event opens in the provider's web app. Read only.
    public var webURL: URL? {
        get {
            if let text = storage.fields.webURLText { return URL(string: text) }
            return storage.fields.webURL
        }
        set {
            makeUnique()
            storage.fields.webURL = newValue
            storage.fields.webURLText = nil
        }
    }

    /// Sets `webURL` to `URL(string: text)`, parsed when first read (a provider's listing sets every
    /// event's link; a copy or sync reads none of them).
    package mutating func setWebURL(text: String?) {
        makeUnique()
        storage.fields.webURL = nil
        storage.fields.webURLText = text
    }

    /// Outlook categories (Google has none).
    public var categories: [String] {
        get { storage.fields.categories }
        _modify {
            makeUnique()
            yield &storage.fields.categories
        }
    }

    /// The RFC 5545 UID shared by all copies of an invitation. Read only.
    public var iCalUID: String? {
        get { storage.fields.iCalUID }
        _modify {
            makeUnique()
            yield &storage.fields.iCalUID
        }
    }

    public var created: Date? {
        get { storage.fields.created }
        _modify {
            makeUnique()
            yield &storage.fields.created
        }
    }

    public var updated: Date? {
        get { storage.fields.updated }
        _modify {
            makeUnique()
            yield &storage.fields.updated
        }
    }

    /// The revision number of an iCalendar event (`SEQUENCE`, RFC 5545 §3.8.7.4: raised by its organizer at
    /// each significant change), where the source has one (iCalendar files and feeds; 0 when the file gives
    /// none); nil for services that keep none. A copy's marker records it, so an older revision never
    /// overwrites a newer copy.
    public var sequence: Int? {
        get { storage.fields.sequence }
        _modify {
            makeUnique()
            yield &storage.fields.sequence
        }
    }

    /// Set when calbridge created this event as a copy.
    public var origin: OriginMarker? {
        get { storage.fields.origin }
        _modify {
            makeUnique()
            yield &storage.fields.origin
        }
    }

    /// Provider-specific extension properties (Google private extended properties, Graph single-value
    /// extended properties by name), excluding the origin marker's own.
    public var extendedProperties: [String: String] {
        get { storage.fields.extendedProperties }
        _modify {
            makeUnique()
            yield &storage.fields.extendedProperties
        }
    }

    public init(
        id: String = "", calendarID: String = "", title: String, body: EventBody? = nil, location: String? = nil,
        start: EventTime, end: EventTime, recurrence: Recurrence? = nil, seriesID: String? = nil,
        originalStart: EventTime? = nil, status: EventStatus = .confirmed, organizer: Attendee? = nil,
        attendees: [Attendee] = [], reminders: [Reminder]? = nil, showAs: ShowAs = .busy,
        sensitivity: Sensitivity = .normal, onlineMeetingURL: URL? = nil, webURL: URL? = nil,
        categories: [String] = [], iCalUID: String? = nil, created: Date? = nil, updated: Date? = nil,
        origin: OriginMarker? = nil, extendedProperties: [String: String] = [:]
    ) {
        storage = Storage(
            Fields(
                id: id,
                calendarID: calendarID,
                title: title,
                body: body,
                location: location,
                start: start,
                end: end,
                recurrence: recurrence,
                seriesID: seriesID,
                originalStart: originalStart,
                status: status,
                organizer: organizer,
                attendees: attendees,
                reminders: reminders,
                showAs: showAs,
                sensitivity: sensitivity,
                onlineMeetingURL: onlineMeetingURL,
                webURL: webURL,
                categories: categories,
                iCalUID: iCalUID,
                created: created,
                updated: updated,
                origin: origin,
                extendedProperties: extendedProperties))
    }

    public init(from decoder: any Decoder) throws {
        storage = Storage(try Fields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try storage.fields.resolved.encode(to: encoder)
    }

    public static func == (a: Event, b: Event) -> Bool {
        if a.storage === b.storage { return true }
        if a.storage.fields.webURLText == nil && b.storage.fields.webURLText == nil {
            return a.storage.fields == b.storage.fields
        }
        return a.storage.fields.resolved == b.storage.fields.resolved
    }

    public func hash(into hasher: inout Hasher) {
        storage.fields.resolved.hash(into: &hasher)
    }

    public var isAllDay: Bool { start.isAllDay }
    /// A series master (has recurrence rules).
    public var isSeriesMaster: Bool { recurrence != nil }
    /// An occurrence or exception of a series.
    public var isOccurrence: Bool { seriesID != nil }

    /// The extension properties to write: the bag plus the origin marker's.
    public var propertiesToWrite: [String: String] {
        // A copy's bag is usually empty: its marker's properties as they are (merging them into an empty
        // dictionary would hash each name again).
        guard !extendedProperties.isEmpty else { return origin?.properties ?? [:] }
        return extendedProperties.merging(origin?.properties ?? [:]) { _, marker in marker }
    }

    /// Splits read properties into the origin marker and the remaining bag (`readProperties` splits
    /// alike while reading: both by `OriginMarker.role(ofPropertyNamed:)`).
    public static func splitProperties(_ properties: [String: String]) -> (OriginMarker?, [String: String]) {
        // One pass over the members (a copy's are the three marker names), rather than a lookup and three
        // removals from a copy of the dictionary, which hash each name again.
        var marker: OriginMarker?
        var rest: [String: String] = [:]
        for (name, value) in properties {
            switch OriginMarker.role(ofPropertyNamed: { $0 == name }) {
            case .marker: marker = OriginMarker(json: value)
            case .key: continue
            case .other: rest[name] = value
            }
        }
        return (marker, rest)
    }

    /// `splitProperties` of properties read from a JSON object of strings (a listed event's extension
    /// properties): the two key properties it drops are checked as strings and not built, nor is a
    /// dictionary of them all (six strings and a dictionary per listed copy otherwise).
    package static func readProperties(_ reader: inout JSONReader) throws(JSONReader.Error) -> (OriginMarker?, [String: String]) {
        var marker: OriginMarker?
        var rest: [String: String] = [:]
        try reader.beginObject()
        while let key = try reader.nextKey() {
            switch OriginMarker.role(ofPropertyNamed: key.isEqual(to:)) {
            case .marker:
                // The marker from the string's raw text where it is exactly as calbridge writes it.
                var raw: OriginMarker?
                let matched = reader.readRaw { text, repeated in
                    guard let found = OriginMarker.escapedMarker(text, repeated: repeated) else { return nil }
                    raw = found.value
                    return found.length
                }
                if matched, let raw {
                    marker = raw
                } else {
                    marker = try reader.withString { OriginMarker(json: $0) }
                }
            case .key: try reader.skipString()
            case .other: rest[key.string] = try reader.string()
            }
        }
        return (marker, rest)
    }
}

extension Sequence<Event> {
    /// The events `include` accepts that belong to a series, by series id, each group in the sequence's
    /// order: one pass, where filtering the whole listing for each series was quadratic (500 series by
    /// 3,000 occurrences at 10,000 events).
    package func groupedBySeries(where include: (Event) -> Bool = { _ in true }) -> [String: [Event]] {
        var groups: [String: [Event]] = [:]
        for e in self where include(e) {
            if let id = e.seriesID { groups[id, default: []].append(e) }
        }
        return groups
    }
}
