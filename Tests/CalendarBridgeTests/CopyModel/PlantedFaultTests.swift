import CalendarBridge
import CopyModel
import Foundation
import Testing

/// The model test must fail when the copy goes wrong: with a target that silently drops creates or
/// makes each twice, the oracle reports the seeds (so a green run means something).
@Suite("Copy model: the oracle catches planted faults")
struct PlantedFaultTests {
    enum Fault: String, Sendable, CaseIterable {
        /// Creates answer success but write nothing.
        case dropCreates
        /// Creates are written twice (the second without the idempotency key).
        case doubleCreates

        var expected: String { self == .dropCreates ? "missing" : "duplicate" }
    }

    /// The in-memory world with the fault planted in the target's batch writes.
    struct FaultyBackend: ModelBackend {
        var fault: Fault
        var name: String { "in-memory with \(fault)" }

        func world(for scenario: ModelScenario) async throws -> ModelWorld {
            var world = try await InMemoryModelBackend().world(for: scenario)
            world.target = FaultyTarget(base: world.target, fault: fault)
            return world
        }
    }

    @Test("a planted fault is found and shrunk to a replay", arguments: Fault.allCases)
    func planted(fault: Fault) async {
        let summary = await ModelCheck.run(
            seeds: Array(1...30), backend: FaultyBackend(fault: fault), shrinkLimit: 1, filter: "PlantedFaultTests")
        #expect(summary.failures.contains { $0.problem.code == fault.expected }, "\(summary.report)")
        let shrunk = summary.shrunk.first
        #expect(shrunk?.replay.contains("CALBRIDGE_MODEL_KEEP_OPS=") == true)
        #expect((shrunk?.scenario.operations.count ?? 99) <= 3, "\(shrunk.map(String.init(describing:)) ?? "")")
    }
}

/// A target whose batch writes misbehave in one planted way; everything else goes to `base`.
struct FaultyTarget: CalendarProvider {
    let base: any CalendarProvider
    let fault: PlantedFaultTests.Fault

    var provider: ProviderKind { base.provider }
    var account: String { base.account }
    var capabilities: ProviderCapabilities { base.capabilities }
    func userInfo() async throws -> UserInfo { try await base.userInfo() }
    func listCalendars() async throws -> [CalendarInfo] { try await base.listCalendars() }
    func listEvents(calendarID: String, range: TimeRange, expand: Bool) async throws -> [Event] {
        try await base.listEvents(calendarID: calendarID, range: range, expand: expand)
    }
    func getEvent(id: String, calendarID: String) async throws -> Event { try await base.getEvent(id: id, calendarID: calendarID) }
    func createEvent(_ event: Event, in calendarID: String, idempotencyKey: IdempotencyKey?) async throws -> Event {
        try await base.createEvent(event, in: calendarID, idempotencyKey: idempotencyKey)
    }
    func updateEvent(_ event: Event, fields: EventFields) async throws -> Event { try await base.updateEvent(event, fields: fields) }
    func deleteEvent(id: String, calendarID: String) async throws { try await base.deleteEvent(id: id, calendarID: calendarID) }
    func quickAdd(text: String, in calendarID: String) async throws -> Event { try await base.quickAdd(text: text, in: calendarID) }
    func findEvents(origin: OriginLookup, in calendarID: String) async throws -> [Event] {
        try await base.findEvents(origin: origin, in: calendarID)
    }

    func applyWrites(_ writes: [EventWrite], in calendarID: String, maxConcurrent: Int) async -> [EventWriteResult] {
        var results: [EventWriteResult] = []
        for write in writes {
            guard case .create(let event, let key) = write else {
                results += await base.applyWrites([write], in: calendarID, maxConcurrent: 1)
                continue
            }
            switch fault {
            case .dropCreates:
                var pretend = event
                pretend.id = "dropped-\(results.count)"
                results.append(.success(.created(pretend)))
            case .doubleCreates:
                results += await base.applyWrites([write], in: calendarID, maxConcurrent: 1)
                _ = try? await base.createEvent(event, in: calendarID, idempotencyKey: key.map { IdempotencyKey($0.rawValue + "-again") })
            }
        }
        return results
    }
}
