import Foundation
import HTTP
import LoopbackServer

/// events.list, events.get and events.instances: filtering, recurrence expansion, ordering and paging.
extension GoogleCalendarEmulator {
    /// One item of a listing before rendering: a stored event, or an instance generated from a series.
    struct Item {
        var resource: [String: GoogleJSON]
        var start: Date
        var end: Date
        var updated: String
        var order: Int
    }

    func listEvents(_ request: ServerRequest, calendarID: String, user: GoogleUserRecord) throws(GoogleAPIError) -> ServerResponse {
        let (entry, calendar) = try resolve(calendarID, user: user)
        let (zone, zoneName) = try Self.responseZone(request, calendar: calendar)
        let maxResults = try Self.intParameter(request, "maxResults", default: 250, max: 2500)
        _ = try Self.pageOffset(request)
        let singleEvents = try Self.boolParameter(request, "singleEvents")
        var showDeleted = try Self.boolParameter(request, "showDeleted")
        let timeMin = try Self.timeParameter(request, "timeMin")
        let timeMax = try Self.timeParameter(request, "timeMax")
        let updatedMin = try Self.timeParameter(request, "updatedMin")
        if let timeMin, let timeMax, timeMax <= timeMin { throw .timeRangeEmpty(location: "timeMax") }
        let orderBy = request.queryValue("orderBy")
        switch orderBy {
        case nil, "updated": break
        case "startTime":
            guard singleEvents else {
                throw GoogleAPIError(code: 400, reason: "badRequest", message: "The requested ordering is not available for the particular query.")
            }
        default: throw .invalid("Invalid value for orderBy: \(orderBy ?? "")", parameter: "orderBy")
        }
        let privateFilters = try Self.propertyFilters(request.queryValues("privateExtendedProperty"), "privateExtendedProperty")
        let sharedFilters = try Self.propertyFilters(request.queryValues("sharedExtendedProperty"), "sharedExtendedProperty")
        let iCalUID = request.queryValue("iCalUID")
        let text = request.queryValue("q")?.lowercased()
        let eventTypes = request.queryValues("eventTypes")

        var sinceChange: Int?
        if let syncToken = request.queryValue("syncToken") {
            for name in ["iCalUID", "orderBy", "privateExtendedProperty", "q", "sharedExtendedProperty", "timeMin", "timeMax", "updatedMin"]
            where request.queryValue(name) != nil {
                throw .invalid("Sync token cannot be used together with the \(name) parameter.", parameter: name)
            }
            guard let decoded = Self.decodeSyncToken(syncToken, epoch: state.epoch), decoded.scope == "events:" + calendar.id,
                  decoded.change <= state.changeCounter else { throw GoogleAPIError.fullSyncRequired }
            sinceChange = decoded.change
            showDeleted = true
        }
        if updatedMin != nil { showDeleted = true }

        let calendarZone = Self.zone(calendar.timeZone)
        let records = calendar.events.values.sorted { $0.order < $1.order }
        var items: [Item] = []
        for record in records {
            if let sinceChange, record.changeSeq <= sinceChange { continue }
            if let updatedMin, let updated = GoogleTime.parseDateTime(record.updated)?.instant, updated < updatedMin { continue }
            if let iCalUID, record.resource["iCalUID"]?.stringValue != iCalUID { continue }
            if !Self.matches(record.resource, privateFilters: privateFilters, sharedFilters: sharedFilters) { continue }
            if let text, !Self.matchesText(record.resource, text) { continue }
            if !eventTypes.isEmpty && !eventTypes.contains(record.resource["eventType"]?.stringValue ?? "default") { continue }
            let isException = record.recurringEventID.map { calendar.events[$0] != nil } ?? false
            if singleEvents {
                if record.isRecurringMaster {
                    if record.isCancelled { continue }
                    let instances = expand(record, in: calendar, zone: calendarZone, from: timeMin, to: timeMax, limit: sinceChange == nil ? nil : 730)
                    items += instances.filter { showDeleted || ($0.resource["status"]?.stringValue ?? "") != "cancelled" }
                    continue
                }
                // Exceptions are listed through their series (above), except on incremental sync.
                if isException && sinceChange == nil && updatedMin == nil { continue }
                if record.isCancelled && !showDeleted { continue }
                if !Self.overlaps(start: record.start, end: record.end, timeMin, timeMax) { continue }
                items.append(Item(resource: record.resource, start: record.start, end: record.end, updated: record.updated, order: record.order))
            } else {
                if record.isCancelled && !showDeleted && !isException { continue }
                if record.isRecurringMaster && !record.isCancelled {
                    if timeMin != nil || timeMax != nil {
                        let some = expand(record, in: calendar, zone: calendarZone, from: timeMin, to: timeMax, limit: 1, withExceptions: false)
                        if some.isEmpty { continue }
                    }
                } else if !Self.overlaps(start: record.start, end: record.end, timeMin, timeMax) {
                    continue
                }
                items.append(Item(resource: record.resource, start: record.start, end: record.end, updated: record.updated, order: record.order))
            }
        }
        switch orderBy {
        case "startTime": items.sort { ($0.start, $0.order, $0.resource["id"]?.stringValue ?? "") < ($1.start, $1.order, $1.resource["id"]?.stringValue ?? "") }
        case "updated": items.sort { ($0.updated, $0.order) < ($1.updated, $1.order) }
        default: break
        }
        return page(items, request: request, maxResults: maxResults, entry: entry, calendar: calendar, zone: zone, zoneName: zoneName,
                    syncScope: "events:" + calendar.id, viewer: user.email)
    }

