import Foundation
import HTTP
import Sandbox
import LoopbackServer

/// Talks to the sandbox's API emulators directly (no socket, no fault injection, no request-log entry),
/// with a seeded user's ready token: for seeding source events in the providers' own JSON and reading
/// the target back as the API stores it, independently of calbridge's providers.
struct SandboxAPI: Sendable {
    let sandbox: SandboxServer

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends one request as the first seeded user of `provider`; returns the status and decoded JSON.
    @discardableResult
    func send(_ provider: SandboxProvider, _ method: String, _ target: String, json: Any? = nil) async throws -> (
        status: Int, json: Any?
    ) {
        guard let account = sandbox.info.accounts.first(where: { $0.provider == provider }) else {
            throw Failed(description: "no \(provider) user in the sandbox")
        }
        var headers: HTTPHeaders = ["Authorization": "Bearer \(account.accessToken)"]
        var body = Data()
        if let json {
            body = try JSONSerialization.data(withJSONObject: json)
            headers["Content-Type"] = "application/json"
        }
        let request = ServerRequest(method: method, target: target, headers: headers, body: body)
        for named in sandbox.apiComponents {
            guard let response = await named.component.handle(request) else { continue }
            let decoded = response.body.isEmpty ? nil : try? JSONSerialization.jsonObject(with: response.body)
            return (response.status, decoded)
        }
        throw Failed(description: "no emulator answered \(method) \(target)")
    }

    /// Sends and requires a 2xx answer; returns the JSON object (empty for 204).
    @discardableResult
    func ok(_ provider: SandboxProvider, _ method: String, _ target: String, json: Any? = nil) async throws -> [String: Any] {
        let (status, answer) = try await send(provider, method, target, json: json)
        guard (200..<300).contains(status) else {
            throw Failed(description: "\(method) \(target) answered \(status): \(String(describing: answer))")
        }
        return answer as? [String: Any] ?? [:]
    }

    // MARK: Google (as ann)

    static func googlePath(_ calendarID: String, _ rest: String = "") -> String {
        "/calendar/v3/calendars/\(FormEncoding.percentEncode(calendarID))/events" + rest
    }

    /// The id of ann's calendar with this summary (or `primary`).
    func googleCalendarID(_ summary: String) async throws -> String {
        let list = try await ok(.google, "GET", "/calendar/v3/users/me/calendarList")
        let items = list["items"] as? [[String: Any]] ?? []
        if summary == "primary", let primary = items.first(where: { $0["primary"] as? Bool == true }) {
            return primary["id"] as! String
        }
        guard let item = items.first(where: { ($0["summaryOverride"] ?? $0["summary"]) as? String == summary }) else {
            throw Failed(description: "ann has no calendar '\(summary)'")
        }
        return item["id"] as! String
    }

    /// Inserts an event; `query` is appended to the path (`?conferenceDataVersion=1` keeps conference data).
    func googleInsert(_ calendarID: String, _ event: [String: Any], query: String = "") async throws -> [String: Any] {
        try await ok(.google, "POST", Self.googlePath(calendarID, query), json: event)
    }

    /// Every event of the calendar (`singleEvents` expands series), cancelled ones left out.
    func googleEvents(_ calendarID: String, singleEvents: Bool, from: String, to: String) async throws -> [[String: Any]] {
        var items: [[String: Any]] = []
        var page: String?
        repeat {
            var query = "?maxResults=2500&singleEvents=\(singleEvents)&timeMin=\(FormEncoding.percentEncode(from))"
            query += "&timeMax=\(FormEncoding.percentEncode(to))"
            if let page { query += "&pageToken=\(FormEncoding.percentEncode(page))" }
            let answer = try await ok(.google, "GET", Self.googlePath(calendarID, query))
            items += answer["items"] as? [[String: Any]] ?? []
            page = answer["nextPageToken"] as? String
        } while page != nil
        return items.filter { $0["status"] as? String != "cancelled" }
    }

    /// ann's calendar `summary` as stored in the copy window (series not expanded), cancelled ones left out.
    func googleStored(_ summary: String) async throws -> [[String: Any]] {
        let id = try await googleCalendarID(summary)
        return try await googleEvents(id, singleEvents: false, from: CopyFixtures.windowStart, to: CopyFixtures.windowEnd)
    }

    /// `googleStored` for a calendar reference `ann:NAME`.
    func googleStored(ref: String) async throws -> [[String: Any]] {
        try await googleStored(String(ref.dropFirst("ann:".count)))
    }

    /// ann's calendar `summary` as stored in the copy window (series not expanded), by title; two events
    /// with one title are an error (a copy written twice).
    func googleEventsByTitle(_ summary: String) async throws -> [String: [String: Any]] {
        try Self.byTitle(try await googleStored(summary), key: "summary")
    }

    func googleInstances(_ calendarID: String, _ eventID: String) async throws -> [[String: Any]] {
        let answer = try await ok(.google, "GET", Self.googlePath(calendarID, "/\(FormEncoding.percentEncode(eventID))/instances?maxResults=2500"))
        return answer["items"] as? [[String: Any]] ?? []
    }

    // MARK: Graph (as carol, default calendar unless a calendar id is given)

    static func graphEventsPath(_ calendarID: String?) -> String {
        calendarID.map { "/v1.0/me/calendars/\(FormEncoding.percentEncode($0))/events" } ?? "/v1.0/me/calendar/events"
    }

    func graphCalendarID(_ name: String) async throws -> String {
        let list = try await ok(.microsoft, "GET", "/v1.0/me/calendars")
        guard let item = (list["value"] as? [[String: Any]] ?? []).first(where: { $0["name"] as? String == name }) else {
            throw Failed(description: "carol has no calendar '\(name)'")
        }
        return item["id"] as! String
    }

