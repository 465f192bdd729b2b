import CalendarBridge
import Foundation
import ICalendar
import LoopbackServer

/// REPORTs of a calendar: `calendar-query` (RFC 4791 §7.8), `calendar-multiget` (§7.9) and
/// `sync-collection` (RFC 6578 §3).
extension CalDAVEmulator {
    func report(_ request: ServerRequest, target: Target, user: CalDAVServiceState.User) async -> ServerResponse {
        guard case .calendar(_, let id) = target else {
            return DAVMultistatus.error(403, DAVNS.dav, "supported-report", "reports are answered on a calendar collection")
        }
        guard let calendar = user.calendars[id] else { return Self.notFound(request) }
        guard let body = DAVNode.parse(request.body) else {
            return DAVMultistatus.error(400, DAVNS.dav, "supported-report", "the body is not well-formed XML")
        }
        let requested = body.child(DAVNS.dav, "prop")?.children.map { (namespace: $0.namespace, name: $0.name) } ?? []
        if body.isNamed(DAVNS.caldav, "calendar-query") {
            return await calendarQuery(body, requested: requested, calendar: calendar, user: user)
        }
        if body.isNamed(DAVNS.caldav, "calendar-multiget") {
            var answer = DAVMultistatus()
            for href in body.all(DAVNS.dav, "href") {
                let text = href.text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard let named = Self.resolve(href: text), named.user == user.id, named.calendar == id,
                    let resource = calendar.resources[named.name]
                else {
                    answer.add(href: text, status: 404)
                    continue
                }
                add(resource, name: named.name, calendar: calendar, user: user, requested: requested, to: &answer)
            }
            return answer.response
        }
        if body.isNamed(DAVNS.dav, "sync-collection"), quirks.syncCollection {
            return syncCollection(body, requested: requested, calendar: calendar, user: user)
        }
        // RFC 3253 §3.6: a report the resource does not support.
        return DAVMultistatus.error(403, DAVNS.dav, "supported-report", "the report \(body.name) is not supported here")
    }

    /// Every resource with a component in the filter's time range; all of them without one. Never cut short.
    func calendarQuery(
        _ body: DAVNode, requested: [PropertyName], calendar: CalDAVServiceState.Calendar, user: CalDAVServiceState.User
    ) async -> ServerResponse {
        let calendarFilter = body.child(DAVNS.caldav, "filter")?.child(DAVNS.caldav, "comp-filter")
        guard calendarFilter == nil || calendarFilter?.attributes["name"]?.uppercased() == "VCALENDAR" else {
            return DAVMultistatus.error(403, DAVNS.caldav, "valid-filter", "the outer comp-filter names VCALENDAR")
        }
        let componentFilter = calendarFilter?.child(DAVNS.caldav, "comp-filter")
        if let name = componentFilter?.attributes["name"]?.uppercased(), name != "VEVENT" {
            // Only events are kept: a query for to-dos or journals finds nothing.
            return DAVMultistatus().response
        }
        var range: TimeRange?
        if let timeRange = componentFilter?.child(DAVNS.caldav, "time-range") {
            let start = timeRange.attributes["start"].map(Self.utcTime)
            let end = timeRange.attributes["end"].map(Self.utcTime)
            if start == .some(nil) || end == .some(nil) {
                return DAVMultistatus.error(403, DAVNS.caldav, "valid-filter", "time-range start and end are UTC date-times")
            }
            range = TimeRange(start: start.flatMap { $0 } ?? .distantPast, end: end.flatMap { $0 } ?? .distantFuture)
        }
        var answer = DAVMultistatus()
        for (name, resource) in calendar.resources.sorted(by: { $0.key < $1.key }) {
            if let range, !(await overlaps(resource, calendar: calendar, range: range)) { continue }
            add(resource, name: name, calendar: calendar, user: user, requested: requested, to: &answer)
        }
        return answer.response
    }

