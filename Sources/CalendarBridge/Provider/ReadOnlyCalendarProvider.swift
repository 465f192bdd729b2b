/// A provider whose calendars can be read but never written (a subscribed feed, an iCalendar file).
///
/// Every write answers `readOnlyError()` (a `CalendarError` with code `.readOnly`, exit 2 in the CLI), and
/// `findEvents` is empty: nothing in such a calendar was written by calbridge.
public protocol ReadOnlyCalendarProvider: CalendarProvider {
    /// The error every write throws, naming the account and calendar.
    func readOnlyError() -> CalendarError
}

extension ReadOnlyCalendarProvider {
    public func createEvent(_ event: Event, in calendarID: String, idempotencyKey: IdempotencyKey?) async throws -> Event {
        throw readOnlyError()
    }

    public func updateEvent(_ event: Event, fields: EventFields) async throws -> Event { throw readOnlyError() }

    public func deleteEvent(id: String, calendarID: String) async throws { throw readOnlyError() }

    public func quickAdd(text: String, in calendarID: String) async throws -> Event { throw readOnlyError() }

    public func findEvents(origin: OriginLookup, in calendarID: String) async throws -> [Event] { [] }

    public func applyWrites(_ writes: [EventWrite], in calendarID: String, maxConcurrent: Int) async -> [EventWriteResult] {
        writes.map { _ in .failure(readOnlyError()) }
    }
}
