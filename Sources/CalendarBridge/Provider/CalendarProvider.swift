/// One account's calendars on one calendar service: Google Calendar, Microsoft Graph, or a test double.
///
/// Every method is `async throws`; failures are `CalendarError` values naming the account and calendar.
/// Calendar ids are the provider's own (`CalendarInfo.id`); resolve a user's `CalendarRef` first with
/// `CalendarRef.resolve(in:)` or `CalendarDirectory`.
///
/// Writing a test double: keep the state in an actor and answer from it. For example
/// ```swift
/// actor InMemoryCalendars: CalendarProvider {
///     nonisolated let provider = ProviderKind(rawValue: "test")
///     nonisolated let account = "test"
///     var calendars: [CalendarInfo] = []
///     var events: [String: [Event]] = [:]           // calendar id -> events
///     func listCalendars() async throws -> [CalendarInfo] { calendars }
///     func listEvents(calendarID: String, range: TimeRange, expand: Bool) async throws -> [Event] {
///         events[calendarID, default: []].filter { range.contains($0.start.instant(allDayZone: .gmt)) }
///     }
///     func createEvent(_ event: Event, in calendarID: String, idempotencyKey: IdempotencyKey?) async throws -> Event {
///         var created = event
///         created.id = idempotencyKey?.googleEventID ?? UUID().uuidString
///         created.calendarID = calendarID
///         if events[calendarID, default: []].contains(where: { $0.id == created.id }) { return created }
///         events[calendarID, default: []].append(created)
///         return created
///     }
///     // ... the other methods alike; throw CalendarError(.notFound, ...) for unknown ids, and
///     // CalendarError(.unsupported, ...) from quickAdd when the double stands for Outlook.
/// }
/// ```
/// For request-level tests, give the real providers a `RecordingTransport` instead.
public protocol CalendarProvider: Sendable {
    /// Which service this is.
    var provider: ProviderKind { get }
    /// The calbridge account name (stamped on calendars and errors).
    var account: String { get }
    /// What this provider can do beyond the common operations.
    var capabilities: ProviderCapabilities { get }

    /// Who the account belongs to: name, e-mail, mailbox or primary-calendar time zone.
    func userInfo() async throws -> UserInfo

    /// Every calendar of the account (all pages).
    func listCalendars() async throws -> [CalendarInfo]

    /// The events overlapping `range` (all pages).
    /// - Parameter expand: true: recurring series come back as their occurrences (what a week view
    ///   shows); false: series masters with their rules, plus single events and exceptions.
    func listEvents(calendarID: String, range: TimeRange, expand: Bool) async throws -> [Event]

    /// The events overlapping `range` in both of `listEvents`' forms: `series` as `expand: false` lists
    /// them, `occurrences` as `expand: true` does. The default implementation lists twice, concurrently;
    /// Graph answers both from one `calendarView` read, which holds both.
    func listEventViews(calendarID: String, range: TimeRange) async throws -> EventViews

    /// The occurrences of the series `seriesIDs` overlapping `range`: what `listEvents(expand: true)`
    /// lists with one of them as `seriesID`, in its order, for the copy engine's bookkeeping: they need
    /// carry only the fields `findCopies` names; other fields may be left empty. The default
    /// implementation filters that listing; Google sends the same request with `fields` of those members
    /// and reads only those items (a copy's rerun reads the target's occurrences of copied series, and
    /// most of that listing is single events).
    func listOccurrences(calendarID: String, range: TimeRange, ofSeries seriesIDs: Set<String>) async throws -> [Event]

    /// One event by id. Throws `.notFound` when it does not exist.
    func getEvent(id: String, calendarID: String) async throws -> Event

    /// Creates an event (`event.id` and `event.calendarID` are ignored) and returns it as stored.
    ///
    /// With an idempotency key, repeating the call (after a lost response or a crash) returns the event
    /// the first call created instead of creating another.
    func createEvent(_ event: Event, in calendarID: String, idempotencyKey: IdempotencyKey?) async throws -> Event

    /// Changes an existing event (`event.id` in `event.calendarID`) to the model's values of `fields`,
    /// leaving the other fields, and properties the model does not carry, as they are; returns the event as
    /// stored.
    func updateEvent(_ event: Event, fields: EventFields) async throws -> Event

    /// Deletes an event. Deleting one that is already gone succeeds.
    func deleteEvent(id: String, calendarID: String) async throws

