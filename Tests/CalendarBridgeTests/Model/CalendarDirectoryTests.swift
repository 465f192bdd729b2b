import CalendarBridge
import Foundation
import Testing

/// Counts overlapping calls and remembers the peak.
final class PeakCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var peakValue = 0
    func enter() { lock.withLock { current += 1; peakValue = max(peakValue, current) } }
    func leave() { lock.withLock { current -= 1 } }
    var peak: Int { lock.withLock { peakValue } }
}

/// A provider double with calendars and their events: each read after a delay, the calendar list failing
/// with `failure`, the events of `failingCalendars` failing; `counter` and `eventReads` count overlapping
/// calendar and event reads.
struct StubProvider: CalendarProvider {
    let provider: ProviderKind
    let account: String
    var calendars: [CalendarInfo] = []
    var failure: CalendarError?
    var delay: Duration = .zero
    var counter: PeakCounter?
    var events: [String: [Event]] = [:]
    var failingCalendars: Set<String> = []
    var eventReads: PeakCounter?
    var capabilities: ProviderCapabilities {
        ProviderCapabilities(serverQuickAdd: false, recurrence: .patterned, personalSensitivity: false, richShowAs: false, categories: false)
    }

    func userInfo() async throws -> UserInfo { UserInfo() }
    func listCalendars() async throws -> [CalendarInfo] {
        counter?.enter()
        defer { counter?.leave() }
        try await Task.sleep(for: delay)
        if let failure { throw failure }
        return calendars
    }
    func listEvents(calendarID: String, range: TimeRange, expand: Bool) async throws -> [Event] {
        eventReads?.enter()
        defer { eventReads?.leave() }
        try await Task.sleep(for: delay)
        if failingCalendars.contains(calendarID) { throw CalendarError(.server, "backend error", account: account, calendar: calendarID) }
        return events[calendarID] ?? []
    }
    func getEvent(id: String, calendarID: String) async throws -> Event { throw CalendarError(.notFound, "none") }
    func createEvent(_ event: Event, in calendarID: String, idempotencyKey: IdempotencyKey?) async throws -> Event { event }
    func updateEvent(_ event: Event, fields: EventFields) async throws -> Event { event }
    func deleteEvent(id: String, calendarID: String) async throws {}
    func quickAdd(text: String, in calendarID: String) async throws -> Event { throw CalendarError(.unsupported, "no") }
    func findEvents(origin: OriginLookup, in calendarID: String) async throws -> [Event] { [] }
}

@Suite("CalendarDirectory: many accounts at once")
struct CalendarDirectoryTests {
    static func calendar(_ id: String, _ account: String, primary: Bool = false) -> CalendarInfo {
        CalendarInfo(id: id, name: id.uppercased(), account: account, provider: .google, isPrimary: primary, accessRole: .owner)
    }

    @Test("good accounts are listed in order and a failing one is reported separately")
    func partial() async {
        let directory = CalendarDirectory(providers: [
            StubProvider(provider: .google, account: "a", calendars: [Self.calendar("a1", "a", primary: true)], delay: .milliseconds(30)),
            StubProvider(provider: .microsoft, account: "b", failure: CalendarError(.unauthorized, "expired", account: "b")),
            StubProvider(provider: .google, account: "c", calendars: [Self.calendar("c1", "c"), Self.calendar("c2", "c")]),
        ])
        let listing = await directory.listCalendars()
        #expect(listing.calendars.map(\.id) == ["a1", "c1", "c2"])
        #expect(listing.failures.map(\.account) == ["b"])
        #expect((listing.failures.first?.error as? CalendarError)?.code == .unauthorized)
        #expect(listing.isPartial)
    }

    @Test("accounts are listed concurrently: all six are in flight at once")
    func concurrent() async {
        let counter = PeakCounter()
        let providers = (0..<6).map { i in
            StubProvider(
                provider: .google, account: "acct\(i)", calendars: [Self.calendar("c\(i)", "acct\(i)")],
                delay: .milliseconds(150), counter: counter)
        }
        let listing = await CalendarDirectory(providers: providers).listCalendars()
        #expect(listing.calendars.map(\.id) == (0..<6).map { "c\($0)" })
        #expect(counter.peak == 6)
    }

    @Test("resolve finds the account's provider and the calendar; an unknown account lists the known ones")
    func resolve() async throws {
        let directory = CalendarDirectory(providers: [
            StubProvider(provider: .google, account: "home", calendars: [Self.calendar("h1", "home", primary: true)]),
        ])
        let (provider, calendar) = try await directory.resolve(CalendarRef(parsing: "home"))
        #expect(provider.account == "home" && calendar.id == "h1")
        let error = await #expect(throws: CalendarError.self) { try await directory.resolve(CalendarRef(parsing: "work:x")) }
        #expect(error?.candidates == ["home"])
    }
}
