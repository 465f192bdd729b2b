import CalendarBridge
import Foundation

/// Which way changes flow in a pair (`sync add --direction`).
public enum SyncDirection: String, Sendable, Hashable, Codable, CaseIterable {
    /// Side A's events are copied to B; B's own events are left alone.
    case aToB = "a-to-b"
    /// Side B's events are copied to A.
    case bToA = "b-to-a"
    /// Both ways, by three-way comparison against the state.
    case both

    /// Whether changes on `side` are carried to the other side.
    public func carries(from side: SyncSide) -> Bool {
        switch self {
        case .both: true
        case .aToB: side == .a
        case .bToA: side == .b
        }
    }
}

/// Which version wins when an item changed on both sides since the last sync (`sync add --conflict`).
public enum SyncConflictRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// The version with the later last-modified time (the provider's `updated`); A when equal or unknown.
    case newer
    /// Side A's version.
    case a
    /// Side B's version.
    case b
}

/// A pair's options, as `sync add` stores them in `SyncPairRecord.options` (JSON, see `encoded()`).
public struct SyncPairOptions: Sendable, Hashable, Codable {
    public var direction: SyncDirection
    public var fields: CopyFields
    /// Days before now the window starts (whole days, >= 0).
    public var pastDays: Int
    /// Days after now the window ends (>= 1).
    public var futureDays: Int
    public var conflict: SyncConflictRule
    /// Side A as the user named it when adding the pair (`work:Calendar`), for display: the record keeps
    /// `ACCOUNT:ID`, which survives a renamed calendar. Nil in pairs stored before labels were kept.
    public var labelA: String?
    /// Side B as the user named it.
    public var labelB: String?

    /// `sync add`'s defaults: a-to-b, basic, 7 days back, 60 ahead, newer.
    public static let defaults = SyncPairOptions()

    public init(
        direction: SyncDirection = .aToB, fields: CopyFields = .basic, pastDays: Int = 7, futureDays: Int = 60,
        conflict: SyncConflictRule = .newer, labelA: String? = nil, labelB: String? = nil
    ) {
        self.direction = direction
        self.fields = fields
        self.pastDays = pastDays
        self.futureDays = futureDays
        self.conflict = conflict
        self.labelA = labelA
        self.labelB = labelB
    }

    /// The options as stored (`SyncPairRecord.options`): JSON with sorted keys.
    public func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Reads stored options back; a missing key takes its default.
    /// - Throws: `SyncError` `.invalidOptions` naming what is wrong.
    public init(decoding text: String) throws(SyncError) {
        struct Stored: Decodable {
            var direction: SyncDirection?
            var fields: CopyFields?
            var pastDays: Int?
            var futureDays: Int?
            var conflict: SyncConflictRule?
            var labelA: String?
            var labelB: String?
        }
        let stored: Stored
        do {
            stored = try JSONDecoder().decode(Stored.self, from: Data(text.utf8))
        } catch {
            throw SyncError(.invalidOptions, "the stored pair options do not parse (\(error)); remove and add the pair again")
        }
        let d = SyncPairOptions.defaults
        self.init(
            direction: stored.direction ?? d.direction, fields: stored.fields ?? d.fields,
            pastDays: stored.pastDays ?? d.pastDays, futureDays: stored.futureDays ?? d.futureDays,
            conflict: stored.conflict ?? d.conflict, labelA: stored.labelA, labelB: stored.labelB)
        if let problem = validationProblem { throw SyncError(.invalidOptions, problem) }
    }

    /// Why these options cannot be used, or nil (for `sync add` to report as a usage error).
    public var validationProblem: String? {
        if pastDays < 0 || pastDays > 3650 { return "--past must be 0...3650 days (got \(pastDays))" }
        if futureDays < 1 || futureDays > 3650 { return "--future must be 1...3650 days (got \(futureDays))" }
        return nil
    }

    /// The window a run keeps in step around `now`: from `pastDays` before to `futureDays` after, rounded
    /// out to a week-long round (see `SyncWindow`), all-day dates read in `zone`.
    public func window(now: Date, zone: TimeZone) -> CopyWindow {
        SyncWindow.round(now: now, options: self, zone: zone)
    }
}
