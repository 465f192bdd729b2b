import CalendarBridge
import JSON

// The Google resources read from JSON by hand (`JSONReader`): listings are most of what a copy reads, and
// `JSONDecoder` costs many times as much per event. As `JSONDecoder` would: unknown members
// are skipped, `null` is an absent member, a member of the wrong type fails the whole document.

extension GoogleEvents {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try self.init(reading: &r, items: .whole)
    }

    /// A page whose items are read as `items` says.
    init(reading r: inout JSONReader, items reading: GoogleEvent.Reading) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "items":
                items = try r.optionalListing { (r: inout JSONReader) throws(JSONReader.Error) in try GoogleEvent(reading: &r, reading) }
            case "nextPageToken": nextPageToken = try r.optionalString()
            case "timeZone": timeZone = try r.optionalString()
            default: try r.skipValue()
            }
        }
    }
}

extension GoogleEvents {
    /// A page of which only the occurrences of `seriesIDs` (items whose `recurringEventId` is one of them)
    /// are read; every other item is scanned for that member, checked as JSON, and skipped. An expanded
    /// listing read for the occurrences of copied series is mostly single events, which need not be read
    /// and mapped. The kept ones are read
    /// as copy records (`listOccurrences` asks for those members alone).
    init(reading r: inout JSONReader, occurrencesOf seriesIDs: Set<String>) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "items":
                guard try !r.consumeNull() else {
                    items = nil
                    continue
                }
                var kept: [GoogleEvent] = []
                try r.beginArray()
                while try r.nextElement() {
                    let start = r.offset
                    if let series = try GoogleEvent.seriesID(reading: &r), seriesIDs.contains(series) {
                        r.rewind(to: start)
                        kept.append(try GoogleEvent(reading: &r, .copyRecord))
                    }
                }
                items = kept
            case "nextPageToken": nextPageToken = try r.optionalString()
            case "timeZone": timeZone = try r.optionalString()
            default: try r.skipValue()
            }
        }
    }
}

extension GoogleEventChanges {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "items": items = try r.optionalListing(of: GoogleEvent.self)
            case "nextPageToken": nextPageToken = try r.optionalString()
            case "nextSyncToken": nextSyncToken = try r.optionalString()
            case "timeZone": timeZone = try r.optionalString()
            default: try r.skipValue()
            }
        }
    }
}

extension GoogleEvent {
    /// The members read (the rest are skipped), looked up by table (`JSONReader.KeyTable`).
    private enum Member: String, CaseIterable, Sendable {
        case id, status, htmlLink, created, updated, summary, description, location, start, end, recurrence,
            recurringEventId, originalStartTime, transparency, visibility, iCalUID, organizer, attendees, hangoutLink,
            conferenceData, extendedProperties, reminders, eventType

        /// Read with `Reading.copyRecord`.
        var isCopyRecord: Bool {
            switch self {
            case .id, .status, .created, .summary, .start, .end, .recurrence, .recurringEventId, .originalStartTime,
                .extendedProperties:
                true
            default: false
            }
        }
    }
    private static let members = JSONReader.KeyTable<Member>()

    /// The `fields` (partial response) of a listing read as copy records: the page members
    /// `GoogleEvents(reading:items:)` reads, and of each item the members `Reading.copyRecord` reads, so Google
    /// leaves out the descriptions, people and links the reader would skip.
    static let copyRecordFields =
        "items(" + Member.allCases.filter(\.isCopyRecord).map(\.rawValue).joined(separator: ",") + "),nextPageToken,timeZone"

