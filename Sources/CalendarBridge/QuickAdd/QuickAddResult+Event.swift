import Foundation

extension QuickAddResult {
    /// The event this parse describes, in the result's zone, ready for `CalendarProvider.createEvent`.
    public var event: Event {
        func time(_ value: Time) -> EventTime {
            switch value {
            case .dateTime(let seconds, _):
                return .timed(instant: Date(timeIntervalSince1970: TimeInterval(seconds)), zone: timeZone)
            case .date(let date):
                return .allDay(date: LocalDate(year: date.year, month: date.month, day: date.day)!)
            }
        }
        return Event(
            title: title, location: location, start: time(start), end: time(end),
            recurrence: recurrence.isEmpty ? nil : Recurrence(lines: recurrence))
    }
}
