import Accounts
import CalendarBridge
import Foundation
import TestSupport
import Testing

@testable import Sync

/// The pair runner and the watcher run pairs with no command line: a caller supplies a `PairSideOpener` (here
/// the test world's two in-memory calendars) and reads the results and the watcher's events.
@Suite("Sync pair runner and watcher")
struct SyncPairRunnerTests {
    typealias World = SyncTestWorld

    /// Opens `home:Home` and `work:Work` as the world's two sides; any other reference fails as an account
    /// whose grant must be renewed (`expired:…`) or as unknown.
    struct WorldOpener: PairSideOpener {
        let world: World

        struct Refused: Error, CustomStringConvertible {
            var reference: String
            var description: String { "cannot open \(reference)" }
        }

        func endpoint(_ stored: String, side: SyncSide) async throws -> SyncEngine.Endpoint {
            switch stored {
            case "home:Home": return world.endpoint(.a)
            case "work:Work": return world.endpoint(.b)
            default: throw Refused(reference: stored)
            }
        }

        func describe(_ error: any Error) -> SyncPairFailure {
            let reference = (error as? Refused)?.reference ?? ""
            let account = reference.hasPrefix("expired:") ? "expired" : nil
            return SyncPairFailure(error: error, message: "\(error)", needsSignIn: account != nil, account: account)
        }
    }

    static func event(_ title: String, day: Int) -> Event {
        let start = World.now.addingTimeInterval(Double(day) * 86_400)
        return Event(
            title: title, start: .timed(instant: start, zone: "UTC"), end: .timed(instant: start.addingTimeInterval(3600), zone: "UTC"))
    }

