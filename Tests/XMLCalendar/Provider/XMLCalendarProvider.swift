import CalDAV
import CalendarBridge
import Foundation
import HTTP

/// A calendar service that speaks XML over HTTP and signs in with a user name and an app password (as
/// CalDAV servers do): the proof that a provider with another credential and another wire format is its
/// folder and one registration. Requests are authenticated by the transport it is given; it never sees
/// the password.
///
/// The service: `GET /xmlcal/me`, `GET /xmlcal/calendars`, `GET|POST /xmlcal/calendars/{id}/events`
/// (`?from=&to=` instants), `GET|PUT|DELETE /xmlcal/calendars/{id}/events/{event}`; documents as in
/// `XMLCalendarCodec`. Single events only: a series is refused as `.unsupported`.
public struct XMLCalendarProvider: CalendarProvider {
    public let provider = XMLCalendarRegistration.kind
    public let account: String
    public let capabilities = ProviderCapabilities(
        serverQuickAdd: false, recurrence: .patterned, personalSensitivity: false, richShowAs: false, categories: false, htmlBody: false)
    let transport: any HTTPTransport
    let baseURL: URL

    public init(account: String, transport: any HTTPTransport, baseURL: URL) {
        self.account = account
        self.transport = transport
        self.baseURL = baseURL
    }

    public func userInfo() async throws -> UserInfo {
        let user = try await send(.get, ["me"])
        return UserInfo(
            displayName: user.attributes["name"], email: user.attributes["email"], timeZone: user.attributes["timeZone"],
            accountIdentity: user.attributes["email"])
    }

    public func listCalendars() async throws -> [CalendarInfo] {
        try await send(.get, ["calendars"]).children("", "calendar").map { element in
            CalendarInfo(
                id: element.attributes["id"] ?? "", name: element.attributes["name"] ?? "", account: account, provider: provider,
                isPrimary: element.attributes["primary"] == "true",
                accessRole: AccessRole(rawValue: element.attributes["role"] ?? "") ?? .reader,
                timeZone: element.attributes["timeZone"])
        }
    }

    public func listEvents(calendarID: String, range: TimeRange, expand: Bool) async throws -> [Event] {
        let query = ["from": XMLCalendarCodec.instantText(range.start), "to": XMLCalendarCodec.instantText(range.end)]
        return try events(try await send(.get, ["calendars", calendarID, "events"], query: query))
    }

    public func getEvent(id: String, calendarID: String) async throws -> Event {
        try event(try await send(.get, ["calendars", calendarID, "events", id]))
    }

    public func createEvent(_ event: Event, in calendarID: String, idempotencyKey: IdempotencyKey?) async throws -> Event {
        try refuseSeries(event)
        var sent = event
        sent.id = ""
        sent.calendarID = calendarID
        return try self.event(try await send(.post, ["calendars", calendarID, "events"], body: XMLCalendarCodec.element(for: sent)))
    }

    public func updateEvent(_ event: Event, fields: EventFields) async throws -> Event {
        try refuseSeries(event)
        // The service replaces the whole event: for some fields, the others are taken from the stored one.
        var stored = event
        if fields != .all {
            stored = try await getEvent(id: event.id, calendarID: event.calendarID)
            if fields.contains(.title) { stored.title = event.title }
            if fields.contains(.location) { stored.location = event.location }
            if fields.contains(.times) {
                stored.start = event.start
                stored.end = event.end
            }
        }
        return try self.event(
            try await send(.put, ["calendars", event.calendarID, "events", event.id], body: XMLCalendarCodec.element(for: stored)))
    }

    public func deleteEvent(id: String, calendarID: String) async throws {
        do {
            _ = try await send(.delete, ["calendars", calendarID, "events", id])
        } catch let error as CalendarError where error.code == .notFound {
            // Already gone: done.
        }
    }

    public func quickAdd(text: String, in calendarID: String) async throws -> Event {
        throw CalendarError(.unsupported, "the XML calendar has no quick add of its own", provider: provider, account: account)
    }

    public func findEvents(origin: OriginLookup, in calendarID: String) async throws -> [Event] {
        // The service has no property search: the whole calendar, filtered here.
        try events(try await send(.get, ["calendars", calendarID, "events"])).filter {
            $0.propertiesToWrite[origin.property] == origin.value
        }
    }

    // MARK: - Requests

    private func refuseSeries(_ event: Event) throws {
        guard event.recurrence == nil else {
            throw CalendarError(.unsupported, "the XML calendar stores single events only", provider: provider, account: account)
        }
    }

    private func events(_ element: DAVElement) throws -> [Event] {
        try element.children("", "event").map { try event($0) }
    }

    private func event(_ element: DAVElement) throws -> Event {
        do {
            return try XMLCalendarCodec.event(from: element)
        } catch {
            throw CalendarError(
                .invalidResponse, "the XML calendar sent an event calbridge cannot read: \(error)", provider: provider, account: account)
        }
    }

    /// One request; the answer's document, or the service's `<error>` as a `CalendarError`.
    private func send(_ method: HTTPMethod, _ path: [String], query: [String: String] = [:], body: DAVElement? = nil) async throws
        -> DAVElement
    {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        let segments = (["xmlcal"] + path).map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        let basePath = components?.percentEncodedPath ?? ""
        components?.percentEncodedPath = basePath.trimmingSuffix("/") + "/" + segments.joined(separator: "/")
        if !query.isEmpty { components?.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) } }
        guard let url = components?.url else {
            throw CalendarError(.invalidRequest, "cannot address \(path.joined(separator: "/"))", provider: provider, account: account)
        }
        var headers: HTTPHeaders = ["Accept": "application/xml"]
        if body != nil { headers["Content-Type"] = "application/xml; charset=utf-8" }
        let response: HTTPResponse
        do {
            response = try await transport.send(
                HTTPRequest(method: method, url: url, headers: headers, body: body?.document(), timeout: .seconds(30)))
        } catch let error as CalendarError {
            throw error
        } catch {
            throw CalendarError(.transport, "the XML calendar could not be reached: \(error)", provider: provider, account: account)
        }
        if response.isSuccess, method == .delete || response.body.isEmpty { return DAVElement("", "empty") }
        let document: DAVElement
        do {
            document = try DAVElement.parse(response.body)
        } catch {
            throw CalendarError(
                response.isSuccess ? .invalidResponse : Self.code(for: response.status), "HTTP \(response.status): \(error)",
                provider: provider, account: account, httpStatus: response.status)
        }
        guard response.isSuccess else {
            throw CalendarError(
                Self.code(for: response.status), document.text.isEmpty ? "HTTP \(response.status)" : document.text, provider: provider,
                account: account, httpStatus: response.status, providerCode: document.attributes["code"])
        }
        return document
    }

    private static func code(for status: Int) -> CalendarError.Code {
        switch status {
        case 401: .unauthorized
        case 403: .forbidden
        case 404, 410: .notFound
        case 409, 412: .conflict
        case 429: .rateLimited
        case 400..<500: .invalidRequest
        default: .server
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
