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

    /// The same view of an event a provider wrote, so that what was created is shown (and compared) in the
    /// form of the preview: timed values in the event's zone (`fallbackZone` when it has none).
    public init(created event: Event, parser: String, fallbackZone: String, now: Date) {
        let zoneID = event.start.zone ?? fallbackZone
        let zone = QuickAddZone(identifier: zoneID) ?? QuickAddZone(identifier: "UTC")!
        func time(_ value: EventTime) -> Time {
            switch value {
            case .timed(let instant, _):
                let seconds = Int(instant.timeIntervalSince1970.rounded(.down))
                return .dateTime(seconds: seconds, rfc3339: zone.rfc3339(seconds))
            case .allDay(let date):
                return .date(QuickAddDate(year: date.year, month: date.month, day: date.day))
            }
        }
        let start = time(event.start)
        let nowSeconds = Int(now.timeIntervalSince1970.rounded(.down))
        let past: Bool
        switch time(event.end) {
        case .dateTime(let seconds, _): past = (start.instant.map { Int($0.timeIntervalSince1970) } ?? seconds) < nowSeconds
        case .date(let last): past = last <= zone.date(at: nowSeconds)
        }
        self.init(
            title: event.title, start: start, end: time(event.end), isAllDay: event.isAllDay,
            location: (event.location?.isEmpty ?? true) ? nil : event.location, timeZone: zone.identifier,
            recurrence: (event.recurrence?.lines ?? []).filter { $0.hasPrefix("RRULE:") }, isPast: past, parser: parser)
    }
}
