import CalendarBridge
import Foundation
import ICalendar
import LoopbackServer

/// GET, PUT (RFC 4791 §5.3.2, with RFC 7232's `If-Match`/`If-None-Match`), DELETE and MKCALENDAR (§5.3.1).
extension CalDAVEmulator {
    func get(target: Target, user: CalDAVServiceState.User) -> ServerResponse {
        guard case .resource(_, let id, let name) = target else {
            return ServerResponse(status: 405, headers: ["Allow": "OPTIONS, PROPFIND, REPORT"])
        }
        guard let resource = user.calendars[id]?.resources[name] else { return .text(404, "Not Found\n") }
        return ServerResponse(
            status: 200, headers: ["Content-Type": "text/calendar; charset=utf-8", "ETag": resource.etag], body: Data(resource.text.utf8))
    }

    func put(_ request: ServerRequest, target: Target, user: CalDAVServiceState.User) -> ServerResponse {
        guard case .resource(_, let id, let name) = target else {
            return ServerResponse(status: 405, headers: ["Allow": "OPTIONS, PROPFIND, REPORT, MKCALENDAR, DELETE"])
        }
        // RFC 4918 §9.7.1: a PUT into a collection that does not exist.
        guard var calendar = user.calendars[id] else { return .text(409, "Conflict: no calendar \(id)\n") }
        guard !calendar.readOnly else {
            return DAVMultistatus.error(403, DAVNS.dav, "need-privileges", "the calendar \(calendar.name) is read-only")
        }
        let existing = calendar.resources[name]
        if let refusal = Self.preconditionRefusal(request, current: existing?.etag) { return refusal }
        guard var text = String(data: request.body, encoding: .utf8), text.contains("BEGIN:VCALENDAR") else {
            return DAVMultistatus.error(403, DAVNS.caldav, "supported-calendar-data", "the body is not text/calendar")
        }
        let zone = calendar.timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(secondsFromGMT: 0)!
        let file: ICalendarFile
        do {
            file = try ICalendarReader.read(text, floatingZone: zone)
        } catch {
            return DAVMultistatus.error(403, DAVNS.caldav, "valid-calendar-data", "\(error)")
        }
        let uids = Self.uids(text)
        guard uids.count == 1, let uid = uids.first else {
            // RFC 4791 §4.1: one resource holds the components of one UID.
            return DAVMultistatus.error(403, DAVNS.caldav, "valid-calendar-object-resource", "a resource holds exactly one UID")
        }
        guard !file.events.isEmpty else {
            return DAVMultistatus.error(403, DAVNS.caldav, "supported-calendar-component", "this calendar keeps VEVENTs only")
        }
        if let (other, _) = calendar.resources.first(where: { $0.key != name && $0.value.uid == uid }) {
            let href = "<d:href>\(DAVMultistatus.escape(Self.resourcePath(user.id, id, other)))</d:href>"
            return DAVMultistatus.error(quirks.refusals == .radicale ? 409 : 412, DAVNS.caldav, "no-uid-conflict", content: href)
        }
        if quirks.dropsXProperties { text = Self.droppingXProperties(text) }
        calendar.version += 1
        let etag = Self.etag(text, version: calendar.version)
        calendar.resources[name] = CalDAVServiceState.Resource(text: text, uid: uid, etag: etag, version: calendar.version)
        calendar.removed[name] = nil
        state.users[user.userName.lowercased()]?.calendars[id] = calendar
        var response = ServerResponse(status: existing == nil ? 201 : 204)
        // RFC 4791 §5.3.4: no ETag when what is stored is not what was sent.
        if !quirks.dropsXProperties { response.headers["ETag"] = etag }
        return response
    }

    func delete(_ request: ServerRequest, target: Target, user: CalDAVServiceState.User) -> ServerResponse {
        switch target {
        case .resource(_, let id, let name):
            guard var calendar = user.calendars[id], let existing = calendar.resources[name] else { return .text(404, "Not Found\n") }
            guard !calendar.readOnly else {
                return DAVMultistatus.error(403, DAVNS.dav, "need-privileges", "the calendar \(calendar.name) is read-only")
            }
            if let refusal = Self.preconditionRefusal(request, current: existing.etag) { return refusal }
            calendar.version += 1
            calendar.resources[name] = nil
            calendar.removed[name] = calendar.version
            state.users[user.userName.lowercased()]?.calendars[id] = calendar
            return ServerResponse(status: 204)
        case .calendar(_, let id):
            guard user.calendars[id] != nil else { return .text(404, "Not Found\n") }
            state.users[user.userName.lowercased()]?.calendars[id] = nil
            return ServerResponse(status: 204)
        default:
            return ServerResponse(status: 403)
        }
    }

