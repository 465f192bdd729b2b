import CalbridgeSupport
import CalendarBridge
import Foundation
import HTTP
import JSON

/// Google Calendar API v3 behind `CalendarProvider`.
///
/// Speaks only `HTTPTransport`: give it a transport that already adds the account's bearer token
/// (OAuth's authorized transport) and retries per policy; this type never sets `Authorization`. Every
/// write sends `sendUpdates=none`, so no invitation or update mail goes out.
public struct GoogleCalendarProvider: CalendarProvider {
    public let provider = ProviderKind.google
    public let account: String
    public let capabilities = ProviderCapabilities(
        serverQuickAdd: true, recurrence: .rfc5545, personalSensitivity: false, richShowAs: false, categories: false,
        // Google descriptions take only a small HTML subset; Outlook's full HTML documents become text.
        htmlBody: false, maxWritesPerBatch: GoogleCalendarProvider.maxBatchCalls,
        invitations: .notSent(how: "Google sends no mail: calbridge writes with sendUpdates=none"))

    let transport: any HTTPTransport
    let baseURL: URL
    /// The zone the `timeMin`/`timeMax` bounds are written in (any zone names the same instants).
    let queryZone: TimeZone

    /// - Parameters:
    ///   - account: the calbridge account name, stamped on calendars and errors.
    ///   - transport: an authorized transport (adds the bearer token).
    ///   - baseURL: `https://www.googleapis.com` or a sandbox's base; paths start with `/calendar/v3`.
    ///   - queryZone: the zone time bounds are written in (default UTC, written `+00:00`).
    public init(
        account: String, transport: any HTTPTransport, baseURL: URL = URL(string: "https://www.googleapis.com")!,
        queryZone: TimeZone = TimeZone(secondsFromGMT: 0)!
    ) {
        self.account = account
        self.transport = transport
        self.baseURL = baseURL
        self.queryZone = queryZone
    }

    /// Largest pages the API allows: fewer round trips.
    static let calendarListPageSize = 250
    static let eventsPageSize = 2500

    var api: APIURL { APIURL(base: baseURL).path("calendar/v3") }

    // MARK: CalendarProvider

    public func userInfo() async throws -> UserInfo {
        let entry: GoogleCalendarListEntry = try await get(api.path("users/me/calendarList/primary"), calendar: "primary")
        return UserInfo(
            displayName: entry.summary, email: entry.id, timeZone: entry.timeZone, providerTimeZone: entry.timeZone,
            accountIdentity: entry.id)
    }

    public func listCalendars() async throws -> [CalendarInfo] {
        var calendars: [CalendarInfo] = []
        var pageToken: String?
        var pages = PageGuard(server: baseURL, provider: .google, account: account, calendar: nil)
        repeat {
            let url = api.path("users/me/calendarList").query("maxResults", String(Self.calendarListPageSize))
                .query("pageToken", pageToken)
            let page: GoogleCalendarList = try await get(url, calendar: nil)
            calendars += (page.items ?? []).filter { $0.deleted != true }.map(calendarInfo)
            pageToken = try pages.next(page.nextPageToken)
        } while pageToken != nil
        return calendars
    }

    public func listEvents(calendarID: String, range: TimeRange, expand: Bool) async throws -> [Event] {
        try await allEvents(listing(calendarID, range: range, expand: expand), calendarID: calendarID)
    }

    /// The expanded listing's request, its items read only where they are occurrences of `seriesIDs`
    /// (the rest checked as JSON and skipped, not mapped; a malformed one of those is not noticed).
    public func listOccurrences(calendarID: String, range: TimeRange, ofSeries seriesIDs: Set<String>) async throws -> [Event] {
        let url = listing(calendarID, range: range, expand: true).query("fields", GoogleEvent.copyRecordFields)
        return try await allEvents(url, calendarID: calendarID) {
            (reader: inout JSONReader) throws(JSONReader.Error) in try GoogleEvents(reading: &reader, occurrencesOf: seriesIDs)
        }
    }

    func listing(_ calendarID: String, range: TimeRange, expand: Bool) -> APIURL {
        var url = events(calendarID)
            .query("timeMin", RFC3339.format(range.start, in: queryZone))
            .query("timeMax", RFC3339.format(range.end, in: queryZone))
            .query("singleEvents", expand ? "true" : "false")
            .query("maxResults", String(Self.eventsPageSize))
        if expand { url = url.query("orderBy", "startTime") }
        return url
    }

    public func getEvent(id: String, calendarID: String) async throws -> Event {
        let g: GoogleEvent = try await get(events(calendarID).segment(id), calendar: calendarID)
        return try GoogleEventMapping.event(g, calendarID: calendarID, calendarZone: nil)
    }

