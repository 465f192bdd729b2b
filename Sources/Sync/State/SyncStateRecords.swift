import Foundation

/// One side of a pair.
public enum SyncSide: String, Sendable, Hashable, Codable, CaseIterable {
    case a, b
}

/// A sync pair as stored: its name, both calendars and its options (as the `sync add` command wrote them).
public struct SyncPairRecord: Sendable, Hashable {
    public var name: String
    /// The calendar reference of side A (`ACCOUNT:CALENDAR`), as given.
    public var sideA: String
    /// The calendar reference of side B.
    public var sideB: String
    /// The pair's options, serialised by their owner (direction, fields, window, conflict rule).
    public var options: String
    public var created: Date

    public init(name: String, sideA: String, sideB: String, options: String, created: Date) {
        self.name = name
        self.sideA = sideA
        self.sideB = sideB
        self.options = options
        self.created = created
    }
}

/// One event of a pair, mapped across both sides.
public struct SyncItemRecord: Sendable, Hashable {
    /// The row's key in the state (nil before the first save).
    public var rowID: Int64?
    public var pair: String
    /// The event's id on side A (nil while it exists on B only, e.g. before its copy is written).
    public var idA: String?
    public var idB: String?
    /// The content hash last written to or seen on side A.
    public var hashA: String?
    public var hashB: String?
    /// Identity within a series (the master's key and the occurrence's original start), nil for single events.
    public var seriesKey: String?
    public var updated: Date
    /// The side the event was first seen on (the other side holds the copy); nil in rows from schema v1.
    public var origin: SyncSide?

    public init(
        rowID: Int64? = nil, pair: String, idA: String?, idB: String?, hashA: String?, hashB: String?,
        seriesKey: String? = nil, updated: Date, origin: SyncSide? = nil
    ) {
        self.rowID = rowID
        self.pair = pair
        self.idA = idA
        self.idB = idB
        self.hashA = hashA
        self.hashB = hashB
        self.seriesKey = seriesKey
        self.updated = updated
        self.origin = origin
    }

    /// The id on one side.
    public func id(_ side: SyncSide) -> String? { side == .a ? idA : idB }

    /// The hash last written to or seen on one side.
    public func hash(_ side: SyncSide) -> String? { side == .a ? hashA : hashB }

    /// Sets one side's id and hash.
    public mutating func set(_ side: SyncSide, id: String?, hash: String?) {
        if side == .a {
            idA = id
            hashA = hash
        } else {
            idB = id
            hashB = hash
        }
    }
}

/// What each side's occurrence of a synced series was at the last sync (`occurrences` table), keyed by the
/// occurrence's original start within the item's series.
///
/// Each side has its own state, as items have their own hash per side: a copy is not the same text as its
/// source (each side's projection, zone names, what a service keeps), so a side is compared with what it
/// held itself, never with the other side.
public struct SyncOccurrenceRecord: Sendable, Hashable {
    /// An occurrence that follows its series (its master's content at its original time), as older rows
    /// stored it: without its content (`followsSeries(content:)`).
    public static let followsSeries = "series"
    /// An occurrence that follows its series, with the content hash it had then: Google keeps an exception's
    /// content when its series changes, so an exception that followed its series is left behind by the next
    /// change of the series, and only its content tells that apart from an edit made since.
    public static func followsSeries(content: String) -> String { followsSeries + ":" + content }
    /// Whether `state` says the occurrence followed its series (with its content or without).
    public static func isFollowsSeries(_ state: String) -> Bool {
        state.hasPrefix(followsSeries) && (state.utf8.count == followsSeries.utf8.count || state.dropFirst(followsSeries.count).first == ":")
    }
    /// The content hash a following occurrence had (`followsSeries(content:)`), or nil.
    public static func followedContent(_ state: String) -> String? {
        isFollowsSeries(state) && state.utf8.count > followsSeries.utf8.count ? String(state.dropFirst(followsSeries.count + 1)) : nil
    }
    /// A cancelled (deleted) occurrence.
    public static let cancelled = "cancelled"

    /// The item (the series) it belongs to.
    public var itemID: Int64
    /// The occurrence's original start (`OccurrenceKey`'s text).
    public var key: String
    /// Side A's occurrence: following its series (`followsSeries(content:)`, `followsSeries`), `cancelled`,
    /// or the content hash of the exception.
    public var stateA: String
    public var stateB: String
    public var updated: Date

    public init(itemID: Int64, key: String, stateA: String, stateB: String, updated: Date) {
        self.itemID = itemID
        self.key = key
        self.stateA = stateA
        self.stateB = stateB
        self.updated = updated
    }

    /// One side's state.
    public func state(_ side: SyncSide) -> String { side == .a ? stateA : stateB }
}

/// A side's change cursor (`ChangeSet.cursor`) and when it was stored.
public struct SyncCursorRecord: Sendable, Hashable {
    public var cursor: String
    public var updated: Date

    public init(cursor: String, updated: Date) {
        self.cursor = cursor
        self.updated = updated
    }
}

/// How a pair's last run went.
public struct SyncRunRecord: Sendable, Hashable {
    public var started: Date
    public var finished: Date
    /// `ok`, `partial`, `failed` or `needsSignIn`, as the runner reports it.
    public var outcome: String
    /// The run's counts (created, updated, ...) serialised by the runner (JSON).
    public var counts: String
    /// The one-line error of a failed run.
    public var error: String?

    public init(started: Date, finished: Date, outcome: String, counts: String, error: String? = nil) {
        self.started = started
        self.finished = finished
        self.outcome = outcome
        self.counts = counts
        self.error = error
    }
}

extension SyncSide {
    /// The other side.
    public var other: SyncSide { self == .a ? .b : .a }
}

/// A conflict as kept in the state: both versions (JSON of `Event`, as read), and which one won.
public struct SyncConflictRecord: Sendable, Hashable {
    public var rowID: Int64?
    public var pair: String
    /// The item it concerned (nil once that item is gone).
    public var itemID: Int64?
    public var detected: Date
    public var winner: SyncSide
    public var reason: String
    public var versionA: String
    public var versionB: String

    public init(
        rowID: Int64? = nil, pair: String, itemID: Int64?, detected: Date, winner: SyncSide, reason: String, versionA: String,
        versionB: String
    ) {
        self.rowID = rowID
        self.pair = pair
        self.itemID = itemID
        self.detected = detected
        self.winner = winner
        self.reason = reason
        self.versionA = versionA
        self.versionB = versionB
    }
}
