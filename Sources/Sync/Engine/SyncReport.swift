import CalendarBridge
import Foundation

/// What one direction of a pair's run did (or, in a dry run, would do) to the receiving side.
public struct SyncCounts: Sendable, Hashable, Codable {
    public var created = 0
    public var updated = 0
    public var deleted = 0
    /// Items compared and found in step (nothing written).
    public var unchanged = 0
    /// Writes that failed (each also in `SyncReport.errors`); retried next run.
    public var failed = 0
    /// Of `updated`: copies re-linked to a source event that came back under a new id with the same start,
    /// title and location (a feed that rotates its UIDs), instead of a deletion and a creation.
    public var matchedByContent = 0

    public init() {}

    public var writes: Int { created + updated + deleted }
}

/// An item changed on both sides since the last sync, and how it was settled.
public struct SyncConflict: Sendable, Hashable, Codable {
    /// The item's row in the state (its `conflicts` rows point to it).
    public var itemID: Int64?
    public var title: String
    /// Side A's version as read this run.
    public var a: Event
    /// Side B's version as read this run.
    public var b: Event
    /// The version that was applied to both sides; the other one is kept in the state's `conflicts`.
    public var winner: SyncSide
    /// Why it won (`newer: B modified 2026-12-01T10:00:00Z, A 09:00`, `--conflict a`).
    public var reason: String

    public init(itemID: Int64?, title: String, a: Event, b: Event, winner: SyncSide, reason: String) {
        self.itemID = itemID
        self.title = title
        self.a = a
        self.b = b
        self.winner = winner
        self.reason = reason
    }

    /// The losing version.
    public var loser: Event { winner == .a ? b : a }
}

/// One item that could not be synced this run (it is retried next run).
public struct SyncItemError: Sendable, Hashable, Codable {
    /// The side whose calendar the failed write or read was on.
    public var side: SyncSide
    public var eventID: String?
    public var title: String?
    public var message: String

    public init(side: SyncSide, eventID: String?, title: String?, message: String) {
        self.side = side
        self.eventID = eventID
        self.title = title
        self.message = message
    }
}

/// The result of one run of one pair (`SyncEngine.run`): the per-pair entry of `sync --format json`.
public struct SyncReport: Sendable, Hashable, Codable {
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// Everything was applied.
        case ok
        /// Some items failed (`errors`); the rest was applied and the cursors were kept where needed, so
        /// the failed items are read again next run.
        case partial
    }

    public var name: String
    public var dryRun: Bool
    /// Changes carried from A to B (counted on B).
    public var aToB = SyncCounts()
    /// Changes carried from B to A (counted on A).
    public var bToA = SyncCounts()
    public var conflicts: [SyncConflict] = []
    /// Requests the run sent: each change-read page, each read by id or batch of them, each write batch.
    public var requests = 0
    /// Sides read in full this run: no cursor yet (first run), or the cursor expired (`notices` says which).
    public var fullReads: [SyncSide] = []
    /// Things the user may want to know that are not failures ("side B's change cursor expired (410): read in full").
    public var notices: [String] = []
    public var errors: [SyncItemError] = []
    /// True when a stop request (`SyncEngine.shouldStop`) ended the run before all its writes were sent
    /// (absent otherwise).
    public var interrupted: Bool?
    public var started: Date
    public var finished: Date

    public init(name: String, dryRun: Bool, started: Date) {
        self.name = name
        self.dryRun = dryRun
        self.started = started
        self.finished = started
    }

    public var outcome: Outcome { errors.isEmpty && interrupted != true ? .ok : .partial }

    /// The counts of the direction that writes to `side`.
    public func counts(writingTo side: SyncSide) -> SyncCounts { side == .b ? aToB : bToA }
}
