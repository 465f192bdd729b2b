extension CalendarProvider {
    /// Changes an existing event to the model: every field the model carries.
    public func updateEvent(_ event: Event) async throws -> Event { try await updateEvent(event, fields: .all) }

    public func updateEvent(_ event: Event, fields: EventFields, mail: AttendeeMail) async throws -> Event {
        try await updateEvent(event, fields: fields)
    }

    public func deleteEvent(id: String, calendarID: String, mail: AttendeeMail) async throws {
        try await deleteEvent(id: id, calendarID: calendarID)
    }

    /// The default batch: every write as its own call, at most `maxConcurrent` in flight.
    public func applyWrites(_ writes: [EventWrite], in calendarID: String, maxConcurrent: Int) async
        -> [EventWriteResult]
    {
        await applyWritesIndividually(writes, in: calendarID, maxConcurrent: maxConcurrent)
    }

    /// Makes each write as a single call (create, update or delete), at most `maxConcurrent` at a time,
    /// and returns the outcomes in the order of `writes`. Providers that override `applyWrites` can fall
    /// back to this for what their batch endpoint cannot take.
    public func applyWritesIndividually(_ writes: [EventWrite], in calendarID: String, maxConcurrent: Int) async
        -> [EventWriteResult]
    {
        await mapConcurrently(writes, limit: maxConcurrent) { await self.applySingle($0, in: calendarID) }
    }

    private func applySingle(_ write: EventWrite, in calendarID: String) async -> EventWriteResult {
        do {
            switch write {
            case .create(let event, let key):
                return .success(.created(try await createEvent(event, in: calendarID, idempotencyKey: key)))
            case .update(var event, let fields):
                event.calendarID = calendarID
                return .success(.updated(try await updateEvent(event, fields: fields)))
            case .delete(let id):
                try await deleteEvent(id: id, calendarID: calendarID)
                return .success(.deleted(id: id))
            }
        } catch {
            return .failure(error)
        }
    }
}
