import CalendarBridge
import Foundation
import HTTP
import JSON

/// Incremental reads with events.list's `syncToken` (Google's "Synchronize resources efficiently" guide).
///
/// The full read lists the window (`timeMin`/`timeMax`, series unexpanded) and keeps the `nextSyncToken` of
/// its last page. Later reads send only `syncToken` (Google refuses it with `timeMin`, `timeMax`, `q`, extended
/// property filters and the like) and get every change in the calendar since, deletions as `cancelled`
/// items; the changed events outside the window are dropped here. 410 is `.cursorExpired`.
extension GoogleCalendarProvider: ChangeReadingProvider {
    /// Cursors this provider writes start with this tag (so a cursor of another provider is refused).
    static let cursorTag = "google.v1:"

    public func changes(calendarID: String, window: TimeRange, cursor: String?) async throws -> ChangeRead {
        var first = events(calendarID).query("singleEvents", "false").query("maxResults", String(Self.eventsPageSize))
        if let cursor {
            guard cursor.hasPrefix(Self.cursorTag), cursor.count > Self.cursorTag.count else {
                return .cursorExpired(CursorExpiry(.unreadable, message: "the stored cursor is not a Google sync token"))
            }
            first = first.query("syncToken", String(cursor.dropFirst(Self.cursorTag.count)))
        } else {
            first = first.query("timeMin", RFC3339.format(window.start, in: queryZone))
                .query("timeMax", RFC3339.format(window.end, in: queryZone))
        }
        var changed: [Event] = []
        var removed: [RemovedEvent] = []
        var requests = 0
        var pageToken: String?
        var pages = PageGuard(server: baseURL, provider: .google, account: account, calendar: calendarID)
        var syncToken: String?
        repeat {
            let response = try await send(.get, first.query("pageToken", pageToken), json: nil, calendar: calendarID, retrySafe: true)
            requests += 1
            if response.status == 410, cursor != nil {
                let error = GoogleErrorMapping.error(for: response, account: account, calendar: calendarID)
                return .cursorExpired(CursorExpiry(.expired, message: error.message, providerCode: error.providerCode))
            }
            try check(response, calendar: calendarID)
            let page = try decode(GoogleEventChanges.self, response)
            for g in page.items ?? [] {
                if g.status == "cancelled" {
                    removed.append(try removal(g, calendarID: calendarID, calendarZone: page.timeZone))
                    continue
                }
                let event: Event
                do {
                    event = try GoogleEventMapping.event(g, calendarID: calendarID, calendarZone: page.timeZone)
                } catch {
                    throw error.with(account: account, calendar: calendarID)
                }
                if Self.mayTouch(event, window) { changed.append(event) }
            }
            pageToken = try pages.next(page.nextPageToken)
            if pageToken == nil { syncToken = page.nextSyncToken }
        } while pageToken != nil
        guard let syncToken, !syncToken.isEmpty else {
            throw CalendarError(
                .invalidResponse, "\(baseURL.host ?? "Google") ended an events listing without a nextSyncToken",
                provider: .google, account: account, calendar: calendarID)
        }
        return .changes(ChangeSet(
            isFullRead: cursor == nil, changed: changed, removed: removed, cursor: Self.cursorTag + syncToken,
            requests: requests))
    }

    /// A cancelled item: an id, and for a cancelled occurrence its series and original start.
    func removal(_ g: GoogleEvent, calendarID: String, calendarZone: String?) throws(CalendarError) -> RemovedEvent {
        var item = RemovedEvent(id: g.id, seriesID: g.recurringEventId)
        if let original = g.originalStartTime {
            do {
                item.originalStart = try GoogleEventMapping.eventTime(original, calendarZone: calendarZone, field: "originalStartTime")
            } catch {
                throw error.with(account: account, calendar: calendarID)
            }
        }
        return item
    }

    /// Whether an event can touch the window: a series that starts before the window's end (its rule may
    /// reach into it), or an event overlapping it. All-day dates are read with a day's margin each side,
    /// since their zone is the calendar's; keeping one too many is harmless, dropping one is not.
    static func mayTouch(_ event: Event, _ window: TimeRange) -> Bool {
        let utc = TimeZone(secondsFromGMT: 0) ?? .current
        let margin: TimeInterval = event.start.isAllDay ? 86_400 : 0
        let start = event.start.instant(allDayZone: utc).addingTimeInterval(-margin)
        if event.recurrence != nil { return start < window.end.addingTimeInterval(margin) }
        let end = event.end.instant(allDayZone: utc).addingTimeInterval(margin)
        return window.overlaps(start: start, end: end)
    }
}

/// An events.list page as an incremental read needs it: `GoogleEvents` plus the `nextSyncToken` of the last page.
struct GoogleEventChanges: JSONReadable {
    var items: [GoogleEvent]?
    var nextPageToken: String?
    var nextSyncToken: String?
    var timeZone: String?
}
