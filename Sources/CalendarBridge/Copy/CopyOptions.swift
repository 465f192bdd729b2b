import Foundation

/// What a copy takes over from each source event (`--fields`).
public enum CopyFields: String, Sendable, Hashable, Codable, CaseIterable {
    /// Title, times with their zone, all-day, location, body, show-as, sensitivity, reminders, the
    /// online-meeting link (into location or body) and the attendees' names (into the body).
    case basic
    /// `basic` plus categories where the target has them.
    case all
    /// Only the time: titled "Busy", marked private, no details.
    case busy
}

/// How recurring series are copied (`--recurrence`).
public enum CopyRecurrence: String, Sendable, Hashable, Codable, CaseIterable {
    /// A series becomes a series; its cancelled and moved occurrences are mirrored. A rule the target
    /// cannot store falls back to `instances` for that series (the result says so).
    case series
    /// Every occurrence in the window becomes a single event.
    case instances
}

/// How a copy runs.
public struct CopyOptions: Sendable, Hashable {
    /// The source events to copy: those overlapping this range (all-day events: whose dates overlap
    /// the range's dates in `zone`; see `CopyWindow`).
    public var window: TimeRange
    /// The zone the window's dates are read in.
    public var zone: TimeZone
    public var fields: CopyFields
    public var recurrence: CopyRecurrence
    /// Delete copies in the window whose source event is provably gone (a direct read by id answers
    /// 404/410 or cancelled), and surplus duplicate copies. Without it no copy is ever deleted (a
    /// cancelled occurrence is still cancelled on the copied series, on the same proof).
    public var prune: Bool
    /// Instead of copying, delete every copy of the source calendar on the target (found by marker, any
    /// date) and nothing else.
    public var removeCopies: Bool
    /// Plan only: read both sides, write nothing.
    public var dryRun: Bool
    /// A source event whose id no copy carries takes a copy whose source id is not in the listing and whose
    /// start, title and location are the same (re-marked with the new id) instead of a new copy: for feeds
    /// that give every event a new UID at each fetch.
    public var matchByContent: Bool = false
    /// Writes per `applyWrites` call; nil: the target's `maxWritesPerBatch` (Google 50, Graph 20).
    public var batchSize: Int?
    /// `applyWrites` calls in flight at once.
    public var maxConcurrentBatches: Int
    /// Single calls in flight within one `applyWrites` call (providers without a batch endpoint).
    public var maxConcurrentPerBatch: Int

    /// The window with its zone.
    public var copyWindow: CopyWindow { CopyWindow(range: window, zone: zone) }

    public init(
        window: TimeRange, zone: TimeZone = TimeZone(identifier: "UTC") ?? .current, fields: CopyFields = .basic,
        recurrence: CopyRecurrence = .series, prune: Bool = false, removeCopies: Bool = false, dryRun: Bool = false, batchSize: Int? = nil, maxConcurrentBatches: Int = 4, maxConcurrentPerBatch: Int = 4
    ) {
        self.window = window
        self.zone = zone
        self.fields = fields
        self.recurrence = recurrence
        self.prune = prune
        self.removeCopies = removeCopies
        self.dryRun = dryRun
        self.batchSize = batchSize.map { max(1, $0) }
        self.maxConcurrentBatches = max(1, maxConcurrentBatches)
        self.maxConcurrentPerBatch = max(1, maxConcurrentPerBatch)
    }
}
