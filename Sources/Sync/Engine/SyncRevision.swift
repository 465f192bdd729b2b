import CalendarBridge
import Foundation

/// The revision a feed gave an event (`SEQUENCE`, `LAST-MODIFIED`), kept with the side's hash in the pair's state
/// (`<hash>~r<sequence>.<seconds>`), so that a feed served from a stale mirror, which gives an older revision
/// of an event already synced, is not carried over the newer copy: the rule `copy` and `import` follow with the
/// revision recorded in the copy's marker (`CopyPlanner.newerRevision`).
///
/// Only sides that publish revisions are tagged (a read-only feed or file); a service's own events are compared
/// by content, and a state row written before revisions were kept has none, so it is compared by content too.
struct SyncRevision: Sendable, Equatable {
    var sequence: Int
    /// `LAST-MODIFIED` in whole seconds since 1970, when the event has one.
    var modified: Int?

    /// The event's revision, when it carries a `SEQUENCE` (iCalendar's events always do: 0 when none is given).
    init?(_ event: Event) {
        guard let sequence = event.sequence else { return nil }
        self.sequence = sequence
        modified = event.updated.map { Int($0.timeIntervalSince1970.rounded(.down)) }
    }

    init(sequence: Int, modified: Int?) {
        self.sequence = sequence
        self.modified = modified
    }

    static let separator = "~r"

    /// A hash as the state keeps it: the content hash, then the revision when there is one.
    static func tagged(_ hash: String, _ revision: SyncRevision?) -> String {
        guard let revision else { return hash }
        return hash + separator + String(revision.sequence) + "." + (revision.modified.map(String.init) ?? "")
    }

    /// A kept hash's content hash and revision.
    static func split(_ kept: String?) -> (content: String?, revision: SyncRevision?) {
        guard let kept, let range = kept.range(of: separator, options: .backwards) else { return (kept, nil) }
        let parts = kept[range.upperBound...].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, let sequence = Int(first) else { return (kept, nil) }
        let modified = parts.count > 1 ? Int(parts[1]) : nil
        return (String(kept[..<range.lowerBound]), SyncRevision(sequence: sequence, modified: modified))
    }

    /// What makes `kept` newer than this revision, when it is (a higher `SEQUENCE`, or the same one modified
    /// later); nil when this one is as new or newer.
    func olderThan(_ kept: SyncRevision) -> String? {
        if kept.sequence > sequence { return "SEQUENCE \(kept.sequence) was synced; the feed gives \(sequence)" }
        if kept.sequence == sequence, let was = kept.modified, let now = modified, was > now {
            let format = Date.ISO8601FormatStyle()
            return "LAST-MODIFIED \(Date(timeIntervalSince1970: TimeInterval(was)).formatted(format)) was synced; the feed gives "
                + Date(timeIntervalSince1970: TimeInterval(now)).formatted(format)
        }
        return nil
    }
}
