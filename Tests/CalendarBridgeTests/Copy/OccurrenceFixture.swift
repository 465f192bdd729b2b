import CalendarBridge
import Foundation
import TestSupport

/// What the occurrence planner's suites share (`OccurrencePlannerTests`, `CarryOccurrenceTests`): times
/// counted from a Monday in Berlin, and a planner from an Outlook calendar `work` to a Google calendar `home`.
enum OccurrenceFixture {
    static let zone = "Europe/Berlin"
    static let monday = Date(timeIntervalSince1970: 1_796_544_000)  // 2026-12-07T08:00:00Z

    /// `days` and `hours` after `monday`, in `zone`.
    static func at(_ days: Double, hours: Double = 0) -> EventTime {
        .timed(instant: monday.addingTimeInterval(days * 86_400 + hours * 3600), zone: zone)
    }

    static let planner = OccurrencePlanner(
        sourceProvider: .microsoft, sourceAccount: "work-id", sourceCalendarID: "work", targetCalendarID: "home",
        projection: CopyProjection(fields: .basic, target: InMemoryCalendarProvider.defaultCapabilities(.google)),
        zone: TimeZone(identifier: "UTC")!)
}