    @Test("pairs run side by side; one that cannot open fails alone; every run is recorded with its counts")
    func runsAndRecords() async throws {
        let w = try await World()
        defer { w.directory.remove() }
        try await w.store.addPair(name: "broken", sideA: "expired:Cal", sideB: "work:Work", options: w.options, at: World.now)
        try await w.store.addPair(name: "gone", sideA: "nobody:Cal", sideB: "work:Work", options: w.options, at: World.now)
        _ = try await w.a.createEvent(Self.event("Lunch", day: 1), in: "home")
        let warnings = Recorded<String>()
        let runner = SyncPairRunner(engine: w.engine, opener: WorldOpener(world: w), dryRun: false, warn: { warnings.add($0) })

        let pairs = try await w.store.pairs()
        #expect(pairs.map(\.name) == ["broken", "gone", "p"])
        let results = await runner.run(pairs)
        #expect(results.map(\.pair.name) == ["broken", "gone", "p"])
        #expect(results.map(\.outcome) == [.needsSignIn, .failed, .ok])
        #expect(results[0].signInAccount == "expired" && results[1].signInAccount == nil)
        #expect(results[2].report?.aToB.created == 1)
        #expect(await w.titles(.b) == ["Lunch"])
        #expect(warnings.values.isEmpty)

        let runs = try await w.store.read { state in try ["broken", "gone", "p"].map { try state.lastRun(pair: $0) } }
        #expect(runs.map { $0?.outcome } == ["needsSignIn", "failed", "ok"])
        #expect(runs[1]?.error == "cannot open nobody:Cal")
        let counts = try JSONDecoder().decode(SyncRunCounts.self, from: Data(try #require(runs[2]?.counts).utf8))
        #expect(counts.aToB.created == 1 && counts.requests == results[2].report?.requests)

        // A dry run records nothing.
        let dry = SyncPairRunner(engine: w.engine, opener: WorldOpener(world: w), dryRun: true, warn: { warnings.add($0) })
        _ = try await w.a.createEvent(Self.event("Dinner", day: 2), in: "home")
        let preview = await dry.runOne(pairs[2])
        #expect(preview.report?.aToB.created == 1)
        #expect(try await w.store.read { try $0.lastRun(pair: "p") } == runs[2])
    }

    @Test("the watcher runs the due pairs each cycle until asked to stop, and names the accounts to sign in again")
    func watcherStops() async throws {
        let w = try await World()
        defer { w.directory.remove() }
        try await w.store.addPair(name: "broken", sideA: "expired:Cal", sideB: "work:Work", options: w.options, at: World.now)
        _ = try await w.a.createEvent(Self.event("Lunch", day: 1), in: "home")
        let lock = try SyncWatchLock.acquire(home: CalbridgeHome(directory: w.directory.url.appendingPathComponent("home")))
        defer { lock.release() }
        let runner = SyncPairRunner(engine: w.engine, opener: WorldOpener(world: w), dryRun: false, warn: { _ in })
        let home = CalbridgeHome(directory: w.directory.url.appendingPathComponent("home"))
        let watcher = SyncWatcher(runner: runner, definitions: SyncPairDefinitions(home: home), names: [], interval: .seconds(1))
        let stop = StopAfter(pairRuns: 2)
        let events = Recorded<String>()
        let accounts = await watcher.run(holding: lock, first: try await w.store.pairs(), until: stop) { event in
            switch event {
            case .started(let pairs, let interval): events.add("started \(pairs) \(interval)")
            case .pairFinished(let result, _):
                events.add("\(result.pair.name) \(result.outcome.rawValue)")
                stop.count()
            case .cannotReadPairs(let error): events.add("error \(error)")
            case .stopped(let reason): events.add("stopped \(reason)")
            }
        }
        #expect(accounts == ["expired"])
        #expect(events.values.first == #"started ["broken", "p"] 1.0 seconds"#)
        #expect(events.values.last == "stopped test")
        #expect(Set(events.values.dropFirst().dropLast()) == ["broken needsSignIn", "p ok"])
        #expect(await w.titles(.b) == ["Lunch"])
    }
}

extension SyncPairRunnerTests {
    @Test(
        "asked to stop, a run starts no new batch: what was sent is recorded, the report says interrupted, the next run finishes without duplicates"
    )
    func stopsBetweenBatches() async throws {
        let w = try await World(options: SyncPairOptions(direction: .aToB))
        defer { w.directory.remove() }
        for n in 0..<20 { _ = try await w.a.createEvent(Self.event("Event \(n)", day: n % 10 + 1), in: "home") }
        let asked = Recorded<Bool>()
        var engine = SyncEngine(store: w.store, zone: TimeZone(identifier: "UTC")!, batchSize: 2, now: { World.now })
        // The first round of batches (4 batches of 2) goes out; asked again, the run stops.
        engine.shouldStop = {
            asked.add(true)
            return asked.values.count > 1
        }
        let runner = SyncPairRunner(engine: engine, opener: WorldOpener(world: w), dryRun: false, warn: { _ in })
        let pair = try #require(try await w.store.pairs().first)
        let stopped = await runner.runOne(pair)
        #expect(stopped.outcome == .interrupted)
        #expect(stopped.report?.interrupted == true && stopped.report?.outcome == .partial)
        #expect(stopped.report?.aToB.created == 8)
        #expect(await w.titles(.b).count == 8)
        #expect(try await w.store.read { try $0.lastRun(pair: "p") }?.outcome == "interrupted")
        #expect(try await w.store.read { try $0.cursor(pair: "p", side: .b) } == nil)

        let finished = try await w.sync()
        #expect(finished.interrupted == nil && finished.aToB.created == 12)
        #expect(await w.titles(.b) == (0..<20).map { "Event \($0)" }.sorted())
    }
}

/// Values added from several tasks, read after.
final class Recorded<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var stored: [Value] = []

    func add(_ value: Value) { lock.withLock { stored.append(value) } }
    var values: [Value] { lock.withLock { stored } }
}

/// Asks to stop once `pairRuns` pair runs were counted.
final class StopAfter: SyncStopRequest, @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int
    // Guarded by `lock`.
    private var runs = 0

    init(pairRuns: Int) { limit = pairRuns }

    func count() { lock.withLock { runs += 1 } }

    var stopReason: String? { lock.withLock { runs >= limit ? "test" : nil } }

    func waitForStop(timeout: Duration) async -> String? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if let reason = stopReason { return reason }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return stopReason
    }
}