    func listInstances(_ request: ServerRequest, calendarID: String, eventID: String, user: GoogleUserRecord) throws(GoogleAPIError) -> ServerResponse {
        let (entry, calendar) = try resolve(calendarID, user: user)
        let (zone, zoneName) = try Self.responseZone(request, calendar: calendar)
        let maxResults = try Self.intParameter(request, "maxResults", default: 250, max: 2500)
        _ = try Self.pageOffset(request)
        let showDeleted = try Self.boolParameter(request, "showDeleted")
        let timeMin = try Self.timeParameter(request, "timeMin")
        let timeMax = try Self.timeParameter(request, "timeMax")
        if let timeMin, let timeMax, timeMax <= timeMin { throw .timeRangeEmpty(location: "timeMax") }
        guard let master = calendar.events[eventID] else { throw GoogleAPIError.notFound }
        if master.isCancelled { throw GoogleAPIError.deleted }
        var items: [Item]
        if master.isRecurringMaster {
            items = expand(master, in: calendar, zone: Self.zone(calendar.timeZone), from: timeMin, to: timeMax, limit: nil)
                .filter { showDeleted || ($0.resource["status"]?.stringValue ?? "") != "cancelled" }
        } else {
            // A single event is its own only instance.
            items = Self.overlaps(start: master.start, end: master.end, timeMin, timeMax)
                ? [Item(resource: master.resource, start: master.start, end: master.end, updated: master.updated, order: master.order)] : []
        }
        if let originalStart = request.queryValue("originalStart") {
            guard let wanted = GoogleTime.parseDateTime(originalStart)?.instant ?? GoogleTime.parseDate(originalStart).map({
                GoogleTime.instant(GoogleTime.Local(day: $0, seconds: 0), in: Self.zone(calendar.timeZone))
            }) else { throw .invalid("Invalid value for originalStart.", parameter: "originalStart") }
            items = items.filter { item in
                let original = item.resource["originalStartTime"] ?? item.resource["start"]
                let value = try? GoogleEventTimes.parse(original, field: "originalStartTime", requireZone: false)
                return value.map { GoogleEventTimes.instant($0, calendarZone: Self.zone(calendar.timeZone)) } == wanted
            }
        }
        return page(items, request: request, maxResults: maxResults, entry: entry, calendar: calendar, zone: zone, zoneName: zoneName, syncScope: nil, viewer: user.email)
    }

