import CalendarBridge
import Foundation
import JSON
import Testing

@testable import MicrosoftGraph

@Suite("Graph provider: patternedRecurrence <-> RRULE")
struct GraphRecurrenceTests {
    static let la = TimeZone(identifier: "America/Los_Angeles")!

    struct Case: Sendable, CustomTestStringConvertible {
        var rule: String
        var pattern: String
        /// The series' first day (an occurrence of the rule); Monday 9 March 2026 when not given.
        var start = "2026-03-09"
        var testDescription: String { rule }
    }

    /// 09:00 on a day, in Los Angeles.
    static func nine(_ day: String) -> LocalDateTime { LocalDateTime(date: LocalDate(day)!, hour: 9) }

    static func json(_ rule: String, start: String = "2026-03-09") throws(CalendarError) -> [String: Any] {
        try GraphRecurrenceMapping.json(
            Recurrence(lines: [rule]), start: nine(start), allDay: false, zone: la, windowsZone: "Pacific Standard Time")
    }

    /// Each shape Graph can store, written and read back: the rule must survive unchanged.
    static let cases: [Case] = [
        Case(rule: "RRULE:FREQ=DAILY;INTERVAL=2;COUNT=10", pattern: #"{"type":"daily","interval":2}"#),
        Case(rule: "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR", pattern: #"{"type":"weekly","interval":1,"daysOfWeek":["monday","wednesday","friday"],"firstDayOfWeek":"monday"}"#),
        Case(rule: "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;WKST=SU", pattern: #"{"type":"weekly","interval":2,"daysOfWeek":["tuesday"],"firstDayOfWeek":"sunday"}"#, start: "2026-03-10"),
        Case(rule: "RRULE:FREQ=MONTHLY;BYMONTHDAY=15", pattern: #"{"type":"absoluteMonthly","interval":1,"dayOfMonth":15}"#, start: "2026-03-15"),
        // Exchange's "day 31/30" and "February 29": the month's last day where it is shorter, said exactly.
        Case(rule: "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1", pattern: #"{"type":"absoluteMonthly","interval":1,"dayOfMonth":31}"#, start: "2026-03-31"),
        Case(rule: "RRULE:FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1", pattern: #"{"type":"absoluteMonthly","interval":1,"dayOfMonth":30}"#, start: "2026-03-30"),
        Case(rule: "RRULE:FREQ=YEARLY;BYMONTHDAY=-1;BYMONTH=2", pattern: #"{"type":"absoluteYearly","interval":1,"month":2,"dayOfMonth":29}"#, start: "2028-02-29"),
        Case(rule: "RRULE:FREQ=MONTHLY;INTERVAL=3;BYDAY=2TU", pattern: #"{"type":"relativeMonthly","interval":3,"index":"second","daysOfWeek":["tuesday"]}"#, start: "2026-03-10"),
        Case(rule: "RRULE:FREQ=MONTHLY;BYDAY=-1FR", pattern: #"{"type":"relativeMonthly","interval":1,"index":"last","daysOfWeek":["friday"]}"#, start: "2026-03-27"),
        Case(rule: "RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1", pattern: #"{"type":"relativeMonthly","interval":1,"index":"first","daysOfWeek":["monday","tuesday","wednesday","thursday","friday"]}"#, start: "2026-03-02"),
        Case(rule: "RRULE:FREQ=YEARLY;BYMONTHDAY=9;BYMONTH=3", pattern: #"{"type":"absoluteYearly","interval":1,"month":3,"dayOfMonth":9}"#),
        Case(rule: "RRULE:FREQ=YEARLY;BYDAY=4TH;BYMONTH=11", pattern: #"{"type":"relativeYearly","interval":1,"month":11,"index":"fourth","daysOfWeek":["thursday"]}"#, start: "2026-11-26"),
        Case(rule: "RRULE:FREQ=WEEKLY;UNTIL=20260701T065959Z;BYDAY=MO", pattern: #"{"type":"weekly","interval":1,"daysOfWeek":["monday"],"firstDayOfWeek":"monday"}"#),
    ]

    @Test("each pattern is written as Graph expects and reads back as the same rule", arguments: cases)
    func roundTrip(_ c: Case) throws {
        let json = try Self.json(c.rule, start: c.start)
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
            try Self.json(rule)["range"] as! [String: Any]
        }
        let counted = try range("RRULE:FREQ=DAILY;COUNT=5")
        #expect(counted["type"] as? String == "numbered" && counted["numberOfOccurrences"] as? Int == 5)
        // 1 July 06:59:59 UTC is 30 June 23:59:59 in Los Angeles.
        let until = try range("RRULE:FREQ=DAILY;UNTIL=20260701T065959Z")
        #expect(until["type"] as? String == "endDate" && until["endDate"] as? String == "2026-06-30")
        // 30 June 15:00 UTC is 08:00 in Los Angeles, before that day's 09:00 occurrence: RFC 5545 ends on the 29th,
        // and so must Exchange's end date (it keeps every occurrence of its last day).
        let early = try range("RRULE:FREQ=DAILY;UNTIL=20260630T150000Z")
        #expect(early["endDate"] as? String == "2026-06-29")
        let open = try range("RRULE:FREQ=DAILY")
        #expect(open["type"] as? String == "noEnd")
        #expect(open["startDate"] as? String == "2026-03-09" && open["recurrenceTimeZone"] as? String == "Pacific Standard Time")

        let allDay = try JSONReader.read(GraphPatternedRecurrence.self, from: Data(#"""
            {"pattern": {"type": "daily", "interval": 1}, "range": {"type": "endDate", "startDate": "2026-03-09", "endDate": "2026-03-20"}}
            """#.utf8))
        #expect(try GraphRecurrenceMapping.rule(allDay, allDay: true, zone: Self.la).line == "RRULE:FREQ=DAILY;UNTIL=20260320")
    }

    @Test("rules Graph cannot express are refused with the reason", arguments: [
        "RRULE:FREQ=HOURLY", "RRULE:FREQ=MONTHLY;BYMONTHDAY=1,15", "RRULE:FREQ=MONTHLY;BYMONTHDAY=-2",
        "RRULE:FREQ=WEEKLY;BYDAY=MO;BYHOUR=9", "RRULE:FREQ=MONTHLY;BYDAY=5MO", "RRULE:FREQ=YEARLY;BYMONTH=1,7",
        // Said by both, meant differently: RFC 5545 skips months without a 31st, Exchange uses their last day.
        "RRULE:FREQ=MONTHLY;BYMONTHDAY=31", "RRULE:FREQ=YEARLY;BYMONTHDAY=15",
    ])
    func unsupported(_ rule: String) {
        let error = #expect(throws: CalendarError.self) {
            try Self.json(rule)
        }
        #expect(error?.code == .unsupported)
    }

    @Test("a weekly rule without BYDAY repeats on the start's weekday")
    func impliedWeekday() throws {
        let json = try Self.json("RRULE:FREQ=WEEKLY", start: "2026-03-12")
        #expect((json["pattern"] as? [String: Any])?["daysOfWeek"] as? [String] == ["thursday"])
    }
}
