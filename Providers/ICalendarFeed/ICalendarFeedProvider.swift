import CalendarBridge
import Foundation
import HTTP
import ICalendar
import ProviderSeam

/// A subscribed iCalendar feed (an `https://` address, `http://` on the loopback, or a file) as a read-only
/// account with one calendar (`NAME:primary`): read wherever a calendar is read (`calendars`, `events`, `agenda`,
/// `export`, the source of `copy` and of a one-way `sync`).
///
/// The feed is fetched once per process (`FeedFetcher`: conditional, cached, refused when not whole and
/// plausible); everything else is the file provider's over that snapshot. Ids are the feed's UIDs, so the
/// copy engine's origin markers are keyed by them. Its URL is a secret and appears in no message.
public struct ICalendarFeedProvider: ChangeReadingProvider, ReadOnlyCalendarProvider {
    /// The provider kind of subscribed feeds (origin markers name it).
    public static let kind = ProviderKind(rawValue: "ics-feed")
    /// The id of a feed's one calendar (its primary one: `NAME:primary` names it too). Not `primary` itself,
    /// which references read as the keyword, not as an id (a sync pair stores `ACCOUNT:ID`).
    public static let calendarID = "feed"

    public let provider = Self.kind
    public let account: String
    public let capabilities = ProviderCapabilities(
        serverQuickAdd: false, recurrence: .rfc5545, personalSensitivity: false, richShowAs: false, categories: false, htmlBody: false,
        invitations: .notSent(how: "a subscribed feed sends nothing"))
    let fetcher: FeedFetcher

    /// - Parameters:
    ///   - url: the feed's address (a secret) or a `file:` URL.
    ///   - state: where the last good body and its validators are kept (nil: fetched whole every time, nothing
    ///     to compare a shrink with).
    public init(account: String, url: URL, transport: any HTTPTransport, state: (any ProviderStateStore)?) {
        self.account = account
        fetcher = FeedFetcher(account: account, url: url, transport: transport, state: state, kind: Self.kind)
    }

    /// Takes an empty or shrunken feed as the calendar for this process (`--accept-shrink`): its body becomes
    /// the last good one.
    public func acceptShrink() async { await fetcher.acceptShrink() }

    /// What this process read, fetching it on the first call.
    func calendar() async throws -> ICalendarFileProvider { try await fetcher.snapshot().calendar }

    /// How many events the feed has and whether the fetch found it unchanged (for `accounts add`).
    public func summary() async throws -> (events: Int, unchanged: Bool, requests: Int) {
        let snapshot = try await fetcher.snapshot()
        return (snapshot.events, snapshot.unchanged, snapshot.requests)
    }

    public func userInfo() async throws -> UserInfo { UserInfo(displayName: account, accountIdentity: nil) }

    public func listCalendars() async throws -> [CalendarInfo] { try await calendar().listCalendars() }

    public func listEvents(calendarID: String, range: TimeRange, expand: Bool) async throws -> [Event] {
        try await calendar().listEvents(calendarID: calendarID, range: range, expand: expand)
    }

    public func getEvent(id: String, calendarID: String) async throws -> Event {
        try await calendar().getEvent(id: id, calendarID: calendarID)
    }

    /// A feed has no change log: the cursor is the body's digest. The same digest (a 304) is no change; any
    /// other body is a full read, reconciled by the caller (an event absent from it is read by id: gone).
    public func changes(calendarID: String, window: TimeRange, cursor: String?) async throws -> ChangeRead {
        let snapshot = try await fetcher.snapshot()
        if let cursor, cursor == snapshot.digest {
            return .changes(ChangeSet(isFullRead: false, changed: [], removed: [], cursor: cursor, requests: snapshot.requests))
        }
        let events = try await snapshot.calendar.listEvents(calendarID: calendarID, range: window, expand: false)
        return .changes(ChangeSet(isFullRead: true, changed: events, removed: [], cursor: snapshot.digest, requests: snapshot.requests))
    }

    public func readOnlyError() -> CalendarError {
        CalendarError(.readOnly, "a subscribed feed is read-only", provider: provider, account: account, calendar: Self.calendarID)
    }
}
