import CalendarBridge
import Foundation

/// One run of one pair (the implementation follows in the next commits).
struct SyncRun {
    let engine: SyncEngine
    let pair: String
    var report: SyncReport

    init(engine: SyncEngine, pair: String, a: SyncEngine.Endpoint, b: SyncEngine.Endpoint, options: SyncPairOptions, dryRun: Bool)
        async throws(SyncError)
    {
        self.engine = engine
        self.pair = pair
        self.report = SyncReport(name: pair, dryRun: dryRun, started: engine.now())
        _ = try await engine.store.pairRecord(named: pair)
    }

    mutating func execute() async throws(SyncError) -> SyncReport {
        report.finished = engine.now()
        return report
    }

    static func removeCopies(engine: SyncEngine, pair: String, a: SyncEngine.Endpoint, b: SyncEngine.Endpoint, dryRun: Bool)
        async throws(SyncError) -> SyncReport
    {
        SyncReport(name: pair, dryRun: dryRun, started: engine.now())
    }
}
