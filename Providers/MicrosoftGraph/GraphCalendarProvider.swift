import CalendarBridge
import Foundation
import HTTP
import JSON

/// Microsoft Graph v1.0 (Outlook, Microsoft 365) behind `CalendarProvider`.
///
/// Speaks only `HTTPTransport`: give it a transport that already adds the account's bearer token and
/// retries per policy; this type never sets `Authorization`. At most 4 requests of one provider are in
/// flight at once (Graph's per-mailbox limit): use one provider value per mailbox.
///
/// Times: listings ask Graph for times in `responseZone` (`Prefer: outlook.timezone`), parse each
/// `dateTime` in the zone the response names, and keep the event's own zone (`originalStartTimeZone`,
/// converted to IANA). Writes send wall-clock time in the event's zone with its Windows name.
public struct GraphCalendarProvider: CalendarProvider {
    public let provider = ProviderKind.microsoft
    public let account: String
    public let capabilities = ProviderCapabilities(
        serverQuickAdd: false, recurrence: .patterned, personalSensitivity: true, richShowAs: true, categories: true,
        maxWritesPerBatch: GraphCalendarProvider.maxBatchRequests)

    let transport: any HTTPTransport
    let baseURL: URL
    /// Whose mailbox: `/me` for a person's delegated token, `/users/{id}` for an app-only token.
    public let mailbox: GraphMailbox
    /// The Windows zone name sent in `Prefer: outlook.timezone`.
    let responseZone: String
    let mapping: GraphEventMapping
    let limiter: AsyncSemaphore

    /// Graph's limit on concurrent requests per mailbox.
    public static let maxConcurrentRequests = 4
    /// Largest page calbridge asks for (`$top`).
    static let pageSize = 999

    /// - Parameters:
    ///   - account: the calbridge account name, stamped on calendars and errors.
    ///   - transport: an authorized transport (adds the bearer token).
    ///   - baseURL: `https://graph.microsoft.com` or a sandbox's base; paths start with `/v1.0`.
    ///   - responseZone: the Windows zone name Graph should report times in (default "UTC"; the mailbox
    ///     zone works too). Never an IANA id.
    ///   - mailbox: whose mailbox: `.me` (a person's token) or `.user(id or UPN)` (an app-only token).
    public init(
        account: String, transport: any HTTPTransport, baseURL: URL = URL(string: "https://graph.microsoft.com")!,
        responseZone: String = "UTC", mailbox: GraphMailbox = .me
    ) {
        self.init(
            account: account, transport: transport, baseURL: baseURL, responseZone: responseZone, zones: .cldr, mailbox: mailbox)
    }

    init(
        account: String, transport: any HTTPTransport, baseURL: URL, responseZone: String, zones: ZoneNames,
        mailbox: GraphMailbox = .me
    ) {
        self.account = account
        self.transport = transport
        self.baseURL = baseURL
        self.mailbox = mailbox
        self.responseZone = responseZone
        self.mapping = GraphEventMapping(zones: zones)
        self.limiter = AsyncSemaphore(limit: Self.maxConcurrentRequests)
    }

    var api: APIURL { APIURL(base: baseURL).path("v1.0") }
    /// `/v1.0/me` or `/v1.0/users/{id}`: every mailbox path starts here.
    var mailboxRoot: APIURL { mailbox.root(api) }

    /// `$expand` that brings calbridge's extension properties, and the zone definitions Outlook stores in
    /// custom-zone events, along with each event.
    static let expandProperties: String = {
        let ids = (OriginMarker.propertyNames.map(GraphEventMapping.propertyID) + MAPITimeZoneDefinition.propertyIDs)
            .map { "id eq '\($0)'" }
        return "singleValueExtendedProperties($filter=\(ids.joined(separator: " or ")))"
    }()

    var preferHeader: String { "outlook.timezone=\"\(responseZone)\"" }

    // MARK: CalendarProvider

    public func userInfo() async throws -> UserInfo {
        let user: GraphUser = try await get(
            mailboxRoot.query("$select", "id,displayName,mail,userPrincipalName"), calendar: nil)
        let settings: GraphMailboxSettings = try await get(mailboxRoot.path("mailboxSettings"), calendar: nil)
        return UserInfo(
            displayName: user.displayName,
            // Accounts without an Exchange address report mail as "" or null; the sign-in name stands in.
            email: user.mail.flatMap { $0.isEmpty ? nil : $0 } ?? user.userPrincipalName,
            timeZone: settings.timeZone.flatMap(mapping.zones.toIANA), providerTimeZone: settings.timeZone,
            accountIdentity: user.id)
    }