    func graphCreate(_ event: [String: Any], calendarID: String? = nil) async throws -> [String: Any] {
        try await ok(.microsoft, "POST", Self.graphEventsPath(calendarID), json: event)
    }

    func graphInstances(_ eventID: String, from: String, to: String) async throws -> [[String: Any]] {
        let query = "?startDateTime=\(FormEncoding.percentEncode(from))&endDateTime=\(FormEncoding.percentEncode(to))&$top=1000"
        let answer = try await ok(.microsoft, "GET", "/v1.0/me/events/\(FormEncoding.percentEncode(eventID))/instances" + query)
        return answer["value"] as? [[String: Any]] ?? []
    }

    /// carol's calendar `name` as stored (series masters, not occurrences), by subject; two events with one
    /// subject are an error (a copy written twice).
    func graphEventsBySubject(_ name: String) async throws -> [String: [String: Any]] {
        try Self.byTitle(try await graphEvents(calendarID: try await graphCalendarID(name)), key: "subject")
    }

    static func byTitle(_ events: [[String: Any]], key: String) throws -> [String: [String: Any]] {
        var found: [String: [String: Any]] = [:]
        for event in events {
            let title = event[key] as? String ?? ""
            guard found[title] == nil else { throw Failed(description: "two events titled '\(title)'") }
            found[title] = event
        }
        return found
    }

    /// The calendar's events as stored (series masters, not occurrences), with their extended properties.
    func graphEvents(calendarID: String? = nil) async throws -> [[String: Any]] {
        var items: [[String: Any]] = []
        var next: String? = Self.graphEventsPath(calendarID) + "?$top=1000&$expand=singleValueExtendedProperties"
        while let target = next {
            let answer = try await ok(.microsoft, "GET", target)
            items += answer["value"] as? [[String: Any]] ?? []
            next = (answer["@odata.nextLink"] as? String).map { link in
                guard let range = link.range(of: "/v1.0/") else { return link }
                return String(link[range.lowerBound...])
            }
        }
        return items
    }
}

/// Records the body of every write (anything but GET) that reaches the API emulators, batches included.
final class WriteBodyRecorder: @unchecked Sendable {
    struct Write: Sendable {
        var method: String
        var path: String
        var body: String
    }

    private let lock = NSLock()
    private var writes: [Write] = []

    var all: [Write] { lock.withLock { writes } }

    func record(_ request: ServerRequest) {
        guard request.method != "GET" else { return }
        let write = Write(method: request.method, path: request.rawPath, body: String(decoding: request.body, as: UTF8.self))
        lock.withLock { writes.append(write) }
    }

    /// Whether a request body gives an event any attendee: an `"attendees"` key with anything but an empty
    /// list (clients may send `[]` to clear them). Works on batch envelopes too (the parts are JSON text).
    static func namesAttendees(_ body: String) -> Bool {
        var rest = Substring(body)
        while let key = rest.range(of: "\"attendees\"") {
            rest = rest[key.upperBound...]
            let value = rest.drop { $0 == ":" || $0.isWhitespace }
            guard value.hasPrefix("["), value.dropFirst().drop(while: \.isWhitespace).hasPrefix("]") else { return true }
        }
        return false
    }

    /// The sandbox's own emulators, each wrapped so that its writes are recorded first.
    var factory: SandboxComponentFactory {
        { [self] seed, tokens, now in
            var api = try SandboxServices.makeAPIComponents(seed: seed, tokens: tokens, now: now)
            api.components = api.components.map {
                SandboxNamedComponent(name: $0.name, component: Recording(inner: $0.component, recorder: self))
            }
            return api
        }
    }

    struct Recording: SandboxComponent {
        let inner: any SandboxComponent
        let recorder: WriteBodyRecorder

        func handle(_ request: ServerRequest) async -> ServerResponse? {
            let answer = await inner.handle(request)
            if answer != nil { recorder.record(request) }
            return answer
        }

        func snapshot() async throws -> Data { try await inner.snapshot() }
        func restore(_ snapshot: Data) async throws { try await inner.restore(snapshot) }
        func sentMails() async -> [SandboxInvitation] { await inner.sentMails() }
    }
}

extension SandboxSeed {
    /// The built-in users and calendars with no events, so a copy sees only what a test seeds.
    static var withoutEvents: SandboxSeed { withOutlookEvents([]) }

    /// `withoutEvents`, but carol's default Outlook calendar holds `events`: Microsoft seed entries (the
    /// format `GraphSeed` documents), for what the Graph API cannot create, such as custom-zone events.
    static func withOutlookEvents(_ events: [[String: Any]]) -> SandboxSeed {
        func strip(_ data: Data, firstUserEvents: [[String: Any]]) -> Data {
            guard var top = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return data }
            func clean(_ calendars: Any?, events: [[String: Any]]) -> [[String: Any]]? {
                (calendars as? [[String: Any]])?.map { calendar in
                    var calendar = calendar
                    calendar["events"] = calendar["isDefaultCalendar"] as? Bool == true ? events : []
                    return calendar
                }
            }
            if let calendars = clean(top["calendars"], events: []) { top["calendars"] = calendars }
            if let users = top["users"] as? [[String: Any]] {
                top["users"] = users.enumerated().map { index, user in
                    var user = user
                    if let calendars = clean(user["calendars"], events: index == 0 ? firstUserEvents : []) {
                        user["calendars"] = calendars
                    }
                    return user
                }
            }
            return (try? JSONSerialization.data(withJSONObject: top)) ?? data
        }
        let builtIn = SandboxSeed.builtIn
        return SandboxSeed(google: strip(builtIn.google, firstUserEvents: []),
                           microsoft: strip(builtIn.microsoft, firstUserEvents: events))
    }
}
