import CalendarBridge
import Foundation
import Testing
import TestSupport

@Suite("Copy engine: idempotent runs, pruning, dry run, failures")
struct CopyEngineTests {
    typealias F = CopyFixtures

    @Test("a first run creates one copy per source event; a second run writes nothing")
    func createThenUnchanged() async throws {
        let (source, target) = F.accounts()
        let seeded = await F.seedMixed(source)
        let first = try await F.engine(source, target).run()
        #expect(first.created == seeded.count)
        #expect(first.failed == 0 && first.updated == 0 && first.deleted == 0)
        let copies = await target.storedEvents(in: "home")
        #expect(copies.count == seeded.count)
        for original in seeded {
            let copy = try #require(copies.first { $0.origin?.eventID == original.id })
            let expected = F.expectedCopy(of: original, on: target)
            #expect(copy.title == expected.title)
            #expect(copy.start == original.start && copy.end == original.end)
            #expect(copy.recurrence == original.recurrence)
            #expect(copy.origin?.contentHash == CopyProjection.contentHash(of: expected))
            #expect(copy.attendees.isEmpty)
        }

        await target.clearLog()
        let second = try await F.engine(source, target).run()
        #expect(second.unchanged == seeded.count)
        #expect(second.created == 0 && second.updated == 0 && second.deleted == 0)
        #expect(await target.writeLog.isEmpty)
    }

    @Test("a run given an exit keeper leaves both listings and what it planned with it, and copies exactly as without one")
    func exitKeeperHoldsListings() async throws {
        let (source, target) = F.accounts()
        let seeded = await F.seedMixed(source)
        let keeper = ExitKeeper()
        let first = try await F.engine(source, target).run(keeping: keeper)
        #expect(first.created == seeded.count && first.failed == 0)
        #expect(keeper.count == 2)
        await target.clearLog()
        let second = try await F.engine(source, target).run(keeping: keeper)
        #expect(second.unchanged == seeded.count && second.created == 0 && second.updated == 0)
        #expect(await target.writeLog.isEmpty)
        #expect(keeper.count == 4)
    }

    @Test("a changed source event updates its copy and nothing else")
    func changedSourceUpdates() async throws {
        let (source, target) = F.accounts()
        let seeded = await F.seedMixed(source)
        _ = try await F.engine(source, target).run()
        var review = seeded[2]
        review.title = "Review (moved)"
        review.start = F.at("2026-03-12T16:00:00", "America/Los_Angeles")
        review.end = F.at("2026-03-12T17:00:00", "America/Los_Angeles")
        review.updated = Date()
        _ = try await source.updateEvent(review)
        await target.clearLog()

        let result = try await F.engine(source, target).run()
        #expect(result.updated == 1)
        #expect(result.unchanged == seeded.count - 1)
        let copy = try #require(await target.storedEvents(in: "home").first { $0.origin?.eventID == review.id })
        #expect(copy.title == "Review (moved)")
        #expect(copy.start == review.start)
        #expect(await target.writeLog == ["update \(copy.id)"])
    }

    @Test("provider-assigned stamps alone do not make a copy stale")
    func stampsDoNotCount() async throws {
        let (source, target) = F.accounts()
        let seeded = await F.seedMixed(source)
        _ = try await F.engine(source, target).run()
        var standup = seeded[0]
        standup.updated = Date().addingTimeInterval(3600)
        standup.webURL = URL(string: "https://example.invalid/x")
        standup.iCalUID = "changed@uid"
        _ = try await source.updateEvent(standup)
        let result = try await F.engine(source, target).run()
        #expect(result.unchanged == seeded.count)
        #expect(result.updated == 0)
    }