    public func createEvent(_ event: Event, in calendarID: String, idempotencyKey: IdempotencyKey?) async throws -> Event {
        let id = idempotencyKey?.googleEventID
        let body = try GoogleEventMapping.body(for: event, id: id)
        let url = events(calendarID).query("sendUpdates", "none")
        // A client-chosen id makes the insert safe to repeat: a repeat gets 409 instead of a duplicate.
        let response = try await send(.post, url, json: body, calendar: calendarID, retrySafe: id != nil)
        if response.status == 409, let id {
            return try await adoptExisting(id: id, body: try GoogleEventMapping.body(for: event, patching: true), calendarID: calendarID)
        }
        try check(response, calendar: calendarID)
        return try decodeEvent(response, calendarID: calendarID)
    }

    public func updateEvent(_ event: Event, fields: EventFields) async throws -> Event {
        try await updateEvent(event, fields: fields, mail: .none)
    }

    public func updateEvent(_ event: Event, fields: EventFields, mail: AttendeeMail) async throws -> Event {
        let body = try GoogleEventMapping.patchBody(for: event, fields: fields)
        return try await patch(id: event.id, body: body, calendarID: event.calendarID, sendUpdates: Self.sendUpdates(mail))
    }

    public func deleteEvent(id: String, calendarID: String) async throws {
        try await deleteEvent(id: id, calendarID: calendarID, mail: .none)
    }

    public func deleteEvent(id: String, calendarID: String, mail: AttendeeMail) async throws {
        let url = events(calendarID).segment(id).query("sendUpdates", Self.sendUpdates(mail))
        let response = try await send(.delete, url, json: nil, calendar: calendarID, retrySafe: true)
        // Already deleted (410) or never there (404): the goal is reached.
        if response.status == 404 || response.status == 410 { return }
        try check(response, calendar: calendarID)
    }

    public func quickAdd(text: String, in calendarID: String) async throws -> Event {
        // `text` is a required query parameter and the method takes no body (Google's reference).
        let url = events(calendarID).path("quickAdd").query("text", text).query("sendUpdates", "none")
        let response = try await send(.post, url, json: nil, calendar: calendarID, retrySafe: false)
        try check(response, calendar: calendarID)
        return try decodeEvent(response, calendarID: calendarID)
    }

    public func findEvents(origin: OriginLookup, in calendarID: String) async throws -> [Event] {
        try await allEvents(originListing(origin, in: calendarID), calendarID: calendarID)
    }

    public func findCopies(origin: OriginLookup, in calendarID: String) async throws -> [Event] {
        let url = originListing(origin, in: calendarID).query("fields", GoogleEvent.copyRecordFields)
        return try await allEvents(url, calendarID: calendarID) {
            (r: inout JSONReader) throws(JSONReader.Error) in try GoogleEvents(reading: &r, items: .copyRecord)
        }
    }

    /// The listing of the events that carry `origin`'s property value (whole calendar, unexpanded).
    private func originListing(_ origin: OriginLookup, in calendarID: String) -> APIURL {
        events(calendarID)
            .query("privateExtendedProperty", "\(origin.property)=\(origin.value)")
            .query("maxResults", String(Self.eventsPageSize))
    }

    // MARK: helpers

    func events(_ calendarID: String) -> APIURL { api.path("calendars").segment(calendarID).path("events") }

    func calendarInfo(_ entry: GoogleCalendarListEntry) -> CalendarInfo {
        let role: AccessRole =
            switch entry.accessRole {
            case "owner": .owner
            case "writer", "writerWithoutPrivateAccess": .writer
            case "reader": .reader
            default: .freeBusy
            }
        return CalendarInfo(
            id: entry.id, name: entry.summaryOverride ?? entry.summary ?? entry.id, account: account,
            provider: .google, isPrimary: entry.primary == true, accessRole: role, timeZone: entry.timeZone,
            colour: entry.backgroundColor?.lowercased())
    }

    /// Every page of a listing; `read` reads each page (all its items, unless told otherwise).
    func allEvents(
        _ first: APIURL, calendarID: String,
        read: (inout JSONReader) throws(JSONReader.Error) -> GoogleEvents = { (r: inout JSONReader) throws(JSONReader.Error) in
            try GoogleEvents(reading: &r)
        }
    ) async throws -> [Event] {
        var result: [Event] = []
        var pageToken: String?
        var pages = PageGuard(server: baseURL, provider: .google, account: account, calendar: calendarID)
        repeat {
            let page = try await get(first.query("pageToken", pageToken), calendar: calendarID, read: read)
            // By index: each copy of a `GoogleEvent` retains and releases its every string.
            let items = page.items ?? []
            for index in items.indices {
                do {
                    result.append(try GoogleEventMapping.event(items[index], calendarID: calendarID, calendarZone: page.timeZone))
                } catch {
                    throw error.with(account: account, calendar: calendarID)
                }
            }
            pageToken = try pages.next(page.nextPageToken)
        } while pageToken != nil
        return result
    }

