import CalendarBridge
import Foundation
import HTTP
import ICalendar
import ProviderSeam

/// A CalDAV account (RFC 4791): iCloud, Fastmail, Nextcloud, Radicale, Xandikos or any CalDAV server,
/// signed in with a user name and (app) password by the transport it is given.
///
/// Reading is a `calendar-query` REPORT with a time range (never `DAV:limit`, which servers truncate
/// silently, never the server's `expand`, which servers answer in local or UTC times differently): series
/// are expanded here with libical. A create is a PUT with `If-None-Match: *` to a name derived from the
/// idempotency key, so a repeated create finds its resource instead of making a second; updates and
/// deletes are PUT and DELETE with `If-Match`, and a 412 (the resource changed meanwhile) means reading it
/// again and applying the change to what is there. A moved occurrence is an override in its series'
/// resource, a cancelled one an `EXDATE`; origin markers are `X-CALBRIDGE-*` properties.
public struct CalDAVProvider: CalendarProvider {
    public let provider: ProviderKind
    public let account: String
    public let capabilities = ProviderCapabilities(
        serverQuickAdd: false, recurrence: .rfc5545, personalSensitivity: false, richShowAs: false, categories: false, htmlBody: false,
        maxWritesPerBatch: 20, invitations: .notSent(how: "calbridge writes no attendees to CalDAV calendars"))
    let client: CalDAVClient
    let discovery: CalDAVDiscovery
    /// The ETags of resources read in this process (for conditional deletes).
    let etags = CalDAVETags()

    /// How often a write is tried again after a 412 (another client changed the resource meanwhile).
    static let maxPreconditionRetries = 4

    /// - Parameters:
    ///   - server: the URL the account was added with (a server, a principal or a calendar home).
    ///   - state: where the discovered calendar home is kept between processes (nil: discovered in each).
    public init(provider: ProviderKind, account: String, transport: any HTTPTransport, server: URL, state: (any ProviderStateStore)? = nil)
    {
        self.provider = provider
        self.account = account
        client = CalDAVClient(transport: transport, provider: provider, account: account)
        discovery = CalDAVDiscovery(client: client, start: server, state: state)
    }

    // MARK: - Account and calendars

    public func userInfo() async throws -> UserInfo {
        let location = try await discovery.location()
        let target = location.principal ?? location.home
        let (answer, _) = try await client.multistatus(.propfind, target, depth: "0", body: CalDAVDiscovery.principalQuery)
        let response = answer.responses.first
        let name = response?.property(DAVNamespace.dav, "displayname")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let email = response?.property(DAVNamespace.caldav, "calendar-user-address-set")?.children(DAVNamespace.dav, "href")
            .map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
            .first { $0.lowercased().hasPrefix("mailto:") }.map { String($0.dropFirst(7)) }
        return UserInfo(
            displayName: name.flatMap { $0.isEmpty ? nil : $0 }, email: email, accountIdentity: target.absoluteString)
    }

