import Foundation

/// What a quick-add text means, as the emulator's `events.quickAdd` needs it. The sandbox's composer wires
/// calbridge's own quick-add parser in through `GoogleCalendarEmulator.QuickAddInterpreter`.
package struct QuickAddInterpretation: Sendable, Equatable {
    package var summary: String
    /// The start instant (for an all-day event: any instant on the start day in the calendar's zone).
    package var start: Date
    /// The exclusive end; nil means one hour after a timed start, or one day after an all-day start.
    package var end: Date?
    package var allDay: Bool
    package var location: String?

    package init(summary: String, start: Date, end: Date? = nil, allDay: Bool = false, location: String? = nil) {
        self.summary = summary
        self.start = start
        self.end = end
        self.allDay = allDay
        self.location = location
    }
}