    /// After a 409 on an insert with our id: the event exists from an earlier attempt. Return it; if it
    /// was deleted since, Google keeps the id reserved, so bring it back by patching it.
    func adoptExisting(id: String, body: [String: Any], calendarID: String) async throws -> Event {
        let existing = try await getEvent(id: id, calendarID: calendarID)
        guard existing.status == .cancelled else { return existing }
        var revived = body
        revived["status"] = "confirmed"
        revived["id"] = nil
        return try await patch(id: id, body: revived, calendarID: calendarID)
    }

    /// `sendUpdates` for a write: `all` mails every guest as Google's own app does, `none` nobody.
    static func sendUpdates(_ mail: AttendeeMail) -> String {
        switch mail {
        case .none: "none"
        case .asService: "all"
        }
    }

    func patch(id: String, body: [String: Any], calendarID: String, sendUpdates: String = "none") async throws -> Event {
        let url = events(calendarID).segment(id).query("sendUpdates", sendUpdates)
        // Setting the same fields twice has the same effect: safe to repeat.
        let response = try await send(.patch, url, json: body, calendar: calendarID, retrySafe: true)
        try check(response, calendar: calendarID)
        return try decodeEvent(response, calendarID: calendarID)
    }

    func get<T: Decodable>(_ url: APIURL, calendar: String?) async throws -> T {
        let response = try await send(.get, url, json: nil, calendar: calendar, retrySafe: true)
        try check(response, calendar: calendar)
        return try decode(T.self, response)
    }

    func get<T: JSONReadable>(_ url: APIURL, calendar: String?) async throws -> T {
        try await get(url, calendar: calendar) { (r: inout JSONReader) throws(JSONReader.Error) in try T(reading: &r) }
    }

    /// A resource read by `read` (a listing page read only in part, say).
    func get<T>(_ url: APIURL, calendar: String?, read: (inout JSONReader) throws(JSONReader.Error) -> T) async throws -> T {
        let response = try await send(.get, url, json: nil, calendar: calendar, retrySafe: true)
        try check(response, calendar: calendar)
        return try decode(response, read)
    }

    func send(
        _ method: HTTPMethod, _ url: APIURL, json: [String: Any]?, calendar: String?, retrySafe: Bool
    ) async throws -> HTTPResponse {
        var request = HTTPRequest(method: method, url: url.url, headers: ["Accept": "application/json"])
        if let json {
            request.body = try SortedJSONWriter.data(json)
            request.headers["Content-Type"] = "application/json"
        }
        request.isRetrySafe = retrySafe && !method.isIdempotent
        do {
            return try await transport.send(request)
        } catch let error as HTTPError {
            throw CalendarError(.transport, error.description, provider: .google, account: account, calendar: calendar)
        }
    }

    func check(_ response: HTTPResponse, calendar: String?) throws(CalendarError) {
        guard response.isSuccess else {
            throw GoogleErrorMapping.error(for: response, account: account, calendar: calendar)
        }
    }

    func decode<T: Decodable>(_ type: T.Type, _ response: HTTPResponse) throws(CalendarError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch {
            throw CalendarError(
                .invalidResponse, "unreadable Google response: \(error)", provider: .google, account: account,
                httpStatus: response.status)
        }
    }

    /// The events resources, read by hand (`GoogleResources+Reading.swift`).
    func decode<T: JSONReadable>(_ type: T.Type, _ response: HTTPResponse) throws(CalendarError) -> T {
        try decode(response) { (r: inout JSONReader) throws(JSONReader.Error) in try T(reading: &r) }
    }

    /// The body read whole by `read` (nothing may follow the value).
    func decode<T>(_ response: HTTPResponse, _ read: (inout JSONReader) throws(JSONReader.Error) -> T) throws(CalendarError) -> T {
        do {
            return try JSONReader.read(from: response.body, read)
        } catch {
            throw CalendarError(
                .invalidResponse, "unreadable Google response: \(error)", provider: .google, account: account,
                httpStatus: response.status)
        }
    }

    func decodeEvent(_ response: HTTPResponse, calendarID: String) throws(CalendarError) -> Event {
        do {
            return try GoogleEventMapping.event(decode(GoogleEvent.self, response), calendarID: calendarID, calendarZone: nil)
        } catch {
            throw error.with(account: account, calendar: calendarID)
        }
    }
}
