import CalendarBridge
import ICalendarFeed

/// What `copy` and `sync` do for a subscribed feed as their source.
enum FeedSource {
    /// `--accept-shrink`: the feed's empty or shrunken body is taken as it is, this once.
    /// - Throws: `UsageError` when the source is not a feed.
    static func acceptShrink(of provider: any CalendarProvider, command: String) async throws {
        guard let feed = provider as? ICalendarFeedProvider else {
            throw UsageError("--accept-shrink is for a subscribed feed as the source ('calbridge accounts add ics URL')", command: command)
        }
        await feed.acceptShrink()
    }

    /// Whether events without a known UID are matched to copies by start, title and location (a feed that
    /// gives its events new UIDs at each fetch must not be duplicated).
    static func matchesByContent(_ provider: any CalendarProvider) -> Bool { provider is ICalendarFeedProvider }
}
