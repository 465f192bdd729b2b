/// One line of a copy's plan or result: what happens (or happened) to one source event, one existing
/// copy, or one occurrence of a copied series.
public struct CopyItem: Sendable, Hashable, Codable {
    /// What the copy does with the item.
    public enum Action: String, Sendable, Hashable, Codable {
        /// A new copy is written.
        case create
        /// An existing copy is changed to match its source (also: a moved or cancelled occurrence
        /// mirrored on a copied series).
        case update
        /// The copy already matches its source: nothing is written.
        case unchanged
        /// A copy is deleted (`--prune` only): its source is gone, or it is a surplus duplicate.
        case delete
        /// The source event is not copied; `reason` says why.
        case skip
        /// A surplus copy of the same source event, reported and kept (run with `--prune` to delete it).
        case duplicate
    }

    /// Whether the item's write happened.
    public enum Status: String, Sendable, Hashable, Codable {
        /// Dry run, or no write needed yet.
        case planned
        /// Written (or nothing to write).
        case done
        case failed
    }

    public var action: Action
    public var status: Status
    /// The source event (or occurrence) id; nil for copies whose source is gone.
    public var sourceEventID: String?
    /// The copy's id on the target, when it exists.
    public var targetEventID: String?
    public var title: String
    /// The start as wall-clock text in the event's own zone (`2026-03-09T09:00:00 America/Los_Angeles`)
    /// or the date for all-day events.
    public var start: String?
    /// Why the item is skipped, deleted or handled the way it is.
    public var reason: String?
    /// True when the item is one occurrence of a copied series.
    public var occurrence: Bool
    /// True for a surplus copy of a source event that already has one (kept, or deleted with `--prune`).
    public var duplicate: Bool
    /// True for a copy found by start, title and location because its source's id was unknown (a feed that
    /// gives its events new UIDs at each fetch): the copy is re-marked with the new id, never duplicated.
    public var matchedByContent: Bool = false
    /// The error, when the write failed.
    public var error: String?

    public init(
        action: Action, status: Status = .planned, sourceEventID: String? = nil, targetEventID: String? = nil,
        title: String, start: String? = nil, reason: String? = nil, occurrence: Bool = false, duplicate: Bool = false,
        error: String? = nil
    ) {
        self.action = action
        self.status = status
        self.sourceEventID = sourceEventID
        self.targetEventID = targetEventID
        self.title = title
        self.start = start
        self.reason = reason
        self.occurrence = occurrence
        self.duplicate = duplicate
        self.error = error
    }

    /// Display text for an event's start.
    public static func startText(_ time: EventTime) -> String {
        switch time {
        case .allDay(let date): return date.description
        case .timed(_, let zone):
            // One buffer rather than two string concatenations: once per listed event.
            var bytes: [UInt8] = []
            bytes.reserveCapacity(32 + zone.utf8.count)
            if !time.appendLocalText(to: &bytes) { bytes.append(UInt8(ascii: "?")) }
            bytes.append(UInt8(ascii: " "))
            bytes.append(contentsOf: zone.utf8)
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// A series copied as single occurrences because the target cannot store its rule.
public struct CopyFallback: Sendable, Hashable, Codable {
    public var sourceEventID: String
    public var title: String
    public var reason: String
    /// How many occurrences in the window were planned as single events.
    public var occurrences: Int

    public init(sourceEventID: String, title: String, reason: String, occurrences: Int) {
        self.sourceEventID = sourceEventID
        self.title = title
        self.reason = reason
        self.occurrences = occurrences
    }
}
