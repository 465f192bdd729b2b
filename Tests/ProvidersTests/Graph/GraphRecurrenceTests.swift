import CalbridgeSupport
import CalendarBridge
import Foundation
@testable import MicrosoftGraph
import Testing

@Suite("Graph provider: patternedRecurrence <-> RRULE")
struct GraphRecurrenceTests {
    static let la = TimeZone(identifier: "America/Los_Angeles")!

    struct Case: Sendable, CustomTestStringConvertible {
        var rule: String
        var pattern: String
        var testDescription: String { rule }
    }

    /// Each shape Graph can store, written and read back: the rule must survive unchanged.
    static let cases: [Case] = [
        Case(rule: "RRULE:FREQ=DAILY;INTERVAL=2;COUNT=10", pattern: #"{"type":"daily","interval":2}"#),
        Case(rule: "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR", pattern: #"{"type":"weekly","interval":1,"daysOfWeek":["monday","wednesday","friday"],"firstDayOfWeek":"monday"}"#),
        Case(rule: "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;WKST=SU", pattern: #"{"type":"weekly","interval":2,"daysOfWeek":["tuesday"],"firstDayOfWeek":"sunday"}"#),
        Case(rule: "RRULE:FREQ=MONTHLY;BYMONTHDAY=15", pattern: #"{"type":"absoluteMonthly","interval":1,"dayOfMonth":15}"#),
        Case(rule: "RRULE:FREQ=MONTHLY;INTERVAL=3;BYDAY=2TU", pattern: #"{"type":"relativeMonthly","interval":3,"index":"second","daysOfWeek":["tuesday"]}"#),
        Case(rule: "RRULE:FREQ=MONTHLY;BYDAY=-1FR", pattern: #"{"type":"relativeMonthly","interval":1,"index":"last","daysOfWeek":["friday"]}"#),
        Case(rule: "RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1", pattern: #"{"type":"relativeMonthly","interval":1,"index":"first","daysOfWeek":["monday","tuesday","wednesday","thursday","friday"]}"#),
        Case(rule: "RRULE:FREQ=YEARLY;BYMONTHDAY=9;BYMONTH=3", pattern: #"{"type":"absoluteYearly","interval":1,"month":3,"dayOfMonth":9}"#),
        Case(rule: "RRULE:FREQ=YEARLY;BYDAY=4TH;BYMONTH=11", pattern: #"{"type":"relativeYearly","interval":1,"month":11,"index":"fourth","daysOfWeek":["thursday"]}"#),
        Case(rule: "RRULE:FREQ=WEEKLY;UNTIL=20260701T065959Z;BYDAY=MO", pattern: #"{"type":"weekly","interval":1,"daysOfWeek":["monday"],"firstDayOfWeek":"monday"}"#),
    ]

    @Test("each pattern is written as Graph expects and reads back as the same rule", arguments: cases)
    func roundTrip(_ c: Case) throws {
        let json = try GraphRecurrenceMapping.json(
            Recurrence(lines: [c.rule]), start: LocalDate("2026-03-09")!, zone: Self.la, windowsZone: "Pacific Standard Time")
        let expected = try JSONSerialization.jsonObject(with: Data(c.pattern.utf8)) as! NSDictionary
        #expect(json["pattern"] as? NSDictionary == expected)
        let data = try JSONSerialization.data(withJSONObject: json)
        let decoded = try JSONReader.read(GraphPatternedRecurrence.self, from: data)
        let back = try GraphRecurrenceMapping.rule(decoded, allDay: false, zone: Self.la)
        #expect(back.line == c.rule)
    }

    @Test("ranges: count, until (as the local end date), no end; all-day series use a date UNTIL")
    func ranges() throws {
        func range(_ rule: String) throws -> [String: Any] {
            try GraphRecurrenceMapping.json(
                Recurrence(lines: [rule]), start: LocalDate("2026-03-09")!, zone: Self.la, windowsZone: "Pacific Standard Time"
            )["range"] as! [String: Any]
        }
        let counted = try range("RRULE:FREQ=DAILY;COUNT=5")
        #expect(counted["type"] as? String == "numbered" && counted["numberOfOccurrences"] as? Int == 5)
        // 1 July 06:59:59 UTC is 30 June 23:59:59 in Los Angeles.
        let until = try range("RRULE:FREQ=DAILY;UNTIL=20260701T065959Z")
        #expect(until["type"] as? String == "endDate" && until["endDate"] as? String == "2026-06-30")
        let open = try range("RRULE:FREQ=DAILY")
        #expect(open["type"] as? String == "noEnd")
        #expect(open["startDate"] as? String == "2026-03-09" && open["recurrenceTimeZone"] as? String == "Pacific Standard Time")

        let allDay = try JSONReader.read(GraphPatternedRecurrence.self, from: Data(#"""
            {"pattern": {"type": "daily", "interval": 1}, "range": {"type": "endDate", "startDate": "2026-03-09", "endDate": "2026-03-20"}}
            """#.utf8))
        #expect(try GraphRecurrenceMapping.rule(allDay, allDay: true, zone: Self.la).line == "RRULE:FREQ=DAILY;UNTIL=20260320")
    }

    @Test("rules Graph cannot express are refused with the reason", arguments: [
        "RRULE:FREQ=HOURLY", "RRULE:FREQ=MONTHLY;BYMONTHDAY=1,15", "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1",
        "RRULE:FREQ=WEEKLY;BYDAY=MO;BYHOUR=9", "RRULE:FREQ=MONTHLY;BYDAY=5MO", "RRULE:FREQ=YEARLY;BYMONTH=1,7",
    ])
    func unsupported(_ rule: String) {
        let error = #expect(throws: CalendarError.self) {
            try GraphRecurrenceMapping.json(
                Recurrence(lines: [rule]), start: LocalDate("2026-03-09")!, zone: Self.la, windowsZone: "Pacific Standard Time")
        }
        #expect(error?.code == .unsupported)
    }

    @Test("a weekly rule without BYDAY repeats on the start's weekday")
    func impliedWeekday() throws {
        let json = try GraphRecurrenceMapping.json(
            Recurrence(lines: ["RRULE:FREQ=WEEKLY"]), start: LocalDate("2026-03-12")!, zone: Self.la, windowsZone: "Pacific Standard Time")
        #expect((json["pattern"] as? [String: Any])?["daysOfWeek"] as? [String] == ["thursday"])
    }
}
