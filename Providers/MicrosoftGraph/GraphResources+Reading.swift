import CalendarBridge
import JSON

// The Graph event resources read from JSON by hand (`JSONReader`): calendarView pages are most of what a
// copy reads, and `JSONDecoder` cost about 1.3 million instructions per event. As `JSONDecoder` would:
// unknown members are skipped, `null` is an absent member, a member of the wrong type fails the document.

extension GraphCollection: JSONReadable where Item: JSONReadable {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        var value: [Item]?
        var nextLink: String?
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "value": value = try r.optionalListing(of: Item.self)
            case "@odata.nextLink": nextLink = try r.optionalString()
            default: try r.skipValue()
            }
        }
        guard let value else { throw r.missing("value", in: "a Graph collection") }
        self.init(value: value, nextLink: nextLink)
    }
}

extension GraphEvent {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        var removed: GraphDeltaItem.Removed?
        try self.init(reading: &r, removed: &removed)
    }

    /// The members read (the rest are skipped), looked up by table (`JSONReader.KeyTable`).
    private enum Member: String, CaseIterable, Sendable {
        case id, subject, body, start, end, originalStartTimeZone, originalEndTimeZone, originalStart, isAllDay,
            isCancelled, location, attendees, organizer, showAs, sensitivity, isReminderOn, reminderMinutesBeforeStart,
            recurrence, seriesMasterId, type, onlineMeeting, onlineMeetingUrl, webLink, createdDateTime,
            lastModifiedDateTime, categories, iCalUId, singleValueExtendedProperties
        case removed = "@removed"
    }
    private static let members = JSONReader.KeyTable<Member>()

    /// The properties this reader uses, for a listing's `$select`: Graph then sends nothing the reader would
    /// skip (bodyPreview, responseStatus, locations, uid, ... about a third of a listed event). The extended
    /// properties come by `$expand`; `@removed` is delta's own.
    static let selectedProperties = Member.allCases
        .filter { $0 != .removed && $0 != .singleValueExtendedProperties }
        .map(\.rawValue).joined(separator: ",")

    /// Reads an event object; a delta's `@removed` member, when there is one, goes to `removed`.
    init(reading r: inout JSONReader, removed: inout GraphDeltaItem.Removed?) throws(JSONReader.Error) {
        self.init(id: "")
        try read(&r, removed: &removed)
    }

    /// The members into `self`, in place: read in the initialiser itself, the whole struct was copied
    /// on return (the optimiser kept `self` in a box), a retain and release of each of its strings.
    private mutating func read(_ r: inout JSONReader, removed: inout GraphDeltaItem.Removed?) throws(JSONReader.Error) {
        var id: String?
        let members = Self.members
        try r.beginObject()
        while let key = try r.nextKey() {
            switch members[key] {
            case .id?: id = try r.optionalString()
            case .subject?: self.subject = try r.optionalString()
            case .body?: self.body = try r.optional(GraphItemBody.self)
            case .start?: self.start = try r.optional(GraphDateTimeTimeZone.self)
            case .end?: self.end = try r.optional(GraphDateTimeTimeZone.self)
            case .originalStartTimeZone?: self.originalStartTimeZone = try r.optionalRepeatedString()
            case .originalEndTimeZone?: self.originalEndTimeZone = try r.optionalRepeatedString()
            case .originalStart?: self.originalStart = try r.optionalString()
            case .isAllDay?: self.isAllDay = try r.optionalBool()
            case .isCancelled?: self.isCancelled = try r.optionalBool()
            case .location?: self.location = try r.optional(GraphLocation.self)
            case .attendees?: self.attendees = try r.optionalArray(of: GraphAttendee.self)
            case .organizer?: self.organizer = try r.optional(GraphRecipient.self)
            case .showAs?: self.showAs = try r.optionalString()
            case .sensitivity?: self.sensitivity = try r.optionalString()
            case .isReminderOn?: self.isReminderOn = try r.optionalBool()
            case .reminderMinutesBeforeStart?: self.reminderMinutesBeforeStart = try r.optionalInt()
            case .recurrence?: self.recurrence = try r.optional(GraphPatternedRecurrence.self)
            case .seriesMasterId?: self.seriesMasterId = try r.optionalString()
            case .type?: self.type = try r.optionalString()
            case .onlineMeeting?: self.onlineMeeting = try r.optional(GraphOnlineMeeting.self)
            case .onlineMeetingUrl?: self.onlineMeetingUrl = try r.optionalString()
            case .webLink?: self.webLink = try r.optionalString()
            case .createdDateTime?: self.createdDateTime = try r.consumeNull() ? nil : r.withString(RFC3339.parse(utf8:))
            case .lastModifiedDateTime?:
                self.lastModifiedDateTime = try r.consumeNull() ? nil : r.withString(RFC3339.parse(utf8:))
            case .categories?: self.categories = try r.optionalStrings()
            case .iCalUId?: self.iCalUId = try r.optionalString()
            case .singleValueExtendedProperties?:
                self.singleValueExtendedProperties = try r.optionalArray(of: GraphExtendedProperty.self)
            case .removed?: removed = try r.optional(GraphDeltaItem.Removed.self)
            case nil: try r.skipValue()
            }
        }
        guard let id else { throw r.missing("id", in: "a Graph event") }
        self.id = id
    }
}

extension GraphDeltaItem.Removed {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "reason": reason = try r.optionalString()
            default: try r.skipValue()
            }
        }
    }
}

