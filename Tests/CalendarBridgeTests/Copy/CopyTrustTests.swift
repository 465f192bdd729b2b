import CalendarBridge
import Foundation
import Testing
import TestSupport

/// Issue 12's four reported cases and its rules, at the engine level against the in-memory provider:
/// nothing is deleted or cancelled without proof from a read by id, the window is one range in one
/// zone, and one mailbox is one source whatever it is called locally.
@Suite("Copy you can trust: proof before deletion, one window, one identity")
struct CopyTrustTests {
    typealias F = CopyFixtures
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// Occurrence-level writes (cancellations are deletes of occurrences).
    static func cancellations(_ result: CopyResult) -> [CopyItem] {
        result.items.filter { $0.occurrence && ($0.reason ?? "").contains("cancelled") }
    }

    @Test("case 1: an all-day weekly series copied from an east-of-UTC zone keeps every occurrence", arguments: [
        (ProviderKind.microsoft, ProviderKind.google), (.google, .microsoft),
    ])
    func allDaySeriesKeepsOccurrences(kinds: (ProviderKind, ProviderKind)) async throws {
        let (source, target) = F.accounts(source: kinds.0, target: kinds.1)
        _ = await source.seed(
            F.event("Focus day", F.day("2026-03-02"), F.day("2026-03-03"), recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO"]),
            in: "work")
        let window = F.window("2026-03-01", through: "2026-05-31", in: Self.berlin)
        let first = try await F.engine(source, target, window: window, zone: Self.berlin).run()
        #expect(first.created == 1 && first.failed == 0)
        #expect(Self.cancellations(first).isEmpty)
        let view = try await target.listEvents(calendarID: "home", range: window, expand: true)
        #expect(view.count == 13)  // every Monday from 2 March to 25 May
        let second = try await F.engine(source, target, window: window, zone: Self.berlin).run()
        #expect(second.unchanged == 1 && second.updated == 0 && second.deleted == 0)
    }

    @Test("case 2: a yearly series whose master is not in a later window is not deleted by --prune", arguments: [
        (ProviderKind.microsoft, ProviderKind.google), (.google, .microsoft),
    ])
    func yearlySeriesSurvivesPrune(kinds: (ProviderKind, ProviderKind)) async throws {
        let (source, target) = F.accounts(source: kinds.0, target: kinds.1)
        let master = await source.seed(
            F.event(
                "Anniversary dinner", F.at("2026-12-15T19:00:00", "Europe/Berlin"), F.at("2026-12-15T20:00:00", "Europe/Berlin"),
                recurrence: ["RRULE:FREQ=YEARLY"]),
            in: "work")
        let december = F.window("2026-12-01", through: "2026-12-31", in: F.utc)
        #expect(try await F.engine(source, target, window: december).run().created == 1)
        let january = F.window("2027-01-01", through: "2027-01-31", in: F.utc)
        let pruned = try await F.engine(source, target, prune: true, window: january).run()
        #expect(pruned.deleted == 0 && pruned.failed == 0)
        #expect(await target.storedEvents(in: "home").count == 1)

        // Once the source really is gone (a read by id answers not found), --prune deletes the copy.
        try await source.deleteEvent(id: master.id, calendarID: "work")
        let gone = try await F.engine(source, target, prune: true, window: december).run()
        #expect(gone.deleted == 1)
        #expect(await target.storedEvents(in: "home").isEmpty)
    }

    @Test("case 3: a window ending on a Sunday cancels no Monday of an all-day weekly series", arguments: [
        (ProviderKind.microsoft, ProviderKind.google), (.google, .microsoft),
    ])
    func windowEdgeCancelsNothing(kinds: (ProviderKind, ProviderKind)) async throws {
        let (source, target) = F.accounts(source: kinds.0, target: kinds.1)
        _ = await source.seed(
            F.event("Gym", F.day("2027-04-05"), F.day("2027-04-06"), recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO"]), in: "work")
        for zone in [Self.berlin, F.utc, TimeZone(identifier: "America/Los_Angeles")!] {
            let window = F.window("2027-04-01", through: "2027-05-09", in: zone)
            let result = try await F.engine(source, target, window: window, zone: zone).run()
            #expect(Self.cancellations(result).isEmpty, "zone \(zone.identifier)")
            #expect(result.failed == 0)
        }
        let later = F.window("2027-05-01", through: "2027-05-31", in: Self.berlin)
        let view = try await target.listEvents(calendarID: "home", range: later, expand: true)
        #expect(view.map(\.start).contains(F.day("2027-05-10")))
    }

    @Test("case 4: the same mailbox under a second account name is the same source: nothing copied twice")
    func sameMailboxTwoNames() async throws {
        let target = InMemoryCalendarProvider(
            provider: .google, account: "dst", calendars: [F.calendar("home", account: "dst", provider: .google)])
        func mailbox(named name: String) async -> InMemoryCalendarProvider {
            let p = InMemoryCalendarProvider(
                provider: .microsoft, account: name, calendars: [F.calendar("work", account: name, provider: .microsoft)])
            await p.seed(
                Event(id: "AAMk-1", title: "Review", start: F.at("2026-03-05T09:00:00", "UTC"), end: F.at("2026-03-05T10:00:00", "UTC")),
                in: "work")
            return p
        }
        let first = await mailbox(named: "work")
        let second = await mailbox(named: "work-again")
        #expect(try await F.engine(first, target, identity: "user-object-id").run().created == 1)
        let again = try await F.engine(second, target, identity: "user-object-id").run()
        #expect(again.created == 0 && again.unchanged == 1)
        #expect(await target.storedEvents(in: "home").count == 1)
    }

    @Test("upgrade: copies marked with the local account name are recognised and re-marked, never duplicated")
    func legacyMarkersRecognised() async throws {
        let (source, target) = F.accounts()
        _ = await F.seedMixed(source)
        // What the version before identities wrote: markers with the local name ("src").
        let old = try await F.engine(source, target).run()
        #expect(old.created == 4)
        #expect(await target.storedEvents(in: "home").allSatisfy { $0.origin?.account == "src" })
        let upgraded = try await F.engine(source, target, identity: "user-object-id").run()
        #expect(upgraded.created == 0 && upgraded.updated == 4 && upgraded.deleted == 0)
        let stored = await target.storedEvents(in: "home")
        #expect(stored.count == 4)
        #expect(stored.allSatisfy { $0.origin?.account == "user-object-id" })
        let settled = try await F.engine(source, target, identity: "user-object-id").run()
        #expect(settled.unchanged == 4 && settled.updated == 0)
    }

    @Test("--prune deletes a copy only when its source reads back gone; a failed read keeps it and says so")
    func pruneNeedsProof() async throws {
        let (source, target) = F.accounts()
        let kept = await source.seed(
            F.event("Moved away", F.at("2026-03-05T09:00:00", "UTC"), F.at("2026-03-05T10:00:00", "UTC")), in: "work")
        let doomed = await source.seed(
            F.event("Deleted", F.at("2026-03-06T09:00:00", "UTC"), F.at("2026-03-06T10:00:00", "UTC")), in: "work")
        #expect(try await F.engine(source, target).run().created == 2)
        // One source event moves out of the window (still exists), one is deleted.
        var moved = kept
        moved.start = F.at("2026-06-05T09:00:00", "UTC")
        moved.end = F.at("2026-06-05T10:00:00", "UTC")
        _ = try await source.updateEvent(moved)
        try await source.deleteEvent(id: doomed.id, calendarID: "work")
        await source.clearLog()
        let pruned = try await F.engine(source, target, prune: true).run()
        #expect(pruned.deleted == 1)
        #expect(await target.storedEvents(in: "home").map(\.title) == ["Moved away"])
        #expect(await source.log.filter { $0 == "get" }.count == 2)  // one proof read per orphan

        // Without --prune nothing is deleted, whatever happened in the source.
        try await source.deleteEvent(id: kept.id, calendarID: "work")
        #expect(try await F.engine(source, target).run().deleted == 0)
    }

    @Test("an occurrence deleted in a Graph source (not listed, no cancelled exception) is cancelled on proof")
    func graphCancelledOccurrence() async throws {
        let (source, target) = F.accounts(source: .microsoft, target: .google)
        let master = await source.seed(
            F.event(
                "Standup", F.at("2026-03-02T09:00:00", "Europe/Berlin"), F.at("2026-03-02T09:15:00", "Europe/Berlin"),
                recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=4"]),
            in: "work")
        #expect(try await F.engine(source, target).run().created == 1)
        let occurrences = try await source.listEvents(calendarID: "work", range: F.window, expand: true)
            .filter { $0.seriesID == master.id }
        try await source.deleteEvent(id: occurrences[1].id, calendarID: "work")
        let result = try await F.engine(source, target).run()
        #expect(Self.cancellations(result).count == 1)
        let view = try await target.listEvents(calendarID: "home", range: F.window, expand: true)
        #expect(view.count == 3)
        #expect(!view.map(\.start).contains(occurrences[1].start))
        let settled = try await F.engine(source, target).run()
        #expect(Self.cancellations(settled).isEmpty && settled.updated == 0)
    }

    @Test("a source that cannot be read for proof cancels nothing")
    func unreadableProofCancelsNothing() async throws {
        let (source, target) = F.accounts(source: .microsoft, target: .google)
        let master = await source.seed(
            F.event("Standup", F.at("2026-03-02T09:00:00", "UTC"), F.at("2026-03-02T09:15:00", "UTC"),
                recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=4"]),
            in: "work")
        #expect(try await F.engine(source, target).run().created == 1)
        let planner = CopyPlanner(
            sourceProvider: .microsoft, sourceAccount: "src", sourceCalendarID: "work", targetCalendarID: "home",
            target: target.capabilities, options: CopyOptions(window: F.window))
        let targetView = try await target.listEvents(calendarID: "home", range: F.window, expand: true)
        let linked = [(sourceMaster: master, targetMasterID: targetView[0].seriesID ?? "")]
        // The source listing came back without any occurrence: nothing is cancelled, every one is asked about.
        let plan = planner.occurrences.plan(series: linked, sourceOccurrences: [], sourceExceptions: [], targetOccurrences: targetView)
        #expect(plan.entries.isEmpty && plan.open.count == 4)
        let unknown = planner.occurrences.resolve(plan.open, probes: Array(repeating: .unknown("HTTP 503"), count: 4))
        #expect(unknown.isEmpty)
        let gone = planner.occurrences.resolve(plan.open, probes: Array(repeating: .seriesGone, count: 4))
        #expect(gone.isEmpty)
    }

    @Test("--remove-copies deletes every copy of this source, at any date, and nothing else")
    func removeCopies() async throws {
        let (source, target) = F.accounts()
        _ = await F.seedMixed(source)
        _ = await target.seed(F.event("Mine", F.at("2026-03-04T09:00:00", "UTC"), F.at("2026-03-04T10:00:00", "UTC")), in: "home")
        #expect(try await F.engine(source, target).run().created == 4)
        let late = F.window("2026-09-01", through: "2026-09-30", in: F.utc)
        _ = await source.seed(F.event("Autumn", F.at("2026-09-04T09:00:00", "UTC"), F.at("2026-09-04T10:00:00", "UTC")), in: "work")
        #expect(try await F.engine(source, target, window: late).run().created == 1)

        let dry = try await F.engine(source, target, dryRun: true, removeCopies: true).run()
        #expect(dry.deleted == 5 && dry.items.allSatisfy { $0.status == .planned })
        #expect(await target.storedEvents(in: "home").count == 6)
        let removed = try await F.engine(source, target, removeCopies: true).run()
        #expect(removed.deleted == 5 && removed.failed == 0)
        #expect(await target.storedEvents(in: "home").map(\.title) == ["Mine"])
        #expect(await source.writeLog.isEmpty)
    }

    @Test("the window: an all-day event belongs when its dates overlap the window's dates in its zone")
    func windowRule() {
        let window = CopyWindow(range: F.window("2027-05-01", through: "2027-05-09", in: Self.berlin), zone: Self.berlin)
        #expect(window.contains(start: F.day("2027-05-09"), end: F.day("2027-05-10")))
        #expect(!window.contains(start: F.day("2027-05-10"), end: F.day("2027-05-11")))
        #expect(window.contains(start: F.day("2027-04-30"), end: F.day("2027-05-02")))
        #expect(!window.contains(start: F.day("2027-04-30"), end: F.day("2027-05-01")))
        #expect(window.contains(start: F.at("2027-05-09T23:30:00", "Europe/Berlin"), end: F.at("2027-05-10T00:30:00", "Europe/Berlin")))
        #expect(!window.contains(start: F.at("2027-05-10T00:00:00", "Europe/Berlin"), end: F.at("2027-05-10T01:00:00", "Europe/Berlin")))
        #expect(window.listingRange.start < window.range.start && window.listingRange.end > window.range.end)
    }
}

@Suite("Copy you can trust: the window cut and switching forms")
struct CopyWindowCutTests {
    typealias F = CopyFixtures

    @Test("--recurrence instances copies no occurrence from the listing's margins, only those in the window")
    func instancesCutToWindow() async throws {
        let (source, target) = F.accounts(source: .google, target: .microsoft)
        _ = await source.seed(
            F.event("Daily", F.at("2026-02-20T09:00:00", "UTC"), F.at("2026-02-20T09:30:00", "UTC"), recurrence: ["RRULE:FREQ=DAILY"]),
            in: "work")
        let window = F.window("2026-03-01", through: "2026-03-07", in: F.utc)
        let result = try await F.engine(source, target, recurrence: .instances, window: window).run()
        #expect(result.created == 7 && result.skipped == 0)
        let starts = await target.storedEvents(in: "home").map { $0.start.localText ?? "" }.sorted()
        #expect(starts.first == "2026-03-01T09:00:00" && starts.last == "2026-03-07T09:00:00")
    }

    @Test("switching instances -> series: with --prune the single copies go (their occurrences are in the series' copy)")
    func switchingForms() async throws {
        let (source, target) = F.accounts(source: .google, target: .google)
        _ = await source.seed(
            F.event("Weekly", F.at("2026-03-02T09:00:00", "UTC"), F.at("2026-03-02T09:30:00", "UTC"),
                recurrence: ["RRULE:FREQ=WEEKLY;COUNT=4"]),
            in: "work")
        #expect(try await F.engine(source, target, recurrence: .instances).run().created == 4)
        let series = try await F.engine(source, target).run()
        #expect(series.created == 1 && series.deleted == 0)
        let pruned = try await F.engine(source, target, prune: true).run()
        #expect(pruned.deleted == 4 && pruned.unchanged == 1)
        #expect(await target.storedEvents(in: "home").count == 1)
        // And back: the series' copy goes once its occurrences are copied singly.
        #expect(try await F.engine(source, target, recurrence: .instances).run().created == 4)
        let back = try await F.engine(source, target, recurrence: .instances, prune: true).run()
        #expect(back.deleted == 1 && back.unchanged == 4)
    }
}
