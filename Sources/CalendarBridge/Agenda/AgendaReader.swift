import Foundation

/// Reads the events of many calendars of many accounts in one window, concurrently: what an agenda, a
/// week view or a month view across every account shows.
///
/// Every account is asked at once, and each account's calendars are read as soon as its calendar list
/// arrives (a few at a time), so the wait is about the slowest account's two round trips, not the sum
/// over accounts. One failing account, reference or calendar does not hide the others: `Agenda.failures`
/// reports each one, and the rest is read.
///
/// ```swift
/// let reader = AgendaReader([.init(provider: work), .init(provider: home, calendars: [try CalendarRef(parsing: "home:Family")])])
/// let agenda = await reader.read(TimeRange(start: monday, end: nextMonday), zone: .current)
/// for entry in agenda.ordered(in: .current) { print(entry.calendar.name, entry.event.title) }
/// ```
public struct AgendaReader: Sendable {
    /// One account and which of its calendars to read.
    public struct Selection: Sendable {
        public var provider: any CalendarProvider
        /// The calendars to read, or nil for every calendar the account lists (read-only ones included).
        public var calendars: [CalendarRef]?

        public init(provider: any CalendarProvider, calendars: [CalendarRef]? = nil) {
            self.provider = provider
            self.calendars = calendars
        }
    }

    public let selections: [Selection]
    /// How many calendars of one account are read at once.
    public let calendarsAtOnce: Int

    /// - Parameters:
    ///   - selections: one per account (accounts should be unique; references of another account than
    ///     their selection's are not found).
    ///   - calendarsAtOnce: calendars of one account read at once (Graph allows 4 requests per mailbox).
    public init(_ selections: [Selection], calendarsAtOnce: Int = 4) {
        self.selections = selections
        self.calendarsAtOnce = max(1, calendarsAtOnce)
    }

    /// The events overlapping `range` in every selected calendar, occurrences of series expanded,
    /// cancelled ones left out.
    ///
    /// - Parameters:
    ///   - range: the window.
    ///   - zone: the zone the window's days are counted in: an all-day event is kept when one of its days
    ///     is one of the window's (a service compares all-day events in its calendar's zone, which may
    ///     keep the day before or after).
    ///   - query: when given, only the events it matches.
    public func read(_ range: TimeRange, zone: TimeZone, query: EventQuery? = nil) async -> Agenda {
        let parts = await mapConcurrently(selections, limit: selections.count) { [calendarsAtOnce] selection in
            await Self.read(selection, range: range, zone: zone, query: query, calendarsAtOnce: calendarsAtOnce)
        }
        var agenda = Agenda(entries: [], calendars: [], readCalendars: [], failures: [])
        for part in parts {
            agenda.entries += part.entries
            agenda.calendars += part.calendars
            agenda.readCalendars += part.readCalendars
            agenda.failures += part.failures
        }
        return agenda
    }

    /// One account: its calendar list, the selected calendars, their events.
    private static func read(
        _ selection: Selection, range: TimeRange, zone: TimeZone, query: EventQuery?, calendarsAtOnce: Int
    ) async -> Agenda {
        let provider = selection.provider
        var agenda = Agenda(entries: [], calendars: [], readCalendars: [], failures: [])
        func fail(_ stage: Agenda.Failure.Stage, _ error: any Error) {
            agenda.failures.append(Agenda.Failure(account: provider.account, provider: provider.provider, stage: stage, error: error))
        }
        do {
            agenda.calendars = try await provider.listCalendars()
        } catch {
            fail(.listingCalendars, error)
            return agenda
        }
        var chosen: [CalendarInfo] = []
        if let references = selection.calendars {
            for reference in references {
                do {
                    let calendar = try reference.resolve(in: agenda.calendars)
                    if !chosen.contains(where: { $0.id == calendar.id }) { chosen.append(calendar) }
                } catch {
                    fail(.resolving(reference), error)
                }
            }
        } else {
            chosen = agenda.calendars
        }
        let window = Agenda.Days(range, zone: zone)
        let results = await mapConcurrently(chosen, limit: calendarsAtOnce) { calendar in
            do {
                let events = try await provider.listEvents(calendarID: calendar.id, range: range, expand: true)
                return Result<[Event], any Error>.success(events)
            } catch {
                return .failure(error)
            }
        }
        for (calendar, result) in zip(chosen, results) {
            switch result {
            case .failure(let error): fail(.readingEvents(calendar), error)
            case .success(let events):
                agenda.readCalendars.append(calendar)
                for event in events where event.status != .cancelled && window.keeps(event) {
                    if let query, !query.matches(event) { continue }
                    agenda.entries.append(Agenda.Entry(event: event, calendar: calendar))
                }
            }
        }
        return agenda
    }
}
