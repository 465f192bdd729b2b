import CalendarBridge
import Foundation

/// The window a pair is kept in step over, and how its change cursors are tied to it.
///
/// The window asked for (`pastDays` before now to `futureDays` after) is rounded out to a week-long round:
/// it starts at the beginning of the 7-day period (counted from the Unix epoch, in UTC) that holds
/// `now - pastDays`, and reaches a week (and two days either side) further. So it stays the same for a
/// week: Graph's delta round, which is bound to its window, continues all week, and an event that enters
/// the window as the days pass is already inside the round. When the round moves on, both sides are read
/// in full once and reconciled against the state.
enum SyncWindow {
    static let day: TimeInterval = 86_400

    static func round(now: Date, options: SyncPairOptions, zone: TimeZone) -> CopyWindow {
        let week = 7 * day
        let wanted = now.timeIntervalSince1970 - Double(options.pastDays) * day
        let bucket = (wanted / week).rounded(.down) * week
        let start = bucket - 2 * day
        let end = bucket + Double(options.pastDays + options.futureDays) * day + week + 2 * day
        return CopyWindow(range: TimeRange(start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end)), zone: zone)
    }

    /// The round's name, stored in front of each side's cursor.
    static func key(_ range: TimeRange) -> String {
        "w\(Int64(range.start.timeIntervalSince1970))-\(Int64(range.end.timeIntervalSince1970))"
    }

    /// The cursor as stored: the round's key, a space, the provider's cursor.
    static func cursor(_ providerCursor: String, roundKey: String) -> String { roundKey + " " + providerCursor }

    /// The provider's cursor from a stored one, nil when there is none or it belongs to another round.
    static func providerCursor(_ stored: String?, roundKey: String) -> String? {
        guard let stored, stored.hasPrefix(roundKey + " ") else { return nil }
        return String(stored.dropFirst(roundKey.count + 1))
    }
}

/// What `SyncItemRecord.seriesKey` holds for an item that is a whole series (its master on each side).
enum SyncItemKind {
    static let series = "series"
}

extension EventWrite {
    /// The event a write addresses (nil for a create).
    var targetID: String? {
        switch self {
        case .create: nil
        case .update(let event, _): event.id
        case .delete(let id): id
        }
    }

    /// Whether it deletes (or cancels an occurrence).
    var isDelete: Bool {
        if case .delete = self { return true }
        return false
    }
}

/// One value per side of a pair.
struct Sides<Value> {
    var a: Value
    var b: Value

    init(a: Value, b: Value) {
        self.a = a
        self.b = b
    }

    init(_ both: Value) {
        a = both
        b = both
    }

    subscript(side: SyncSide) -> Value {
        get { side == .a ? a : b }
        // In place: with only get/set, `sides[side][key] = value` copies the whole dictionary each time,
        // once per item loaded, which makes loading a large state quadratic.
        _modify {
            if side == .a { yield &a } else { yield &b }
        }
    }
}

extension Sides: Sendable where Value: Sendable {}
