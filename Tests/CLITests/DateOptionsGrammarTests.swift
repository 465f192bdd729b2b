import CalendarBridge
import Foundation
import Testing

@testable import CLI

/// One date grammar for `--from/--to/--start/--end/--on` (DateOptions, read by quick-add's parser), at a
/// fixed moment: Friday 2026-12-04 17:30 in Berlin.
@Suite("Date options: one grammar, and --to a date includes that day")
struct DateOptionsGrammarTests {
    static let zone = TimeZone(identifier: "Europe/Berlin")!
    static let now = RFC3339.parse("2026-12-04T17:30:00+01:00")!

    static func text(_ instant: Date) -> String { RFC3339.format(instant, in: zone) }

    struct Case: Sendable, CustomTestStringConvertible {
        var option: String
        var text: String
        var expected: String
        var testDescription: String { "--\(option) \(text)" }
    }

    static let instants: [Case] = [
        Case(option: "from", text: "2026-12-10", expected: "2026-12-10T00:00:00+01:00"),
        Case(option: "to", text: "2026-12-10", expected: "2026-12-11T00:00:00+01:00"),
        Case(option: "to", text: "2026-12-10T09:00", expected: "2026-12-10T09:00:00+01:00"),
        Case(option: "from", text: "2026-12-10 09:00", expected: "2026-12-10T09:00:00+01:00"),
        Case(option: "to", text: "2026-12-10T09:00:00Z", expected: "2026-12-10T10:00:00+01:00"),
        Case(option: "from", text: "today", expected: "2026-12-04T00:00:00+01:00"),
        Case(option: "to", text: "today", expected: "2026-12-05T00:00:00+01:00"),
        Case(option: "from", text: "tomorrow", expected: "2026-12-05T00:00:00+01:00"),
        Case(option: "from", text: "Monday", expected: "2026-12-07T00:00:00+01:00"),
        Case(option: "from", text: "friday", expected: "2026-12-04T00:00:00+01:00"),
        Case(option: "from", text: "next monday", expected: "2026-12-07T00:00:00+01:00"),
        Case(option: "from", text: "+3d", expected: "2026-12-07T00:00:00+01:00"),
        Case(option: "to", text: "+2w", expected: "2026-12-19T00:00:00+01:00"),
        Case(option: "to", text: "+1m", expected: "2027-01-05T00:00:00+01:00"),
        Case(option: "from", text: "in 2 weeks", expected: "2026-12-18T00:00:00+01:00"),
        Case(option: "from", text: "Dec 24", expected: "2026-12-24T00:00:00+01:00"),
        Case(option: "from", text: "tomorrow 9am", expected: "2026-12-05T09:00:00+01:00"),
        Case(option: "to", text: "tomorrow 9am", expected: "2026-12-05T09:00:00+01:00"),
        Case(option: "from", text: "morgen", expected: "2026-12-05T00:00:00+01:00"),
        Case(option: "from", text: "nächsten Montag", expected: "2026-12-07T00:00:00+01:00"),
        Case(option: "to", text: "in 3 Tagen", expected: "2026-12-08T00:00:00+01:00"),
        Case(option: "from", text: "übermorgen 15 Uhr", expected: "2026-12-06T15:00:00+01:00"),
    ]

    @Test("--from and --to read the grammar in the zone passed in; a date as --to includes that day", arguments: instants)
    func instant(_ c: Case) throws {
        let instant = try DateOptions.instant(c.text, option: c.option, zone: Self.zone, command: "events", now: Self.now)
        #expect(Self.text(instant) == c.expected)
    }

    @Test("copy's inclusive --to (endOfDay) keeps its meaning, and is the meaning of every --to")
    func copyTo() throws {
        let copy = try DateOptions.instant("2026-12-10", option: "to", zone: Self.zone, command: "copy", endOfDay: true, now: Self.now)
        let events = try DateOptions.instant("2026-12-10", option: "to", zone: Self.zone, command: "events", now: Self.now)
        #expect(copy == events)
        #expect(Self.text(copy) == "2026-12-11T00:00:00+01:00")
    }

