/// One write in a batch handed to `CalendarProvider.applyWrites(_:in:maxConcurrent:)`.
public enum EventWrite: Sendable, Hashable {
    /// Create an event; with a key, repeating the create leaves one event (see `IdempotencyKey`).
    case create(Event, idempotencyKey: IdempotencyKey?)
    /// Change an existing event (`Event.id`; may be an occurrence of a series) to the model's fields.
    case update(Event)
    /// Delete an event (or cancel one occurrence of a series). Already gone counts as done.
    case delete(id: String)
}

/// What one write did, as the server stored it.
public enum EventWriteOutcome: Sendable, Hashable {
    case created(Event)
    case updated(Event)
    case deleted(id: String)
}

/// One write's outcome or its error (any error a single call would throw, usually `CalendarError`).
public typealias EventWriteResult = Result<EventWriteOutcome, any Error>
