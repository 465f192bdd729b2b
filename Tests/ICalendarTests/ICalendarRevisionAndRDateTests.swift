import CalendarBridge
import Foundation
import ICalendar
import Testing

/// `SEQUENCE` read and written; `RDATE` without `RRULE` and `RDATE` periods expanded through libical.
@Suite("iCalendar: SEQUENCE, RDATE series and RDATE periods")
struct ICalendarRevisionAndRDateTests {
    typealias M = ICalendarMappingTests
    static let utc = TimeZone(secondsFromGMT: 0)!

    static func occurrences(_ body: String) async throws -> [Event] {
        let file = try ICalendarReader.read(M.calendar(body), floatingZone: utc)
        let provider = ICalendarFileProvider(file: file, account: "test")
        let range = TimeRange(start: M.instant("2026-01-01T00:00:00", utc), end: M.instant("2027-06-01T00:00:00", utc))
        return try await provider.listEvents(calendarID: ICalendarFileProvider.calendarID, range: range, expand: true)
            .sorted { $0.start.instant(allDayZone: utc) < $1.start.instant(allDayZone: utc) }
    }

    @Test("SEQUENCE is read (0 when absent, as RFC 5545 says) and written back")
    func sequence() throws {
        let events = try M.read(
            """
            BEGIN:VEVENT
            UID:a
            DTSTART:20260105T090000Z
            SEQUENCE:7
            SUMMARY:Revised
            END:VEVENT
            BEGIN:VEVENT
            UID:b
            DTSTART:20260106T090000Z
            SUMMARY:Never revised
            END:VEVENT

            """)
        #expect(events.map(\.sequence) == [7, 0])
        let written = try ICalendarWriter.write(events, name: "t", stamp: Date(timeIntervalSince1970: 0))
        #expect(written.contains("SEQUENCE:7\r\n"))
        #expect(try ICalendarReader.read(written, floatingZone: Self.utc).events.map(\.sequence) == [7, 0])
    }

    @Test("RDATEs without an RRULE: DTSTART and each date, on the zone's wall clock across daylight saving, EXDATE removing one")
    func rdateOnly() async throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let found = try await Self.occurrences(
            """
            BEGIN:VEVENT
            UID:clinic
            DTSTART;TZID=Europe/Berlin:20260301T090000
            DTEND;TZID=Europe/Berlin:20260301T100000
            RDATE;TZID=Europe/Berlin:20260315T090000,20260405T090000
            RDATE:20261101T080000Z
            EXDATE;TZID=Europe/Berlin:20260315T090000
            SUMMARY:Clinic
            END:VEVENT
            BEGIN:VEVENT
            UID:bins
            DTSTART;VALUE=DATE:20260105
            RDATE;VALUE=DATE:20260110,20260220
            SUMMARY:Bins
            END:VEVENT

            """)
        let clinic = found.filter { $0.title == "Clinic" }
        #expect(
            clinic.map(\.start) == [
                .timed(instant: M.instant("2026-03-01T09:00:00", berlin), zone: "Europe/Berlin"),
                .timed(instant: M.instant("2026-04-05T09:00:00", berlin), zone: "Europe/Berlin"),
                .timed(instant: M.instant("2026-11-01T08:00:00", Self.utc), zone: "Europe/Berlin"),
            ])
        #expect(
            clinic.allSatisfy { $0.end.instant(allDayZone: Self.utc).timeIntervalSince($0.start.instant(allDayZone: Self.utc)) == 3600 })
        #expect(clinic.allSatisfy { $0.seriesID == "clinic" })
        let bins = found.filter { $0.title == "Bins" }
        let binStarts: [EventTime] = ["2026-01-05", "2026-01-10", "2026-02-20"].map { .allDay(date: LocalDate($0)!) }
        let binEnds: [EventTime] = ["2026-01-06", "2026-01-11", "2026-02-21"].map { .allDay(date: LocalDate($0)!) }
        #expect(bins.map(\.start) == binStarts)
        #expect(bins.map(\.end) == binEnds)
    }

    @Test("RDATE periods (start/end with a TZID, start/duration in UTC) give their occurrences their own lengths, beside an RRULE too")
    func periods() async throws {
        let newYork = TimeZone(identifier: "America/New_York")!
        let found = try await Self.occurrences(
            """
            BEGIN:VEVENT
            UID:workshop
            DTSTART;TZID=America/New_York:20260310T100000
            DTEND;TZID=America/New_York:20260310T110000
            RDATE;VALUE=PERIOD;TZID=America/New_York:20260320T140000/20260320T170000,20261105T090000/PT30M
            RDATE;VALUE=PERIOD:20260701T150000Z/PT2H15M
            SUMMARY:Workshop
            END:VEVENT
            BEGIN:VEVENT
            UID:review
            DTSTART:20260316T170000Z
            DTEND:20260316T173000Z
            RRULE:FREQ=WEEKLY;COUNT=2
            RDATE;VALUE=PERIOD:20260601T120000Z/PT3H
            SUMMARY:Review
            END:VEVENT

            """)
        func lengths(_ title: String) -> [TimeInterval] {
            found.filter { $0.title == title }.map {
                $0.end.instant(allDayZone: Self.utc).timeIntervalSince($0.start.instant(allDayZone: Self.utc))
            }
        }
        let workshop = found.filter { $0.title == "Workshop" }
        #expect(
            workshop.map { $0.start.instant(allDayZone: Self.utc) } == [
                M.instant("2026-03-10T10:00:00", newYork), M.instant("2026-03-20T14:00:00", newYork),
                M.instant("2026-07-01T15:00:00", Self.utc), M.instant("2026-11-05T09:00:00", newYork),
            ])
        let workshopLengths: [TimeInterval] = [3600, 10_800, 8_100, 1800]
        let reviewLengths: [TimeInterval] = [1800, 1800, 10_800]
        #expect(lengths("Workshop") == workshopLengths)
        #expect(lengths("Review") == reviewLengths)
    }

    @Test("an RDATE period that ends before it starts is refused with its line")
    func backwardPeriod() throws {
        #expect {
            _ = try M.read(
                """
                BEGIN:VEVENT
                UID:bad
                DTSTART:20260310T100000Z
                RDATE;VALUE=PERIOD:20260320T140000Z/20260320T120000Z
                SUMMARY:Bad
                END:VEVENT

                """)
        } throws: { error in
            (error as? ICalendarError)?.message.contains("line 7") == true
                && (error as? ICalendarError)?.message.contains("ends before") == true
        }
    }
}