    func mkcalendar(_ request: ServerRequest, target: Target, user: CalDAVServiceState.User) -> ServerResponse {
        guard case .calendar(_, let id) = target else { return ServerResponse(status: 403) }
        // RFC 4791 §5.3.1: the URL must not be mapped yet.
        guard user.calendars[id] == nil else {
            return DAVMultistatus.error(405, DAVNS.dav, "resource-must-be-null", "\(id) exists")
        }
        var name = id
        var color: String?
        var zone: String?
        if !request.body.isEmpty {
            guard let body = DAVNode.parse(request.body), body.isNamed(DAVNS.caldav, "mkcalendar") else {
                return .text(400, "Bad Request: the body is not a CALDAV:mkcalendar\n")
            }
            for prop in body.all(DAVNS.dav, "set").compactMap({ $0.child(DAVNS.dav, "prop") }).flatMap(\.children) {
                switch (prop.namespace, prop.name) {
                case (DAVNS.dav, "displayname"): name = prop.text
                case (DAVNS.apple, "calendar-color"): color = prop.text
                case (DAVNS.caldav, "calendar-timezone"):
                    zone = prop.text.components(separatedBy: "\n").first { $0.hasPrefix("TZID:") }.map {
                        String($0.dropFirst(5)).trimmingCharacters(in: .whitespacesAndNewlines)
                    }
                default: break
                }
            }
        }
        let order = (user.calendars.values.map(\.order).max() ?? 0) + 1
        // The key keeps this collection's tokens apart from a deleted one's of the same name.
        let key = "\(user.id)-\(id)-\(user.calendars.count)-\(Int(Date().timeIntervalSince1970 * 1000) % 1_000_000)"
        state.users[user.userName.lowercased()]?.calendars[id] = Self.newCalendar(
            id: id, name: name, color: color, timeZone: zone, order: order, readOnly: false, key: key)
        return ServerResponse(status: 201)
    }

    /// RFC 7232 §3.1-3.2 for a resource whose current ETag is `current` (nil: it does not exist): 412 when
    /// `If-Match` names none of its tags (or it does not exist), or `If-None-Match: *` finds it existing.
    static func preconditionRefusal(_ request: ServerRequest, current: String?) -> ServerResponse? {
        if let match = request.headers["If-Match"] {
            let tags = match.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let current, tags.contains("*") || tags.contains(current) else {
                return .text(412, "Precondition Failed: the resource's ETag is not \(match)\n")
            }
        }
        if let noneMatch = request.headers["If-None-Match"] {
            let tags = noneMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if let current, tags.contains("*") || tags.contains(current) {
                return .text(412, "Precondition Failed: the resource exists\n")
            }
        }
        return nil
    }

    /// The UIDs of the text's components (unfolded lines).
    static func uids(_ text: String) -> Set<String> {
        var uids: Set<String> = []
        var inTimeZone = false
        for line in unfolded(text) {
            let upper = line.uppercased()
            if upper.hasPrefix("BEGIN:VTIMEZONE") { inTimeZone = true }
            if upper.hasPrefix("END:VTIMEZONE") { inTimeZone = false }
            guard !inTimeZone, upper.hasPrefix("UID:") || upper.hasPrefix("UID;") else { continue }
            if let colon = line.firstIndex(of: ":") { uids.insert(String(line[line.index(after: colon)...])) }
        }
        return uids
    }

    /// The text without its X- properties (a server that keeps only what it knows), lines otherwise as sent.
    static func droppingXProperties(_ text: String) -> String {
        let lines = unfolded(text).filter { !$0.uppercased().hasPrefix("X-") }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// RFC 5545 §3.1: a line break followed by a space or tab continues the line.
    static func unfolded(_ text: String) -> [String] {
        var lines: [String] = []
        for raw in text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: true) {
            if let first = raw.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += raw.dropFirst()
            } else {
                lines.append(String(raw))
            }
        }
        return lines
    }
}
