import CalendarBridge
import Foundation
import Testing

@Suite("LocalDate, LocalDateTime and EventTime")
struct TimeTypesTests {
    let la = TimeZone(identifier: "America/Los_Angeles")!
    let sydney = TimeZone(identifier: "Australia/Sydney")!

    func utc(_ text: String) -> Date {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: text)!
    }

    @Test("dates parse strictly, validate the calendar, and do day arithmetic across months and leap years")
    func localDate() {
        #expect(LocalDate("2024-02-29") != nil)
        #expect(LocalDate("2026-02-29") == nil)
        #expect(LocalDate("2026-2-01") == nil)
        #expect(LocalDate("2026-02-01T00:00") == nil)
        #expect(LocalDate("2026-12-31")!.adding(days: 1) == LocalDate("2027-01-01"))
        #expect(LocalDate("2024-03-01")!.adding(days: -1) == LocalDate("2024-02-29"))
        #expect(LocalDate("2026-03-08")!.days(to: LocalDate("2026-03-10")!) == 2)
        #expect(LocalDate("2026-03-08")! < LocalDate("2026-03-10")!)
    }

    @Test("Graph's 7-digit local times parse in the given zone on both sides of a DST change")
    func graphLocalTimes() {
        let before = LocalDateTime("2026-03-07T09:00:00.0000000")!
        let after = LocalDateTime("2026-03-09T09:00:00.0000000")!
        #expect(before.instant(in: la) == utc("2026-03-07T17:00:00Z"))
        #expect(after.instant(in: la) == utc("2026-03-09T16:00:00Z"))
        // Southern hemisphere: Sydney leaves DST on 5 April 2026.
        #expect(LocalDateTime("2026-04-04T09:00:00")!.instant(in: sydney) == utc("2026-04-03T22:00:00Z"))
        #expect(LocalDateTime("2026-04-06T09:00:00")!.instant(in: sydney) == utc("2026-04-05T23:00:00Z"))
        #expect(LocalDateTime("2026-03-07T09:00:00.1234567")!.nanosecond == 123_456_700)
        // UTC's names take the path without offset lookups: the same instants as a zone whose offset has
        // been zero since 1912 (Abidjan), computed through the offset lookups.
        for name in ["Etc/UTC", "UTC", "GMT", "Etc/GMT"] {
            let zone = TimeZone(identifier: name)!
            for text in ["2026-03-07T09:00:00.1234567", "1969-12-31T23:59:59", "2100-02-28T00:00:00"] {
                let local = LocalDateTime(text)!
                #expect(local.instant(in: zone) == local.instant(in: TimeZone(identifier: "Africa/Abidjan")!), "\(name) \(text)")
            }
        }
        #expect(LocalDateTime("2026-03-07T09:00:00Z") == nil, "an offset means it is not a local time")
        #expect(LocalDateTime("2026-03-07T24:00:00") == nil)
    }

    @Test("a time in the spring-forward gap lands after it; one in the fall-back overlap takes the earlier instant")
    func gapAndOverlap() {
        // 02:30 on 8 March 2026 does not exist in Los Angeles: read with PST it is 03:30 PDT.
        #expect(LocalDateTime("2026-03-08T02:30:00")!.instant(in: la) == utc("2026-03-08T10:30:00Z"))
        // 01:30 on 1 November 2026 happens twice: the first (PDT) is used.
        #expect(LocalDateTime("2026-11-01T01:30:00")!.instant(in: la) == utc("2026-11-01T08:30:00Z"))
    }

    @Test("wall-clock text round trips through an instant, and formats with exactly the digits asked for")
    func roundTrip() {
        let local = LocalDateTime(instant: utc("2026-07-01T16:45:00Z"), in: la)
        #expect(local.description == "2026-07-01T09:45:00")
        #expect(local.format(fractionDigits: 7) == "2026-07-01T09:45:00.0000000")
        #expect(EventTime.timed(instant: utc("2026-07-01T16:45:00Z"), zone: "America/Los_Angeles").localText == "2026-07-01T09:45:00")
        #expect(EventTime.allDay(date: LocalDate("2026-07-01")!).localText == "2026-07-01")
    }

    @Test("EventTime and Event encode to JSON and back unchanged")
    func codable() throws {
        let event = Event(
            id: "e", calendarID: "c", title: "T", body: .html("<b>x</b>"),
            start: .timed(instant: utc("2026-03-09T16:00:00Z"), zone: "Europe/Berlin"),
            end: .allDay(date: LocalDate("2026-03-10")!),
            recurrence: Recurrence(lines: ["RRULE:FREQ=DAILY;COUNT=3"]),
            origin: OriginMarker(provider: .google, account: "a", calendarID: "c", eventID: "e", contentHash: "h"))
        let data = try JSONEncoder().encode(event)
        #expect(try JSONDecoder().decode(Event.self, from: data) == event)
    }

    @Test("TimeRange is half-open")
    func timeRange() {
        let r = TimeRange(start: utc("2026-03-02T00:00:00Z"), end: utc("2026-03-09T00:00:00Z"))
        #expect(r.contains(utc("2026-03-02T00:00:00Z")))
        #expect(!r.contains(utc("2026-03-09T00:00:00Z")))
        #expect(!r.overlaps(start: utc("2026-03-09T00:00:00Z"), end: utc("2026-03-09T01:00:00Z")))
        #expect(r.overlaps(start: utc("2026-03-01T23:00:00Z"), end: utc("2026-03-02T00:30:00Z")))
        #expect(TimeRange(validating: utc("2026-03-09T00:00:00Z"), end: utc("2026-03-02T00:00:00Z")) == nil)
    }
}
