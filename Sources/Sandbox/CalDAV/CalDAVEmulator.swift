import CalendarBridge
import Foundation
import HTTP
import ICalendar
import LoopbackServer

/// A CalDAV service (RFC 4791, RFC 6578 sync, RFC 6764 discovery) shaped like iCloud's, written from the
/// RFCs and independent of `Providers/CalDAV`: HTTP Basic authentication with an app password,
/// `/.well-known/caldav` redirecting to the context path `/caldav/`, `current-user-principal`,
/// `calendar-home-set`, one PROPFIND of the home for every calendar's properties, `calendar-query` with a
/// time range (never truncated), `calendar-multiget`, PUT with `If-None-Match`/`If-Match`, DELETE,
/// `sync-collection` with tokens and 507 paging, MKCALENDAR. Resources are kept as the text that was PUT;
/// libical (through `ICalendar`) reads them only to decide time ranges.
///
/// Paths: `/caldav/<id>/principal/`, the home `/caldav/<id>/calendars/`, a calendar
/// `/caldav/<id>/calendars/<calendar>/`, a resource `/caldav/<id>/calendars/<calendar>/<name>.ics`.
/// Where real servers differ, `CalDAVQuirks` chooses (Radicale's or Xandikos's refusals, no sync-collection,
/// dropped X- properties).
package actor CalDAVEmulator: SandboxComponent {
    var state: CalDAVServiceState
    let quirks: CalDAVQuirks
    /// Parsed resources, by calendar path and ETag (parsing is the expensive part of a time-range query).
    var parsed: [String: ICalendarFile] = [:]

    /// The service as a member of the sandbox's list.
    package static let contextPath = "/caldav/"

    /// - Parameters:
    ///   - seed: the `caldav` part of the sandbox's seed.
    ///   - now: the sandbox's clock (seed times are relative to its week).
    package init(seed: Data, quirks: CalDAVQuirks = CalDAVQuirks(), now: Date) throws {
        let parsedSeed = try CalDAVSeed.parse(seed)
        var users: [String: CalDAVServiceState.User] = [:]
        for (userIndex, user) in parsedSeed.users.enumerated() {
            var calendars: [String: CalDAVServiceState.Calendar] = [:]
            for (index, calendar) in (user.calendars ?? []).enumerated() {
                var made = Self.newCalendar(
                    id: calendar.id, name: calendar.name, color: calendar.color, timeZone: calendar.timeZone,
                    order: calendar.order ?? index + 1, readOnly: calendar.access == "read", key: "u\(userIndex)c\(index)")
                for event in calendar.events ?? [] {
                    let text = try CalDAVSeed.resource(event, calendarZone: calendar.timeZone ?? "UTC", now: now)
                    made.version += 1
                    made.resources[event.uid + ".ics"] = CalDAVServiceState.Resource(
                        text: text, uid: event.uid, etag: Self.etag(text, version: made.version), version: made.version)
                }
                calendars[calendar.id] = made
            }
            users[user.userName.lowercased()] = CalDAVServiceState.User(
                id: user.id, userName: user.userName, password: user.password, displayName: user.displayName, calendars: calendars)
        }
        state = CalDAVServiceState(users: users)
        self.quirks = quirks
    }

    static func newCalendar(
        id: String, name: String, color: String?, timeZone: String?, order: Int, readOnly: Bool, key: String
    ) -> CalDAVServiceState.Calendar {
        CalDAVServiceState.Calendar(
            id: id, name: name, color: color, timeZone: timeZone, order: order, readOnly: readOnly, tokenKey: key, version: 0,
            oldestToken: 0, resources: [:], removed: [:])
    }

    /// A strong ETag that changes with every write (RFC 7232 §2.3).
    static func etag(_ text: String, version: Int) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "\"\(version)-\(String(hash, radix: 16))\""
    }

    // MARK: - SandboxComponent

    package func snapshot() async throws -> Data { try JSONEncoder().encode(state) }

    package func restore(_ snapshot: Data) async throws {
        state = try JSONDecoder().decode(CalDAVServiceState.self, from: snapshot)
        parsed = [:]
    }

    package func passwordAccounts() async -> [SandboxPasswordAccount] {
        state.users.values.sorted { $0.id < $1.id }.map {
            SandboxPasswordAccount(service: "caldav", user: $0.userName, password: $0.password)
        }
    }

    /// Refuses every sync token issued so far, as a server does whose token age limit passed (Radicale's
    /// `--storage-max-sync-token-age`).
    package func expireSyncTokens() {
        // A new change number (a change of nothing) is the first valid token; every earlier one is refused.
        for (userKey, user) in state.users {
            for (id, calendar) in user.calendars {
                var expired = calendar
                expired.version += 1
                expired.oldestToken = expired.version
                state.users[userKey]?.calendars[id] = expired
            }
        }
    }

    /// The stored text of a resource (tests compare it with what they sent).
    package func storedText(user: String, calendar: String, name: String) -> String? {
        state.users[user.lowercased()]?.calendars[calendar]?.resources[name]?.text
    }

    package func handle(_ request: ServerRequest) async -> ServerResponse? {
        let path = request.rawPath
        if path == "/.well-known/caldav" || path == "/.well-known/caldav/" {
            // RFC 6764 §5: the well-known URI redirects to the context path.
            return ServerResponse(status: 301, headers: ["Location": Self.contextPath])
        }
        // The root answers PROPFIND too, as iCloud's does (a client given the host alone).
        let isContext = path == "/caldav" || path.hasPrefix(Self.contextPath)
        guard isContext || (path == "/" && request.method == "PROPFIND") else { return nil }
        if request.method == "OPTIONS" { return options() }
        guard let user = authenticate(request) else {
            return ServerResponse(
                status: 401, headers: ["WWW-Authenticate": "Basic realm=\"Sandbox CalDAV\"", "Content-Type": "text/plain; charset=utf-8"],
                body: Data("Unauthorized\n".utf8))
        }
        let segments = request.pathSegments.first == "caldav" ? Array(request.pathSegments.dropFirst()) : []
        let target: Target
        switch segments.count {
        case 0: target = .context
        case 2 where segments[1] == "principal": target = .principal(segments[0])
        case 2 where segments[1] == "calendars": target = .home(segments[0])
        case 3 where segments[1] == "calendars": target = .calendar(segments[0], segments[2])
        case 4 where segments[1] == "calendars": target = .resource(segments[0], segments[2], segments[3])
        default: return Self.notFound(request)
        }
        if let owner = target.owner, owner != user.id {
            // Another account's data: iCloud answers as if it did not exist for this user.
            return DAVMultistatus.error(403, DAVNS.dav, "need-privileges", "not your account")
        }
        switch request.method {
        case "PROPFIND": return propfind(request, target: target, user: user)
        case "REPORT": return await report(request, target: target, user: user)
        case "GET", "HEAD": return get(target: target, user: user)
        case "PUT": return put(request, target: target, user: user)
        case "DELETE": return delete(request, target: target, user: user)
        case "MKCALENDAR": return mkcalendar(request, target: target, user: user)
        default:
            return ServerResponse(status: 405, headers: ["Allow": Self.allowed], body: Data())
        }
    }

    // MARK: - Targets

    /// What a path names.
    enum Target {
        case context
        case principal(String)
        case home(String)
        case calendar(String, String)
        case resource(String, String, String)

        var owner: String? {
            switch self {
            case .context: nil
            case .principal(let id), .home(let id), .calendar(let id, _), .resource(let id, _, _): id
            }
        }
    }

    static let allowed = "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, REPORT, MKCALENDAR"

    func options() -> ServerResponse {
        ServerResponse(
            status: 200,
            headers: ["DAV": "1, 2, 3, calendar-access" + (quirks.syncCollection ? ", sync-collection" : ""), "Allow": Self.allowed])
    }

    static func notFound(_ request: ServerRequest) -> ServerResponse {
        .text(404, "Not Found: \(request.method) \(request.rawPath)\n")
    }

    /// The user whose user name and app password the request carries (RFC 7617), or nil.
    func authenticate(_ request: ServerRequest) -> CalDAVServiceState.User? {
        guard let header = request.headers["Authorization"], header.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        let name = String(text[..<colon]).lowercased()
        let password = String(text[text.index(after: colon)...])
        guard let user = state.users[name], user.password == password else { return nil }
        return user
    }

    static func principalPath(_ id: String) -> String { contextPath + id + "/principal/" }
    static func homePath(_ id: String) -> String { contextPath + id + "/calendars/" }
    static func calendarPath(_ id: String, _ calendar: String) -> String { homePath(id) + escapeSegment(calendar) + "/" }
    static func resourcePath(_ id: String, _ calendar: String, _ name: String) -> String {
        calendarPath(id, calendar) + escapeSegment(name)
    }

    static func escapeSegment(_ segment: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;")
        return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
    }

    /// The (user, calendar id, resource name) an href in a request body names, or nil.
    static func resolve(href: String) -> (user: String, calendar: String, name: String)? {
        var path = href.trimmingCharacters(in: .whitespacesAndNewlines)
        if let url = URL(string: path), url.scheme != nil { path = url.path(percentEncoded: true) }
        let segments = path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
        guard segments.count == 5, segments[0] == "caldav", segments[2] == "calendars" else { return nil }
        return (segments[1], segments[3], segments[4])
    }
}

