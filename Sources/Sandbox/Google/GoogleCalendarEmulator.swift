import Foundation
import HTTP
import LoopbackServer

/// A loopback emulator of the Google Calendar API v3, written from Google's discovery document
/// (`calendarList`, `calendars.get`, `events.*` and `/batch/calendar/v3`), with Google's exact error bodies.
///
/// Answers paths under `/calendar/v3/` and `/batch/calendar/v3`; anything else is nil (not this component).
/// Every call needs `Authorization: Bearer <token>` (or Google's `access_token` query parameter), checked with
/// the sandbox's token authority. Seed format: see `GoogleSeed` (GoogleSeed.swift).
package actor GoogleCalendarEmulator: SandboxComponent {
    /// Interprets a quick-add text the way Google's quickAdd would: `(text, now, calendar zone)`.
    package typealias QuickAddInterpreter = @Sendable (_ text: String, _ now: Date, _ zone: TimeZone) -> QuickAddInterpretation?

    /// The seeded users (sign-in accounts).
    package nonisolated let users: [SandboxUser]

    var state: GoogleState
    /// The mails Google would have sent guests (writes with `sendUpdates=all` or `externalOnly`).
    package internal(set) var sentInvitations: [SandboxInvitation] = []

    package func sentMails() -> [SandboxInvitation] { sentInvitations }
    let tokens: any SandboxAccessTokenValidator
    let now: @Sendable () -> Date
    let quickAddInterpreter: QuickAddInterpreter?

    /// Google's documented maximum number of calls in one batch request.
    package static let maxBatchParts = 1000

    /// - Parameters:
    ///   - seed: the Google seed document (`Fixtures/sandbox/google.json` format).
    ///   - tokens: the token authority that issued the bearer tokens.
    ///   - now: the clock (seed times are relative to its current week; `created`/`updated` use it).
    ///   - quickAdd: interprets quickAdd texts; without one the whole text becomes the summary of a one-hour
    ///     event at the next full hour in the calendar's zone.
    /// - Throws: `GoogleSeedError` when the seed is malformed.
    package init(
        seed: Data, tokens: any SandboxAccessTokenValidator, now: @escaping @Sendable () -> Date = { Date() },
        quickAdd: QuickAddInterpreter? = nil
    ) throws {
        let state = try GoogleSeed.load(seed, now: now())
        self.state = state
        self.users = state.users.map { SandboxUser(provider: .google, email: $0.email, displayName: $0.displayName) }
        self.tokens = tokens
        self.now = now
        self.quickAddInterpreter = quickAdd
    }

    /// The seed compiled into the sandbox (Fixtures/sandbox/google.json).
    package static var defaultSeed: Data { Data(PackageResources.google_json) }

    // MARK: SandboxComponent

    package func handle(_ request: ServerRequest) async -> ServerResponse? {
        let segments = request.pathSegments
        if segments == ["batch", "calendar", "v3"] { return await batch(request) }
        guard segments.count >= 2, segments[0] == "calendar", segments[1] == "v3" else { return nil }
        return await api(request)
    }

    package func snapshot() async throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(state)
    }

    package func restore(_ snapshot: Data) async throws {
        state = try JSONDecoder().decode(GoogleState.self, from: snapshot)
    }

    // MARK: One API call

    /// Authenticates and routes one `/calendar/v3/...` request (also used for each part of a batch).
    func api(_ request: ServerRequest) async -> ServerResponse {
        let token: String?
        if let header = request.headers["Authorization"] {
            let parts = header.split(separator: " ", maxSplits: 1)
            token = parts.count == 2 && parts[0].lowercased() == "bearer" ? String(parts[1]).trimmingCharacters(in: .whitespaces) : ""
        } else {
            token = request.queryValue("access_token") ?? request.queryValue("oauth_token")
        }
        guard let token else { return GoogleAPIError.loginRequired.response }
        guard !token.isEmpty else { return GoogleAPIError.invalidCredentials.response }
        guard case .valid(let email) = await tokens.check(accessToken: token, provider: .google),
              let user = state.user(email) else { return GoogleAPIError.invalidCredentials.response }
        do {
            return try route(request, user: user)
        } catch {
            return error.response
        }
    }

    private func route(_ request: ServerRequest, user: GoogleUserRecord) throws(GoogleAPIError) -> ServerResponse {
        let path = Array(request.pathSegments.dropFirst(2))
        let method = request.method
        switch (method, path.count) {
        case ("GET", 3) where path[0] == "users" && path[1] == "me" && path[2] == "calendarList":
            return try listCalendarList(request, user: user)
        case ("GET", 4) where path[0] == "users" && path[1] == "me" && path[2] == "calendarList":
            return try getCalendarListEntry(path[3], user: user)
        case ("GET", 2) where path[0] == "calendars":
            return try getCalendar(path[1], user: user)
        case (_, 3) where path[0] == "calendars" && path[2] == "events":
            switch method {
            case "GET": return try listEvents(request, calendarID: path[1], user: user)
            case "POST": return try insertEvent(request, calendarID: path[1], user: user)
            default: throw GoogleAPIError.notFound
            }
        case ("POST", 4) where path[0] == "calendars" && path[2] == "events" && path[3] == "import":
            return try importEvent(request, calendarID: path[1], user: user)
        case ("POST", 4) where path[0] == "calendars" && path[2] == "events" && path[3] == "quickAdd":
            return try quickAdd(request, calendarID: path[1], user: user)
        case (_, 4) where path[0] == "calendars" && path[2] == "events":
            switch method {
            case "GET": return try getEvent(request, calendarID: path[1], eventID: path[3], user: user)
            case "PUT": return try updateEvent(request, calendarID: path[1], eventID: path[3], user: user, patch: false)
            case "PATCH": return try updateEvent(request, calendarID: path[1], eventID: path[3], user: user, patch: true)
            case "DELETE": return try deleteEvent(request, calendarID: path[1], eventID: path[3], user: user)
            default: throw GoogleAPIError.notFound
            }
        case ("GET", 5) where path[0] == "calendars" && path[2] == "events" && path[4] == "instances":
            return try listInstances(request, calendarID: path[1], eventID: path[3], user: user)
        default:
            throw GoogleAPIError.notFound
        }
    }

    // MARK: Shared helpers

    /// The calendar and the user's view of it; 404 when it is not on the user's list.
    func resolve(_ calendarID: String, user: GoogleUserRecord) throws(GoogleAPIError) -> (GoogleListEntry, GoogleCalendarRecord) {
        guard let entry = user.entry(calendarID), let calendar = state.calendars[entry.calendarID] else {
            throw GoogleAPIError.notFound
        }
        return (entry, calendar)
    }

    static func zone(_ name: String) -> TimeZone { TimeZone(identifier: name) ?? GoogleEventTimes.utc }

    /// The response zone: the `timeZone` parameter when valid, else the calendar's.
    static func responseZone(_ request: ServerRequest, calendar: GoogleCalendarRecord) throws(GoogleAPIError) -> (TimeZone, String) {
        if let name = request.queryValue("timeZone"), !name.isEmpty {
            guard let zone = TimeZone(identifier: name) else { throw .invalid("Invalid time zone definition.", parameter: "timeZone") }
            return (zone, name)
        }
        return (zone(calendar.timeZone), calendar.timeZone)
    }

    /// A bounded integer query parameter (`maxResults`), Google's message when out of range.
    static func intParameter(_ request: ServerRequest, _ name: String, default value: Int, max: Int) throws(GoogleAPIError) -> Int {
        guard let text = request.queryValue(name) else { return value }
        guard let number = Int(text) else { throw .invalid("Invalid value '\(text)'. Values must be within the range: [1, \(max)]", parameter: name) }
        guard number >= 1 else { throw .invalid("Invalid value '\(text)'. Values must be within the range: [1, \(max)]", parameter: name) }
        return min(number, max)
    }

    static func boolParameter(_ request: ServerRequest, _ name: String) throws(GoogleAPIError) -> Bool {
        guard let text = request.queryValue(name) else { return false }
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0", "": return false
        default: throw .invalid("Invalid boolean value: '\(text)'.", parameter: name)
        }
    }

    static func okJSON(_ json: GoogleJSON, etag: String? = nil) -> ServerResponse {
        var headers: HTTPHeaders = ["Vary": "Origin, X-Origin, Referer"]
        if let etag { headers["ETag"] = etag }
        return .json(200, json.serialized(), headers: headers)
    }

    /// Opaque page tokens: the offset into a stable ordering, base64url-wrapped.
    static func pageToken(offset: Int) -> String {
        Data("o:\(offset)".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    static func pageOffset(_ request: ServerRequest) throws(GoogleAPIError) -> Int {
        guard let token = request.queryValue("pageToken"), !token.isEmpty else { return 0 }
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8), text.hasPrefix("o:"),
              let offset = Int(text.dropFirst(2)), offset >= 0 else {
            throw .invalid("Invalid page token value.", parameter: "pageToken")
        }
        return offset
    }

    /// `"3181161784712000"`-style etag (quoted digits) that changes with every write.
    static func etag(_ sequence: Int) -> String { "\"\(3_180_000_000_000_000 + sequence * 1000)\"" }

    func nextChange() -> Int {
        state.changeCounter += 1
        return state.changeCounter
    }
}
