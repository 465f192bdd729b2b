import CalendarBridge
import Foundation
import TestSupport
import Testing

/// Sources with revisions (iCalendar `SEQUENCE`, `LAST-MODIFIED`): a copy records the revision it was made
/// from, a newer revision updates it, an older one never overwrites it.
@Suite("Copy planner: iCalendar revisions (SEQUENCE, LAST-MODIFIED)")
struct CopyRevisionTests {
    typealias F = CopyFixtures

    static let planner = CopyPlanner(
        sourceProvider: ProviderKind(rawValue: "ics"), sourceAccount: "icalendar", sourceCalendarID: "file", targetCalendarID: "home",
        target: InMemoryCalendarProvider.defaultCapabilities(.google), options: CopyOptions(window: F.window))

    static func source(_ title: String, sequence: Int?, modified: String? = nil) -> Event {
        var event = Event(
            id: "uid-1", calendarID: "file", title: title, start: F.at("2026-03-05T09:00:00", "UTC"),
            end: F.at("2026-03-05T10:00:00", "UTC"))
        event.sequence = sequence
        event.updated = modified.map { F.instant($0, "UTC") }
        return event
    }

    /// The copy the planner writes for `source`, as the target lists it.
    static func copy(of source: Event) -> Event {
        let plan = planner.plan(sourceEvents: [source], sourceOccurrences: [], existingCopies: [])
        guard case .create(var copy, _)? = plan.entries.first?.write else { return source }
        copy.id = "t-1"
        copy.calendarID = "home"
        return copy
    }

    static func action(_ source: Event, over copy: Event) -> (CopyItem.Action, String?) {
        let plan = planner.plan(sourceEvents: [source], sourceOccurrences: [], existingCopies: [copy])
        return (plan.entries[0].item.action, plan.entries[0].item.reason)
    }

    @Test("the marker records SEQUENCE and LAST-MODIFIED of sources that have them, and nothing for others")
    func recorded() {
        let copy = Self.copy(of: Self.source("A", sequence: 2, modified: "2026-01-05T10:00:00"))
        #expect(copy.origin?.sourceSequence == 2)
        #expect(copy.origin?.sourceModified == 1_767_607_200)
        let plain = Self.copy(of: Self.source("A", sequence: nil, modified: "2026-01-05T10:00:00"))
        #expect(plain.origin?.sourceSequence == nil && plain.origin?.sourceModified == nil)
    }

    @Test("an older SEQUENCE, or the same one modified earlier, leaves the copy; a newer one updates it")
    func olderNeverWins() {
        let copy = Self.copy(of: Self.source("Final", sequence: 2, modified: "2026-01-05T10:00:00"))
        let older = Self.action(Self.source("Draft", sequence: 1, modified: "2026-01-06T10:00:00"), over: copy)
        #expect(older.0 == .unchanged && older.1?.contains("SEQUENCE 2; the source has 1") == true, "\(older)")
        let earlier = Self.action(Self.source("Draft", sequence: 2, modified: "2026-01-04T10:00:00"), over: copy)
        #expect(earlier.0 == .unchanged && earlier.1?.contains("LAST-MODIFIED") == true, "\(earlier)")
        #expect(Self.action(Self.source("Moved", sequence: 3, modified: "2026-01-04T10:00:00"), over: copy).0 == .update)
        #expect(Self.action(Self.source("Typo fixed", sequence: 2, modified: "2026-01-06T10:00:00"), over: copy).0 == .update)
        #expect(Self.action(Self.source("Final", sequence: 2, modified: "2026-01-05T10:00:00"), over: copy).0 == .unchanged)
        // A new SEQUENCE with the same content re-marks the copy, so that the older revision cannot win later.
        let remark = Self.action(Self.source("Final", sequence: 3, modified: "2026-01-05T10:00:00"), over: copy)
        #expect(remark.0 == .update && remark.1?.contains("SEQUENCE") == true, "\(remark)")
    }

    @Test("copies made before revisions were recorded are compared by content, as before")
    func legacyCopies() {
        var copy = Self.copy(of: Self.source("Final", sequence: 2))
        copy.origin?.sourceSequence = nil
        copy.origin?.sourceModified = nil
        #expect(Self.action(Self.source("Final", sequence: 0), over: copy).0 == .unchanged)
        #expect(Self.action(Self.source("Draft", sequence: 0), over: copy).0 == .update)
    }
}