    /// Which members of an item are read.
    enum Reading {
        /// Every member the mapping uses.
        case whole
        /// Only what a copy's bookkeeping reads of the copies it finds (`findCopies`): identity, marker,
        /// series links, title, times, status and creation time; descriptions, people, reminders and
        /// links are skipped unread, with no string built for them.
        case copyRecord
    }

    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try self.init(reading: &r, .whole)
    }

    init(reading r: inout JSONReader, _ reading: Reading) throws(JSONReader.Error) {
        self.init(id: "")
        try read(&r, reading)
    }

    /// The members into `self`, in place: read in the initialiser itself, the whole struct was copied
    /// on return (the optimiser kept `self` in a box), a retain and release of each of its strings.
    private mutating func read(_ r: inout JSONReader, _ reading: Reading) throws(JSONReader.Error) {
        var id: String?
        let members = Self.members
        let whole = reading == .whole
        try r.beginObject()
        while let key = try r.nextKey() {
            let member = members[key]
            if !whole, let member, !member.isCopyRecord {
                try r.skipValue()
                continue
            }
            switch member {
            case .id?: id = try r.optionalString()
            case .status?: self.status = try r.optionalString()
            case .htmlLink?: self.htmlLink = try r.optionalString()
            case .created?: self.created = try r.consumeNull() ? nil : r.withString(RFC3339.parse(utf8:))
            case .updated?: self.updated = try r.consumeNull() ? nil : r.withString(RFC3339.parse(utf8:))
            case .summary?: self.summary = try r.optionalString()
            case .description?: self.description = try r.optionalString()
            case .location?: self.location = try r.optionalString()
            case .start?: self.start = try r.optional(GoogleEventDateTime.self)
            case .end?: self.end = try r.optional(GoogleEventDateTime.self)
            case .recurrence?: self.recurrence = try r.optionalStrings()
            case .recurringEventId?: self.recurringEventId = try r.optionalString()
            case .originalStartTime?: self.originalStartTime = try r.optional(GoogleEventDateTime.self)
            case .transparency?: self.transparency = try r.optionalString()
            case .visibility?: self.visibility = try r.optionalString()
            case .iCalUID?: self.iCalUID = try r.optionalString()
            case .organizer?: self.organizer = try r.optional(GooglePerson.self)
            case .attendees?: self.attendees = try r.optionalArray(of: GoogleAttendee.self)
            case .hangoutLink?: self.hangoutLink = try r.optionalString()
            case .conferenceData?: self.conferenceData = try r.optional(GoogleConferenceData.self)
            case .extendedProperties?: self.extendedProperties = try r.optional(GoogleExtendedProperties.self)
            case .reminders?: self.reminders = try r.optional(GoogleReminders.self)
            case .eventType?: self.eventType = try r.optionalString()
            case nil: try r.skipValue()
            }
        }
        guard let id else { throw r.missing("id", in: "a Google event") }
        self.id = id
    }
}

extension GoogleEvent {
    /// An item's `recurringEventId` (the last, if repeated, as the whole read keeps), the rest skipped.
    static func seriesID(reading r: inout JSONReader) throws(JSONReader.Error) -> String? {
        var series: String?
        _ = try r.member("recurringEventId") { (r: inout JSONReader) throws(JSONReader.Error) in series = try r.optionalString() }
        return series
    }
}

extension GoogleEventDateTime {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        // Where the last `dateTime`'s text is, for reading it as text only if the mapping may need it.
        var textAt: Int?
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "date": date = try r.optionalString()
            case "dateTime":
                instant = nil
                textAt = nil
                if try !r.consumeNull() {
                    textAt = r.offset
                    instant = try r.withString { RFC3339.parse(utf8: $0) }
                }
            case "timeZone": timeZone = try r.optionalRepeatedString()
            default: try r.skipValue()
            }
        }
        if let textAt, instant == nil || timeZone == nil {
            let end = r.offset
            r.rewind(to: textAt)
            dateTime = try r.string()
            r.rewind(to: end)
        }
    }
}

extension GooglePerson {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "email": email = try r.optionalRepeatedString()
            case "displayName": displayName = try r.optionalRepeatedString()
            default: try r.skipValue()
            }
        }
    }
}

extension GoogleAttendee {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "email": email = try r.optionalRepeatedString()
            case "displayName": displayName = try r.optionalRepeatedString()
            case "optional": optional = try r.optionalBool()
            case "resource": resource = try r.optionalBool()
            case "organizer": organizer = try r.optionalBool()
            case "responseStatus": responseStatus = try r.optionalString()
            default: try r.skipValue()
            }
        }
    }
}

extension GoogleConferenceData {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "entryPoints": entryPoints = try r.optionalArray(of: EntryPoint.self)
            default: try r.skipValue()
            }
        }
    }
}

extension GoogleConferenceData.EntryPoint {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "entryPointType": entryPointType = try r.optionalString()
            case "uri": uri = try r.optionalString()
            default: try r.skipValue()
            }
        }
    }
}

extension GoogleExtendedProperties {
    convenience init(reading r: inout JSONReader) throws(JSONReader.Error) {
        var origin: OriginMarker?
        var properties: [String: String]?
        var shared: [String: String]?
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "private":
                if try !r.consumeNull() { (origin, properties) = try Event.readProperties(&r) }
            case "shared": shared = try r.optionalStringMap()
            default: try r.skipValue()
            }
        }
        self.init(origin: origin, private: properties, shared: shared)
    }
}

extension GoogleReminders {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "useDefault": useDefault = try r.optionalBool()
            case "overrides": overrides = try r.optionalArray(of: Override.self)
            default: try r.skipValue()
            }
        }
    }
}

extension GoogleReminders.Override {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "method": method = try r.optionalString()
            case "minutes": minutes = try r.optionalInt()
            default: try r.skipValue()
            }
        }
    }
}