/// Where the sandbox's CalDAV service behaves as one real server rather than another.
package struct CalDAVQuirks: Sendable, Equatable {
    /// Whose refusals the service copies where the RFCs leave the status open.
    package enum Refusals: String, Sendable, Equatable, CaseIterable {
        /// An unknown or expired sync token: 403 `valid-sync-token`; a UID in use: 409 `no-uid-conflict`.
        case radicale
        /// An unknown or expired sync token: 412 `valid-sync-token`; a UID in use: 412 `no-uid-conflict`.
        case xandikos
    }

    package var refusals: Refusals
    /// Whether `sync-collection` (RFC 6578) is supported; without it there is no `sync-token` property and the
    /// REPORT is refused with `supported-report` (the client falls back to ctag and ETags).
    package var syncCollection: Bool
    /// Whether X- properties are removed from what is stored (some servers keep only what they know); the
    /// PUT's answer then carries no ETag (RFC 4791 §5.3.4).
    package var dropsXProperties: Bool
    /// The most changes one `sync-collection` answer carries before it is cut with a 507 (RFC 6578 §3.6);
    /// nil: only a client's `DAV:limit` cuts it.
    package var syncPageSize: Int?

    package init(refusals: Refusals = .radicale, syncCollection: Bool = true, dropsXProperties: Bool = false, syncPageSize: Int? = nil) {
        self.refusals = refusals
        self.syncCollection = syncCollection
        self.dropsXProperties = dropsXProperties
        self.syncPageSize = syncPageSize
    }
}
