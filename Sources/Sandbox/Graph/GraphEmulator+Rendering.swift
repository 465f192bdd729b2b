import Foundation
import HTTP
import LoopbackServer

/// How events are rendered for one request: the `Prefer: outlook.timezone` zone, `$select` and `$expand`.
struct GraphRenderOptions {
    /// The zone name echoed in `start.timeZone` / `end.timeZone` ("UTC" without a Prefer header).
    var zoneLabel: String
    var zone: TimeZone
    var select: [String]?
    /// Extended property ids asked for with `$expand` (empty: all); nil without `$expand`.
    var expandIDs: [String]?
    /// Values for the `Preference-Applied` header.
    var applied: [String]
}

extension GraphEmulator {
    /// Every property an event renders, in Graph's casing (the names `$select` accepts).
    static let eventProperties = [
        "id", "createdDateTime", "lastModifiedDateTime", "changeKey", "categories", "transactionId",
        "originalStartTimeZone", "originalEndTimeZone", "iCalUId", "uid", "reminderMinutesBeforeStart", "isReminderOn",
        "hasAttachments", "subject", "bodyPreview", "importance", "sensitivity", "isAllDay", "isCancelled", "isOrganizer",
        "responseRequested", "seriesMasterId", "showAs", "type", "webLink", "onlineMeetingUrl", "isOnlineMeeting",
        "onlineMeetingProvider", "allowNewTimeProposals", "occurrenceId", "isDraft", "hideAttendees", "responseStatus",
        "body", "start", "end", "location", "locations", "recurrence", "attendees", "organizer", "onlineMeeting",
        "originalStart",
    ]

    func renderOptions(_ context: GraphRequestContext) throws(GraphError) -> GraphRenderOptions {
        let preferences = GraphQuery.preferences(context.headers)
        var options = GraphRenderOptions(zoneLabel: "UTC", zone: TimeZone(secondsFromGMT: 0)!, select: nil,
                                         expandIDs: nil, applied: [])
        if let name = preferences["outlook.timezone"] {
            options.zone = try zone(named: name)
            options.zoneLabel = name
            options.applied.append("outlook.timezone=\"\(name)\"")
        }
        if let select = context.option("$select") {
            options.select = try GraphQuery.selectList(select, known: GraphEmulator.eventProperties, type: "microsoft.graph.event")
        }
        options.expandIDs = try GraphQuery.expandedPropertyIDs(context.option("$expand"))
        return options
    }

    /// The instants an event covers as seen in `zone`: timed events are fixed instants; all-day events float,
    /// so their days are re-anchored at midnight in `zone` (Graph renders them as midnight in any zone).
    func effectiveTimes(_ event: GraphStoredEvent, in zone: TimeZone) -> (start: Date, end: Date) {
        guard event.isAllDay else { return (event.start, event.end) }
        let stored = startZone(of: event)
        let startDay = stored.local(of: event.start).date
        let endDay = stored.local(of: event.end).date
        return (GraphLocalDateTime(date: startDay, secondOfDay: 0).instant(in: zone),
                GraphLocalDateTime(date: endDay, secondOfDay: 0).instant(in: zone))
    }

