import CalendarBridge
import Foundation
import HTTP
import JSON

/// Incremental reads with `calendarView/delta` (Graph's `event: delta` reference and "Get incremental
/// changes to events in a calendar view").
///
/// A round starts with the window (`startDateTime`, `endDateTime`) and follows `@odata.nextLink` pages to the
/// `@odata.deltaLink`, which is the cursor (with the window it was started with, so a rolled window is
/// noticed: `.cursorExpired(.windowChanged)`). The delta accepts no `$select`, `$expand`, `$filter` or
/// `$orderby`, so nothing but `Prefer` headers is sent; its items carry no extended properties.
/// `@removed` items are removals; 410 (Exchange's `SyncStateNotFound`) is `.cursorExpired`.
extension GraphCalendarProvider: ChangeReadingProvider {
    /// Cursors this provider writes: `graph.v1|<window start>|<window end>|<deltaLink>`.
    static let cursorTag = "graph.v1"
    /// Items per delta page (`Prefer: odata.maxpagesize`).
    static let deltaPageSize = 999
    /// Graph error codes that mean "start a new round" (410 aside): Exchange's and the directory's wording.
    static let resyncCodes: Set<String> = ["SyncStateNotFound", "syncStateNotFound", "resyncRequired", "SyncStateInvalid"]

    /// Delta items carry no extended properties (the delta takes no `$expand`).
    public var changeReadsCarryMarkers: Bool { false }

    public func changes(calendarID: String, window: TimeRange, cursor: String?) async throws -> ChangeRead {
        let start = RFC3339.formatUTC(window.start)
        let end = RFC3339.formatUTC(window.end)
        var next: URL
        if let cursor {
            let parts = cursor.split(separator: "|", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 4, parts[0] == Self.cursorTag, let link = URL(string: parts[3]) else {
                return .cursorExpired(CursorExpiry(.unreadable, message: "the stored cursor is not a Graph delta link"))
            }
            guard parts[1] == start, parts[2] == end else {
                return .cursorExpired(CursorExpiry(
                    .windowChanged, message: "the delta round covers \(parts[1]) to \(parts[2]), not \(start) to \(end)"))
            }
            next = try sameServer(link.absoluteString)
        } else {
            next = calendar(calendarID).path("calendarView/delta")
                .query("startDateTime", start).query("endDateTime", end).url
        }
        var changed: [Event] = []
        var removed: [RemovedEvent] = []
        var requests = 0
        var pages = PageGuard(server: baseURL, provider: .microsoft, account: account, calendar: calendarID)
        while true {
            let response = try await sendDelta(next, calendar: calendarID)
            requests += 1
            if !response.isSuccess {
                let error = GraphErrorMapping.error(for: response, account: account, calendar: calendarID)
                if cursor != nil, response.status == 410 || error.providerCode.map(Self.resyncCodes.contains) == true {
                    return .cursorExpired(CursorExpiry(.expired, message: error.message, providerCode: error.providerCode))
                }
                throw error
            }
            let page = try decode(GraphDeltaPage.self, response)
            var kept: [GraphEvent] = []
            for item in page.value {
                if item.removed != nil {
                    removed.append(RemovedEvent(id: item.id))
                } else if let event = item.event {
                    kept.append(event)
                }
            }
            changed += try map(kept, calendarID: calendarID)
            if let deltaLink = page.deltaLink {
                let nextCursor = [Self.cursorTag, start, end, try sameServer(deltaLink).absoluteString].joined(separator: "|")
                var markersRead = Set<String>()
                if cursor == nil, let listed = await originMarkers(calendarID: calendarID, start: start, end: end) {
                    requests += listed.requests
                    for index in changed.indices where changed[index].seriesID == nil {
                        guard let origin = listed.markers[changed[index].id] else { continue }
                        changed[index].origin = origin
                        markersRead.insert(changed[index].id)
                    }
                }
                return .changes(ChangeSet(
                    isFullRead: cursor == nil, changed: changed, removed: removed, cursor: nextCursor, requests: requests,
                    markersRead: markersRead))
            }
            guard let link = try pages.next(page.nextLink) else {
                throw CalendarError(
                    .invalidResponse, "Graph ended a delta round with neither a next link nor a delta link",
                    provider: .microsoft, account: account, calendar: calendarID)
            }
            next = try sameServer(link)
        }
    }

    /// The origin markers of the window's events, by id (nil: the event has none), from `calendarView` with
    /// only ids and our properties selected: after a full delta read, one such page per 999 events instead
    /// of a read by id per unknown event (20 per `$batch`); at 10,000 events 11 requests instead of 500.
    /// Nil when the listing fails: the caller then reads the unknown events by id, as after an incremental read.
    /// An event created or deleted between the delta and this listing is simply not in one of them, and
    /// its marker stays unknown.
    func originMarkers(calendarID: String, start: String, end: String) async -> (markers: [String: OriginMarker?], requests: Int)? {
        let url = calendar(calendarID).path("calendarView")
            .query("startDateTime", start).query("endDateTime", end)
            .query("$top", String(Self.pageSize))
            .query("$select", "id")
            .query("$expand", Self.expandProperties)
        var pages = 0
        do {
            let pairs = try await all(url.url, calendar: calendarID) { (page: [GraphEvent]) throws(CalendarError) in
                pages += 1
                return page.map { g in (g.id, OriginMarker(properties: GraphEventMapping.extendedProperties(of: g).properties)) }
            }
            return (Dictionary(pairs, uniquingKeysWith: { first, _ in first }), pages)
        } catch {
            return nil
        }
    }

    /// One delta page: a GET with the response zone and the page size as preferences (the delta takes no
    /// `$top`), within the mailbox's concurrency limit.
    func sendDelta(_ url: URL, calendar: String) async throws -> HTTPResponse {
        var request = HTTPRequest(method: .get, url: url, headers: ["Accept": "application/json"])
        request.headers["Prefer"] = preferHeader + ", odata.maxpagesize=\(Self.deltaPageSize)"
        let transport = self.transport
        let sendable = request
        do {
            return try await limiter.withPermit { try await transport.send(sendable) }
        } catch let error as HTTPError {
            throw CalendarError(.transport, error.description, provider: .microsoft, account: account, calendar: calendar)
        }
    }
}

/// A delta page: events, `@removed` stubs, and a next link or the delta link.
struct GraphDeltaPage: JSONReadable {
    var value: [GraphDeltaItem] = []
    var nextLink: String?
    var deltaLink: String?
}

/// One delta item: a removal (`{"id", "@removed": {"reason"}}`) or a whole event.
struct GraphDeltaItem: JSONReadable {
    struct Removed: JSONReadable { var reason: String? }

    var id: String
    var removed: Removed?
    var event: GraphEvent?
}
