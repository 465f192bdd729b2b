import Foundation
import HTTP
import LoopbackServer

extension GraphEmulator {
    /// Read-only event properties Graph accepts in a body and ignores.
    static let ignoredWriteProperties: Set<String> = [
        "id", "createddatetime", "lastmodifieddatetime", "changekey", "icaluid", "uid", "type", "seriesmasterid",
        "weblink", "originalstarttimezone", "originalendtimezone", "bodypreview", "hasattachments", "iscancelled",
        "isorganizer", "responsestatus", "responserequested", "allownewtimeproposals", "isdraft", "hideattendees",
        "onlinemeetingurl", "locations", "@odata.type", "@odata.etag", "@odata.context", "occurrenceid", "originalstart",
        "organizer",
    ]

    static func parseJSONObject(_ data: Data) throws(GraphError) -> [String: Any] {
        guard !data.isEmpty else { throw GraphError.badRequest("Empty Payload. JSON content expected.") }
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
              let dictionary = object as? [String: Any] else { throw GraphError.unreadableJSON }
        return dictionary
    }

    func createEvent(_ context: GraphRequestContext, calendarID: String?) throws(GraphError) -> ServerResponse {
        let index = try mailboxIndex(context.mailboxID)
        // No copy of the mailbox is kept across the append below: it would make the append copy every event.
        let calendar = try targetCalendar(state.mailboxes[index], calendarID)
        let body = try GraphEmulator.parseJSONObject(context.body)
        let options = try renderOptions(context)
        guard calendar.canEdit else { throw GraphError.accessDenied }
        let transactionID = body.first { $0.key.caseInsensitiveCompare("transactionId") == .orderedSame }?.value as? String
        if let transactionID, let existingID = state.mailboxes[index].transactions[transactionID],
           let existing = state.mailboxes[index].eventIndex(id: existingID) {
            // A retried create: Graph answers with the event the first request made, not a duplicate.
            return created(state.mailboxes[index].events[existing], mailbox: state.mailboxes[index], context: context, options: options)
        }
        if let transactionID, state.mailboxes[index].transactions[transactionID] != nil {
            // Exchange remembers a transactionId after its event is deleted and refuses to create with it again.
            throw GraphError.duplicateTransaction(transactionID)
        }
        let (displayName, mail) = (state.mailboxes[index].displayName, state.mailboxes[index].mail)
        let stamp = now()
        var event = GraphStoredEvent(
            id: GraphEmulator.newEventID(), calendarID: calendar.id, iCalUId: GraphEmulator.newICalUId(),
            changeKey: newChangeKey(), createdDateTime: stamp, lastModifiedDateTime: stamp, subject: "",
            bodyContentType: "text", bodyContent: "", start: stamp, end: stamp, startTimeZone: "UTC", endTimeZone: "UTC",
            isAllDay: false, location: "", attendees: [], organizerName: displayName, organizerAddress: mail,
            isReminderOn: true, reminderMinutesBeforeStart: 15, showAs: "busy", sensitivity: "normal", importance: "normal",
            categories: [], isOnlineMeeting: false, onlineMeetingProvider: "teamsForBusiness", joinUrl: nil, recurrence: nil,
            extendedProperties: [:], transactionId: transactionID, type: "singleInstance", seriesMasterId: nil,
            originalStart: nil, cancelledOccurrences: [])
        let hasStart = body.keys.contains { $0.caseInsensitiveCompare("start") == .orderedSame }
        let hasEnd = body.keys.contains { $0.caseInsensitiveCompare("end") == .orderedSame }
        guard hasStart, hasEnd else {
            throw GraphError.invalidRequest("Your request can't be completed. The event must have a start and an end.")
        }
        try apply(body, to: &event, creating: true)
        state.mailboxes[index].events.append(event)
        // Exchange mails every attendee of a new meeting; Graph has no parameter to stop it.
        mailAttendees(before: nil, after: event, organizer: mail)
        if let transactionID { state.mailboxes[index].transactions[transactionID] = event.id }
        return created(event, mailbox: state.mailboxes[index], context: context, options: options)
    }

