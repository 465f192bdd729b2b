import CalendarBridge
import Foundation
import TestSupport
import Testing

/// `OccurrencePlanner.plan` and `resolve`, copy's comparison of a series' occurrences between the two
/// listings, on a planner built directly (the same type builds sync's occurrence writes: `carry`).
@Suite("Occurrence planner: copy's two listings compared")
struct OccurrencePlannerTests {
    typealias Fixture = OccurrenceFixture

    /// Occurrence `week` (0-based) of a weekly series `master`, following it unless moved by `hours`.
    static func occurrence(of master: Event, week: Int, movedBy hours: Double = 0, id: String) -> Event {
        var e = master
        e.id = id
        e.recurrence = nil
        e.seriesID = master.id
        e.originalStart = Fixture.at(Double(week) * 7)
        e.start = Fixture.at(Double(week) * 7, hours: hours)
        e.end = Fixture.at(Double(week) * 7, hours: hours + 1)
        return e
    }

    @Test(
        "a moved source occurrence patches the target's, a cancelled one deletes it, an unlisted one is asked about, and one that follows is left alone"
    )
    func planAndResolve() throws {
        var source = Event(title: "Standup", start: Fixture.at(0), end: Fixture.at(0, hours: 1))
        source.id = "s-master"
        source.recurrence = Recurrence(lines: ["RRULE:FREQ=WEEKLY;COUNT=5"])
        var target = source
        target.id = "t-master"

        let sourceOccurrences = [
            Self.occurrence(of: source, week: 0, id: "s-0"), Self.occurrence(of: source, week: 1, id: "s-1"),
            Self.occurrence(of: source, week: 2, movedBy: 2, id: "s-2"),
        ]
        var cancelled = Self.occurrence(of: source, week: 3, id: "s-3")
        cancelled.status = .cancelled
        let targetOccurrences = (0..<5).map { Self.occurrence(of: target, week: $0, id: "t-\($0)") }

        let plan = Fixture.planner.plan(
            series: [(sourceMaster: source, targetMasterID: target.id)], sourceOccurrences: sourceOccurrences,
            sourceExceptions: [sourceOccurrences[2], cancelled], targetOccurrences: targetOccurrences)

        #expect(plan.entries.count == 2)
        guard case .update(let moved, _)? = plan.entries.first?.write else {
            Issue.record("the moved occurrence is not patched: \(plan.entries)")
            return
        }
        #expect(moved.id == "t-2" && moved.start == Fixture.at(14, hours: 2) && moved.originalStart == Fixture.at(14))
        #expect(moved.origin?.eventID == "s-2" && moved.calendarID == "home")
        #expect(plan.entries.first?.item.reason == "occurrence moved or changed in the source series")
        guard case .delete(let deleted)? = plan.entries.last?.write else {
            Issue.record("the cancelled occurrence is not deleted: \(plan.entries)")
            return
        }
        #expect(deleted == "t-3")

        // The fifth is in neither listing: no proof either way, so the source is asked.
        #expect(plan.open.map(\.target.id) == ["t-4"])
        let query = try #require(plan.open.first?.query)
        #expect(query.seriesID == "s-master" && query.originalStart == Fixture.at(28))
        #expect(Fixture.planner.resolve(plan.open, probes: [.unknown("HTTP 503")]).isEmpty)
        let answered = Fixture.planner.resolve(plan.open, probes: [.cancelled])
        guard case .delete(let proven)? = answered.first?.write else {
            Issue.record("a proven cancellation is not deleted: \(answered)")
            return
        }
        #expect(proven == "t-4")
    }
}
