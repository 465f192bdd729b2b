import CalendarBridge
import Foundation
import SyncModel
import TestSupport

@testable import Sync

/// Two in-memory calendars (A like Google, B like Outlook), a state and a pair `p` between them: what the
/// engine tests and the model test run against.
struct SyncTestWorld {
    static let now = InMemorySyncCalendars.now

    let calendars = InMemorySyncCalendars()
    var a: InMemoryCalendarProvider { calendars.a }
    var b: InMemoryCalendarProvider { calendars.b }
    let directory: TemporaryDirectory
    let store: SQLiteSyncStateStore
    let engine: SyncEngine
    var options: SyncPairOptions

    init(options: SyncPairOptions = SyncPairOptions(direction: .both)) async throws {
        directory = try TemporaryDirectory(prefix: "calbridge-sync")
        store = try SQLiteSyncStateStore(url: directory.url.appendingPathComponent("home").appendingPathComponent("sync.db"))
        engine = SyncEngine(store: store, zone: TimeZone(identifier: "UTC")!, now: { SyncTestWorld.now })
        self.options = options
        try await store.addPair(name: "p", sideA: "home:Home", sideB: "work:Work", options: options, at: Self.now)
    }

    func provider(_ side: SyncSide) -> InMemoryCalendarProvider { calendars.memory(side) }
    func calendar(_ side: SyncSide) -> String { calendars.calendar(side) }

    func endpoint(_ side: SyncSide) -> SyncEngine.Endpoint {
        SyncEngine.Endpoint(provider: provider(side), calendarID: calendar(side), accountIdentity: side == .a ? "home-id" : "work-id")
    }

    func sync(dryRun: Bool = false) async throws -> SyncReport {
        try await engine.run(pair: "p", a: endpoint(.a), b: endpoint(.b), options: options, dryRun: dryRun)
    }

    func titles(_ side: SyncSide) async -> [String] {
        await provider(side).storedEvents(in: calendar(side)).map(\.title).sorted()
    }
}