    static let calendarsQuery = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" \
        xmlns:a="http://apple.com/ns/ical/"><d:prop><d:resourcetype/><d:displayname/><a:calendar-color/>\
        <c:calendar-timezone/><c:supported-calendar-component-set/><d:current-user-privilege-set/><cs:getctag/>\
        <d:sync-token/></d:prop></d:propfind>
        """

    public func listCalendars() async throws -> [CalendarInfo] {
        try await listCollections().map(\.info)
    }

    /// The calendars of the home, from one PROPFIND: with their ctag and sync token (for change reads).
    func listCollections() async throws -> [CalDAVCollection] {
        var home = try await discovery.location().home
        let answer: Multistatus
        let base: URL
        do {
            (answer, base) = try await client.multistatus(.propfind, home, depth: "1", body: Self.calendarsQuery)
        } catch let error as CalendarError where error.code == .notFound {
            // A home kept from an earlier process that is gone: found again, once.
            guard try await discovery.rediscover() else { throw error }
            home = try await discovery.location().home
            (answer, base) = try await client.multistatus(.propfind, home, depth: "1", body: Self.calendarsQuery)
        }
        var collections: [CalDAVCollection] = []
        for response in answer.responses {
            guard let url = CalDAVClient.resolve(response.href, against: base),
                let collection = CalDAVCollection(response, url: url, home: home, account: account, provider: provider)
            else { continue }
            collections.append(collection)
        }
        collections.sort { $0.info.name.localizedStandardCompare($1.info.name) == .orderedAscending }
        // CalDAV names no default calendar (short of scheduling, RFC 6638): the first is `primary`.
        if !collections.isEmpty { collections[0].info.isPrimary = true }
        return collections
    }

    /// The URL of a calendar by id: a name under the home, or an absolute URL for one elsewhere.
    func calendarURL(_ calendarID: String) async throws -> URL {
        if calendarID.contains("://") {
            guard let url = URL(string: calendarID) else {
                throw CalendarError(.notFound, "no calendar \(calendarID)", provider: provider, account: account, calendar: calendarID)
            }
            return url
        }
        guard !calendarID.isEmpty, !calendarID.contains("/") else {
            throw CalendarError(.notFound, "no calendar \(calendarID)", provider: provider, account: account, calendar: calendarID)
        }
        return try await discovery.location().home.appendingPathComponent(calendarID, isDirectory: true)
    }

    // MARK: - Reading

    public func listEvents(calendarID: String, range: TimeRange, expand: Bool) async throws -> [Event] {
        let resources = try await query(calendarID: calendarID, range: range)
        return try await expandOrList(resources, calendarID: calendarID, range: range, expand: expand)
    }

    public func listEventViews(calendarID: String, range: TimeRange) async throws -> EventViews {
        let resources = try await query(calendarID: calendarID, range: range)
        return EventViews(
            series: try await expandOrList(resources, calendarID: calendarID, range: range, expand: false),
            occurrences: try await expandOrList(resources, calendarID: calendarID, range: range, expand: true))
    }

    /// The resources' events in `range`, series expanded by libical or as masters.
    func expandOrList(_ resources: [CalDAVResource], calendarID: String, range: TimeRange, expand: Bool) async throws -> [Event] {
        let events = try await CalDAVResource.expansion(of: resources).listEvents(
            calendarID: ICalendarFileProvider.calendarID, range: range, expand: expand)
        return events.map { event in
            var event = event
            event.calendarID = calendarID
            return event
        }
    }

    public func getEvent(id: String, calendarID: String) async throws -> Event {
        let (name, occurrence) = CalDAVResource.split(id: id)
        let resource = try await read(name: name, calendarID: calendarID)
        if occurrence == nil, let main = resource.main { return main }
        do {
            var event = try await CalDAVResource.expansion(of: [resource]).getEvent(id: id, calendarID: ICalendarFileProvider.calendarID)
            event.calendarID = calendarID
            return event
        } catch let error as CalendarError where error.code == .notFound {
            throw CalendarError(.notFound, "no event \(id)", provider: provider, account: account, calendar: calendarID, httpStatus: 404)
        }
    }

    public func quickAdd(text: String, in calendarID: String) async throws -> Event {
        throw CalendarError(.unsupported, "CalDAV servers have no quick add of their own", provider: provider, account: account)
    }

    public func findEvents(origin: OriginLookup, in calendarID: String) async throws -> [Event] {
        // Servers differ in searching X- properties (RFC 4791 text-match): the calendar is read whole and
        // filtered here. A server that dropped the X- properties still has the UID derived from the key.
        let derivedUID = IdempotencyKey("copy\u{1F}\(origin.value)\u{1F}\(calendarID)").googleEventID
        return try await query(calendarID: calendarID, range: nil).flatMap(\.events).filter { event in
            event.propertiesToWrite[origin.property] == origin.value
                || (origin.property == OriginMarker.eventKeyProperty && event.seriesID == nil && event.iCalUID == derivedUID)
        }
    }

    /// The resources with an event in `range` (every resource for nil): one `calendar-query` REPORT.
    func query(calendarID: String, range: TimeRange?) async throws -> [CalDAVResource] {
        let url = try await calendarURL(calendarID)
        var filter = "<c:comp-filter name=\"VEVENT\"/>"
        if let range {
            filter =
                "<c:comp-filter name=\"VEVENT\"><c:time-range start=\"\(Self.utcText(range.start))\" end=\"\(Self.utcText(range.end))\"/></c:comp-filter>"
        }
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/>\
            </d:prop><c:filter><c:comp-filter name="VCALENDAR">\(filter)</c:comp-filter></c:filter></c:calendar-query>
            """
        let (answer, base) = try await client.multistatus(.report, url, depth: "1", body: body, calendar: calendarID)
        let found = try resources(answer, base: base, calendarID: calendarID)
        await etags.remember(found, calendarID: calendarID)
        return found
    }

    /// The calendar object resources of a multistatus (collections and failed members skipped).
    func resources(_ answer: Multistatus, base: URL, calendarID: String) throws -> [CalDAVResource] {
        var resources: [CalDAVResource] = []
        for response in answer.responses {
            guard let data = response.property(DAVNamespace.caldav, "calendar-data")?.text, !data.isEmpty,
                let url = CalDAVClient.resolve(response.href, against: base)
            else { continue }
            let name = url.lastPathComponent
            do {
                resources.append(
                    try CalDAVResource(
                        name: name, etag: response.property(DAVNamespace.dav, "getetag")?.text, calendarData: data, calendarID: calendarID))
            } catch {
                throw CalendarError(
                    .invalidResponse, "the event \(name) is iCalendar calbridge cannot read: \(error)", provider: provider,
                    account: account,
                    calendar: calendarID)
            }
        }
        return resources
    }

    /// One resource by name (GET), with its ETag.
    func read(name: String, calendarID: String) async throws -> CalDAVResource {
        let url = try await calendarURL(calendarID).appendingPathComponent(name)
        let (response, _) = try await client.send(.get, url, headers: ["Accept": "text/calendar"], calendar: calendarID)
        guard response.isSuccess else { throw client.failure(response, calendar: calendarID) }
        do {
            let resource = try CalDAVResource(
                name: name, etag: response.headers["ETag"], calendarData: response.bodyText, calendarID: calendarID)
            await etags.remember([resource], calendarID: calendarID)
            return resource
        } catch {
            throw CalendarError(
                .invalidResponse, "the event \(name) is iCalendar calbridge cannot read: \(error)", provider: provider, account: account,
                calendar: calendarID)
        }
    }

    static func utcText(_ date: Date) -> String {
        let utc = TimeZone(secondsFromGMT: 0)!
        let local = LocalDateTime(instant: date, in: utc)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ", local.date.year, local.date.month, local.date.day, local.hour, local.minute, local.second)
    }
}