    public func listCalendars() async throws -> [CalendarInfo] {
        let calendars: [GraphCalendar] = try await all(mailboxRoot.path("calendars").url, calendar: nil)
        return calendars.map { c in
            // The default calendar, and calendars the user may share, are the user's own.
            let role: AccessRole = c.canEdit == false ? .reader : (c.isDefaultCalendar == true || c.canShare == true ? .owner : .writer)
            return CalendarInfo(
                id: c.id, name: c.name ?? c.id, account: account, provider: .microsoft,
                isPrimary: c.isDefaultCalendar == true, accessRole: role, timeZone: nil,
                colour: c.hexColor.flatMap { $0.isEmpty ? nil : $0.lowercased() })
        }
    }

    public func listEvents(calendarID: String, range: TimeRange, expand: Bool) async throws -> [Event] {
        let views = try await calendarView(calendarID, range: range, series: !expand, occurrences: expand)
        return expand ? views.occurrences : views.series
    }

    /// Both views from one `calendarView` read (it lists single events, occurrences and exceptions; the
    /// series view swaps occurrences for their masters): half the requests and decoding of two listings.
    public func listEventViews(calendarID: String, range: TimeRange) async throws -> EventViews {
        try await calendarView(calendarID, range: range, series: true, occurrences: true)
    }

    /// The `calendarView` listing as the views asked for (the other one left empty).
    func calendarView(_ calendarID: String, range: TimeRange, series wantSeries: Bool, occurrences wantOccurrences: Bool)
        async throws -> EventViews
    {
        let url = calendar(calendarID).path("calendarView")
            .query("startDateTime", RFC3339.formatUTC(range.start))
            .query("endDateTime", RFC3339.formatUTC(range.end))
            .query("$top", String(Self.pageSize))
            .query("$orderby", "start/dateTime")
            .query("$select", GraphEvent.selectedProperties)
            .query("$expand", Self.expandProperties)
        // Series view: single events and exceptions as they are, occurrences replaced by their masters.
        // Both views: an all-day occurrence's or exception's original date needs its master's recurrence
        // zone (`GraphEventMapping.seriesZone`), so those wait for the masters, fetched in one batch.
        var masters: [String] = []
        var known = Set<String>()
        var waiting: [GraphEvent] = []
        // Whether each listed (and each waiting) item is a plain occurrence, which only the occurrence view keeps.
        var listedIsOccurrence: [Bool] = []
        var waitingIsOccurrence: [Bool] = []
        let listed: [Event] = try await all(url.url, calendar: calendarID) { (page: [GraphEvent]) throws(CalendarError) in
            // By index, and the page itself when it keeps every item: each copy of a `GraphEvent` retains
            // and releases its every string (callgrind, `calbridge-bench copy`).
            var kept: [GraphEvent] = []
            var keepsAll = true
            for index in page.indices {
                let (type, seriesMaster) = (page[index].type, page[index].seriesMasterId)
                let member = seriesMaster != nil && (type == "occurrence" || type == "exception")
                let needsZone = member && page[index].isAllDay == true && page[index].originalStart != nil
                // An exception stays as it is, and brings its master too: a window whose only
                // occurrences of a series are moved or changed ones still holds the series.
                if let master = seriesMaster, member, wantSeries || needsZone {
                    if known.insert(master).inserted { masters.append(master) }
                }
                let occurrence = type == "occurrence"
                let keep = !needsZone && (wantOccurrences || !occurrence)
                if keepsAll && !keep {
                    keepsAll = false
                    kept = Array(page[..<index])
                }
                if !wantOccurrences && occurrence { continue }
                if needsZone {
                    waiting.append(page[index])
                    waitingIsOccurrence.append(occurrence)
                } else {
                    if !keepsAll { kept.append(page[index]) }
                    listedIsOccurrence.append(occurrence)
                }
            }
            return try map(keepsAll ? page : kept, calendarID: calendarID)
        }
        let fetched = try await getGraphEvents(ids: masters, calendarID: calendarID)
        let zones = Dictionary(
            fetched.compactMap { g in mapping.recurrenceZone(g).map { (g.id, $0) } }, uniquingKeysWith: { a, _ in a })
        let zoned = try map(waiting, calendarID: calendarID, seriesZones: zones)
        var views = EventViews(series: [], occurrences: [])
        if wantOccurrences { views.occurrences = listed + zoned }
        if wantSeries {
            func notOccurrences(_ events: [Event], _ isOccurrence: [Bool]) -> [Event] {
                zip(events, isOccurrence).compactMap { $1 ? nil : $0 }
            }
            views.series = try map(fetched, calendarID: calendarID) + notOccurrences(listed, listedIsOccurrence)
                + notOccurrences(zoned, waitingIsOccurrence)
        }
        return views
    }

