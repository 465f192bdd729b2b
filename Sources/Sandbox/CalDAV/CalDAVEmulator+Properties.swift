import CalendarBridge
import Foundation
import ICalendar
import LoopbackServer

/// PROPFIND (RFC 4918 §9.1) of the context path, a principal, the home, a calendar and a resource.
extension CalDAVEmulator {
    typealias Property = DAVMultistatus.Property
    typealias PropertyName = (namespace: String, name: String)

    func propfind(_ request: ServerRequest, target: Target, user: CalDAVServiceState.User) -> ServerResponse {
        // An empty body asks for all properties (RFC 4918 §9.1).
        var requested: [PropertyName]?
        if !request.body.isEmpty {
            guard let body = DAVNode.parse(request.body), body.isNamed(DAVNS.dav, "propfind") else {
                return DAVMultistatus.error(400, DAVNS.dav, "propfind", "the body is not a DAV:propfind")
            }
            if let prop = body.child(DAVNS.dav, "prop") { requested = prop.children.map { ($0.namespace, $0.name) } }
        }
        let depth = request.headers["Depth"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? "infinity"
        var answer = DAVMultistatus()
        func add(_ href: String, _ properties: [Property]) {
            guard let requested else {
                answer.add(href: href, found: properties)
                return
            }
            var found: [Property] = []
            var missing: [PropertyName] = []
            for name in requested {
                if let property = properties.first(where: { $0.namespace == name.namespace && $0.name == name.name }) {
                    found.append(property)
                } else {
                    missing.append(name)
                }
            }
            answer.add(href: href, found: found, missing: missing)
        }
        let userPrincipal = Property.href(DAVNS.dav, "current-user-principal", Self.principalPath(user.id))
        switch target {
        case .context:
            add(request.rawPath, [Property(DAVNS.dav, "resourcetype", "<d:collection/>"), userPrincipal])
        case .principal:
            add(Self.principalPath(user.id), principalProperties(user) + [userPrincipal])
        case .home:
            add(
                Self.homePath(user.id),
                [
                    Property(DAVNS.dav, "resourcetype", "<d:collection/>"), userPrincipal,
                    Property.href(DAVNS.dav, "owner", Self.principalPath(user.id)),
                    Property(DAVNS.dav, "current-user-privilege-set", Self.privileges(readOnly: false)),
                ])
            if depth != "0" {
                // Depth infinity is taken as 1 (RFC 4918 lets a server refuse it; the home is one level deep).
                for calendar in user.calendars.values.sorted(by: { ($0.order, $0.id) < ($1.order, $1.id) }) {
                    add(Self.calendarPath(user.id, calendar.id), calendarProperties(calendar, user: user) + [userPrincipal])
                }
            }
        case .calendar(_, let id):
            guard let calendar = user.calendars[id] else { return Self.notFound(request) }
            add(Self.calendarPath(user.id, id), calendarProperties(calendar, user: user) + [userPrincipal])
            if depth != "0" {
                for (name, resource) in calendar.resources.sorted(by: { $0.key < $1.key }) {
                    add(Self.resourcePath(user.id, id, name), resourceProperties(resource))
                }
            }
        case .resource(_, let id, let name):
            guard let resource = user.calendars[id]?.resources[name] else { return Self.notFound(request) }
            add(Self.resourcePath(user.id, id, name), resourceProperties(resource))
        }
        return answer.response
    }

    func principalProperties(_ user: CalDAVServiceState.User) -> [Property] {
        [
            Property(DAVNS.dav, "resourcetype", "<d:collection/><d:principal/>"),
            Property.text(DAVNS.dav, "displayname", user.displayName),
            Property.href(DAVNS.dav, "principal-URL", Self.principalPath(user.id)),
            Property.href(DAVNS.caldav, "calendar-home-set", Self.homePath(user.id)),
            Property(DAVNS.caldav, "calendar-user-address-set", "<d:href>mailto:\(DAVMultistatus.escape(user.userName))</d:href>"),
        ]
    }

    func calendarProperties(_ calendar: CalDAVServiceState.Calendar, user: CalDAVServiceState.User) -> [Property] {
        var properties = [
            Property(DAVNS.dav, "resourcetype", "<d:collection/><c:calendar/>"),
            Property.text(DAVNS.dav, "displayname", calendar.name),
            Property.href(DAVNS.dav, "owner", Self.principalPath(user.id)),
            Property(DAVNS.caldav, "supported-calendar-component-set", #"<c:comp name="VEVENT"/>"#),
            Property(DAVNS.dav, "current-user-privilege-set", Self.privileges(readOnly: calendar.readOnly)),
            Property.text(DAVNS.calendarServer, "getctag", calendar.ctag),
            Property.text(DAVNS.apple, "calendar-order", String(calendar.order)),
            Property(DAVNS.dav, "supported-report-set", supportedReports()),
        ]
        if let color = calendar.color { properties.append(.text(DAVNS.apple, "calendar-color", color)) }
        if let zone = calendar.timeZone, let text = Self.timeZoneCalendar(zone) {
            properties.append(.text(DAVNS.caldav, "calendar-timezone", text))
        }
        if quirks.syncCollection { properties.append(.text(DAVNS.dav, "sync-token", calendar.syncToken(calendar.version))) }
        return properties
    }

    func resourceProperties(_ resource: CalDAVServiceState.Resource) -> [Property] {
        [
            Property(DAVNS.dav, "resourcetype"),
            Property.text(DAVNS.dav, "getetag", resource.etag),
            Property.text(DAVNS.dav, "getcontenttype", "text/calendar; charset=utf-8; component=vevent"),
            Property.text(DAVNS.dav, "getcontentlength", String(resource.text.utf8.count)),
        ]
    }

    func supportedReports() -> String {
        var reports = ["<c:calendar-query/>", "<c:calendar-multiget/>"]
        if quirks.syncCollection { reports.append("<d:sync-collection/>") }
        return reports.map { "<d:supported-report><d:report>\($0)</d:report></d:supported-report>" }.joined()
    }

    /// RFC 3744 §5.4: the owner may do everything (`all`, as iCloud and Radicale answer); a reader only read.
    static func privileges(readOnly: Bool) -> String {
        let names =
            readOnly
            ? ["read", "read-current-user-privilege-set"]
            : [
                "all", "read", "write", "write-properties", "write-content", "bind", "unbind", "read-acl", "write-acl",
                "read-current-user-privilege-set",
            ]
        return names.map { "<d:privilege><d:\($0)/></d:privilege>" }.joined()
    }

    /// A VCALENDAR holding only the zone's VTIMEZONE (RFC 4791 §5.2.2), taken from what libical writes for
    /// an event in that zone.
    static func timeZoneCalendar(_ zone: String) -> String? {
        guard TimeZone(identifier: zone) != nil else { return nil }
        let probe = Event(
            title: "zone", start: .timed(instant: Date(timeIntervalSince1970: 1_767_225_600), zone: zone),
            end: .timed(instant: Date(timeIntervalSince1970: 1_767_229_200), zone: zone))
        guard let text = try? ICalendarWriter.write([probe], attendeesAsText: false),
            let begin = text.range(of: "BEGIN:VTIMEZONE"), let end = text.range(of: "END:VTIMEZONE\r\n")
        else { return nil }
        return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calbridge sandbox//CalDAV//EN\r\n" + text[begin.lowerBound..<end.upperBound]
            + "END:VCALENDAR\r\n"
    }
}