    /// RFC 6578: the members changed since the token (with the properties asked for) and the removed ones
    /// (404), oldest change first; cut with a 507 on the collection at the client's `DAV:limit` or the
    /// service's page size, the token then naming the last change sent.
    func syncCollection(
        _ body: DAVNode, requested: [PropertyName], calendar: CalDAVServiceState.Calendar, user: CalDAVServiceState.User
    ) -> ServerResponse {
        let token = body.child(DAVNS.dav, "sync-token")?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        var since = 0
        if !token.isEmpty {
            guard let version = calendar.version(ofToken: token) else {
                return DAVMultistatus.error(
                    quirks.refusals == .radicale ? 403 : 412, DAVNS.dav, "valid-sync-token", "the sync token is unknown or expired")
            }
            since = version
        }
        enum Change {
            case written(String, CalDAVServiceState.Resource)
            case removed(String)
        }
        var changes: [(version: Int, change: Change)] = calendar.resources.filter { $0.value.version > since }
            .map { ($0.value.version, .written($0.key, $0.value)) }
        // The initial read lists what exists; removals only follow a token.
        if !token.isEmpty { changes += calendar.removed.filter { $0.value > since }.map { ($0.value, .removed($0.key)) } }
        changes.sort { $0.version < $1.version }
        let limit = body.child(DAVNS.dav, "limit")?.child(DAVNS.dav, "nresults").flatMap {
            Int($0.text.trimmingCharacters(in: .whitespaces))
        }
        let page = [limit, quirks.syncPageSize].compactMap { $0 }.filter { $0 > 0 }.min()
        var answer = DAVMultistatus()
        var reached = calendar.version
        var sent = changes
        if let page, changes.count > page {
            sent = Array(changes.prefix(page))
            reached = sent.last?.version ?? since
        }
        for (_, change) in sent {
            switch change {
            case .written(let name, let resource):
                add(resource, name: name, calendar: calendar, user: user, requested: requested, to: &answer)
            case .removed(let name):
                answer.add(href: Self.resourcePath(user.id, calendar.id, name), status: 404)
            }
        }
        if sent.count < changes.count { answer.add(href: Self.calendarPath(user.id, calendar.id), status: 507) }
        answer.syncToken = calendar.syncToken(reached)
        return answer.response
    }

    /// One resource in a report: `getetag` and `calendar-data` (the stored text, whole) as asked.
    func add(
        _ resource: CalDAVServiceState.Resource, name: String, calendar: CalDAVServiceState.Calendar, user: CalDAVServiceState.User,
        requested: [PropertyName], to answer: inout DAVMultistatus
    ) {
        var available = resourceProperties(resource)
        available.append(.text(DAVNS.caldav, "calendar-data", resource.text))
        var found: [Property] = []
        var missing: [PropertyName] = []
        for name in requested.isEmpty ? [(DAVNS.dav, "getetag")] : requested {
            if let property = available.first(where: { $0.namespace == name.namespace && $0.name == name.name }) {
                found.append(property)
            } else {
                missing.append(name)
            }
        }
        answer.add(href: Self.resourcePath(user.id, calendar.id, name), found: found, missing: missing)
    }

    /// Whether any instance of the resource's events overlaps `range` (RFC 4791 §9.9), series expanded by
    /// libical; floating times are in the calendar's zone (§7.3).
    func overlaps(_ resource: CalDAVServiceState.Resource, calendar: CalDAVServiceState.Calendar, range: TimeRange) async -> Bool {
        let key = calendar.tokenKey + "/" + resource.etag
        let file: ICalendarFile
        if let cached = parsed[key] {
            file = cached
        } else {
            let zone = calendar.timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(secondsFromGMT: 0)!
            guard let read = try? ICalendarReader.read(resource.text, floatingZone: zone) else { return false }
            parsed[key] = read
            file = read
        }
        let provider = ICalendarFileProvider(file: file, account: "sandbox")
        let events = (try? await provider.listEvents(calendarID: ICalendarFileProvider.calendarID, range: range, expand: true)) ?? []
        return !events.isEmpty
    }

    /// `20270101T000000Z` (RFC 4791 §9.9: UTC date-times).
    static func utcTime(_ text: String) -> Date? {
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let digits = text.trimmingCharacters(in: .whitespaces)
        guard digits.count == 16, digits.hasSuffix("Z"), Array(digits)[8] == "T" else { return nil }
        let chars = Array(digits)
        func number(_ from: Int, _ length: Int) -> Int? { Int(String(chars[from..<from + length])) }
        guard let year = number(0, 4), let month = number(4, 2), let day = number(6, 2), let hour = number(9, 2),
            let minute = number(11, 2), let second = number(13, 2)
        else { return nil }
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    }
}
