import CalendarBridge
import Foundation

/// A wrapper of `base`: every read goes to `base`, the reads that have default implementations too (a
/// provider's lighter or batched reads, not the protocol's defaults on the wrapper). Wrappers write
/// what they change: the account's name, the writes.
package protocol ForwardingProvider: CalendarProvider {
    var base: any CalendarProvider { get }
}

extension ForwardingProvider {
    package var provider: ProviderKind { base.provider }
    package var account: String { base.account }
    package var capabilities: ProviderCapabilities { base.capabilities }
    package func userInfo() async throws -> UserInfo { try await base.userInfo() }
    package func listCalendars() async throws -> [CalendarInfo] { try await base.listCalendars() }
    package func listEvents(calendarID: String, range: TimeRange, expand: Bool) async throws -> [Event] {
        try await base.listEvents(calendarID: calendarID, range: range, expand: expand)
    }
    package func getEvent(id: String, calendarID: String) async throws -> Event { try await base.getEvent(id: id, calendarID: calendarID) }
    package func quickAdd(text: String, in calendarID: String) async throws -> Event { try await base.quickAdd(text: text, in: calendarID) }
    package func findEvents(origin: OriginLookup, in calendarID: String) async throws -> [Event] {
        try await base.findEvents(origin: origin, in: calendarID)
    }
    package func probeEvents(ids: [String], calendarID: String) async -> [EventProbe] {
        await base.probeEvents(ids: ids, calendarID: calendarID)
    }
    package func probeOccurrences(_ queries: [OccurrenceQuery], calendarID: String) async -> [OccurrenceProbe] {
        await base.probeOccurrences(queries, calendarID: calendarID)
    }
    package func findCopies(origin: OriginLookup, in calendarID: String) async throws -> [Event] {
        try await base.findCopies(origin: origin, in: calendarID)
    }
    package func listEventViews(calendarID: String, range: TimeRange) async throws -> EventViews {
        try await base.listEventViews(calendarID: calendarID, range: range)
    }
    package func listOccurrences(calendarID: String, range: TimeRange, ofSeries seriesIDs: Set<String>) async throws -> [Event] {
        try await base.listOccurrences(calendarID: calendarID, range: range, ofSeries: seriesIDs)
    }
}

/// The same mailbox under a second calbridge account name: every call goes to `base`; only the local
/// name (and the calendars' `account`) differ, as after `accounts add` of the same mailbox twice.
package struct RenamedProvider: ForwardingProvider {
    package let base: any CalendarProvider
    package let account: String

    package init(_ base: any CalendarProvider, account: String) {
        self.base = base
        self.account = account
    }

    package func listCalendars() async throws -> [CalendarInfo] {
        try await base.listCalendars().map { var c = $0; c.account = account; return c }
    }
    package func createEvent(_ event: Event, in calendarID: String, idempotencyKey: IdempotencyKey?) async throws -> Event {
        try await base.createEvent(event, in: calendarID, idempotencyKey: idempotencyKey)
    }
    package func updateEvent(_ event: Event, fields: EventFields) async throws -> Event {
        try await base.updateEvent(event, fields: fields)
    }
    package func deleteEvent(id: String, calendarID: String) async throws { try await base.deleteEvent(id: id, calendarID: calendarID) }
    package func applyWrites(_ writes: [EventWrite], in calendarID: String, maxConcurrent: Int) async -> [EventWriteResult] {
        await base.applyWrites(writes, in: calendarID, maxConcurrent: maxConcurrent)
    }
}

/// How many writes a killed run still gets through, shared by the batches in flight.
package actor KillSwitch {
    private var remaining: Int
    private var loseResponse: Bool

    package init(after writes: Int, loseResponse: Bool) {
        remaining = writes
        self.loseResponse = loseResponse
    }

    /// Of `count` writes: how many go through, and whether the next one is applied with its answer lost.
    func take(_ count: Int) -> (allowed: Int, loseNext: Bool) {
        let allowed = min(remaining, count)
        remaining -= allowed
        var lose = false
        if allowed < count && loseResponse {
            lose = true
            loseResponse = false
        }
        return (allowed, lose)
    }
}

/// A target whose process dies after some writes: reads work, the writes past the kill point never
/// reach the server (or the first one does and its answer is lost). In-process, so it works the same
/// against the in-memory provider and the sandbox.
package struct KilledProvider: ForwardingProvider {
    package let base: any CalendarProvider
    package let kill: KillSwitch

    package init(_ base: any CalendarProvider, kill: KillSwitch) {
        self.base = base
        self.kill = kill
    }

    package func createEvent(_ event: Event, in calendarID: String, idempotencyKey: IdempotencyKey?) async throws -> Event {
        try await single(.create(event, idempotencyKey: idempotencyKey), in: calendarID) {
            try await base.createEvent(event, in: calendarID, idempotencyKey: idempotencyKey)
        }
    }
    package func updateEvent(_ event: Event, fields: EventFields) async throws -> Event {
        try await single(.update(event, fields: fields), in: event.calendarID) { try await base.updateEvent(event, fields: fields) }
    }
    package func deleteEvent(id: String, calendarID: String) async throws {
        try await single(.delete(id: id), in: calendarID) { try await base.deleteEvent(id: id, calendarID: calendarID) }
    }

    package func applyWrites(_ writes: [EventWrite], in calendarID: String, maxConcurrent: Int) async -> [EventWriteResult] {
        let (allowed, loseNext) = await kill.take(writes.count)
        var results = await base.applyWrites(Array(writes.prefix(allowed)), in: calendarID, maxConcurrent: maxConcurrent)
        if loseNext && allowed < writes.count {
            _ = await base.applyWrites([writes[allowed]], in: calendarID, maxConcurrent: 1)
        }
        while results.count < writes.count { results.append(.failure(Self.killed(provider))) }
        return results
    }

    private func single<T>(_ write: EventWrite, in calendarID: String, _ call: () async throws -> T) async throws -> T {
        let (allowed, loseNext) = await kill.take(1)
        if allowed == 1 { return try await call() }
        if loseNext { _ = try? await call() }
        throw Self.killed(provider)
    }

    static func killed(_ provider: ProviderKind) -> CalendarError {
        CalendarError(.transport, "the run was killed (injected by the model test)", provider: provider)
    }
}

/// Change reads pass through when the base can read changes: the sync model's killed runs.
extension KilledProvider: ChangeReadingProvider {
    package func changes(calendarID: String, window: TimeRange, cursor: String?) async throws -> ChangeRead {
        guard let reader = base as? any ChangeReadingProvider else {
            throw CalendarError(.unsupported, "the killed provider's base reads no changes", provider: provider)
        }
        return try await reader.changes(calendarID: calendarID, window: window, cursor: cursor)
    }

    package var changeReadsCarryMarkers: Bool { (base as? any ChangeReadingProvider)?.changeReadsCarryMarkers ?? true }
}
