import Foundation
import HTTP
import LoopbackServer

extension GraphEmulator {
    /// Dispatches on the path after `/v1.0` (`me/...` or `users/{id|upn}/...`), case-insensitively.
    func route(_ context: GraphRequestContext) throws(GraphError) -> ServerResponse {
        var segments = context.segments
        guard let head = segments.first else { throw GraphError.badRequest("Invalid request.") }
        let mailbox = state.mailboxes[try mailboxIndex(context.mailboxID)]
        switch head.lowercased() {
        case "me":
            segments.removeFirst()
        case "users":
            guard segments.count >= 2 else { throw GraphError.segmentNotFound(head) }
            let who = segments[1]
            guard who.caseInsensitiveCompare(mailbox.id) == .orderedSame
                    || who.caseInsensitiveCompare(mailbox.userPrincipalName) == .orderedSame
                    || who.caseInsensitiveCompare(mailbox.mail) == .orderedSame else {
                // Another user's mailbox: the token's delegated permissions do not reach it.
                throw GraphError.accessDenied
            }
            segments.removeFirst(2)
        default:
            throw GraphError.segmentNotFound(head)
        }
        let lower = segments.map { $0.lowercased() }
        let method = context.method

        func only(_ allowed: String...) throws(GraphError) {
            guard allowed.contains(method) else { throw GraphError.methodNotAllowed }
        }

        if lower.isEmpty {
            try only("GET")
            return try getUser(context)
        }
        if lower == ["mailboxsettings"] {
            try only("GET")
            return try getMailboxSettings(context)
        }
        if lower == ["calendars"] {
            try only("GET")
            return try listCalendars(context)
        }
        if lower == ["calendar"] {
            try only("GET")
            return try getCalendar(context, id: nil)
        }
        if lower.count == 2, lower[0] == "calendars" {
            try only("GET")
            return try getCalendar(context, id: segments[1])
        }
        // Calendar-scoped collections: /events, /calendarView, /calendar/..., /calendars/{id}/...
        var calendarID: String?
        var rest = Array(segments)
        if lower.first == "calendar" {
            rest.removeFirst()
        } else if lower.first == "calendars", lower.count >= 3 {
            calendarID = segments[1]
            rest.removeFirst(2)
        }
        let restLower = rest.map { $0.lowercased() }
        if restLower == ["calendarview"] {
            try only("GET")
            return try calendarView(context, calendarID: calendarID)
        }
        if restLower == ["calendarview", "delta"] || restLower == ["calendarview", "microsoft.graph.delta()"] {
            try only("GET")
            return try calendarViewDelta(context, calendarID: calendarID)
        }
        if restLower == ["events"] {
            try only("GET", "POST")
            return method == "GET" ? try listEvents(context, calendarID: calendarID)
                : try createEvent(context, calendarID: calendarID)
        }
        if restLower.count == 2, restLower[0] == "events" {
            try only("GET", "PATCH", "DELETE")
            switch method {
            case "GET": return try getEvent(context, id: rest[1], calendarID: calendarID)
            case "PATCH": return try updateEvent(context, id: rest[1], calendarID: calendarID)
            default: return try deleteEvent(context, id: rest[1], calendarID: calendarID)
            }
        }
        if restLower.count == 3, restLower[0] == "events", restLower[2] == "instances" {
            try only("GET")
            return try instances(context, id: rest[1], calendarID: calendarID)
        }
        let unknown = segments.first { !["calendar", "calendars", "events", "calendarview", "instances", "delta"].contains($0.lowercased()) }
        throw GraphError.segmentNotFound(unknown ?? segments.last ?? "")
    }

    // MARK: /me, /me/mailboxSettings

    func getUser(_ context: GraphRequestContext) throws(GraphError) -> ServerResponse {
        let mailbox = state.mailboxes[try mailboxIndex(context.mailboxID)]
        func optional(_ text: String?) -> SandboxJSON { text.map { .string($0) } ?? .null }
        var object: [String: SandboxJSON] = [
            "id": .string(mailbox.id),
            "displayName": .string(mailbox.displayName),
            "givenName": .string(mailbox.givenName),
            "surname": .string(mailbox.surname),
            "mail": .string(mailbox.mail),
            "userPrincipalName": .string(mailbox.userPrincipalName),
            "jobTitle": optional(mailbox.jobTitle),
            "officeLocation": optional(mailbox.officeLocation),
            "mobilePhone": optional(mailbox.mobilePhone),
            "businessPhones": .array(mailbox.businessPhones.map { .string($0) }),
            "preferredLanguage": .string(mailbox.preferredLanguage),
        ]
        var contextURL = context.baseURL + "/$metadata#users/$entity"
        if let select = context.option("$select") {
            let known = Array(object.keys) + ["mailboxSettings"]
            let names = try GraphQuery.selectList(select, known: known, type: "microsoft.graph.user")
            var selected: [String: SandboxJSON] = [:]
            for name in names {
                selected[name] = name == "mailboxSettings" ? .object(mailboxSettingsJSON(mailbox)) : object[name]
            }
            object = selected
            contextURL = context.baseURL + "/$metadata#users(" + names.joined(separator: ",") + ")/$entity"
        }
        object["@odata.context"] = .string(contextURL)
        return jsonResponse(200, object)
    }

