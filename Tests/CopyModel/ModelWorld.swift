import CalendarBridge
import Foundation
import TestSupport

/// Where a scenario runs: a source calendar, the same mailbox under a second account name, and a target.
package struct ModelWorld: Sendable {
    package var source: any CalendarProvider
    package var sourceCalendar: CalendarInfo
    /// The source mailbox under another calbridge account name.
    package var sourceAlias: any CalendarProvider
    /// The source account's stable identity, as `accounts add` stores it (nil: the provider's
    /// `userInfo().accountIdentity`, as the CLI reads it for an account stored before it had one).
    package var sourceIdentity: String?
    package var target: any CalendarProvider
    package var targetCalendar: CalendarInfo
    /// Stops servers, removes files.
    package var close: @Sendable () async -> Void
    /// Creates a source event the way another client would (Outlook's all-day events in the mailbox
    /// zone, say) and returns its id; nil: create it through the source provider.
    package var createSource: (@Sendable (ModelEvent) async throws -> String?)?
    /// Edits a source event (the model's new version, the event's id) the way that client would; false:
    /// edit it through the source provider.
    package var updateSource: (@Sendable (ModelEvent, String) async throws -> Bool)?

    package init(
        source: any CalendarProvider, sourceCalendar: CalendarInfo, sourceAlias: any CalendarProvider,
        target: any CalendarProvider, targetCalendar: CalendarInfo, close: @escaping @Sendable () async -> Void = {},
        createSource: (@Sendable (ModelEvent) async throws -> String?)? = nil,
        updateSource: (@Sendable (ModelEvent, String) async throws -> Bool)? = nil, sourceIdentity: String? = nil
    ) {
        self.updateSource = updateSource
        self.sourceIdentity = sourceIdentity
        self.createSource = createSource
        self.source = source
        self.sourceCalendar = sourceCalendar
        self.sourceAlias = sourceAlias
        self.target = target
        self.targetCalendar = targetCalendar
        self.close = close
    }
}

/// A fresh world per scenario.
package protocol ModelBackend: Sendable {
    var name: String { get }
    func world(for scenario: ModelScenario) async throws -> ModelWorld
}

/// Both sides in memory (`InMemoryCalendarProvider`), of the scenario's provider kinds.
package struct InMemoryModelBackend: ModelBackend {
    package init() {}
    package var name: String { "in-memory" }

    package func world(for scenario: ModelScenario) async throws -> ModelWorld {
        let sourceCalendar = CalendarInfo(
            id: "work", name: "Work", account: "src", provider: scenario.sourceKind, isPrimary: true, accessRole: .owner)
        let targetCalendar = CalendarInfo(
            id: "home", name: "Home", account: "dst", provider: scenario.targetKind, isPrimary: true, accessRole: .owner)
        let source = InMemoryCalendarProvider(provider: scenario.sourceKind, account: "src", calendars: [sourceCalendar])
        let target = InMemoryCalendarProvider(provider: scenario.targetKind, account: "dst", calendars: [targetCalendar])
        return ModelWorld(
            source: source, sourceCalendar: sourceCalendar, sourceAlias: RenamedProvider(source, account: "src-again"),
            target: target, targetCalendar: targetCalendar, sourceIdentity: "mailbox-7f3a")
    }
}
