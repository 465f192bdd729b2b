import Sync
import SyncModel
import Testing

/// Occurrences of one series edited on both sides between two runs, against two in-memory calendars (A
/// like Google, B like Outlook): the per-occurrence three-way comparison (`SyncOccurrenceScenarios`; the same
/// cases against the sandbox: ProvidersTests' `SyncOccurrenceSandboxTests`).
@Suite("Sync occurrences edited on both sides")
struct SyncOccurrenceTests {
    @Test("the same occurrence moved on both sides: one conflict, the rule's winner on both, the loser kept", arguments: SyncConflictRule.allCases)
    func sameOccurrenceMoved(rule: SyncConflictRule) async throws {
        let problems = try await SyncOccurrenceScenarios.sameOccurrenceMoved(InMemorySyncCalendars(), conflict: rule)
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("different occurrences moved on each side: both moves on both sides, no conflict")
    func differentOccurrencesMoved() async throws {
        let problems = try await SyncOccurrenceScenarios.differentOccurrencesMoved(InMemorySyncCalendars())
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test(
        "an occurrence cancelled on one side, moved on the other: the move wins where it can (the cancellation kept and restorable), else a conflict",
        arguments: [SyncSide.a, .b])
    func cancelledAndMoved(cancelledOn: SyncSide) async throws {
        let problems = try await SyncOccurrenceScenarios.cancelledAndMoved(InMemorySyncCalendars(), cancelledOn: cancelledOn)
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("after an occurrence conflict, a quiet run writes nothing and a later one-sided edit writes only itself", arguments: [SyncConflictRule.a, .b])
    func quietRerun(rule: SyncConflictRule) async throws {
        let problems = try await SyncOccurrenceScenarios.quietRerun(InMemorySyncCalendars(), conflict: rule)
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("an occurrence write that landed without its state row (its answer lost) is repaired by the next run: no second conflict")
    func lostAnswer() async throws {
        let problems = try await SyncOccurrenceScenarios.lostAnswer(InMemorySyncCalendars())
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("an occurrence moved on B, then its series shifted and retitled there, then retitled again: A's exception (kept as it was by A) follows the series each time")
    func exceptionFollowsItsSeriesAgain() async throws {
        let problems = try await SyncOccurrenceScenarios.exceptionFollowsItsSeriesAgain(InMemorySyncCalendars())
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("occurrence rows stored without their content (before the fix of 2026-12-04): no write for them, and a series retitle still reaches every occurrence")
    func rowsWithoutContent() async throws {
        let problems = try await SyncOccurrenceScenarios.rowsWithoutContent(InMemorySyncCalendars())
        #expect(problems.isEmpty, "\(problems)")
    }
}