    @Test("without --prune nothing is deleted; with it, copies whose source left the window go")
    func prune() async throws {
        let (source, target) = F.accounts()
        let seeded = await F.seedMixed(source)
        _ = try await F.engine(source, target).run()
        try await source.deleteEvent(id: seeded[0].id, calendarID: "work")

        let kept = try await F.engine(source, target).run()
        #expect(kept.deleted == 0)
        #expect(await target.storedEvents(in: "home").count == seeded.count)

        let pruned = try await F.engine(source, target, prune: true).run()
        #expect(pruned.deleted == 1)
        #expect(pruned.unchanged == seeded.count - 1)
        let remaining = await target.storedEvents(in: "home")
        #expect(remaining.count == seeded.count - 1)
        #expect(!remaining.contains { $0.origin?.eventID == seeded[0].id })
    }

    @Test("--prune leaves copies outside the window alone")
    func pruneOnlyInWindow() async throws {
        let (source, target) = F.accounts()
        let april = await source.seed(
            F.event("April thing", F.at("2026-04-10T09:00:00", "UTC"), F.at("2026-04-10T10:00:00", "UTC")), in: "work")
        let aprilWindow = TimeRange(start: F.instant("2026-04-01T00:00:00", "UTC"), end: F.instant("2026-05-01T00:00:00", "UTC"))
        _ = try await F.engine(source, target, window: aprilWindow).run()
        // A March run does not see the April event; its April copy is not in the March window.
        let march = try await F.engine(source, target, prune: true).run()
        #expect(march.deleted == 0)
        #expect(await target.storedEvents(in: "home").contains { $0.origin?.eventID == april.id })
    }

    @Test("a copy moved outside the window is still found by its marker and updated, not duplicated")
    func movedCopyRecognised() async throws {
        let (source, target) = F.accounts()
        let seeded = await F.seedMixed(source)
        _ = try await F.engine(source, target).run()
        var copy = try #require(await target.storedEvents(in: "home").first { $0.origin?.eventID == seeded[0].id })
        copy.start = F.at("2026-06-01T09:00:00", "Europe/Berlin")
        copy.end = F.at("2026-06-01T09:15:00", "Europe/Berlin")
        copy.origin?.contentHash = "stale"
        _ = try await target.updateEvent(copy)

        let result = try await F.engine(source, target).run()
        #expect(result.created == 0)
        #expect(result.updated == 1)
        let copies = await target.storedEvents(in: "home").filter { $0.origin?.eventID == seeded[0].id }
        #expect(copies.count == 1)
        #expect(copies.first?.start == seeded[0].start)
    }

    @Test("--dry-run plans everything and writes nothing")
    func dryRun() async throws {
        let (source, target) = F.accounts()
        let seeded = await F.seedMixed(source)
        let result = try await F.engine(source, target, dryRun: true).run()
        #expect(result.dryRun)
        #expect(result.created == seeded.count)
        #expect(result.items.allSatisfy { $0.action != .create || $0.status == .planned })
        #expect(await target.writeLog.isEmpty)
        #expect(await target.storedEvents(in: "home").isEmpty)

        // With copies in place and one source gone, a dry run with --prune plans the delete only.
        _ = try await F.engine(source, target).run()
        try await source.deleteEvent(id: seeded[1].id, calendarID: "work")
        await target.clearLog()
        let plan = try await F.engine(source, target, prune: true, dryRun: true).run()
        #expect(plan.deleted == 1)
        #expect(plan.items.first { $0.action == .delete }?.title == "Offsite")
        #expect(await target.writeLog.isEmpty)
        #expect(await target.storedEvents(in: "home").count == seeded.count)
    }

    @Test("events that are calbridge copies are never copied back (no ping-pong)")
    func pingPong() async throws {
        let (source, target) = F.accounts()
        let seeded = await F.seedMixed(source)
        _ = try await F.engine(source, target).run()
        // Copy back: target "home" → source "work".
        let back = CopyEngine(
            source: .init(provider: target, calendarID: "home"), target: .init(provider: source, calendarID: "work"),
            options: CopyOptions(window: F.window))
        let result = try await back.run()
        #expect(result.created == 0)
        #expect(result.skipped == seeded.count)
        #expect(result.items.allSatisfy { $0.reason?.contains("calbridge copy") == true })
        #expect(await source.storedEvents(in: "work").count == seeded.count)
        // And forth again: still nothing new.
        let again = try await F.engine(source, target).run()
        #expect(again.unchanged == seeded.count && again.created == 0)
    }

