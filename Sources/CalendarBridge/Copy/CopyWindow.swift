import Foundation

/// The window of a copy: one range of instants read in one zone.
///
/// Both sides are listed over the same instants (`listingRange`, a little wider than the window, so
/// that every all-day event whose dates overlap the window comes back whatever zone a service anchors
/// all-day dates in), and both listings are then cut with the same rule (`contains`): a timed event
/// belongs when its instants overlap the window; an all-day event when its dates overlap the window's
/// dates in `zone`. So occurrences near the edges are compared only where both listings cover them.
public struct CopyWindow: Sendable, Hashable {
    public var range: TimeRange
    /// The zone the window's dates are read in (`--tz`, else `$TZ`, else the system zone).
    public var zone: TimeZone

    public init(range: TimeRange, zone: TimeZone) {
        self.range = range
        self.zone = zone
    }

    /// How far the listings reach beyond the window: all-day dates are anchored at midnight in any zone
    /// from UTC-12 to UTC+14, so two days cover every anchoring.
    static let margin: TimeInterval = 2 * 86_400

    /// The instants both sides are listed over.
    public var listingRange: TimeRange {
        TimeRange(start: range.start.addingTimeInterval(-Self.margin), end: range.end.addingTimeInterval(Self.margin))
    }

    /// The first date of the window in `zone`.
    public var firstDate: LocalDate { LocalDate(instant: range.start, in: zone) }

    /// The day after the window's last date in `zone` (exclusive).
    public var endDate: LocalDate {
        let last = LocalDate(instant: range.end, in: zone)
        return last.startInstant(in: zone) == range.end ? last : last.adding(days: 1)
    }

    /// Whether an event (or occurrence) lies in the window.
    public func contains(_ event: Event) -> Bool { contains(start: event.start, end: event.end) }

    public func contains(start: EventTime, end: EventTime) -> Bool {
        switch (start, end) {
        case (.allDay(let first), .allDay(let last)):
            if last <= first { return first >= firstDate && first < endDate }
            return first < endDate && last > firstDate
        default:
            return range.overlaps(start: start.instant(allDayZone: zone), end: end.instant(allDayZone: zone))
        }
    }
}