    /// The event JSON Graph returns.
    func render(_ event: GraphStoredEvent, mailbox: GraphMailbox, options: GraphRenderOptions) -> [String: SandboxJSON] {
        let times = effectiveTimes(event, in: options.zone)
        let attendees: [SandboxJSON] = event.attendees.map {
            [
                "type": .string($0.type),
                "status": ["response": .string($0.response), "time": "0001-01-01T00:00:00Z"],
                "emailAddress": ["name": .string($0.name), "address": .string($0.address)],
            ]
        }
        let isOrganizer = event.organizerAddress.caseInsensitiveCompare(mailbox.mail) == .orderedSame
        let location: SandboxJSON = event.location.isEmpty
            ? ["displayName": "", "locationType": "default", "uniqueIdType": "unknown", "address": [:], "coordinates": [:]]
            : ["displayName": .string(event.location), "locationType": "default", "uniqueId": .string(event.location),
               "uniqueIdType": "private", "address": [:], "coordinates": [:]]
        func optional(_ text: String?) -> SandboxJSON { text.map { .string($0) } ?? .null }
        var object: [String: SandboxJSON] = [
            "@odata.etag": .string("W/\"\(event.changeKey)\""),
            "id": .string(event.id),
            "createdDateTime": .string(GraphInstant.render(event.createdDateTime)),
            "lastModifiedDateTime": .string(GraphInstant.render(event.lastModifiedDateTime)),
            "changeKey": .string(event.changeKey),
            "categories": .array(event.categories.map { .string($0) }),
            "transactionId": optional(event.transactionId),
            "originalStartTimeZone": .string(event.startTimeZone),
            "originalEndTimeZone": .string(event.endTimeZone),
            "iCalUId": .string(event.iCalUId),
            "uid": .string(event.iCalUId),
            "reminderMinutesBeforeStart": .int(event.reminderMinutesBeforeStart),
            "isReminderOn": .bool(event.isReminderOn),
            "hasAttachments": false,
            "subject": .string(event.subject),
            "bodyPreview": .string(GraphEmulator.preview(event.bodyContent, html: event.bodyContentType == "html")),
            "importance": .string(event.importance),
            "sensitivity": .string(event.sensitivity),
            "isAllDay": .bool(event.isAllDay),
            "isCancelled": false,
            "isOrganizer": .bool(isOrganizer),
            "responseRequested": true,
            "seriesMasterId": optional(event.seriesMasterId),
            "showAs": .string(event.showAs),
            "type": .string(event.type),
            "webLink": .string("https://outlook.office365.com/owa/?itemid=\(FormEncoding.percentEncode(event.id))&exvsurl=1&path=/calendar/item"),
            "onlineMeetingUrl": .null,
            "isOnlineMeeting": .bool(event.isOnlineMeeting),
            "onlineMeetingProvider": .string(event.isOnlineMeeting ? event.onlineMeetingProvider : "unknown"),
            "allowNewTimeProposals": true,
            "occurrenceId": .null,
            "isDraft": false,
            "hideAttendees": false,
            "responseStatus": ["response": isOrganizer ? "organizer" : "notResponded", "time": "0001-01-01T00:00:00Z"],
            "body": ["contentType": .string(event.bodyContentType), "content": .string(event.bodyContent)],
            "start": ["dateTime": .string(GraphLocalDateTime(times.start, in: options.zone).graphString), "timeZone": .string(options.zoneLabel)],
            "end": ["dateTime": .string(GraphLocalDateTime(times.end, in: options.zone).graphString), "timeZone": .string(options.zoneLabel)],
            "location": location,
            "locations": event.location.isEmpty ? [] : [location],
            "recurrence": event.recurrence?.json ?? .null,
            "attendees": .array(attendees),
            "organizer": ["emailAddress": ["name": .string(event.organizerName), "address": .string(event.organizerAddress)]],
            "onlineMeeting": event.joinUrl.map { ["joinUrl": .string($0)] } ?? .null,
        ]
        if let originalStart = event.originalStart { object["originalStart"] = .string(GraphInstant.render(originalStart)) }
        if let select = options.select { object = GraphQuery.project(object, select) }
        if let ids = options.expandIDs {
            let properties = event.extendedProperties
                .filter { property in ids.isEmpty || ids.contains { $0.caseInsensitiveCompare(property.key) == .orderedSame } }
                .sorted { $0.key < $1.key }
                .map { SandboxJSON.object(["id": .string(GraphEmulator.normalizedPropertyID($0.key)), "value": .string($0.value)]) }
            if !properties.isEmpty { object["singleValueExtendedProperties"] = .array(properties) }
        }
        return object
    }

    /// Graph returns extended property ids with the GUID in lower case.
    static func normalizedPropertyID(_ id: String) -> String {
        guard let open = id.firstIndex(of: "{"), let close = id.firstIndex(of: "}"), open < close else { return id }
        return String(id[..<open]) + id[open...close].lowercased() + String(id[id.index(after: close)...])
    }

    /// `bodyPreview`: the first 255 characters of the text (tags stripped from HTML).
    static func preview(_ content: String, html: Bool) -> String {
        var text = content
        if html {
            text = text.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
                .replacingOccurrences(of: "&nbsp;", with: " ")
        }
        text = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return String(text.prefix(255))
    }

    /// A collection response: `@odata.context`, `value`, `@odata.nextLink`, and `Preference-Applied`.
    func collectionResponse(_ context: GraphRequestContext, contextPath: String, values: [[String: SandboxJSON]],
                            page: GraphQuery.Page, options: GraphRenderOptions) -> ServerResponse {
        var body: [String: SandboxJSON] = [
            "@odata.context": .string(context.baseURL + "/$metadata#" + contextPath), "value": .array(values.map { .object($0) }),
        ]
        if let next = page.nextLink { body["@odata.nextLink"] = .string(next) }
        var applied = options.applied
        if let size = page.pageSizeApplied { applied.append("odata.maxpagesize=\(size)") }
        var headers: HTTPHeaders = [:]
        if !applied.isEmpty { headers["Preference-Applied"] = applied.joined(separator: ", ") }
        return jsonResponse(200, body, headers: headers)
    }
}
