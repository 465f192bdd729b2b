import CalendarBridge
import Foundation
import Testing
import TestSupport

@Suite("Copy crash safety: interrupted runs converge to exactly one copy per source event")
struct CopyCrashTests {
    typealias F = CopyFixtures

    static func seedSource(_ source: InMemoryCalendarProvider) async throws -> Int {
        _ = await F.seedMixed(source)
        for n in 0..<8 {
            await source.seed(
                F.event(
                    "Call \(n)", F.at("2026-03-\(10 + n)T\(String(format: "%02d", 8 + n)):30:00", "Asia/Kolkata"),
                    F.at("2026-03-\(10 + n)T\(String(format: "%02d", 9 + n)):00:00", "Asia/Kolkata"), body: .html("<b>call</b> #\(n)")),
                in: "work")
        }
        _ = try await CopyRecurrenceTests.seedSeriesWithExceptions(source)
        return 4 + 8 + 1
    }

    @Test(
        "a run that dies after K writes (the last one applied, its answer lost) converges on rerun",
        arguments: [ProviderKind.google, .microsoft], [0, 1, 2, 3, 5, 8, 13])
    func converges(targetKind: ProviderKind, k: Int) async throws {
        let (source, target) = F.accounts(source: .google, target: targetKind)
        let units = try await Self.seedSource(source)
        var runs = 0
        while true {
            runs += 1
            try #require(runs < 60, "did not converge")
            await target.failWritesAfter(k, loseFirstResponse: true)
            let result = try await F.engine(source, target).run()
            if result.failed == 0 { break }
            #expect(result.errors.count == result.failed)
        }
        await target.failWritesAfter(nil)
        await target.clearLog()

        let final = try await F.engine(source, target).run()
        #expect(final.unchanged == units)
        #expect(final.created == 0 && final.updated == 0 && final.deleted == 0 && final.duplicates == 0)
        #expect(await target.writeLog.isEmpty)

        // Exactly one copy per source event, each equal to its source.
        let copies = await target.storedEvents(in: "home")
        #expect(copies.count == units)
        let sources = await source.storedEvents(in: "work")
        for original in sources {
            let matching = copies.filter { $0.origin?.eventID == original.id }
            try #require(matching.count == 1, "\(original.title): \(matching.count) copies")
            let expected = F.expectedCopy(of: original, on: target)
            let copy = matching[0]
            #expect(copy.title == expected.title)
            #expect(copy.start == expected.start && copy.end == expected.end)
            #expect(copy.body == expected.body && copy.location == expected.location)
            #expect(copy.recurrence == expected.recurrence)
            #expect(copy.origin?.contentHash == CopyProjection.contentHash(of: expected))
        }
        // The series' occurrences match too.
        let sourceView = try await source.listEvents(calendarID: "work", range: F.window, expand: true)
        let targetView = try await target.listEvents(calendarID: "home", range: F.window, expand: true)
        #expect(targetView.map(\.start) == sourceView.map(\.start))
        #expect(targetView.map(\.title) == sourceView.map(\.title))
    }
}

@Suite("Copy planner: pure planning, no I/O")
struct CopyPlannerTests {
    typealias F = CopyFixtures

    static let planner = CopyPlanner(
        sourceProvider: .microsoft, sourceAccount: "src", sourceCalendarID: "work", targetCalendarID: "home",
        target: InMemoryCalendarProvider.defaultCapabilities(.google), options: CopyOptions(window: F.window, prune: true))

    static func single(_ id: String, _ title: String, day: Int = 5) -> Event {
        Event(
            id: id, calendarID: "work", title: title, start: F.at("2026-03-0\(day)T09:00:00", "UTC"),
            end: F.at("2026-03-0\(day)T10:00:00", "UTC"))
    }

    /// The copy the planner would write for `source`, stored under `id`.
    static func existingCopy(of source: Event, id: String, hash: String? = nil) -> Event {
        var copy = planner.projection.copy(of: source)
        let real = CopyProjection.contentHash(of: copy)
        copy.id = id
        copy.calendarID = "home"
        copy.origin = planner.marker(for: source, hash: hash ?? real)
        return copy
    }

    @Test("each source event gets exactly one action, with deterministic creation keys")
    func actions() throws {
        let new = Self.single("a", "New")
        let same = Self.single("b", "Same")
        let changed = Self.single("c", "Changed")
        var copied = Self.single("d", "Copied elsewhere")
        copied.origin = OriginMarker(provider: .google, account: "x", calendarID: "y", eventID: "z", contentHash: "h")
        var cancelled = Self.single("e", "Cancelled")
        cancelled.status = .cancelled
        let gone = Self.existingCopy(of: Self.single("f", "Gone"), id: "t-f")

        let plan = Self.planner.plan(
            sourceEvents: [new, same, changed, copied, cancelled], sourceOccurrences: [],
            existingCopies: [
                Self.existingCopy(of: same, id: "t-b"), Self.existingCopy(of: changed, id: "t-c", hash: "old"), gone,
            ])
        let byTitle = Dictionary(uniqueKeysWithValues: plan.entries.map { ($0.item.title, $0) })
        #expect(byTitle["New"]?.item.action == .create)
        #expect(byTitle["Same"]?.item.action == .unchanged && byTitle["Same"]?.write == nil)
        #expect(byTitle["Changed"]?.item.action == .update)
        #expect(byTitle["Copied elsewhere"]?.item.action == .skip)
        #expect(byTitle["Cancelled"]?.item.action == .skip)
        // A copy whose source is not listed is deleted only on proof (issue 12): a read by id answering gone.
        #expect(byTitle["Gone"] == nil)
        #expect(plan.orphans.map(\.id) == ["t-f"])
        #expect(Self.planner.prunes(plan.orphans, probes: ["f": .gone]).entries.map(\.write) == [.delete(id: "t-f")])
        #expect(Self.planner.prunes(plan.orphans, probes: ["f": .exists(Self.single("f", "Gone"))]).entries.isEmpty)
        let unknown = Self.planner.prunes(plan.orphans, probes: ["f": .unknown("HTTP 503")])
        #expect(unknown.entries.isEmpty && unknown.errors.count == 1)

        guard case .create(let event, let key)? = byTitle["New"]?.write else {
            Issue.record("expected a create")
            return
        }
        #expect(event.origin?.eventID == "a")
        #expect(key == IdempotencyKey.copy(of: event.origin!, toCalendar: "home"))
        // The same inputs always give the same plan.
        let again = Self.planner.plan(sourceEvents: [new], sourceOccurrences: [], existingCopies: [])
        #expect(again.entries.first?.write == byTitle["New"]?.write)
    }

    @Test("of duplicate copies the up-to-date one is kept and the others are deleted under --prune")
    func keeper() {
        let source = Self.single("a", "Dup")
        let stale = Self.existingCopy(of: source, id: "t-1", hash: "old")
        let fresh = Self.existingCopy(of: source, id: "t-2")
        let plan = Self.planner.plan(sourceEvents: [source], sourceOccurrences: [], existingCopies: [stale, fresh])
        #expect(plan.entries.map(\.item.action) == [.unchanged, .delete])
        #expect(plan.entries[0].item.targetEventID == "t-2")
        #expect(plan.entries[1].write == .delete(id: "t-1"))
        #expect(plan.entries[1].item.duplicate)
    }
}