extension GraphDateTimeTimeZone {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        var present = false
        var local: LocalDateTime?
        var text = ""
        var timeZone: String?
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "dateTime":
                present = try !r.consumeNull()
                local = nil
                text = ""
                if present {
                    try r.withString { (bytes) throws(JSONReader.Error) in
                        local = LocalDateTime(utf8: bytes)
                        if local == nil { text = String(decoding: bytes, as: UTF8.self) }
                    }
                }
            case "timeZone": timeZone = try r.optionalRepeatedString()
            default: try r.skipValue()
            }
        }
        guard present else { throw r.missing("dateTime", in: "a Graph dateTimeTimeZone") }
        self.init(local: local, dateTime: text, timeZone: timeZone)
    }
}

extension GraphItemBody {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "contentType": contentType = try r.optionalString()
            case "content": content = try r.optionalString()
            default: try r.skipValue()
            }
        }
    }
}

extension GraphLocation {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "displayName": displayName = try r.optionalString()
            default: try r.skipValue()
            }
        }
    }
}

extension GraphEmailAddress {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "name": name = try r.optionalRepeatedString()
            case "address": address = try r.optionalRepeatedString()
            default: try r.skipValue()
            }
        }
    }
}

extension GraphRecipient {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "emailAddress": emailAddress = try r.optional(GraphEmailAddress.self)
            default: try r.skipValue()
            }
        }
    }
}

extension GraphAttendee {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "type": type = try r.optionalString()
            case "status": status = try r.optional(Status.self)
            case "emailAddress": emailAddress = try r.optional(GraphEmailAddress.self)
            default: try r.skipValue()
            }
        }
    }
}

extension GraphAttendee.Status {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "response": response = try r.optionalString()
            default: try r.skipValue()
            }
        }
    }
}

extension GraphOnlineMeeting {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "joinUrl": joinUrl = try r.optionalString()
            default: try r.skipValue()
            }
        }
    }
}

extension GraphExtendedProperty {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        var id: String?
        var value: String?
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "id": id = try r.optionalString()
            case "value": value = try r.optionalString()
            default: try r.skipValue()
            }
        }
        guard let id else { throw r.missing("id", in: "a Graph extended property") }
        self.init(id: id, value: value)
    }
}

extension GraphPatternedRecurrence {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        var pattern: Pattern?
        var range: Range?
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "pattern": pattern = try r.optional(Pattern.self)
            case "range": range = try r.optional(Range.self)
            default: try r.skipValue()
            }
        }
        guard let pattern else { throw r.missing("pattern", in: "a Graph recurrence") }
        guard let range else { throw r.missing("range", in: "a Graph recurrence") }
        self.init(pattern: pattern, range: range)
    }
}

extension GraphPatternedRecurrence.Pattern {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        var type: String?
        var p = GraphPatternedRecurrence.Pattern(type: "")
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "type": type = try r.optionalString()
            case "interval": p.interval = try r.optionalInt()
            case "month": p.month = try r.optionalInt()
            case "dayOfMonth": p.dayOfMonth = try r.optionalInt()
            case "daysOfWeek": p.daysOfWeek = try r.optionalStrings()
            case "firstDayOfWeek": p.firstDayOfWeek = try r.optionalString()
            case "index": p.index = try r.optionalString()
            default: try r.skipValue()
            }
        }
        guard let type else { throw r.missing("type", in: "a Graph recurrence pattern") }
        p.type = type
        self = p
    }
}

extension GraphPatternedRecurrence.Range {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        var type: String?
        var range = GraphPatternedRecurrence.Range(type: "")
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "type": type = try r.optionalString()
            case "startDate": range.startDate = try r.optionalString()
            case "endDate": range.endDate = try r.optionalString()
            case "recurrenceTimeZone": range.recurrenceTimeZone = try r.optionalString()
            case "numberOfOccurrences": range.numberOfOccurrences = try r.optionalInt()
            default: try r.skipValue()
            }
        }
        guard let type else { throw r.missing("type", in: "a Graph recurrence range") }
        range.type = type
        self = range
    }
}

extension GraphEvent.Head {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "id": id = try r.optionalString()
            case "isCancelled": isCancelled = try r.optionalBool()
            case "recurrence": recurrence = try r.optional(GraphPatternedRecurrence.self)
            default: try r.skipValue()
            }
        }
    }
}

extension GraphCalendar {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        var id: String?
        var c = GraphCalendar(id: "")
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "id": id = try r.optionalString()
            case "name": c.name = try r.optionalString()
            case "color": c.color = try r.optionalString()
            case "hexColor": c.hexColor = try r.optionalString()
            case "isDefaultCalendar": c.isDefaultCalendar = try r.optionalBool()
            case "canEdit": c.canEdit = try r.optionalBool()
            case "canShare": c.canShare = try r.optionalBool()
            case "owner": c.owner = try r.optional(GraphEmailAddress.self)
            default: try r.skipValue()
            }
        }
        guard let id else { throw r.missing("id", in: "a Graph calendar") }
        c.id = id
        self = c
    }
}

extension GraphDeltaPage {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        var value: [GraphDeltaItem]?
        try r.beginObject()
        while let key = try r.nextKey() {
            switch key {
            case "value": value = try r.optionalListing(of: GraphDeltaItem.self)
            case "@odata.nextLink": nextLink = try r.optionalString()
            case "@odata.deltaLink": deltaLink = try r.optionalString()
            default: try r.skipValue()
            }
        }
        guard let value else { throw r.missing("value", in: "a Graph delta page") }
        self.value = value
    }
}

extension GraphDeltaItem {
    init(reading r: inout JSONReader) throws(JSONReader.Error) {
        var removed: Removed?
        let event = try GraphEvent(reading: &r, removed: &removed)
        self.init(id: event.id, removed: removed, event: removed == nil ? event : nil)
    }
}
