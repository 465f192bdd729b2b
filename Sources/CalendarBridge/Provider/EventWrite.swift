/// One write in a batch handed to `CalendarProvider.applyWrites(_:in:maxConcurrent:)`.
public enum EventWrite: Sendable, Hashable {
    /// Create an event; with a key, repeating the create leaves one event (see `IdempotencyKey`).
    case create(Event, idempotencyKey: IdempotencyKey?)
    /// Change an existing event (`Event.id`; may be an occurrence of a series) to the model's `fields`.
    case update(Event, fields: EventFields = .all)
    /// Delete an event (or cancel one occurrence of a series). Already gone counts as done.
    case delete(id: String)
}

/// Which of an event's fields an update writes; the service keeps the rest as it stores them.
///
/// An update of an event calbridge did not make (an original, when a copy's edit is carried back) names only
/// what changed. Writing a field back as read is not harmless: an Outlook series' pattern or times sent again
/// unchanged can differ from what Exchange stores in what the model cannot carry (a recurrence zone other than
/// the start's, a custom zone), and a new pattern or time resets the series, dropping its moved and cancelled
/// occurrences.
public struct EventFields: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let title = EventFields(rawValue: 1 << 0)
    /// Start, end and whether the event is all-day.
    public static let times = EventFields(rawValue: 1 << 1)
    public static let location = EventFields(rawValue: 1 << 2)
    /// A series master's rule.
    public static let recurrence = EventFields(rawValue: 1 << 3)
    /// The description.
    public static let body = EventFields(rawValue: 1 << 4)
    /// The reminders (nil: the calendar's default).
    public static let reminders = EventFields(rawValue: 1 << 5)
    /// Free or busy.
    public static let showAs = EventFields(rawValue: 1 << 6)
    /// Private, confidential, personal or normal.
    public static let sensitivity = EventFields(rawValue: 1 << 7)
    /// Every field the model carries: the event becomes the model.
    public static let all = EventFields(rawValue: ~0)
}

extension EventFields {
    /// `body` (a provider's write body for the whole model) cut to the members that carry these fields;
    /// `members` names each field's members in that provider's JSON. All of `body` for `.all`.
    public func select(from body: [String: Any], members: KeyValuePairs<EventFields, [String]>) -> [String: Any] {
        guard self != .all else { return body }
        var kept = Set<String>()
        for (field, names) in members where contains(field) { kept.formUnion(names) }
        return body.filter { kept.contains($0.key) }
    }
}

/// What one write did, as the server stored it.
public enum EventWriteOutcome: Sendable, Hashable {
    case created(Event)
    case updated(Event)
    case deleted(id: String)
}

/// One write's outcome or its error (any error a single call would throw, usually `CalendarError`).
public typealias EventWriteResult = Result<EventWriteOutcome, any Error>