    private func created(_ event: GraphStoredEvent, mailbox: GraphMailbox, context: GraphRequestContext,
                         options: GraphRenderOptions) -> ServerResponse {
        var object = render(event, mailbox: mailbox, options: options)
        object["@odata.context"] = .string(context.baseURL + "/$metadata#users('\(mailbox.id)')/events/$entity")
        var headers: HTTPHeaders = ["Location": context.baseURL + "/users('\(mailbox.id)')/events('\(event.id)')"]
        if !options.applied.isEmpty { headers["Preference-Applied"] = options.applied.joined(separator: ", ") }
        return jsonResponse(201, object, headers: headers)
    }

    func updateEvent(_ context: GraphRequestContext, id: String, calendarID: String?) throws(GraphError) -> ServerResponse {
        let index = try mailboxIndex(context.mailboxID)
        let mailbox = state.mailboxes[index]
        let current = try findEvent(id, in: mailbox, calendarID: calendarID)
        let body = try GraphEmulator.parseJSONObject(context.body)
        let options = try renderOptions(context)
        guard mailbox.calendar(id: current.calendarID)?.canEdit ?? false else { throw GraphError.accessDenied }
        var event = current
        if event.type == "occurrence" {
            // Changing one occurrence turns it into an exception that keeps the occurrence's id.
            guard !body.keys.contains(where: { $0.caseInsensitiveCompare("recurrence") == .orderedSame }) else {
                throw GraphError.invalidRequest("An occurrence or exception can't have a recurrence.")
            }
            event.type = "exception"
        } else if event.type == "exception",
                  body.keys.contains(where: { $0.caseInsensitiveCompare("recurrence") == .orderedSame }) {
            throw GraphError.invalidRequest("An occurrence or exception can't have a recurrence.")
        }
        try apply(body, to: &event, creating: false)
        event.lastModifiedDateTime = now()
        event.changeKey = newChangeKey()
        if let ignoreUpdate, ignoreUpdate(context.body, current.type) {
            return jsonResponse(200, render(event, mailbox: mailbox, options: options))
        }
        if event.type == "exception" {
            event.overriddenMembers = (current.overriddenMembers ?? []).union(body.keys.map { $0.lowercased() })
        }
        // A changed meeting (or occurrence of one) is mailed to its attendees by the organizer's Exchange, whatever
        // the PATCH changed (reported: every update of a meeting through Graph mails all its attendees).
        mailAttendees(before: current, after: event, organizer: mailbox.mail)
        if let stored = state.mailboxes[index].eventIndex(id: event.id) {
            let seriesChanged = event.type == "seriesMaster"
                && (event.recurrence != current.recurrence || event.start != current.start || event.end != current.end)
            state.mailboxes[index].events[stored] = event
            if seriesChanged {
                // A new pattern or time resets the series, as Outlook does: exceptions and deletions are dropped.
                state.mailboxes[index].events.removeAll { $0.seriesMasterId == event.id }
                if let master = state.mailboxes[index].eventIndex(id: event.id) {
                    state.mailboxes[index].events[master].cancelledOccurrences = []
                }
            } else if event.type == "seriesMaster", exceptionsFollowSeries {
                passOn(from: current, to: event, inMailbox: index)
            }
        } else {
            state.mailboxes[index].events.append(event)
        }
        var object = render(event, mailbox: state.mailboxes[index], options: options)
        object["@odata.context"] = .string(context.baseURL + "/$metadata#users('\(mailbox.id)')/events/$entity")
        var headers: HTTPHeaders = [:]
        if !options.applied.isEmpty { headers["Preference-Applied"] = options.applied.joined(separator: ", ") }
        return jsonResponse(200, object, headers: headers)
    }

