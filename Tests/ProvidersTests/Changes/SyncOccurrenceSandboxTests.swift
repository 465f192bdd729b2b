import Sync
import SyncModel
import Testing

/// `SyncOccurrenceTests` through the real Google (A) and Graph (B) providers against a fresh sandbox per case.
@Suite("Sync occurrences edited on both sides, against the sandbox", .serialized)
struct SyncOccurrenceSandboxTests {
    func withSandbox(_ body: (SandboxSyncCalendars) async throws -> [String]) async throws -> [String] {
        let calendars = try await SandboxSyncCalendars.start()
        defer { Task { [server = calendars.server] in try? await server.stop() } }
        return try await body(calendars)
    }

    @Test("the same occurrence moved on Google and on Outlook: one conflict, the rule's winner on both", arguments: SyncConflictRule.allCases)
    func sameOccurrenceMoved(rule: SyncConflictRule) async throws {
        let problems = try await withSandbox { try await SyncOccurrenceScenarios.sameOccurrenceMoved($0, conflict: rule) }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("different occurrences moved on Google and on Outlook: both moves on both sides, no conflict")
    func differentOccurrencesMoved() async throws {
        let problems = try await withSandbox { try await SyncOccurrenceScenarios.differentOccurrencesMoved($0) }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test(
        "an occurrence cancelled on one side, moved on the other: restored on Google (its cancellation kept and restorable), a conflict on Outlook",
        arguments: [SyncSide.a, .b])
    func cancelledAndMoved(cancelledOn: SyncSide) async throws {
        let problems = try await withSandbox { try await SyncOccurrenceScenarios.cancelledAndMoved($0, cancelledOn: cancelledOn) }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("after an occurrence conflict, a quiet run writes nothing and a later one-sided edit writes only itself", arguments: [SyncConflictRule.a, .b])
    func quietRerun(rule: SyncConflictRule) async throws {
        let problems = try await withSandbox { try await SyncOccurrenceScenarios.quietRerun($0, conflict: rule) }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("an occurrence moved on Outlook, then its series shifted and retitled there, then retitled again: Google's exception follows the series each time")
    func exceptionFollowsItsSeriesAgain() async throws {
        let problems = try await withSandbox { try await SyncOccurrenceScenarios.exceptionFollowsItsSeriesAgain($0) }
        #expect(problems.isEmpty, "\(problems)")
    }
}