    /// `updateEvent(_:fields:)`, mailing the attendees as `mail` says where the service lets the caller
    /// choose (Google's `sendUpdates`). The default implementation is `updateEvent(_:fields:)`: right for a
    /// service that mails as it likes whatever the caller says (Graph), and for one without attendees.
    func updateEvent(_ event: Event, fields: EventFields, mail: AttendeeMail) async throws -> Event

    /// `deleteEvent(id:calendarID:)`, mailing the attendees as `mail` says where the service lets the caller
    /// choose. The default implementation is `deleteEvent(id:calendarID:)`.
    func deleteEvent(id: String, calendarID: String, mail: AttendeeMail) async throws

    /// Creates an event from free text with the service's own parser ("Lunch with Ann tomorrow 1pm").
    /// Throws `.unsupported` where the service has none (Outlook): parse locally and `createEvent`.
    func quickAdd(text: String, in calendarID: String) async throws -> Event

    /// The events in a calendar that carry an origin marker property with the lookup's value, on the
    /// whole calendar (no time window), series masters unexpanded.
    func findEvents(origin: OriginLookup, in calendarID: String) async throws -> [Event]

    /// `findEvents`, for the copy engine's bookkeeping: the events need carry only `id`, `calendarID`,
    /// `title`, `start`, `end`, `recurrence`, `seriesID`, `originalStart`, `status`, `created`, `origin`
    /// and `extendedProperties`; other fields may be left empty. A provider that reads less this way
    /// overrides it; the default is `findEvents`.
    func findCopies(origin: OriginLookup, in calendarID: String) async throws -> [Event]

    /// Applies many writes to one calendar and reports each one's outcome, in the order given; one
    /// failing write does not stop the others.
    ///
    /// The default implementation (`applyWritesIndividually`) makes the single calls, at most
    /// `maxConcurrent` at a time. A provider overrides it to use its batch endpoint (Google batch
    /// requests, Graph `$batch`). Updates and deletes address `Event.id`, which may be an occurrence
    /// of a series (as listed with `expand: true`): updating one moves or changes that occurrence only,
    /// deleting one cancels it.
    func applyWrites(_ writes: [EventWrite], in calendarID: String, maxConcurrent: Int) async -> [EventWriteResult]

    /// Reads events by id, one answer per id in the order given; never throws (failures are `.unknown`).
    ///
    /// The copy engine's proof that a source event is gone. The default implementation
    /// (`probeEventsIndividually`) makes `getEvent` calls, at most 4 at a time; providers override it
    /// with their batch endpoint.
    func probeEvents(ids: [String], calendarID: String) async -> [EventProbe]

    /// Asks, for each query, whether the series still has that occurrence; one answer per query in order.
    ///
    /// The default implementation (`probeOccurrencesIndividually`) reads the master by id and lists the
    /// calendar expanded over the query's range: the occurrence is cancelled when the master exists
    /// and the listing answers without it. Providers override it with batched reads.
    func probeOccurrences(_ queries: [OccurrenceQuery], calendarID: String) async -> [OccurrenceProbe]
}

/// One listing in both forms (`CalendarProvider.listEventViews`).
public struct EventViews: Sendable {
    /// As `listEvents(expand: false)`: single events, series masters, exceptions.
    public var series: [Event]
    /// As `listEvents(expand: true)`: single events and every occurrence of every series.
    public var occurrences: [Event]

    public init(series: [Event], occurrences: [Event]) {
        self.series = series
        self.occurrences = occurrences
    }
}

extension CalendarProvider {
    public func listEventViews(calendarID: String, range: TimeRange) async throws -> EventViews {
        let (series, occurrences) = try await concurrently(
            { try await listEvents(calendarID: calendarID, range: range, expand: false) },
            { try await listEvents(calendarID: calendarID, range: range, expand: true) })
        return EventViews(series: series, occurrences: occurrences)
    }

    public func listOccurrences(calendarID: String, range: TimeRange, ofSeries seriesIDs: Set<String>) async throws -> [Event] {
        try await listEvents(calendarID: calendarID, range: range, expand: true).filter {
            $0.seriesID.map(seriesIDs.contains) == true
        }
    }

    public func findCopies(origin: OriginLookup, in calendarID: String) async throws -> [Event] {
        try await findEvents(origin: origin, in: calendarID)
    }

    /// The copies of one source event in a calendar.
    public func findEvents(originatingFrom marker: OriginMarker, in calendarID: String) async throws -> [Event] {
        try await findEvents(origin: .event(marker), in: calendarID)
    }

    /// Creates an event without an idempotency key.
    public func createEvent(_ event: Event, in calendarID: String) async throws -> Event {
        try await createEvent(event, in: calendarID, idempotencyKey: nil)
    }
}
