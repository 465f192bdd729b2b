/// A provider that can tell what changed in a calendar since an earlier read: Google's `syncToken`,
/// Graph's `calendarView/delta`. What `sync` reads each round.
///
/// The first call (no cursor) is a full read of the window and hands out a cursor; each later call with the
/// last cursor returns only what changed since, and a new cursor. Store the cursor only after the changes it
/// follows are applied: repeating a call with an older cursor is safe and returns those changes again.
///
/// What each service returns differs, and callers must allow for both:
/// - Google: series masters with their rules, single events and exceptions (an exception's `seriesID` and
///   `originalStart` name its occurrence). Changes cover the whole calendar (a sync token cannot be limited
///   to a window); the provider drops changed events that end before or start after the window, but reports
///   every removal. Removals are cancelled events: a deleted event, or a cancelled occurrence of a series.
/// - Graph: single events, occurrences and exceptions, never series masters (read a master by
///   `getEvent(id: seriesID)`), and only within the window the cursor's round was started with. Delta items
///   carry no extended properties, so `Event.origin` is always nil here.
///
/// Writing a test double: keep a change log in the actor (every write appends the event's id and a
/// sequence number), make the cursor the sequence number as text, and answer `.cursorExpired` when the log
/// no longer reaches back to it.
public protocol ChangeReadingProvider: CalendarProvider {
    /// The changes in a calendar since `cursor`, or all of the window's events when `cursor` is nil.
    /// - Parameters:
    ///   - calendarID: the provider's calendar id.
    ///   - window: the span the caller keeps in step (Graph's round is bound to it; Google filters to it).
    ///   - cursor: the `ChangeSet.cursor` of the previous call, or nil for a full read.
    /// - Returns: `.changes`, or `.cursorExpired` when the service cannot continue from `cursor` (then call
    ///   again with nil and reconcile the full read against what you know).
    /// - Throws: `CalendarError` for every other failure (a failed read is "unknown", never "gone").
    func changes(calendarID: String, window: TimeRange, cursor: String?) async throws -> ChangeRead

    /// Whether the events of a change read carry their origin markers (Google: yes; Graph: no, so a caller
    /// reads an unknown item by id before treating it as new).
    var changeReadsCarryMarkers: Bool { get }
}

extension ChangeReadingProvider {
    public var changeReadsCarryMarkers: Bool { true }
}

/// The outcome of `ChangeReadingProvider.changes`.
public enum ChangeRead: Sendable {
    /// What changed (or, for a full read, everything there is).
    case changes(ChangeSet)
    /// The cursor cannot be continued: read everything again with no cursor.
    case cursorExpired(CursorExpiry)
}

/// Why a change cursor cannot be continued.
public struct CursorExpiry: Sendable, Hashable {
    public enum Reason: String, Sendable, Hashable {
        /// The service no longer knows the cursor (Google 410 `fullSyncRequired`, Graph 410
        /// `SyncStateNotFound` / `resyncRequired`).
        case expired
        /// Graph: the cursor's delta round covers another window than the one asked for (the window rolled).
        case windowChanged
        /// The cursor is not one this provider wrote (another provider's, or damaged).
        case unreadable
    }

    public var reason: Reason
    /// The service's words, or calbridge's for `.windowChanged` and `.unreadable`.
    public var message: String
    /// The service's own code (`fullSyncRequired`, `SyncStateNotFound`), when it sent one.
    public var providerCode: String?

    public init(_ reason: Reason, message: String, providerCode: String? = nil) {
        self.reason = reason
        self.message = message
        self.providerCode = providerCode
    }
}