    func getEvent(_ request: ServerRequest, calendarID: String, eventID: String, user: GoogleUserRecord) throws(GoogleAPIError) -> ServerResponse {
        let (entry, calendar) = try resolve(calendarID, user: user)
        let (zone, _) = try Self.responseZone(request, calendar: calendar)
        guard let item = lookup(eventID, in: calendar) else { throw GoogleAPIError.notFound }
        let json = render(item.resource, entry: entry, calendar: calendar, zone: zone, viewer: user.email)
        return Self.okJSON(json, etag: json["etag"]?.stringValue)
    }

    /// A stored event, or an instance of a series addressed as `<seriesId>_<originalStart>`.
    func lookup(_ eventID: String, in calendar: GoogleCalendarRecord) -> Item? {
        if let record = calendar.events[eventID] {
            return Item(resource: record.resource, start: record.start, end: record.end, updated: record.updated, order: record.order)
        }
        guard let underscore = eventID.lastIndex(of: "_") else { return nil }
        let masterID = String(eventID[..<underscore])
        guard let master = calendar.events[masterID], master.isRecurringMaster, !master.isCancelled else { return nil }
        let stamp = String(eventID[eventID.index(after: underscore)...])
        guard let parsed = GoogleTime.parseBasic(stamp), parsed.dateOnly == master.allDay, parsed.dateOnly || parsed.utc else { return nil }
        let zone = Self.zone(calendar.timeZone)
        let target = parsed.dateOnly
            ? GoogleTime.instant(parsed.local, in: zone)
            : Date(timeIntervalSince1970: TimeInterval(parsed.local.day * 86400 + parsed.local.seconds))
        let window = expand(master, in: calendar, zone: zone, from: target, to: target.addingTimeInterval(86400 * 2), limit: nil, originalsOnly: true)
        return window.first { $0.resource["id"]?.stringValue == eventID }
    }

    // MARK: Expansion

