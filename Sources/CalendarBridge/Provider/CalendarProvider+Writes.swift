extension CalendarProvider {
    /// Changes an existing event to the model: every field the model carries.
    public func updateEvent(_ event: Event) async throws -> Event { try await updateEvent(event, fields: .all) }

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
        guard !writes.isEmpty else { return [] }
        let limit = max(1, min(maxConcurrent, writes.count))
        return await withTaskGroup(of: (Int, EventWriteResult).self) { group in
            var results = [EventWriteResult?](repeating: nil, count: writes.count)
            var next = 0
            func start() {
                let index = next
                let write = writes[index]
                next += 1
                group.addTask { (index, await self.applySingle(write, in: calendarID)) }
            }
            // A sliding window: start `limit`, then one more each time one finishes.
            while next < limit { start() }
            for await (index, result) in group {
                results[index] = result
                if next < writes.count { start() }
            }
            return results.map { $0! }
        }
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
