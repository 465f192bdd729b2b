import Foundation

/// What one incremental read found: changed (or new) events, removed ones, and the cursor to continue from.
public struct ChangeSet: Sendable, Hashable {
    /// True for a read without a cursor: `changed` is everything in the window, and `removed` only what the
    /// service lists as cancelled with it (Google: cancelled occurrences of its series). Absence from a full
    /// read is not evidence of deletion.
    public var isFullRead: Bool
    /// New or changed events, as the provider maps them (see `ChangeReadingProvider` for which kinds).
    public var changed: [Event]
    /// Events the service reports deleted or cancelled since the cursor (positive evidence only).
    public var removed: [RemovedEvent]
    /// The opaque cursor for the next call.
    public var cursor: String
    /// HTTP requests the read took (one per page).
    public var requests: Int
    /// Where the service's change reads carry no markers (`ChangeReadingProvider.changeReadsCarryMarkers`
    /// false): the ids of changed events whose `origin` this read did establish (nil there means the event
    /// has no marker). Graph fills it on a full read; any other changed event's marker is unknown.
    public var markersRead: Set<String>

    public init(
        isFullRead: Bool, changed: [Event], removed: [RemovedEvent], cursor: String, requests: Int, markersRead: Set<String> = []
    ) {
        self.isFullRead = isFullRead
        self.changed = changed
        self.removed = removed
        self.cursor = cursor
        self.requests = requests
        self.markersRead = markersRead
    }
}

/// An event the service reports as gone: deleted, or a cancelled occurrence of a series.
public struct RemovedEvent: Sendable, Hashable, Codable {
    /// The provider's id of the event or occurrence.
    public var id: String
    /// For an occurrence of a series, when the service says so (Google): the master's id.
    public var seriesID: String?
    /// For an occurrence (Google): its original start, its identity within the series.
    public var originalStart: EventTime?

    public init(id: String, seriesID: String? = nil, originalStart: EventTime? = nil) {
        self.id = id
        self.seriesID = seriesID
        self.originalStart = originalStart
    }
}