    /// Instances of a series overlapping [from, to): generated from the rule, replaced by stored exceptions.
    /// `originalsOnly` keeps instances by their original start even when an exception moved them away.
    func expand(
        _ master: GoogleEventRecord, in calendar: GoogleCalendarRecord, zone calendarZone: TimeZone, from: Date?, to: Date?,
        limit: Int?, withExceptions: Bool = true, originalsOnly: Bool = false
    ) -> [Item] {
        guard let lines = master.recurrence else { return [] }
        let seriesZone = master.resource["start"]?["timeZone"]?.stringValue.flatMap(TimeZone.init(identifier:)) ?? calendarZone
        guard let rule = try? GoogleRecurrence.parse(lines, zone: seriesZone) else { return [] }
        let duration = master.end.timeIntervalSince(master.start)
        var exceptions: [String: GoogleEventRecord] = [:]
        if withExceptions {
            for record in calendar.events.values where record.recurringEventID == master.id { exceptions[record.id] = record }
        }
        // Occurrences are generated up to the window's end; exceptions moved into the window from a later
        // original start are added after the loop.
        let generationEnd = to
        var starts: [(start: Date, id: String, original: GoogleJSON)] = []
        if master.allDay {
            guard let startDay = master.resource["start"]?["date"]?.stringValue.flatMap(GoogleTime.parseDate) else { return [] }
            let beforeDay = generationEnd.map { GoogleTime.local($0, in: calendarZone).day + 1 }
            for day in rule.starts(allDayFrom: startDay, beforeDay: beforeDay) {
                starts.append((GoogleTime.instant(GoogleTime.Local(day: day, seconds: 0), in: calendarZone),
                               master.id + "_" + GoogleTime.basicDate(day), ["date": .string(GoogleTime.formatDate(day))]))
            }
        } else {
            var original: [String: GoogleJSON] = [:]
            if let tz = master.resource["start"]?["timeZone"] { original["timeZone"] = tz }
            for instant in rule.starts(timedFrom: master.start, zone: seriesZone, before: generationEnd) {
                original["dateTime"] = .string(GoogleTime.formatDateTime(instant, in: GoogleEventTimes.utc))
                starts.append((instant, master.id + "_" + GoogleTime.basicUTC(instant), .object(original)))
            }
        }
        var items: [Item] = []
        for occurrence in starts {
            var item: Item
            if let exception = exceptions[occurrence.id] {
                item = Item(resource: exception.resource, start: exception.start, end: exception.end, updated: exception.updated, order: master.order)
            } else {
                var resource = master.resource
                resource["recurrence"] = nil
                resource["id"] = .string(occurrence.id)
                resource["recurringEventId"] = .string(master.id)
                resource["originalStartTime"] = occurrence.original
                let end = occurrence.start.addingTimeInterval(duration)
                if master.allDay {
                    let startDay = GoogleTime.local(occurrence.start, in: calendarZone).day
                    let days = Int((duration / 86400).rounded())
                    resource["start"] = ["date": .string(GoogleTime.formatDate(startDay))]
                    resource["end"] = ["date": .string(GoogleTime.formatDate(startDay + days))]
                } else {
                    var start = resource["start"]?.objectValue ?? [:]
                    start["dateTime"] = .string(GoogleTime.formatDateTime(occurrence.start, in: GoogleEventTimes.utc))
                    var endObject = resource["end"]?.objectValue ?? [:]
                    endObject["dateTime"] = .string(GoogleTime.formatDateTime(end, in: GoogleEventTimes.utc))
                    resource["start"] = .object(start)
                    resource["end"] = .object(endObject)
                }
                item = Item(resource: resource, start: occurrence.start, end: end, updated: master.updated, order: master.order)
            }
            let (checkStart, checkEnd) = originalsOnly ? (occurrence.start, occurrence.start.addingTimeInterval(max(duration, 1))) : (item.start, item.end)
            let cancelled = item.resource["status"]?.stringValue == "cancelled"
            if cancelled ? Self.overlaps(start: occurrence.start, end: occurrence.start.addingTimeInterval(duration), from, to)
                : Self.overlaps(start: checkStart, end: checkEnd, from, to) {
                items.append(item)
                if let limit, items.count >= limit { break }
            }
        }
        if !originalsOnly, limit.map({ items.count < $0 }) ?? true {
            let generated = Set(starts.map(\.id))
            for exception in exceptions.values where !generated.contains(exception.id) && !exception.isCancelled
                && Self.overlaps(start: exception.start, end: exception.end, from, to) {
                // Only exceptions whose original start lies beyond the generated range (not EXDATEd ones).
                guard let original = try? GoogleEventTimes.parse(exception.resource["originalStartTime"], field: "originalStartTime", requireZone: false),
                      let to, GoogleEventTimes.instant(original, calendarZone: calendarZone) >= to else { continue }
                items.append(Item(resource: exception.resource, start: exception.start, end: exception.end, updated: exception.updated, order: master.order))
            }
        }
        return items.sorted { $0.start < $1.start }
    }

    // MARK: Rendering and paging

    /// The client's view of an event: times in the response zone, `self` flags for this calendar, and
    /// private events reduced to free/busy for readers.
    func render(_ resource: [String: GoogleJSON], entry: GoogleListEntry, calendar: GoogleCalendarRecord, zone: TimeZone, viewer: String) -> GoogleJSON {
        var json = resource
        for key in ["start", "end", "originalStartTime"] where json[key] != nil {
            json[key] = GoogleEventTimes.render(json[key], in: zone)
        }
        let visibility = json["visibility"]?.stringValue ?? "default"
        if entry.rank <= 1 || (entry.rank == 2 && (visibility == "private" || visibility == "confidential")) {
            let keep: Set<String> = ["kind", "etag", "id", "status", "start", "end", "recurringEventId", "originalStartTime",
                                     "recurrence", "iCalUID", "sequence", "created", "updated", "visibility", "transparency", "eventType"]
            json = json.filter { keep.contains($0.key) }
            return .object(json)
        }
        for key in ["creator", "organizer"] {
            guard var person = json[key]?.objectValue else { continue }
            let email = person["email"]?.stringValue ?? ""
            if email.caseInsensitiveEquals(key == "creator" ? viewer : calendar.id) {
                person["self"] = true
            } else {
                person["self"] = nil
            }
            json[key] = .object(person)
        }
        if let attendees = json["attendees"]?.arrayValue {
            json["attendees"] = .array(attendees.map { attendee in
                guard var object = attendee.objectValue else { return attendee }
                if object["email"]?.stringValue?.caseInsensitiveEquals(calendar.id) == true { object["self"] = true }
                return .object(object)
            })
        }
        return .object(json)
    }

