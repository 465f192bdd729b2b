import Foundation
import Testing

@testable import CalendarBridge

@Suite("AgendaReader: many accounts' calendars in one window")
struct AgendaReaderTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    static func calendar(_ id: String, _ account: String, _ provider: ProviderKind = .google) -> CalendarInfo {
        CalendarInfo(id: id, name: id.capitalized, account: account, provider: provider, isPrimary: false, accessRole: .owner)
    }

    static func at(_ text: String) -> Date { RFC3339.parse(text)! }

    static func timed(_ title: String, _ start: String, _ end: String, id: String? = nil) -> Event {
        Event(id: id ?? title, title: title, start: .timed(instant: at(start), zone: "UTC"), end: .timed(instant: at(end), zone: "UTC"))
    }

    static func allDay(_ title: String, _ start: String, _ end: String) -> Event {
        Event(id: title, title: title, start: .allDay(date: LocalDate(start)!), end: .allDay(date: LocalDate(end)!))
    }

    static let week = TimeRange(start: at("2027-03-01T00:00:00Z"), end: at("2027-03-08T00:00:00Z"))

    @Test("every account's calendars merged in agenda order: by day, all-day first, then start, end and title")
    func order() async {
        var work = StubProvider(provider: .microsoft, account: "work", calendars: [Self.calendar("main", "work", .microsoft)])
        work.events["main"] = [
            Self.timed("Review", "2027-03-01T10:00:00Z", "2027-03-01T11:00:00Z"),
            Self.timed("Late", "2027-03-02T23:00:00Z", "2027-03-03T01:00:00Z"),
            Self.timed("Evening", "2027-03-01T20:00:00Z", "2027-03-01T21:00:00Z"),
            Self.allDay("Offsite", "2027-03-02", "2027-03-04"),
        ]
        var home = StubProvider(
            provider: .google, account: "home", calendars: [Self.calendar("family", "home"), Self.calendar("holidays", "home")])
        home.events["family"] = [
            Self.timed("Breakfast", "2027-03-01T08:00:00Z", "2027-03-01T09:00:00Z"),
            Self.timed("Stand-up", "2027-03-02T09:00:00Z", "2027-03-02T09:15:00Z"),
            Self.timed("Cancelled", "2027-03-02T09:00:00Z", "2027-03-02T09:15:00Z"),
        ]
        home.events["family"]![2].status = .cancelled
        home.events["holidays"] = [Self.allDay("Holiday", "2027-03-01", "2027-03-02")]
        let agenda = await AgendaReader([.init(provider: work), .init(provider: home)]).read(Self.week, zone: Self.utc)
        #expect(agenda.failures.isEmpty)
        #expect(agenda.readCalendars.map(\.id) == ["main", "family", "holidays"])
        #expect(agenda.calendars.count == 3)
        let ordered = agenda.ordered(in: Self.utc)
        #expect(ordered.map(\.event.title) == ["Holiday", "Breakfast", "Review", "Evening", "Offsite", "Stand-up", "Late"])
        #expect(ordered.map(\.calendar.id) == ["holidays", "family", "main", "main", "main", "family", "main"])
        // In Tokyo the evening call is on the 2nd (05:00), after that day's all-day offsite.
        let tokyo = agenda.ordered(in: Self.tokyo).map(\.event.title)
        #expect(tokyo == ["Holiday", "Breakfast", "Review", "Offsite", "Evening", "Stand-up", "Late"])
        let query = await AgendaReader([.init(provider: work), .init(provider: home)]).read(
            Self.week, zone: Self.utc, query: EventQuery("STAND up"))
        #expect(query.entries.map(\.event.title) == ["Stand-up"])
    }

    @Test("an all-day event is kept when one of its days is one of the window's days in the display zone")
    func allDayDays() {
        // 2 March 00:00 to 3 March 00:00 in Tokyo: the window's one day is the 2nd.
        let window = TimeRange(start: Self.at("2027-03-01T15:00:00Z"), end: Self.at("2027-03-02T15:00:00Z"))
        let days = Agenda.Days(window, zone: Self.tokyo)
        #expect(!days.keeps(Self.allDay("Before", "2027-03-01", "2027-03-02")))
        #expect(days.keeps(Self.allDay("On", "2027-03-02", "2027-03-03")))
        #expect(days.keeps(Self.allDay("Across", "2027-02-27", "2027-03-05")))
        #expect(!days.keeps(Self.allDay("After", "2027-03-03", "2027-03-04")))
        // A window ending mid-day keeps that day.
        let partial = Agenda.Days(TimeRange(start: Self.at("2027-03-02T00:00:00Z"), end: Self.at("2027-03-03T12:00:00Z")), zone: Self.utc)
        #expect(partial.keeps(Self.allDay("Third", "2027-03-03", "2027-03-04")))
        #expect(!partial.keeps(Self.allDay("Fourth", "2027-03-04", "2027-03-05")))
        // Timed events are the service's choice.
        #expect(days.keeps(Self.timed("Any", "2027-01-01T00:00:00Z", "2027-01-01T01:00:00Z")))
    }

    @Test("failures by stage: an account's list, a reference, one calendar; the rest is read")
    func failures() async throws {
        let broken = StubProvider(
            provider: .google, account: "broken", failure: CalendarError(.unauthorized, "grant revoked", account: "broken"))
        var work = StubProvider(
            provider: .microsoft, account: "work", calendars: [Self.calendar("main", "work"), Self.calendar("shared", "work")])
        work.events["main"] = [Self.timed("Review", "2027-03-01T10:00:00Z", "2027-03-01T11:00:00Z")]
        work.failingCalendars = ["shared"]
        let home = StubProvider(provider: .google, account: "home", calendars: [Self.calendar("family", "home")])
        let references = [
            try CalendarRef(parsing: "home:Nope"), try CalendarRef(parsing: "home:family"), try CalendarRef(parsing: "home:FAMILY"),
        ]
        let agenda = await AgendaReader([.init(provider: broken), .init(provider: work), .init(provider: home, calendars: references)])
            .read(Self.week, zone: Self.utc)
        #expect(agenda.entries.map(\.event.title) == ["Review"])
        // The family calendar is read once although named twice.
        #expect(agenda.readCalendars.map(\.id) == ["main", "family"])
        #expect(agenda.failures.count == 3)
        let stages = agenda.failures.map { failure -> String in
            switch failure.stage {
            case .listingCalendars: "list \(failure.account)"
            case .resolving(let reference): "resolve \(reference)"
            case .readingEvents(let calendar): "read \(calendar.id)"
            }
        }
        #expect(stages == ["list broken", "read shared", "resolve home:Nope"])
        #expect(agenda.failures.map(\.calendar) == [nil, "work:Shared", "home:Nope"])
        #expect((agenda.failures[2].error as? CalendarError)?.code == .notFound)
    }

    @Test("accounts are read at once, and at most calendarsAtOnce calendars of one account")
    func concurrency() async {
        let calendarReads = PeakCounter()
        let eventReads = (1...3).map { _ in PeakCounter() }
        let accounts = (1...3).map { index in
            StubProvider(
                provider: .google, account: "a\(index)", calendars: (1...6).map { Self.calendar("c\($0)", "a\(index)") },
                delay: .milliseconds(50), counter: calendarReads, eventReads: eventReads[index - 1])
        }
        let agenda = await AgendaReader(accounts.map { .init(provider: $0) }, calendarsAtOnce: 2).read(Self.week, zone: Self.utc)
        #expect(agenda.readCalendars.count == 18)
        // Wall time is no measure on a loaded machine: the overlaps are (calbridge-bench agenda times it).
        #expect(calendarReads.peak == 3)
        #expect(eventReads.map(\.peak) == [2, 2, 2])
    }
}
