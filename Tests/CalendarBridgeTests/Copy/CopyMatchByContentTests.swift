import CalendarBridge
import Foundation
import TestSupport
import Testing

/// `CopyOptions.matchByContent`: a source that gives its events new ids at each read (a feed's rotated UIDs)
/// is matched to its copies by start, title and location, not duplicated.
@Suite("copy: events under new ids matched by start, title and location")
struct CopyMatchByContentTests {
    /// Copies two events, then replaces them in the source by the same events under new ids (and a third whose
    /// location differs from its copy's); returns the engine's second result and the target's events.
    func rotate(matchByContent: Bool) async throws -> (CopyResult, [Event]) {
        let (source, target) = CopyFixtures.accounts()
        let originals = [
            await source.seed(
                CopyFixtures.event(
                    "Match 1", CopyFixtures.at("2026-03-07T10:00:00", "UTC"), CopyFixtures.at("2026-03-07T11:00:00", "UTC"),
                    location: "Field A"), in: "work"),
            await source.seed(
                CopyFixtures.event(
                    "Match 2", CopyFixtures.at("2026-03-14T10:00:00", "UTC"), CopyFixtures.at("2026-03-14T11:00:00", "UTC"),
                    location: "Field B"), in: "work"),
            await source.seed(
                CopyFixtures.event(
                    "Match 3", CopyFixtures.at("2026-03-21T10:00:00", "UTC"), CopyFixtures.at("2026-03-21T11:00:00", "UTC"),
                    location: "Field C"), in: "work"),
        ]
        var engine = CopyFixtures.engine(source, target, prune: true)
        engine.options.matchByContent = matchByContent
        let first = try await engine.run()
        #expect(first.created == 3)
        for (index, original) in originals.enumerated() {
            try await source.deleteEvent(id: original.id, calendarID: "work")
            var again = original
            again.id = ""
            if index == 2 { again.location = "Field D" }
            _ = await source.seed(again, in: "work")
        }
        let second = try await engine.run()
        return (second, await target.storedEvents(in: "home"))
    }

    @Test("matched: re-marked with the new ids and counted; one whose location changed is a new copy, the old one pruned")
    func matched() async throws {
        let (result, copies) = try await rotate(matchByContent: true)
        #expect(result.matchedByContent == 2, "\(result.items)")
        #expect(result.updated == 2 && result.created == 1 && result.deleted == 1, "\(result.items)")
        #expect(result.items.filter(\.matchedByContent).allSatisfy { $0.action == .update })
        #expect(copies.count == 3)
        #expect(Set(copies.map(\.title)) == ["Match 1", "Match 2", "Match 3"])
        #expect(copies.first { $0.title == "Match 3" }?.location == "Field D")
    }

    @Test("without the option: every new id is a new copy (and --prune deletes the old ones)")
    func unmatched() async throws {
        let (result, copies) = try await rotate(matchByContent: false)
        #expect(result.matchedByContent == 0)
        #expect(result.created == 3 && result.deleted == 3, "\(result.items)")
        #expect(copies.count == 3)
    }
}