    public func getEvent(id: String, calendarID: String) async throws -> Event {
        try map([try await getGraphEvent(id: id, calendarID: calendarID)], calendarID: calendarID)[0]
    }

    /// One event by id as Graph answers it (unmapped).
    func getGraphEvent(id: String, calendarID: String) async throws -> GraphEvent {
        let url = mailboxRoot.path("events").segment(id).query("$expand", Self.expandProperties)
        return try await get(url, calendar: calendarID)
    }

    public func createEvent(_ event: Event, in calendarID: String, idempotencyKey: IdempotencyKey?) async throws -> Event {
        try await create(event, in: calendarID, idempotencyKey: idempotencyKey, attempt: 0)
    }

    func create(_ event: Event, in calendarID: String, idempotencyKey: IdempotencyKey?, attempt: Int) async throws -> Event {
        let transactionID = idempotencyKey?.transactionID
        let body = try withContext(calendarID) { () throws(CalendarError) in
            try mapping.body(for: event, transactionID: transactionID)
        }
        // With a transactionId Graph recognises a repeated POST: safe to retry.
        let response = try await send(
            .post, calendar(calendarID).path("events").url, json: body, calendar: calendarID,
            retrySafe: transactionID != nil)
        if response.status == 409, let transactionID {
            // An earlier attempt created it: find it by its transaction id.
            let url = calendar(calendarID).path("events")
                .query("$filter", "transactionId eq '\(Self.quoted(transactionID))'")
                .query("$expand", Self.expandProperties)
            let found: [GraphEvent] = try await all(url.url, calendar: calendarID)
            if let first = found.first { return try map([first], calendarID: calendarID)[0] }
        }
        if Self.isDuplicateTransaction(response), let key = idempotencyKey, attempt < Self.maxTransactionSuccessors,
            let origin = event.origin
        {
            // The event this transactionId created was deleted since (Exchange keeps refusing the id): a live
            // copy by marker is the answer; if there is none, create with the next derived id.
            if let live = try await findEvents(originatingFrom: origin, in: calendarID).first(where: { $0.seriesID == nil }) {
                return live
            }
            return try await create(event, in: calendarID, idempotencyKey: key.successor, attempt: attempt + 1)
        }
        try check(response, calendar: calendarID, writing: true)
        return try map([decode(GraphEvent.self, response)], calendarID: calendarID)[0]
    }

    public func updateEvent(_ event: Event, fields: EventFields) async throws -> Event {
        let body = try withContext(event.calendarID) { () throws(CalendarError) in try mapping.body(for: event, fields: fields) }
        let response = try await send(
            .patch, mailboxRoot.path("events").segment(event.id).url, json: body, calendar: event.calendarID, retrySafe: true)
        try check(response, calendar: event.calendarID, writing: true)
        return try map([decode(GraphEvent.self, response)], calendarID: event.calendarID)[0]
    }

    public func deleteEvent(id: String, calendarID: String) async throws {
        let response = try await send(
            .delete, mailboxRoot.path("events").segment(id).url, json: nil, calendar: calendarID, retrySafe: true)
        if response.status == 404 || response.status == 410 { return }
        try check(response, calendar: calendarID, writing: true)
    }

    public func quickAdd(text: String, in calendarID: String) async throws -> Event {
        throw CalendarError(
            .unsupported, "Outlook has no server-side quick add; parse the text locally and create the event",
            provider: .microsoft, account: account, calendar: calendarID)
    }

    public func findEvents(origin: OriginLookup, in calendarID: String) async throws -> [Event] {
        let id = GraphEventMapping.propertyID(origin.property)
        let url = calendar(calendarID).path("events")
            .query("$filter", "singleValueExtendedProperties/Any(ep: ep/id eq '\(Self.quoted(id))' and ep/value eq '\(Self.quoted(origin.value))')")
            .query("$expand", Self.expandProperties)
            .query("$top", String(Self.pageSize))
        return try await all(url.url, calendar: calendarID) { (page: [GraphEvent]) throws(CalendarError) in
            try map(page, calendarID: calendarID)
        }
    }

    // MARK: helpers

    func calendar(_ id: String) -> APIURL { mailboxRoot.path("calendars").segment(id) }

    /// OData string literal content: a single quote is doubled.
    static func quoted(_ text: String) -> String { text.replacingOccurrences(of: "'", with: "''") }