    func page(
        _ items: [Item], request: ServerRequest, maxResults: Int, entry: GoogleListEntry, calendar: GoogleCalendarRecord,
        zone: TimeZone, zoneName: String, syncScope: String?, viewer: String
    ) -> ServerResponse {
        let offset = (try? Self.pageOffset(request)) ?? 0
        let slice = Array(items.dropFirst(offset).prefix(maxResults))
        let latest = calendar.events.values.map(\.updated).max() ?? GoogleTime.formatTimestamp(calendar.created)
        var body: [String: GoogleJSON] = [
            "kind": "calendar#events",
            "etag": .string(Self.etag(state.changeCounter)),
            "summary": .string(entry.summaryOverride ?? calendar.summary),
            "updated": .string(latest),
            "timeZone": .string(zoneName),
            "accessRole": .string(entry.accessRole),
            "defaultReminders": .array(entry.defaultReminders),
            "items": .array(slice.map { render($0.resource, entry: entry, calendar: calendar, zone: zone, viewer: viewer) }),
        ]
        if let description = calendar.description { body["description"] = .string(description) }
        if offset + slice.count < items.count {
            body["nextPageToken"] = .string(Self.pageToken(offset: offset + slice.count))
        } else if let syncScope {
            body["nextSyncToken"] = .string(Self.syncToken(scope: syncScope, change: state.changeCounter, epoch: state.epoch))
        }
        guard let fields = request.queryValue("fields") else { return Self.okJSON(.object(body)) }
        do {
            return Self.okJSON(try GoogleFieldSelection(parsingEventsFields: fields).project(.object(body)))
        } catch {
            return error.response
        }
    }

    // MARK: Parameters

    /// An RFC 3339 query parameter with a mandatory offset; Google answers 400 `badRequest` otherwise.
    static func timeParameter(_ request: ServerRequest, _ name: String) throws(GoogleAPIError) -> Date? {
        guard let text = request.queryValue(name) else { return nil }
        guard let instant = GoogleTime.parseDateTime(text)?.instant else { throw GoogleAPIError.badRequest }
        return instant
    }

    static func propertyFilters(_ values: [String], _ name: String) throws(GoogleAPIError) -> [(String, String)] {
        var filters: [(String, String)] = []
        for value in values {
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                throw .invalid("Invalid extended property filter: \(value)", parameter: name)
            }
            filters.append((String(value[..<equals]), String(value[value.index(after: equals)...])))
        }
        return filters
    }

    static func matches(_ resource: [String: GoogleJSON], privateFilters: [(String, String)], sharedFilters: [(String, String)]) -> Bool {
        let properties = resource["extendedProperties"]
        for (key, value) in privateFilters where properties?["private"]?[key]?.stringValue != value { return false }
        for (key, value) in sharedFilters where properties?["shared"]?[key]?.stringValue != value { return false }
        return true
    }

    static func matchesText(_ resource: [String: GoogleJSON], _ text: String) -> Bool {
        var haystack = ["summary", "description", "location"].compactMap { resource[$0]?.stringValue }
        for attendee in resource["attendees"]?.arrayValue ?? [] {
            haystack += [attendee["email"]?.stringValue, attendee["displayName"]?.stringValue].compactMap { $0 }
        }
        haystack += [resource["organizer"]?["email"]?.stringValue, resource["organizer"]?["displayName"]?.stringValue].compactMap { $0 }
        return text.split(separator: " ").allSatisfy { word in haystack.contains { $0.lowercased().contains(word) } }
    }

    /// Google's window test: an event's end after timeMin and its start before timeMax.
    static func overlaps(start: Date, end: Date, _ timeMin: Date?, _ timeMax: Date?) -> Bool {
        if let timeMin, !(end > timeMin || (end == start && start >= timeMin)) { return false }
        if let timeMax, !(start < timeMax) { return false }
        return true
    }
}
