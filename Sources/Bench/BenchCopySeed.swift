import CLI
import CalendarBridge
import Foundation

/// The events `calbridge-bench copy` seeds into the Outlook source: a realistic, deterministic mix within
/// the 30 days after `today`.
///
/// Of every 40 events: 2 all-day (one of them over several days), 1 weekly series on two weekdays, 1 monthly
/// series on its day of the month, 4 private, 8 with attendees, the rest timed meetings with a location and a
/// text or HTML body; seven time zones in turn, both hemispheres.
struct BenchCopySeed {
    let today: LocalDate

    static let zones = [
        "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "America/Los_Angeles", "UTC",
        "Asia/Kolkata",
    ]
    private static let weekdays = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    /// Event `index` of the mix.
    func event(_ index: Int) -> Event {
        let day = today.adding(days: 1 + index % 28)
        let kind = index % 40
        if kind == 0 || kind == 20 {
            let length = kind == 0 ? 1 : 2 + index % 3
            return Event(
                title: kind == 0 ? "Holiday \(index)" : "Conference \(index)", start: .allDay(date: day),
                end: .allDay(date: day.adding(days: length)), showAs: .free)
        }
        let zoneName = Self.zones[index % Self.zones.count]
        let zone = TimeZone(identifier: zoneName)!
        let start = LocalDateTime(date: day, hour: 7 + index % 11, minute: (index % 4) * 15).instant(in: zone)
        var event = Event(
            title: "Meeting \(index)", location: "Room \(index % 17)", start: .timed(instant: start, zone: zoneName),
            end: .timed(instant: start.addingTimeInterval(Double(30 + (index % 3) * 30) * 60), zone: zoneName),
            reminders: [Reminder(minutesBefore: 10)])
        event.body = index % 2 == 0 ? .text("Agenda for \(index)") : .html("<p>Agenda for <b>\(index)</b></p>")
        switch kind {
        case 1:
            // Weekly on the start's weekday and the one two days later, eight times.
            let weekday = Calendar(identifier: .gregorian).dateComponents(in: zone, from: start).weekday! - 1
            event.title = "Weekly \(index)"
            event.recurrence = Recurrence(lines: [
                "RRULE:FREQ=WEEKLY;BYDAY=\(Self.weekdays[weekday]),\(Self.weekdays[(weekday + 2) % 7]);COUNT=8"
            ])
        case 2:
            event.title = "Monthly \(index)"
            event.recurrence = Recurrence(lines: ["RRULE:FREQ=MONTHLY;BYMONTHDAY=\(day.day);COUNT=3"])
        case 3, 13, 23, 33:
            event.title = "Private \(index)"
            event.sensitivity = .private
        case let k where k % 5 == 4:
            event.attendees = [
                Attendee(name: "Ann Lee", email: "ann\(index % 5)@example.com"),
                Attendee(name: "Bo Chen", email: "bo\(index % 7)@example.com", role: .optional),
            ]
        default:
            break
        }
        return event
    }
}