    /// Passes a master's changes of subject, body, location, busy status and reminder (MS-OXOCAL's override
    /// flags, and the body) on to its exceptions that still have the master's old value and did not set that
    /// member themselves (`exceptionsFollowSeries`); an exception changed so gets a new change key.
    func passOn(from old: GraphStoredEvent, to master: GraphStoredEvent, inMailbox mailbox: Int) {
        for position in state.mailboxes[mailbox].events.indices where state.mailboxes[mailbox].events[position].seriesMasterId == master.id {
            var exception = state.mailboxes[mailbox].events[position]
            var changed = false
            func follow<Value: Equatable>(_ member: String, _ field: WritableKeyPath<GraphStoredEvent, Value>) {
                guard old[keyPath: field] != master[keyPath: field], exception[keyPath: field] == old[keyPath: field],
                    !(exception.overriddenMembers ?? []).contains(member)
                else { return }
                exception[keyPath: field] = master[keyPath: field]
                changed = true
            }
            follow("subject", \.subject)
            follow("body", \.bodyContent)
            follow("body", \.bodyContentType)
            follow("location", \.location)
            follow("showas", \.showAs)
            follow("isreminderon", \.isReminderOn)
            follow("reminderminutesbeforestart", \.reminderMinutesBeforeStart)
            guard changed else { continue }
            exception.lastModifiedDateTime = master.lastModifiedDateTime
            exception.changeKey = newChangeKey()
            state.mailboxes[mailbox].events[position] = exception
        }
    }

    func deleteEvent(_ context: GraphRequestContext, id: String, calendarID: String?) throws(GraphError) -> ServerResponse {
        let index = try mailboxIndex(context.mailboxID)
        let mailbox = state.mailboxes[index]
        let event = try findEvent(id, in: mailbox, calendarID: calendarID)
        guard mailbox.calendar(id: event.calendarID)?.canEdit ?? false else { throw GraphError.accessDenied }
        // Deleting a meeting (or an occurrence of one) on the organizer's calendar mails its attendees a
        // cancellation (Graph's "Delete event" reference).
        mailAttendees(before: event, after: nil, organizer: mailbox.mail)
        switch event.type {
        case "occurrence", "exception":
            state.mailboxes[index].events.removeAll { $0.id == event.id }
            if let masterID = event.seriesMasterId, let master = state.mailboxes[index].eventIndex(id: masterID),
               let originalStart = event.originalStart {
                state.mailboxes[index].events[master].cancelledOccurrences.append(originalStart)
            }
        default:
            state.mailboxes[index].events.removeAll { $0.id == event.id || $0.seriesMasterId == event.id }
        }
        return ServerResponse(status: 204)
    }

    /// Records the mails Exchange sends the attendees of a meeting this mailbox organizes when it is created
    /// (`before` nil), changed, or deleted (`after` nil), as `SandboxInvitation.mails` lists them.
    func mailAttendees(before: GraphStoredEvent?, after: GraphStoredEvent?, organizer: String) {
        guard let event = after ?? before, event.organizerAddress.caseInsensitiveCompare(organizer) == .orderedSame else { return }
        sentInvitations += SandboxInvitation.mails(
            from: organizer, subject: event.subject, before: before.map { $0.attendees.map(\.address) }, after: after.map { $0.attendees.map(\.address) })
    }

    // MARK: Applying a body

