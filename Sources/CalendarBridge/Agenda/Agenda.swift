import Foundation

/// What `AgendaReader.read` found: the events of the calendars it could read, each with its calendar,
/// and what it could not read.
public struct Agenda: Sendable {
    /// One event and the calendar it was read from.
    public struct Entry: Sendable {
        public var event: Event
        public var calendar: CalendarInfo

        public init(event: Event, calendar: CalendarInfo) {
            self.event = event
            self.calendar = calendar
        }
    }

    /// Something that could not be read; the rest was.
    public struct Failure: Sendable {
        /// Where the failure happened.
        public enum Stage: Sendable {
            /// Listing the account's calendars (nothing of the account was read).
            case listingCalendars
            /// Finding a requested calendar in the account's list (`.notFound`, `.ambiguous`): a mistake in
            /// the request rather than a failure of the service.
            case resolving(CalendarRef)
            /// Reading one calendar's events.
            case readingEvents(CalendarInfo)
        }

        public var account: String
        public var provider: ProviderKind
        public var stage: Stage
        public var error: any Error

        /// The calendar concerned, as the user named it or the service did; nil for the whole account.
        public var calendar: String? {
            switch stage {
            case .listingCalendars: nil
            case .resolving(let reference): reference.description
            case .readingEvents(let calendar): "\(calendar.account):\(calendar.name)"
            }
        }
    }

    /// The events found, in no particular order (see `ordered(in:)`).
    public var entries: [Entry]
    /// Every calendar of the accounts whose calendar list was read (to name calendars unambiguously).
    public var calendars: [CalendarInfo]
    /// The calendars whose events were read, account by account.
    public var readCalendars: [CalendarInfo]
    public var failures: [Failure]

    public init(entries: [Entry], calendars: [CalendarInfo], readCalendars: [CalendarInfo], failures: [Failure]) {
        self.entries = entries
        self.calendars = calendars
        self.readCalendars = readCalendars
        self.failures = failures
    }

    /// The entries in agenda order: by the day they start on in `zone`, all-day events first within a
    /// day, then by start, end, title, account, calendar and id, so that the order never varies.
    public func ordered(in zone: TimeZone) -> [Entry] {
        let keyed = entries.map { entry -> (day: LocalDate, start: Date, end: Date, entry: Entry) in
            let event = entry.event
            let start = event.start.instant(allDayZone: zone)
            let day: LocalDate
            switch event.start {
            case .allDay(let date): day = date
            case .timed(let instant, _): day = LocalDate(instant: instant, in: zone)
            }
            return (day, start, event.end.instant(allDayZone: zone), entry)
        }
        return keyed.sorted { a, b in
            if a.day != b.day { return a.day < b.day }
            let allDayA = a.entry.event.isAllDay, allDayB = b.entry.event.isAllDay
            if allDayA != allDayB { return allDayA }
            if a.start != b.start { return a.start < b.start }
            if a.end != b.end { return a.end < b.end }
            let eventA = a.entry.event, eventB = b.entry.event
            return (eventA.title, a.entry.calendar.account, a.entry.calendar.name, eventA.id)
                < (eventB.title, b.entry.calendar.account, b.entry.calendar.name, eventB.id)
        }.map(\.entry)
    }

    /// The days a window covers in a zone, for all-day events.
    struct Days {
        /// The first day, and the day after the last.
        let first: LocalDate, end: LocalDate

        init(_ range: TimeRange, zone: TimeZone) {
            first = LocalDate(instant: range.start, in: zone)
            let last = LocalDateTime(instant: range.end, in: zone)
            // A window ending at midnight ends before that day; one ending later in the day includes it.
            let endsAtMidnight = last.hour == 0 && last.minute == 0 && last.second == 0 && last.nanosecond == 0
            end = endsAtMidnight ? last.date : last.date.adding(days: 1)
        }

        /// Timed events as the service chose them; all-day ones when a day of theirs is in the window.
        func keeps(_ event: Event) -> Bool {
            guard case .allDay(let start) = event.start else { return true }
            let stop: LocalDate
            if case .allDay(let date) = event.end, date > start { stop = date } else { stop = start.adding(days: 1) }
            return start < end && stop > first
        }
    }
}
