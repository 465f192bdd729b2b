import CalendarBridge
import Foundation
import TestSupport
import Testing

@testable import Sync

/// A one-way pair from a feed (a side that publishes revisions): an older `SEQUENCE`/`LAST-MODIFIED` than the
/// one synced (a stale mirror) is not carried over the newer copy; a newer one is, even with the same content.
@Suite("Sync from a feed: older revisions are not carried")
struct SyncFeedRevisionTests {
    static let monday = SyncPlannerTests.monday

    static func planner() -> SyncPlanner {
        let window = CopyWindow(
            range: TimeRange(start: monday.addingTimeInterval(-7 * 86_400), end: monday.addingTimeInterval(60 * 86_400)),
            zone: TimeZone(identifier: "UTC")!)
        return SyncPlanner(
            pair: "p", options: SyncPairOptions(direction: .aToB), window: window,
            calendars: Sides(
                a: SyncCalendar(
                    provider: ProviderKind(rawValue: "ics-feed"), identity: "feed", account: "league", calendarID: "primary",
                    capabilities: InMemoryCalendarProvider.defaultCapabilities(.google), publishesRevisions: true),
                b: SyncCalendar(
                    provider: .google, identity: "me@gmail.example", account: "me", calendarID: "primary",
                    capabilities: InMemoryCalendarProvider.defaultCapabilities(.google))))
    }

    static func feedEvent(_ title: String, sequence: Int, modifiedMinutes: Double) -> Event {
        var e = SyncPlannerTests.event("uid-1", title)
        e.sequence = sequence
        e.updated = monday.addingTimeInterval(modifiedMinutes * 60)
        return e
    }

    /// The item as a first run left it: the feed's event at `synced` carried to B's `b1`.
    static func synced(_ planner: SyncPlanner, _ synced: Event) throws -> (SyncItems, String) {
        var items = SyncItems()
        let first = planner.plan(views: SyncPlannerTests.views(a: [synced]), items: &items, now: monday)
        let write = try #require(first.writes.first)
        let hash = try #require(write.sourceHash)
        var record = items[0]
        record.set(.a, id: synced.id, hash: hash)
        record.set(.b, id: "b1", hash: "copy-hash")
        var linked = SyncItems()
        linked.append(record)
        return (linked, hash)
    }

    @Test("the synced revision is kept with the feed side's hash")
    func revisionKept() throws {
        let planner = Self.planner()
        let (_, hash) = try Self.synced(planner, Self.feedEvent("Match", sequence: 2, modifiedMinutes: 10))
        let split = SyncRevision.split(hash)
        #expect(split.revision == SyncRevision(sequence: 2, modified: Int(Self.monday.timeIntervalSince1970) + 600))
        #expect(split.content == planner.sideHash(Self.feedEvent("Match", sequence: 2, modifiedMinutes: 10), on: .a))
    }

    @Test("a lower SEQUENCE, or the same one modified earlier, is not carried (a notice says why)")
    func olderNotCarried() throws {
        let planner = Self.planner()
        let (items, hash) = try Self.synced(planner, Self.feedEvent("Match at 3", sequence: 2, modifiedMinutes: 10))
        for older in [
            Self.feedEvent("Match at 2", sequence: 1, modifiedMinutes: 20), Self.feedEvent("Match at 2", sequence: 2, modifiedMinutes: 5),
        ] {
            var run = items
            let plan = planner.plan(views: SyncPlannerTests.views(a: [older]), items: &run, now: Self.monday)
            #expect(plan.writes.isEmpty, "\(plan.writes.map(\.kind))")
            #expect(plan.notices.contains { $0.contains("older revision") }, "\(plan.notices)")
            #expect(run[0].hash(.a) == hash)
        }
    }

    @Test("a newer revision is carried (changed content, or only a higher SEQUENCE); a later LAST-MODIFIED alone is nothing")
    func newerCarried() throws {
        let planner = Self.planner()
        let (items, _) = try Self.synced(planner, Self.feedEvent("Match at 3", sequence: 2, modifiedMinutes: 10))
        var run = items
        var plan = planner.plan(
            views: SyncPlannerTests.views(a: [Self.feedEvent("Match at 4", sequence: 3, modifiedMinutes: 30)]), items: &run,
            now: Self.monday)
        #expect(plan.writes.map(\.kind) == [.update])
        run = items
        plan = planner.plan(
            views: SyncPlannerTests.views(a: [Self.feedEvent("Match at 3", sequence: 3, modifiedMinutes: 30)]), items: &run,
            now: Self.monday)
        #expect(plan.writes.map(\.kind) == [.update])
        run = items
        plan = planner.plan(
            views: SyncPlannerTests.views(a: [Self.feedEvent("Match at 3", sequence: 2, modifiedMinutes: 30)]), items: &run,
            now: Self.monday)
        #expect(plan.writes.isEmpty)
    }

    @Test("a state row kept before revisions were (a hash without one) is compared by content")
    func untaggedRow() throws {
        let planner = Self.planner()
        let event = Self.feedEvent("Match at 3", sequence: 2, modifiedMinutes: 10)
        let (items, hash) = try Self.synced(planner, event)
        var legacy = items
        legacy.set(0, .a, id: event.id, hash: SyncRevision.split(hash).content)
        var run = legacy
        var plan = planner.plan(views: SyncPlannerTests.views(a: [event]), items: &run, now: Self.monday)
        #expect(plan.writes.isEmpty)
        run = legacy
        plan = planner.plan(
            views: SyncPlannerTests.views(a: [Self.feedEvent("Match at 2", sequence: 1, modifiedMinutes: 5)]), items: &run,
            now: Self.monday)
        #expect(plan.writes.map(\.kind) == [.update])
    }
}