    @Test("a read-only target fails before anything is written", arguments: [AccessRole.reader, .freeBusy])
    func readOnlyTarget(role: AccessRole) async throws {
        let (source, target) = F.accounts(targetRole: role)
        _ = await F.seedMixed(source)
        await #expect(throws: CalendarError.self) {
            do { _ = try await F.engine(source, target).run() } catch let error as CalendarError {
                #expect(error.code == .readOnly)
                #expect(error.account == "dst")
                throw error
            }
        }
        #expect(await target.writeLog.isEmpty)
        #expect(await source.writeLog.isEmpty)
    }

    @Test("an unknown calendar and an expired grant fail before anything is written")
    func unknownCalendarAndExpiredGrant() async throws {
        let (source, target) = F.accounts()
        _ = await F.seedMixed(source)
        let wrong = CopyEngine(
            source: .init(provider: source, calendarID: "work"), target: .init(provider: target, calendarID: "nope"),
            options: CopyOptions(window: F.window))
        do {
            _ = try await wrong.run()
            Issue.record("expected notFound")
        } catch let error as CalendarError {
            #expect(error.code == .notFound)
            #expect(error.candidates == ["Home"])
        }
        await target.failReads(with: CalendarError(.unauthorized, "token expired", account: "dst"))
        do {
            _ = try await F.engine(source, target).run()
            Issue.record("expected unauthorized")
        } catch let error as CalendarError {
            #expect(error.code == .unauthorized)
        }
        #expect(await target.writeLog.isEmpty)
    }

    @Test("a failing write is counted and reported; the rest is still applied")
    func perItemFailure() async throws {
        let (source, target) = F.accounts()
        let seeded = await F.seedMixed(source)
        await target.failWrites { write in
            if case .create(let event, _) = write, event.title == "Offsite" {
                return CalendarError(.invalidRequest, "bad location", httpStatus: 400)
            }
            return nil
        }
        let result = try await F.engine(source, target).run()
        #expect(result.failed == 1)
        #expect(result.created == seeded.count - 1)
        #expect(result.isPartial)
        #expect(result.errors.count == 1)
        #expect(result.errors.first?.title == "Offsite")
        #expect(result.errors.first?.message.contains("bad location") == true)
        #expect(await target.storedEvents(in: "home").count == seeded.count - 1)

        // Once the cause is gone, a rerun copies just the missing one.
        await target.failWrites(where: nil)
        let rerun = try await F.engine(source, target).run()
        #expect(rerun.created == 1 && rerun.unchanged == seeded.count - 1 && rerun.failed == 0)
    }

    @Test("duplicate copies are reported, and --prune reduces them to one")
    func duplicates() async throws {
        let (source, target) = F.accounts()
        let seeded = await F.seedMixed(source)
        _ = try await F.engine(source, target).run()
        // An earlier buggy run left a second copy of the standup.
        let original = try #require(await target.storedEvents(in: "home").first { $0.origin?.eventID == seeded[0].id })
        var extra = original
        extra.id = ""
        extra.created = Date()
        await target.seed(extra, in: "home")

        let report = try await F.engine(source, target).run()
        #expect(report.duplicates == 1)
        #expect(report.deleted == 0)
        #expect(report.items.contains { $0.action == .duplicate })
        #expect(await target.storedEvents(in: "home").count == seeded.count + 1)

        let pruned = try await F.engine(source, target, prune: true).run()
        #expect(pruned.duplicates == 1 && pruned.deleted == 1)
        let copies = await target.storedEvents(in: "home").filter { $0.origin?.eventID == seeded[0].id }
        #expect(copies.map(\.id) == [original.id])
    }

    @Test("time zones are kept: a Los Angeles event after the DST change keeps 09:00 local")
    func dstWallClock() async throws {
        for (sourceKind, targetKind) in [(ProviderKind.microsoft, ProviderKind.google), (.google, .microsoft)] {
            let (source, target) = F.accounts(source: sourceKind, target: targetKind)
            let before = await source.seed(
                F.event("Before", F.at("2026-03-06T09:00:00", "America/Los_Angeles"), F.at("2026-03-06T10:00:00", "America/Los_Angeles")),
                in: "work")
            let after = await source.seed(
                F.event("After", F.at("2026-03-09T09:00:00", "America/Los_Angeles"), F.at("2026-03-09T10:00:00", "America/Los_Angeles")),
                in: "work")
            _ = try await F.engine(source, target).run()
            let copies = await target.storedEvents(in: "home")
            for original in [before, after] {
                let copy = try #require(copies.first { $0.origin?.eventID == original.id })
                #expect(copy.start.zone == "America/Los_Angeles")
                #expect(copy.start.localText?.hasSuffix("T09:00:00") == true)
                #expect(copy.start == original.start)
            }
            // PST is UTC-8, PDT UTC-7: the same wall-clock time, instants 3 days minus 1 hour apart.
            let gap = after.start.instant(allDayZone: F.utc).timeIntervalSince(before.start.instant(allDayZone: F.utc))
            #expect(gap == 3 * 86_400 - 3600)
        }
    }

    @Test("an all-day multi-day event stays all-day over the same dates")
    func allDayMultiDay() async throws {
        let (source, target) = F.accounts(source: .google, target: .microsoft)
        let offsite = await source.seed(F.event("Offsite", F.day("2026-03-30"), F.day("2026-04-02")), in: "work")
        let result = try await F.engine(source, target).run()
        #expect(result.created == 1)
        let copy = try #require(await target.storedEvents(in: "home").first)
        #expect(copy.isAllDay)
        #expect(copy.start == offsite.start && copy.end == F.day("2026-04-02"))
        #expect(result.items.first?.start == "2026-03-30")
    }

    @Test("the result encodes to the documented JSON keys")
    func resultJSON() async throws {
        let (source, target) = F.accounts()
        _ = await F.seedMixed(source)
        let result = try await F.engine(source, target, dryRun: true).run()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let object = try #require(
            try JSONSerialization.jsonObject(with: encoder.encode(result)) as? [String: Any])
        for key in ["source", "target", "created", "updated", "unchanged", "deleted", "skipped", "failed", "errors"] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(object["source"] as? String == "src:Work")
        #expect(object["target"] as? String == "dst:Home")
        #expect(object["created"] as? Int == 4)
        let decoded = try JSONDecoder().decode(CopyResult.self, from: encoder.encode(result))
        #expect(decoded == result)
    }

    @Test("progress is reported per batch and ends at the total")
    func progress() async throws {
        let (source, target) = F.accounts()
        for n in 0..<45 {
            await source.seed(
                F.event("E\(n)", F.at("2026-03-05T08:00:00", "UTC").adding(minutes: n), F.at("2026-03-05T08:30:00", "UTC").adding(minutes: n)),
                in: "work")
        }
        let seen = Collected<CopyEngine.Progress>()
        let result = try await F.engine(source, target).run { seen.append($0) }
        #expect(result.created == 45)
        let reports = seen.values
        #expect(reports.count == 3)  // batches of 20, 20, 5
        #expect(reports.map(\.completed).max() == 45)
        #expect(reports.allSatisfy { $0.total == 45 })
    }
}

extension EventTime {
    func adding(minutes: Int) -> EventTime {
        guard case .timed(let instant, let zone) = self else { return self }
        return .timed(instant: instant.addingTimeInterval(Double(minutes) * 60), zone: zone)
    }
}

/// Values appended from any task.
final class Collected<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [T] = []
    func append(_ value: T) { lock.withLock { items.append(value) } }
    var values: [T] { lock.withLock { items } }
}
