import Foundation

/// What a direct read of one event by id says: the proof the copy engine needs before it deletes a copy.
///
/// Only `.gone` is proof that the event no longer exists (the service answered 404 or 410, or the
/// event reads back `cancelled`). Any other failure is `.unknown`, never "gone".
public enum EventProbe: Sendable {
    /// The event exists and is not cancelled.
    case exists(Event)
    /// 404/410 or `cancelled` on a direct read by id.
    case gone
    /// The read failed for another reason (throttled, server error, no permission): no proof either way.
    case unknown(String)
}

/// A question about one occurrence of a series: does the source still have it?
public struct OccurrenceQuery: Sendable, Hashable {
    /// The series master's id.
    public var seriesID: String
    /// The occurrence's identity within its series.
    public var originalStart: EventTime
    /// The time to list the series' instances over: the occurrence's own time, wide enough to hold the
    /// occurrence moved as far as the service lets it move (up to the neighbouring occurrences).
    public var range: TimeRange

    public init(seriesID: String, originalStart: EventTime, range: TimeRange) {
        self.seriesID = seriesID
        self.originalStart = originalStart
        self.range = range
    }
}

/// The answer to an `OccurrenceQuery`.
public enum OccurrenceProbe: Sendable {
    /// The occurrence exists (as listed, possibly moved or changed).
    case exists(Event)
    /// The source says it is cancelled: a `cancelled` instance (Google), or the master exists and its
    /// instance listing over the occurrence's own time answers without it (Graph).
    case cancelled
    /// The series master itself reads back 404/410 or cancelled.
    case seriesGone
    /// No proof either way.
    case unknown(String)
}
