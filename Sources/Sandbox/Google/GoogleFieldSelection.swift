/// Google's partial response: the standard `fields` parameter ("Improve performance": `items(id,start/dateTime),
/// nextPageToken`), a comma-separated list of paths, `a/b` selecting `b` inside `a`, `a(b,c)` several
/// members inside `a`, `*` every member; an array's elements are each cut the same way. Applied to
/// `events.list` and `events.instances` pages (the listings a client would trim); other methods answer
/// whole. Names are checked against the `Events` schema, and an unknown one is Google's 400 "Invalid field
/// selection NAME" (reported: `pagetoken` for `nextPageToken`; names are case-sensitive).
package struct GoogleFieldSelection: Equatable, Sendable {
    /// Selected members by name, each with what is selected inside it (nil: all of it).
    private var members: [String: GoogleFieldSelection?]

    /// Parses a `fields` value; throws Google's 400 for a malformed one (unbalanced parentheses, an empty name,
    /// nesting deeper than `maxDepth`).
    package init(parsing text: String) throws(GoogleAPIError) {
        var parser = Parser(bytes: Array(text.utf8))
        guard let selection = parser.list(), parser.atEnd else {
            throw .invalid("Invalid field selection \(text)", parameter: "fields")
        }
        self = selection
    }

    private init(members: [String: GoogleFieldSelection?]) { self.members = members }

    /// Parses a `fields` value of an `events.list` or `events.instances` request: malformed, or naming a
    /// member the `Events` resource does not have, it is Google's 400.
    package init(parsingEventsFields text: String) throws(GoogleAPIError) {
        try self.init(parsing: text)
        if let schema = Self.eventsSchema, let unknown = unknownName(in: schema) {
            throw .invalid("Invalid field selection \(unknown)", parameter: "fields")
        }
    }

    /// The first name (in name order, depth first) this selection asks of `schema` that it does not
    /// have: a member it lacks, or any member inside one it has as a plain value. `*` in the selection
    /// takes what there is; `*` in the schema stands for a map's keys (`extendedProperties/private`),
    /// under which anything may be named.
    package func unknownName(in schema: GoogleFieldSelection) -> String? {
        if schema.members["*"] != nil { return nil }
        for name in members.keys.sorted() where name != "*" {
            guard let known = schema.members[name] else { return name }
            guard let inner = members[name] ?? nil else { continue }
            guard let knownInner = known else { return inner.members.keys.sorted().first }
            if let unknown = inner.unknownName(in: knownInner) { return unknown }
        }
        return nil
    }

    /// The members of Calendar v3's `Events` resource, with its `Event` items, in `fields` syntax; a map
    /// (`additionalProperties`) is `(*)`. Derived from the discovery document in
    /// Fixtures/reference (revision 20261030); `GoogleFieldSelectionTests` derives it again and compares.
    package static let eventsSchemaText = """
        accessRole,defaultReminders(method,minutes),description,etag,items(anyoneCanAddSelf,\
        attachments(fileId,fileUrl,iconLink,mimeType,title),attendees(additionalGuests,asyncOperation,comment,\
        displayName,email,id,optional,organizer,resource,responseStatus,self),attendeesOmitted,\
        birthdayProperties(contact,customTypeName,type),colorId,conferenceData(conferenceId,\
        conferenceSolution(iconUri,key(type),name),createRequest(conferenceSolutionKey(type),requestId,\
        status(statusCode)),entryPoints(accessCode,entryPointFeatures,entryPointType,label,meetingCode,passcode,\
        password,pin,regionCode,uri),notes,parameters(addOnParameters(parameters(*))),signature),created,\
        creator(displayName,email,id,self),description,end(date,dateTime,timeZone),endTimeUnspecified,etag,\
        eventLabelId,eventType,extendedProperties(private(*),shared(*)),focusTimeProperties(autoDeclineMode,\
        chatStatus,declineMessage),gadget(display,height,iconLink,link,preferences(*),title,type,width),\
        guestsCanInviteOthers,guestsCanModify,guestsCanSeeOtherGuests,hangoutLink,htmlLink,iCalUID,id,kind,\
        location,locked,organizer(displayName,email,id,self),originalStartTime(date,dateTime,timeZone),\
        outOfOfficeProperties(autoDeclineMode,declineMessage),privateCopy,recurrence,recurringEventId,\
        reminders(overrides(method,minutes),useDefault),sequence,source(title,url),start(date,dateTime,timeZone),\
        status,summary,transparency,updated,visibility,workingLocationProperties(customLocation(label),homeOffice,\
        officeLocation(buildingId,deskId,floorId,floorSectionId,label),type)),kind,nextPageToken,nextSyncToken,\
        summary,timeZone,updated
        """

    /// `eventsSchemaText` parsed (nil only if the text above were malformed, which a test rules out).
    package static let eventsSchema: GoogleFieldSelection? = try? GoogleFieldSelection(parsing: eventsSchemaText)

    /// `json` cut to this selection: objects keep the selected members, arrays cut each element.
    package func project(_ json: GoogleJSON) -> GoogleJSON {
        switch json {
        case .object(let object):
            if members["*"] != nil { return json }
            var kept: [String: GoogleJSON] = [:]
            for (name, inner) in members {
                guard let value = object[name] else { continue }
                kept[name] = inner.map { $0.project(value) } ?? value
            }
            return .object(kept)
        case .array(let elements):
            return .array(elements.map(project))
        default:
            return json
        }
    }

    /// Adds member `name` with `inner` selected inside it (`a/b,a/c` selects both inside `a`; a member
    /// selected whole stays whole).
    private mutating func merge(_ name: String, _ inner: GoogleFieldSelection?) {
        guard let existing = members[name] else {
            members[name] = inner
            return
        }
        guard var current = existing, let inner else {
            members[name] = .some(nil)
            return
        }
        for (key, value) in inner.members { current.merge(key, value) }
        members[name] = current
    }

    /// How deep selections may nest: the parser recurses once per level, and a request target of 8 KB could
    /// otherwise nest 4,000 levels deep on a task's small stack.
    static let maxDepth = 32

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var depth = 0
        var atEnd: Bool { index == bytes.count }

        /// list := field ("," field)*
        mutating func list() -> GoogleFieldSelection? {
            var selection = GoogleFieldSelection(members: [:])
            repeat {
                guard let (name, inner) = field() else { return nil }
                selection.merge(name, inner)
            } while consume(UInt8(ascii: ","))
            return selection
        }

        /// field := name ("/" field | "(" list ")")?
        mutating func field() -> (String, GoogleFieldSelection?)? {
            skipSpaces()
            let start = index
            while index < bytes.count, !",/()".utf8.contains(bytes[index]) { index += 1 }
            let name = String(decoding: bytes[start..<index], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, depth < GoogleFieldSelection.maxDepth else { return nil }
            depth += 1
            defer { depth -= 1 }
            if consume(UInt8(ascii: "/")) {
                guard let (innerName, inner) = field() else { return nil }
                var selection = GoogleFieldSelection(members: [:])
                selection.merge(innerName, inner)
                return (name, selection)
            }
            if consume(UInt8(ascii: "(")) {
                guard let inner = list(), consume(UInt8(ascii: ")")) else { return nil }
                return (name, inner)
            }
            return (name, nil)
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            skipSpaces()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func skipSpaces() {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        }
    }
}