    @Test("edit's --start and show/edit/delete's --on count relative dates from the command's now (not the clock), in their zone")
    func commandsUseTheirNow() throws {
        // The test's now is a day before the machine's clock, so a reading at the clock's now would differ.
        let on = try EventSelection.window("tomorrow", zone: Self.zone, now: Self.now, command: "show")
        #expect(Self.text(on.start) == "2026-12-05T00:00:00+01:00" && Self.text(on.end) == "2026-12-06T00:00:00+01:00")
        let event = Event(
            title: "Probe", start: .timed(instant: Self.now, zone: "Europe/Berlin"),
            end: .timed(instant: Self.now.addingTimeInterval(1800), zone: "Europe/Berlin"))
        let berlin = (id: "Europe/Berlin", zone: Self.zone)
        func noRule(_: String, _: EventTime) throws -> Recurrence { throw UsageError("no rule here", command: "edit") }
        var timed = EventEdit()
        timed.start = "tomorrow 9am"
        let moved = try timed.plan(on: event, anchor: event, fallbackZone: berlin, now: Self.now, command: "edit", recurrence: noRule)
        #expect(moved.event.start == .timed(instant: RFC3339.parse("2026-12-05T09:00:00+01:00")!, zone: "Europe/Berlin"))
        #expect(moved.event.end == .timed(instant: RFC3339.parse("2026-12-05T09:30:00+01:00")!, zone: "Europe/Berlin"))
        var allDay = EventEdit()
        allDay.start = "tomorrow"
        allDay.kind = .allDay
        let day = try allDay.plan(on: event, anchor: event, fallbackZone: berlin, now: Self.now, command: "edit", recurrence: noRule)
        #expect(day.event.start == .allDay(date: LocalDate("2026-12-05")!))
    }

    @Test("--start/--end of a timed event, --start of an all-day one and --on take the same words")
    func startEndOn() throws {
        let start = try DateOptions.dateTime("tomorrow 9am", option: "start", zone: Self.zone, command: "add", now: Self.now)
        #expect(Self.text(start) == "2026-12-05T09:00:00+01:00")
        // Friday 14:30 has passed on this Friday: the next one.
        let friday = try DateOptions.dateTime("friday 14:30", option: "start", zone: Self.zone, command: "add", now: Self.now)
        #expect(Self.text(friday) == "2026-12-11T14:30:00+01:00")
        #expect(
            try DateOptions.date("next friday", option: "start", command: "add", zone: Self.zone, now: Self.now).description == "2026-12-11"
        )
        let iso = try DateOptions.date("2026-12-24", option: "start", command: "add", zone: Self.zone, now: Self.now)
        #expect(iso.description == "2026-12-24")
        let day = try DateOptions.day("tomorrow", option: "on", zone: Self.zone, command: "agenda", now: Self.now)
        #expect(Self.text(day.start) == "2026-12-05T00:00:00+01:00")
        #expect(Self.text(day.end) == "2026-12-06T00:00:00+01:00")
    }

    @Test(
        "what is no single date or time is a usage error naming the option and the grammar",
        arguments: ["garbage", "every monday", "tomorrow at the office", "Dec 14-16", "", "2026-13-01", "tomorrow 25:00"])
    func refused(_ text: String) {
        #expect(throws: UsageError.self) {
            try DateOptions.instant(text, option: "from", zone: Self.zone, command: "events", now: Self.now)
        }
        do {
            _ = try DateOptions.instant(text, option: "from", zone: Self.zone, command: "events", now: Self.now)
        } catch {
            #expect("\(error)".contains("--from"), "\(error)")
        }
    }

    @Test("a date-only word is no start of a timed event, and a time is no all-day date")
    func kinds() {
        #expect(throws: UsageError.self) {
            try DateOptions.dateTime("tomorrow", option: "start", zone: Self.zone, command: "add", now: Self.now)
        }
        #expect(throws: UsageError.self) {
            try DateOptions.date("tomorrow 9am", option: "start", command: "add", zone: Self.zone, now: Self.now)
        }
    }
}