    /// Merges a create or PATCH body into `event`, validating as Graph does.
    func apply(_ body: [String: Any], to event: inout GraphStoredEvent, creating: Bool) throws(GraphError) {
        var startSpec: (local: GraphLocalDateTime, zoneName: String)?
        var endSpec: (local: GraphLocalDateTime, zoneName: String)?
        // A new start or end (always in a named zone: a client cannot name a custom one) ends a custom zone.
        let keepsCustomZone = event.customStartZone != nil
            && !body.keys.contains { ["start", "end"].contains($0.lowercased()) }
        for (key, value) in body {
            let name = key.lowercased()
            switch name {
            case "subject": event.subject = try GraphEmulator.string(value, key) ?? ""
            case "body":
                guard let object = value as? [String: Any] else {
                    if value is NSNull { event.bodyContent = ""; continue }
                    throw GraphEmulator.typeError(value, "microsoft.graph.itemBody")
                }
                if let type = object["contentType"] {
                    event.bodyContentType = try GraphEmulator.enumeration(type, ["text", "html"], "microsoft.graph.bodyType")
                }
                if let content = object["content"] { event.bodyContent = try GraphEmulator.string(content, "content") ?? "" }
            case "start", "end":
                guard let object = value as? [String: Any] else { throw GraphEmulator.typeError(value, "microsoft.graph.dateTimeTimeZone") }
                guard let text = object["dateTime"] as? String else {
                    throw GraphError.invalidRequest("The \(key) property requires a dateTime.")
                }
                guard let local = GraphLocalDateTime.parse(text) else {
                    throw GraphError.badRequest("Cannot convert the literal '\(text)' to the expected type 'Edm.DateTime'.")
                }
                let zoneName = (object["timeZone"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "UTC"
                _ = try zone(named: zoneName)
                if name == "start" { startSpec = (local, zoneName) } else { endSpec = (local, zoneName) }
            case "isallday": event.isAllDay = try GraphEmulator.bool(value, key)
            case "location":
                if value is NSNull { event.location = ""; continue }
                guard let object = value as? [String: Any] else { throw GraphEmulator.typeError(value, "microsoft.graph.location") }
                event.location = try GraphEmulator.string(object["displayName"] ?? NSNull(), "displayName") ?? ""
            case "attendees":
                guard let list = value as? [Any] else { throw GraphEmulator.typeError(value, "Collection(microsoft.graph.attendee)") }
                event.attendees = try list.map { item throws(GraphError) in try GraphEmulator.attendee(item) }
            case "isreminderon": event.isReminderOn = try GraphEmulator.bool(value, key)
            case "reminderminutesbeforestart":
                guard let number = GraphJSON.int(value), number >= 0 else { throw GraphEmulator.typeError(value, "Edm.Int32") }
                event.reminderMinutesBeforeStart = number
            case "showas":
                event.showAs = try GraphEmulator.enumeration(value, ["free", "tentative", "busy", "oof", "workingElsewhere", "unknown"],
                                                             "microsoft.graph.freeBusyStatus")
            case "sensitivity":
                event.sensitivity = try GraphEmulator.enumeration(value, ["normal", "personal", "private", "confidential"],
                                                                  "microsoft.graph.sensitivity")
            case "importance":
                event.importance = try GraphEmulator.enumeration(value, ["low", "normal", "high"], "microsoft.graph.importance")
            case "categories":
                guard let list = value as? [Any], list.allSatisfy({ $0 is String }) else {
                    throw GraphEmulator.typeError(value, "Collection(Edm.String)")
                }
                event.categories = list.compactMap { $0 as? String }
            case "isonlinemeeting":
                event.isOnlineMeeting = try GraphEmulator.bool(value, key)
                if event.isOnlineMeeting, event.joinUrl == nil { event.joinUrl = GraphEmulator.newJoinURL() }
                if !event.isOnlineMeeting { event.joinUrl = nil }
            case "onlinemeetingprovider":
                event.onlineMeetingProvider = try GraphEmulator.enumeration(
                    value, ["unknown", "teamsForBusiness", "skypeForBusiness", "skypeForConsumer"], "microsoft.graph.onlineMeetingProviderType")
            case "onlinemeeting":
                // Read-only in Graph; accepted so seeds and tests can supply a fixed join URL.
                if let object = value as? [String: Any], let url = object["joinUrl"] as? String {
                    event.joinUrl = url
                    event.isOnlineMeeting = true
                }
            case "recurrence":
                if value is NSNull {
                    event.recurrence = nil
                    if event.type == "seriesMaster" { event.type = "singleInstance" }
                    continue
                }
                let zoneName = startSpec?.zoneName ?? (body.first { $0.key.lowercased() == "start" }?.value as? [String: Any])?["timeZone"] as? String
                let recurrence = try GraphRecurrence.parse(value, defaultTimeZone: zoneName ?? event.startTimeZone)
                // A series in a custom zone keeps expanding in it when the start stays.
                if !(keepsCustomZone && GraphCustomZone.isCustomName(recurrence.recurrenceTimeZone)) {
                    _ = try zone(named: recurrence.recurrenceTimeZone)
                }
                event.recurrence = recurrence
                if event.type == "singleInstance" { event.type = "seriesMaster" }
            case "singlevalueextendedproperties":
                guard let list = value as? [Any] else {
                    throw GraphEmulator.typeError(value, "Collection(microsoft.graph.singleValueLegacyExtendedProperty)")
                }
                for item in list {
                    guard let object = item as? [String: Any], let id = object["id"] as? String,
                          GraphEmulator.isValidPropertyID(id) else {
                        throw GraphError.badRequest("The extended property id is not valid.")
                    }
                    let value = object["value"].flatMap { $0 as? String } ?? ""
                    if let existing = event.extendedProperties.keys.first(where: { $0.caseInsensitiveCompare(id) == .orderedSame }) {
                        event.extendedProperties[existing] = nil
                    }
                    event.extendedProperties[id] = value
                }
            case "transactionid":
                if creating { event.transactionId = try GraphEmulator.string(value, key) }
            default:
                guard GraphEmulator.ignoredWriteProperties.contains(name) || name.contains("@odata.") else {
                    throw GraphError(status: 400, code: "RequestBodyRead",
                                     message: "The property '\(key)' does not exist on type 'microsoft.graph.event'. Make sure to "
                                         + "only use property names that are defined by the type or mark the type as open type.")
                }
            }
        }
        if let startSpec {
            event.start = startSpec.local.instant(in: try zone(named: startSpec.zoneName))
            event.startTimeZone = startSpec.zoneName
        }
        if let endSpec {
            event.end = endSpec.local.instant(in: try zone(named: endSpec.zoneName))
            event.endTimeZone = endSpec.zoneName
        }
        if event.customStartZone != nil || event.customEndZone != nil, let newZone = startSpec?.zoneName ?? endSpec?.zoneName {
            // The event becomes an ordinary one in the named zone (a side not written takes the other's zone), and
            // the TZDEFINITION properties go: Exchange rewrites them from the new zone.
            if event.customStartZone != nil, startSpec == nil { event.startTimeZone = newZone }
            if event.customEndZone != nil, endSpec == nil { event.endTimeZone = newZone }
            event.customStartZone = nil
            event.customEndZone = nil
            event.extendedProperties = event.extendedProperties.filter { property in
                !GraphCustomZone.propertyIDs.contains { $0.caseInsensitiveCompare(property.key) == .orderedSame }
            }
            if let recurrence = event.recurrence, GraphCustomZone.isCustomName(recurrence.recurrenceTimeZone) {
                event.recurrence?.recurrenceTimeZone = event.startTimeZone
            }
        }
        if let custom = event.customStartZone, event.seriesMasterId == nil {
            // The Recur definition is there exactly while the event is a series expanding in its custom zone
            // (occurrences and exceptions keep showing their master's).
            let recurs = event.recurrence.map { GraphCustomZone.isCustomName($0.recurrenceTimeZone) } ?? false
            let existing = event.extendedProperties.keys.first {
                $0.caseInsensitiveCompare(GraphCustomZone.recurPropertyID) == .orderedSame
            }
            if recurs, existing == nil {
                event.extendedProperties[GraphCustomZone.recurPropertyID] = custom.definitionProperty(now: now(), recur: true)
            } else if !recurs, let existing {
                event.extendedProperties[existing] = nil
            }
        }
        if event.isAllDay {
            let startLocal = try wallClockZone(event.customStartZone, named: event.startTimeZone).local(of: event.start)
            let endLocal = try wallClockZone(event.customEndZone, named: event.endTimeZone).local(of: event.end)
            guard startLocal.isMidnight, endLocal.isMidnight else {
                throw GraphError.invalidRequest("Your request can't be completed. All-day events must start and end at midnight.")
            }
            guard endLocal.date > startLocal.date else {
                throw GraphError.invalidRequest("The duration of an event marked as All day must be at least 24 hours.")
            }
        } else if event.end < event.start {
            throw GraphError.invalidRequest("Your request can't be completed. The end time must be after the start time.")
        }
    }

    /// A custom zone's rules, else the named zone (`TimeZoneNotSupportedException` for an unknown name).
    func wallClockZone(_ custom: GraphCustomZone?, named name: String) throws(GraphError) -> GraphZone {
        if let custom { return .custom(custom) }
        return .tz(try zone(named: name))
    }

    // MARK: Value checks

    static func typeError(_ value: Any, _ type: String) -> GraphError {
        GraphError(status: 400, code: "RequestBodyRead",
                   message: "Cannot convert the literal '\(value)' to the expected type '\(type)'.")
    }

    static func string(_ value: Any, _ name: String) throws(GraphError) -> String? {
        if value is NSNull { return nil }
        guard let text = value as? String else { throw typeError(value, "Edm.String") }
        return text
    }

    static func bool(_ value: Any, _ name: String) throws(GraphError) -> Bool {
        guard let flag = GraphJSON.bool(value) else { throw typeError(value, "Edm.Boolean") }
        return flag
    }

    static func enumeration(_ value: Any, _ allowed: [String], _ type: String) throws(GraphError) -> String {
        guard let text = value as? String, let match = allowed.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }) else {
            throw typeError(value, type)
        }
        return match
    }

