import Foundation

/// A half-open span of time `[start, end)`, as event listings take it.
public struct TimeRange: Sendable, Hashable, Codable {
    public var start: Date
    public var end: Date

    /// Creates a range; `end` must not be before `start`.
    public init(start: Date, end: Date) {
        precondition(end >= start, "TimeRange end before start")
        self.start = start
        self.end = end
    }

    /// Creates a range, or nil when `end` is before `start` (for user input).
    public init?(validating start: Date, end: Date) {
        guard end >= start else { return nil }
        self.init(start: start, end: end)
    }

    public var duration: TimeInterval { end.timeIntervalSince(start) }

    public func contains(_ instant: Date) -> Bool { instant >= start && instant < end }

    /// Whether `[otherStart, otherEnd)` shares any time with this range (a zero-length event at the
    /// start counts).
    public func overlaps(start otherStart: Date, end otherEnd: Date) -> Bool {
        otherStart < end && (otherEnd > start || (otherEnd == otherStart && otherStart >= start))
    }
}
