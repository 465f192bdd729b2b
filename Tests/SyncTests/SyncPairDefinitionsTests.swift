import Accounts
import CalendarBridge
import Foundation
import TestSupport
import Testing

@testable import Sync

/// `sync-pairs.json`: the pair definitions kept apart from the state, so that a state moved away or rebuilt
/// loses no pair.
@Suite("Sync pair definitions")
struct SyncPairDefinitionsTests {
    typealias World = SyncTestWorld

    static func pair(_ name: String, options: SyncPairOptions = SyncPairOptions(direction: .both)) -> SyncPair {
        SyncPair(
            record: SyncPairRecord(name: name, sideA: "home:Home", sideB: "work:Work", options: options.encoded(), created: World.now),
            options: options)
    }

    @Test("no file is no pairs; added pairs are read back sorted, from a 0600 file; a change nobody made writes nothing")
    func roundTrip() throws {
        let temp = try TemporaryDirectory(prefix: "calbridge-sync-pairs")
        defer { temp.remove() }
        let definitions = SyncPairDefinitions(home: CalbridgeHome(directory: temp.url.appendingPathComponent("home")))
        #expect(try definitions.load() == nil)
        try definitions.update { $0.append(Self.pair("work-home")) }
        try definitions.update { $0.append(Self.pair("busy", options: SyncPairOptions(fields: .busy, pastDays: 0, futureDays: 30))) }
        let pairs = try #require(try definitions.load())
        #expect(pairs.map(\.name) == ["busy", "work-home"])
        #expect(pairs[0].options.fields == .busy && pairs[0].options.futureDays == 30 && pairs[1].options.direction == .both)
        let mode = try FileManager.default.attributesOfItem(atPath: definitions.url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let written = try FileManager.default.attributesOfItem(atPath: definitions.url.path)[.modificationDate] as? Date
        try definitions.update { _ in }
        #expect(try FileManager.default.attributesOfItem(atPath: definitions.url.path)[.modificationDate] as? Date == written)
    }

    @Test("a damaged file is one error naming it; options out of range are refused")
    func damagedFile() throws {
        let temp = try TemporaryDirectory(prefix: "calbridge-sync-pairs")
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        let definitions = SyncPairDefinitions(home: home)
        try SecureFile().write(Data("{\"version\": 1, \"pairs\": [".utf8), to: definitions.url)
        let error = #expect(throws: SyncError.self) { try definitions.load() }
        #expect(error?.code == .definitions && error?.message.contains(definitions.url.path) == true)
        let outOfRange = """
            {"version": 1, "pairs": [{"name": "p", "a": "x:1", "b": "y:2", "created": "2026-12-01T00:00:00Z",
             "options": {"direction": "both", "fields": "basic", "pastDays": 7, "futureDays": 0, "conflict": "newer"}}]}
            """
        try SecureFile().write(Data(outOfRange.utf8), to: definitions.url)
        let refused = #expect(throws: SyncError.self) { try definitions.load() }
        #expect(refused?.message.contains("--future") == true)
    }

    @Test(
        "a home from before the file: its state's pairs are copied in once; the state moved away, the pair runs afresh without duplicates")
    func migrateAndStartAfresh() async throws {
        let w = try await World()
        defer { w.directory.remove() }
        let home = CalbridgeHome(directory: w.directory.url.appendingPathComponent("home"))
        let definitions = SyncPairDefinitions(home: home)
        #expect(try definitions.load() == nil)
        let migrated = try await definitions.migrate(from: w.store)
        #expect(migrated.map(\.name) == ["p"] && migrated.first?.options == w.options)
        #expect(try definitions.load()?.map(\.name) == ["p"])
        #expect(try await definitions.migrate(from: w.store).count == 1)

        _ = try await w.a.createEvent(SyncPairRunnerTests.event("Lunch", day: 1), in: "home")
        _ = try await w.b.createEvent(SyncPairRunnerTests.event("Review", day: 2), in: "work")
        let opener = SyncPairRunnerTests.WorldOpener(world: w)
        let first = await SyncPairRunner(engine: w.engine, opener: opener, dryRun: false, warn: { _ in }).runOne(migrated[0])
        #expect(first.outcome == .ok && first.report?.aToB.created == 1 && first.report?.bToA.created == 1)

        // A new, empty state (the old one moved away): the pair is still defined, and its run links the copies
        // by their markers instead of making new ones.
        let freshStore = try SQLiteSyncStateStore(url: w.directory.url.appendingPathComponent("fresh").appendingPathComponent("sync.db"))
        let freshEngine = SyncEngine(store: freshStore, zone: TimeZone(identifier: "UTC")!, now: { World.now })
        let pairs = try await definitions.pairs(migratingFrom: freshStore)
        #expect(pairs.map(\.name) == ["p"])
        let again = await SyncPairRunner(engine: freshEngine, opener: opener, dryRun: false, warn: { _ in }).runOne(pairs[0])
        #expect(again.outcome == .ok, "\(again.error ?? "")")
        #expect(again.report?.aToB.created == 0 && again.report?.bToA.created == 0)
        #expect(await w.titles(.a) == ["Lunch", "Review"])
        #expect(await w.titles(.b) == ["Lunch", "Review"])
        #expect(try await freshStore.pairs().map(\.name) == ["p"])

        // New options reach the state's row; its items stay.
        var edited = pairs[0]
        edited.options.conflict = .a
        edited.record.options = edited.options.encoded()
        let items = try await freshStore.read { try $0.items(pair: "p") }.count
        try await freshStore.ensurePair(edited)
        #expect(try await freshStore.pairs().first?.options.conflict == .a)
        #expect(try await freshStore.read { try $0.items(pair: "p") }.count == items)
    }
}