    static func attendee(_ value: Any) throws(GraphError) -> GraphStoredEvent.Attendee {
        guard let object = value as? [String: Any], let email = object["emailAddress"] as? [String: Any],
              let address = email["address"] as? String, !address.isEmpty else {
            throw GraphError.invalidRequest("An attendee must have an emailAddress with an address.")
        }
        let type = try object["type"].map { value throws(GraphError) in
            try enumeration(value, ["required", "optional", "resource"], "microsoft.graph.attendeeType")
        } ?? "required"
        let response = ((object["status"] as? [String: Any])?["response"] as? String).flatMap { text in
            ["none", "organizer", "tentativelyAccepted", "accepted", "declined", "notResponded"]
                .first { $0.caseInsensitiveCompare(text) == .orderedSame }
        } ?? "none"
        return .init(name: email["name"] as? String ?? address, address: address, type: type, response: response)
    }

    /// `Type {GUID} Name name` or `Type {GUID} Id 0x…`, as MAPI named properties are written in Graph.
    static func isValidPropertyID(_ id: String) -> Bool {
        let parts = id.split(separator: " ", maxSplits: 3)
        let types = ["binary", "boolean", "clsid", "currency", "datetime", "double", "integer", "long", "object", "short",
                     "systemtime", "string"]
        guard parts.count == 4, types.contains(parts[0].lowercased().replacingOccurrences(of: "array", with: "")),
              parts[1].hasPrefix("{"), parts[1].hasSuffix("}"), UUID(uuidString: String(parts[1].dropFirst().dropLast())) != nil,
              ["name", "id"].contains(parts[2].lowercased()) else { return false }
        return true
    }

    static func newEventID() -> String { "AAMkAD" + base64URL(UUID()) + "=" }

    static func newICalUId() -> String {
        "040000008200E00074C5B7101A82E00800000000" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
    }

    static func newJoinURL() -> String {
        "https://teams.microsoft.com/l/meetup-join/19%3ameeting_" + base64URL(UUID()).prefix(20) + "%40thread.v2/0"
    }

    static func base64URL(_ uuid: UUID) -> String {
        let bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
        return bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
