import CalendarBridge
import Foundation
import GoogleCalendar
import MicrosoftGraph
import Sandbox
import Testing

/// One meaning of a repeat rule across services, end to end: a series written to Outlook and read back is
/// written to Google with the same occurrences (the sandbox expands Outlook's pattern as Exchange does, and
/// Google's rule as RFC 5545 does), and a Google rule Outlook would read differently is copied as its
/// occurrences, so both calendars show the same ones.
@Suite("Recurrence through both sandboxes: the same occurrences on Outlook and Google", .serialized)
struct RecurrenceSandboxTests {
    static let zoneName = "Europe/Berlin"
    static let zone = TimeZone(identifier: zoneName)!
    static let window = TimeRange(
        start: LocalDate(year: 2026, month: 1, day: 1)!.startInstant(in: zone),
        end: LocalDate(year: 2031, month: 1, day: 1)!.startInstant(in: zone))

    struct Case: Sendable, CustomTestStringConvertible {
        var rule: String
        var first: String
        /// The rule Outlook's pattern reads back as, when it is other words for the same dates.
        var readBack: String?
        var testDescription: String { rule }
    }

    /// Outlook's boundary patterns, stated as the rules that mean them.
    static let outlookCases: [Case] = [
        Case(rule: "RRULE:FREQ=MONTHLY;COUNT=14;BYMONTHDAY=-1", first: "2026-01-31"),
        Case(rule: "RRULE:FREQ=MONTHLY;COUNT=14;BYMONTHDAY=28,29,30;BYSETPOS=-1", first: "2026-01-30"),
        Case(rule: "RRULE:FREQ=YEARLY;COUNT=3;BYMONTHDAY=-1;BYMONTH=2", first: "2028-02-29"),
        Case(rule: "RRULE:FREQ=MONTHLY;COUNT=12;BYDAY=-1FR", first: "2026-01-30"),
        Case(rule: "RRULE:FREQ=MONTHLY;COUNT=12;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", first: "2026-01-30"),
        Case(rule: "RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=8;BYDAY=SU,MO;WKST=SU", first: "2026-03-01"),
        // "Every weekday" is Outlook's weekly pattern; its end date's last second in Berlin is 22:59:59 UTC.
        Case(
            rule: "RRULE:FREQ=DAILY;UNTIL=20260320T235959Z;BYDAY=MO,TU,WE,TH,FR", first: "2026-03-02",
            readBack: "RRULE:FREQ=WEEKLY;UNTIL=20260320T225959Z;BYDAY=MO,TU,WE,TH,FR"),
        Case(rule: "RRULE:FREQ=YEARLY;COUNT=4;BYDAY=4TH;BYMONTH=11", first: "2026-11-26"),
    ]

    static func series(_ title: String, _ c: Case) -> Event {
        let start = LocalDateTime(date: LocalDate(c.first)!, hour: 9).instant(in: zone)
        return Event(
            title: title, start: .timed(instant: start, zone: zoneName), end: .timed(instant: start.addingTimeInterval(1800), zone: zoneName),
            recurrence: Recurrence(lines: [c.rule]))
    }

    /// The live occurrence starts a provider lists for a series (or for copies of one, by title).
    static func starts(_ provider: any CalendarProvider, calendar: String, where keep: (Event) -> Bool) async throws -> [Date] {
        try await provider.listEvents(calendarID: calendar, range: window, expand: true)
            .filter { $0.status != .cancelled && keep($0) }
            .map { $0.start.instant(allDayZone: zone) }.sorted()
    }

    @Test("an Outlook series read back and written to Google shows the same occurrences", arguments: outlookCases)
    func outlookToGoogle(_ c: Case) async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let outlookCalendar = try await sandbox.calendarID(sandbox.graph)
        let googleCalendar = try await sandbox.calendarID(sandbox.google)
        let created = try await sandbox.graph.createEvent(Self.series("Outlook series", c), in: outlookCalendar)
        let read = try await sandbox.graph.getEvent(id: created.id, calendarID: outlookCalendar)
        let rule = try #require(read.recurrence)
        #expect(rule.lines == [c.readBack ?? c.rule], "Outlook's pattern reads back as the rule that means it")
        var copy = Self.series("Google copy", c)
        copy.recurrence = rule
        let onGoogle = try await sandbox.google.createEvent(copy, in: googleCalendar)

        let outlook = try await Self.starts(sandbox.graph, calendar: outlookCalendar) { $0.seriesID == created.id }
        let google = try await Self.starts(sandbox.google, calendar: googleCalendar) { $0.seriesID == onGoogle.id }
        #expect(outlook.count > 2)
        #expect(outlook == google)
    }

    @Test("a Google rule Outlook reads differently is copied as its occurrences; one it reads alike as a series")
    func googleToOutlook() async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let outlookCalendar = try await sandbox.calendarID(sandbox.graph)
        let googleCalendar = try await sandbox.calendarID(sandbox.google)
        // RFC 5545: only months with a 31st (Outlook would add 28 February, 30 April, ...).
        let skipping = try await sandbox.google.createEvent(
            Self.series("On the 31st", Case(rule: "RRULE:FREQ=MONTHLY;COUNT=6;BYMONTHDAY=31", first: "2026-01-31")), in: googleCalendar)
        // The month's last day: Outlook's own "day 31".
        let lastDay = try await sandbox.google.createEvent(
            Self.series("Month end", Case(rule: "RRULE:FREQ=MONTHLY;COUNT=6;BYMONTHDAY=-1", first: "2026-01-31")), in: googleCalendar)

        let engine = CopyEngine(
            source: .init(provider: sandbox.google, calendarID: googleCalendar),
            target: .init(provider: sandbox.graph, calendarID: outlookCalendar),
            options: CopyOptions(window: Self.window, zone: Self.zone))
        let result = try await engine.run()
        #expect(result.failed == 0)
        #expect(result.fallbacks.map(\.sourceEventID) == [skipping.id])
        #expect(result.fallbacks.first?.reason.contains("skips months") == true)

        for (source, title) in [(skipping, "On the 31st"), (lastDay, "Month end")] {
            let google = try await Self.starts(sandbox.google, calendar: googleCalendar) { $0.seriesID == source.id }
            let outlook = try await Self.starts(sandbox.graph, calendar: outlookCalendar) { $0.title == title }
            #expect(google.count == 6)
            #expect(outlook == google, "\(title): Outlook \(outlook) Google \(google)")
        }
        let stored = try await sandbox.graph.listEvents(calendarID: outlookCalendar, range: Self.window, expand: false)
        #expect(stored.filter { $0.title == "Month end" }.compactMap(\.recurrence).map(\.lines) == [["RRULE:FREQ=MONTHLY;COUNT=6;BYMONTHDAY=-1"]])
        #expect(stored.filter { $0.title == "On the 31st" }.allSatisfy { $0.recurrence == nil })

        let again = try await engine.run()
        #expect(again.created == 0 && again.updated == 0 && again.failed == 0)
    }
}