    func getMailboxSettings(_ context: GraphRequestContext) throws(GraphError) -> ServerResponse {
        let mailbox = state.mailboxes[try mailboxIndex(context.mailboxID)]
        var object = mailboxSettingsJSON(mailbox)
        object["@odata.context"] = .string(context.baseURL + "/$metadata#users('\(mailbox.id)')/mailboxSettings")
        return jsonResponse(200, object)
    }

    func mailboxSettingsJSON(_ mailbox: GraphMailbox) -> [String: SandboxJSON] {
        [
            "archiveFolder": .string("AAMkAGArchive" + mailbox.id.prefix(8)),
            "timeZone": .string(mailbox.timeZone),
            "delegateMeetingMessageDeliveryOptions": "sendToDelegateOnly",
            "dateFormat": "M/d/yyyy",
            "timeFormat": "h:mm tt",
            "userPurpose": "user",
            "automaticRepliesSetting": [
                "status": "disabled", "externalAudience": "all",
                "internalReplyMessage": "", "externalReplyMessage": "",
                "scheduledStartDateTime": ["dateTime": "2020-01-01T00:00:00.0000000", "timeZone": "UTC"],
                "scheduledEndDateTime": ["dateTime": "2020-01-02T00:00:00.0000000", "timeZone": "UTC"],
            ],
            "language": ["locale": .string(mailbox.preferredLanguage), "displayName": "English (United States)"],
            "workingHours": [
                "daysOfWeek": ["monday", "tuesday", "wednesday", "thursday", "friday"],
                "startTime": "08:00:00.0000000", "endTime": "17:00:00.0000000",
                "timeZone": ["name": .string(mailbox.timeZone)],
            ],
        ]
    }

    // MARK: Calendars

    static let calendarProperties = [
        "id", "name", "color", "hexColor", "isDefaultCalendar", "changeKey", "canShare", "canViewPrivateItems", "canEdit",
        "allowedOnlineMeetingProviders", "defaultOnlineMeetingProvider", "isTallyingResponses", "isRemovable", "owner",
    ]

    func calendarJSON(_ calendar: GraphCalendar) -> [String: SandboxJSON] {
        [
            "id": .string(calendar.id),
            "name": .string(calendar.name),
            "color": .string(calendar.color),
            "hexColor": .string(calendar.hexColor),
            "isDefaultCalendar": .bool(calendar.isDefaultCalendar),
            "changeKey": .string(calendar.changeKey),
            "canShare": .bool(calendar.canShare),
            "canViewPrivateItems": .bool(calendar.canViewPrivateItems),
            "canEdit": .bool(calendar.canEdit),
            "allowedOnlineMeetingProviders": ["teamsForBusiness"],
            "defaultOnlineMeetingProvider": "teamsForBusiness",
            "isTallyingResponses": .bool(calendar.isDefaultCalendar),
            "isRemovable": .bool(calendar.isRemovable),
            "owner": ["name": .string(calendar.ownerName), "address": .string(calendar.ownerAddress)],
        ]
    }

    func listCalendars(_ context: GraphRequestContext) throws(GraphError) -> ServerResponse {
        let mailbox = state.mailboxes[try mailboxIndex(context.mailboxID)]
        let objects = mailbox.calendars.map(calendarJSON)
        var select: [String]?
        if let text = context.option("$select") {
            select = try GraphQuery.selectList(text, known: GraphEmulator.calendarProperties, type: "microsoft.graph.calendar")
        }
        let page = try GraphQuery.page(count: objects.count, context: context, preferPageSize: nil)
        var value = Array(objects[page.range])
        if let select { value = value.map { GraphQuery.project($0, select) } }
        var body: [String: SandboxJSON] = [
            "@odata.context": .string(context.baseURL + "/$metadata#users('\(mailbox.id)')/calendars"),
            "value": .array(value.map { .object($0) }),
        ]
        if let next = page.nextLink { body["@odata.nextLink"] = .string(next) }
        return jsonResponse(200, body)
    }

    func getCalendar(_ context: GraphRequestContext, id: String?) throws(GraphError) -> ServerResponse {
        let mailbox = state.mailboxes[try mailboxIndex(context.mailboxID)]
        guard let calendar = id.map({ mailbox.calendar(id: $0) }) ?? mailbox.defaultCalendar else {
            throw GraphError.itemNotFound
        }
        var object = calendarJSON(calendar)
        if let select = context.option("$select") {
            object = GraphQuery.project(
                object, try GraphQuery.selectList(select, known: GraphEmulator.calendarProperties, type: "microsoft.graph.calendar"))
        }
        object["@odata.context"] = .string(context.baseURL + "/$metadata#users('\(mailbox.id)')/calendars/$entity")
        return jsonResponse(200, object)
    }
}
