import CalendarBridge
import Foundation
import Testing

@Suite("RecurrenceRule: RFC 5545 RRULE parsing and writing")
struct RecurrenceRuleTests {
    @Test("rules round trip through parse and write", arguments: [
        "RRULE:FREQ=DAILY",
        "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR;WKST=SU",
        "RRULE:FREQ=MONTHLY;COUNT=12;BYDAY=-1FR",
        "RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1",
        "RRULE:FREQ=YEARLY;UNTIL=20300101;BYMONTHDAY=8;BYMONTH=3",
        "RRULE:FREQ=WEEKLY;UNTIL=20260630T215959Z;BYDAY=TU",
        "RRULE:FREQ=HOURLY;BYHOUR=9,17",
    ])
    func roundTrip(_ line: String) throws {
        let rule = try #require(RecurrenceRule(line))
        #expect(rule.line == line)
    }

    @Test("parts are read into their fields; unknown parts are kept, not dropped")
    func fields() throws {
        let rule = try #require(RecurrenceRule("RRULE:FREQ=MONTHLY;INTERVAL=3;BYDAY=2TU,+1MO;BYHOUR=9"))
        #expect(rule.frequency == .monthly)
        #expect(rule.interval == 3)
        #expect(rule.byDay == [.init(.tuesday, ordinal: 2), .init(.monday, ordinal: 1)])
        #expect(rule.otherParts == [.init(name: "BYHOUR", value: "9")])
    }

    @Test("malformed rules are refused", arguments: ["RRULE:INTERVAL=2", "RRULE:FREQ=SOMETIMES", "RRULE:FREQ=DAILY;COUNT=0", "RRULE:FREQ=WEEKLY;BYDAY=XX", "RRULE:FREQ=DAILY;UNTIL=2026"])
    func malformed(_ line: String) {
        #expect(RecurrenceRule(line) == nil)
    }

    @Test("Recurrence separates rules from exception dates")
    func recurrence() {
        let r = Recurrence(lines: ["RRULE:FREQ=DAILY", "EXDATE;VALUE=DATE:20260312"])
        #expect(r.rules.map(\.frequency) == [.daily])
        #expect(r.otherLines == ["EXDATE;VALUE=DATE:20260312"])
    }
}