    /// Maps events, naming the account and calendar in any mapping error.
    func map(_ items: [GraphEvent], calendarID: String, seriesZones: [String: TimeZone] = [:]) throws(CalendarError) -> [Event] {
        try withContext(calendarID) { () throws(CalendarError) in
            var memo = GraphEventMapping.ZoneMemo()
            var events: [Event] = []
            events.reserveCapacity(items.count)
            for index in items.indices {
                events.append(
                    try mapping.event(items[index], calendarID: calendarID, memo: &memo, seriesZones: seriesZones))
            }
            return events
        }
    }

    func withContext<T>(_ calendar: String, _ body: () throws(CalendarError) -> T) throws(CalendarError) -> T {
        do { return try body() } catch { throw error.with(account: account, calendar: calendar) }
    }

    /// Every item of a collection, following `@odata.nextLink` (only to the same server).
    func all<Item: JSONReadable>(_ first: URL, calendar: String?) async throws -> [Item] {
        try await all(first, calendar: calendar) { (page: [Item]) throws(CalendarError) in page }
    }

    /// Every item of a collection, each page turned into results as it arrives, so that the decoded
    /// wire structs of only one page are alive at a time (holding every page's until the end cost
    /// about 6 MB of `calbridge copy`'s peak at 10,000 events, measured).
    func all<Item: JSONReadable, Output>(
        _ first: URL, calendar: String?, page transform: ([Item]) throws(CalendarError) -> [Output]
    ) async throws -> [Output] {
        var items: [Output] = []
        var next: URL? = first
        var pages = PageGuard(server: baseURL, provider: .microsoft, account: account, calendar: calendar)
        while let url = next {
            let response = try await send(.get, url, json: nil, calendar: calendar, retrySafe: true)
            try check(response, calendar: calendar, writing: false)
            let page = try decode(GraphCollection<Item>.self, response)
            items += try transform(page.value)
            next = try pages.next(page.nextLink).map { link throws(CalendarError) in try sameServer(link) }
        }
        return items
    }

    /// A next link as a URL, refused when it points at another server (the bearer token must not follow it).
    func sameServer(_ link: String) throws(CalendarError) -> URL {
        guard let url = URL(string: link), url.scheme == baseURL.scheme, url.host == baseURL.host, url.port == baseURL.port
        else {
            throw CalendarError(
                .invalidResponse, "Graph returned a next-page link to another server", provider: .microsoft,
                account: account)
        }
        return url
    }

    func get<T: Decodable>(_ url: APIURL, calendar: String?) async throws -> T {
        let response = try await send(.get, url.url, json: nil, calendar: calendar, retrySafe: true)
        try check(response, calendar: calendar, writing: false)
        return try decode(T.self, response)
    }

    func get<T: JSONReadable>(_ url: APIURL, calendar: String?) async throws -> T {
        let response = try await send(.get, url.url, json: nil, calendar: calendar, retrySafe: true)
        try check(response, calendar: calendar, writing: false)
        return try decode(T.self, response)
    }

    func send(_ method: HTTPMethod, _ url: URL, json: [String: Any]?, calendar: String?, retrySafe: Bool) async throws
        -> HTTPResponse
    {
        var request = HTTPRequest(method: method, url: url, headers: ["Accept": "application/json"])
        request.headers["Prefer"] = preferHeader
        if let json {
            request.body = try SortedJSONWriter.data(json)
            request.headers["Content-Type"] = "application/json"
        }
        request.isRetrySafe = retrySafe && !method.isIdempotent
        let transport = self.transport
        let sendable = request
        do {
            return try await limiter.withPermit { try await transport.send(sendable) }
        } catch let error as HTTPError {
            throw CalendarError(.transport, error.description, provider: .microsoft, account: account, calendar: calendar)
        }
    }

    func check(_ response: HTTPResponse, calendar: String?, writing: Bool) throws(CalendarError) {
        guard response.isSuccess else {
            var error = GraphErrorMapping.error(for: response, account: account, calendar: calendar)
            // Refused writes are, for a user, a read-only calendar.
            if writing && error.code == .forbidden { error.code = .readOnly }
            throw error
        }
    }

    /// Events and calendars, read by hand (`GraphResources+Reading.swift`).
    func decode<T: JSONReadable>(_ type: T.Type, _ response: HTTPResponse) throws(CalendarError) -> T {
        do {
            return try JSONReader.read(T.self, from: response.body)
        } catch {
            throw CalendarError(
                .invalidResponse, "unreadable Graph response: \(error)", provider: .microsoft, account: account,
                httpStatus: response.status)
        }
    }

    func decode<T: Decodable>(_ type: T.Type, _ response: HTTPResponse) throws(CalendarError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch {
            throw CalendarError(
                .invalidResponse, "unreadable Graph response: \(error)", provider: .microsoft, account: account,
                httpStatus: response.status)
        }
    }
}
