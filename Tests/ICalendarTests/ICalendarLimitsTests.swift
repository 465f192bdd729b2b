import CalendarBridge
import Foundation
import ICalendar
import TestSupport
import Testing

/// Hostile and extreme files on the reading path: each is refused with one line naming where, in bounded
/// time, never a crash or a hang; and the file's own time zones, solved to IANA zones or read by their rules.
@Suite("iCalendar: limits of the reading path, and the file's own time zones")
struct ICalendarLimitsTests {
    static let utc = TimeZone(secondsFromGMT: 0)!

    static func calendar(_ body: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body.replacingOccurrences(of: "\n", with: "\r\n") + "END:VCALENDAR\r\n"
    }

    static func event(_ rule: String, start: String = "20260105T090000Z") -> String {
        calendar("BEGIN:VEVENT\nUID:s\nDTSTART:\(start)\nDURATION:PT1H\nSUMMARY:S\n\(rule)\nEND:VEVENT\n")
    }

    /// The most any refusal below may take: a guard against the unbounded loops libical runs into on such
    /// input (minutes to forever), not a speed goal (speed lives in `calbridge-bench`); a loaded 2-core CI
    /// machine took 11.4 s for a refusal that takes under 1 s idle.
    static let hangGuard = 60.0

    /// The error `body` is refused with, and how long the refusal took.
    static func refusal(_ text: String) -> (message: String?, seconds: Double) {
        let clock = ContinuousClock()
        let start = clock.now
        var message: String?
        do { _ = try ICalendarReader.read(text, floatingZone: utc) } catch { message = error.message }
        let elapsed = clock.now - start
        return (message, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    @Test("components nested a hundred thousand deep are refused before libical reads them (it frees recursively)", .ownThread)
    func deepNesting() {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260101T000000Z\r\n"
        text += String(repeating: "BEGIN:VALARM\r\n", count: 100_000) + String(repeating: "END:VALARM\r\n", count: 100_000)
        text += "END:VEVENT\r\nEND:VCALENDAR\r\n"
        let (message, seconds) = Self.refusal(text)
        #expect(message?.contains("nests components 100002 deep (line 100005)") == true, "\(message ?? "read")")
        #expect(seconds < Self.hangGuard)
        // A BEGIN folded over two lines still counts, as libical unfolds it.
        let folded = "BEGIN:VCALENDAR\r\n" + String(repeating: "BEG\r\n IN:VALARM\r\n", count: 20) + "END:VCALENDAR\r\n"
        #expect(Self.refusal(folded).message?.contains("nests components 21 deep") == true)
    }

    @Test(
        "rules no date satisfies, or whose dates are too far apart for their step, are refused at once with the line",
        .ownThread,
        arguments: [
            ("RRULE:FREQ=DAILY;BYMONTH=4;BYMONTHDAY=31", "gives no date at all"),
            ("RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "gives no date at all"),
            ("RRULE:FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30", "gives no date at all"),
            ("RRULE:FREQ=MONTHLY;BYMONTHDAY=-31;BYMONTH=6", "gives no date at all"),
            ("RRULE:FREQ=DAILY;BYYEARDAY=366;BYMONTH=1", "gives no date at all"),
            ("RRULE:FREQ=DAILY;BYMONTH=13", "gives no date at all"),
            ("RRULE:FREQ=YEARLY;BYMONTH=4,6,9,11;BYMONTHDAY=31", "gives no date at all"),
            ("RRULE:FREQ=YEARLY;BYYEARDAY=367", "gives no date at all"),
            ("RRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29", "days apart"),
            ("RRULE:FREQ=SECONDLY;BYMONTH=6", "days apart"),
        ])
    func impossibleRules(_ rule: String, _ expected: String) {
        let (message, seconds) = Self.refusal(Self.event(rule))
        #expect(message?.contains(expected) == true, "\(rule): \(message ?? "read")")
        #expect(message?.contains("(line 9)") == true, "\(rule): \(message ?? "read")")
        #expect(seconds < Self.hangGuard, "\(rule): \(seconds) s")
    }

    @Test("rules with rare but real dates are read: 29 February, the fifth Monday, every minute of one hour")
    func rareRules() throws {
        for rule in [
            "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "RRULE:FREQ=MONTHLY;BYDAY=5MO", "RRULE:FREQ=MINUTELY;BYHOUR=9;COUNT=120",
            "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO",
        ] {
            let file = try ICalendarReader.read(Self.event(rule), floatingZone: Self.utc)
            let starts = try RecurrenceExpansion.starts(
                of: try #require(file.events.first?.recurrence), from: file.events[0].start,
                through: LocalDate(year: 2060, month: 1, day: 1)!)
            #expect(!starts.isEmpty, "\(rule)")
        }
    }

    @Test("a million-occurrence rule: the file provider refuses the series in bounded time, naming its line", .ownThread)
    func millionOccurrences() async throws {
        let file = try ICalendarReader.read(Self.event("RRULE:FREQ=MINUTELY;COUNT=1000000"), floatingZone: Self.utc)
        let provider = ICalendarFileProvider(file: file, account: "t")
        let range = TimeRange(start: Self.date(2026, 1, 1), end: Self.date(2027, 1, 1))
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let events = try await provider.listEvents(calendarID: ICalendarFileProvider.calendarID, range: range, expand: true)
            Issue.record("listed \(events.count) occurrences")
        } catch let error as ICalendarError {
            #expect(error.message.contains("line 4") && error.message.contains("more than 10000 occurrences"), "\(error.message)")
        }
        #expect(clock.now - started < .seconds(Self.hangGuard))
        // Occurrences before the window do not count: a daily series since 1990 lists its occurrences of 2026.
        let old = try ICalendarReader.read(Self.event("RRULE:FREQ=DAILY", start: "19900101T090000Z"), floatingZone: Self.utc)
        let listed = try await ICalendarFileProvider(file: old, account: "t").listEvents(
            calendarID: ICalendarFileProvider.calendarID, range: range, expand: true)
        #expect(listed.count == 365)
    }

    static func date(_ y: Int, _ m: Int, _ d: Int) -> Date { LocalDate(year: y, month: m, day: d)!.startInstant(in: utc) }

    // MARK: the file's own zones

    /// Outlook's older exports name zones by their display name, with the rules in a VTIMEZONE.
    static let outlookBerlin = """
        BEGIN:VTIMEZONE
        TZID:(UTC+01:00) Amsterdam\\, Berlin\\, Bern\\, Rom\\, Stockholm\\, Wien
        BEGIN:STANDARD
        DTSTART:16011028T030000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART:16010325T020000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        END:DAYLIGHT
        END:VTIMEZONE

        """

    @Test("a VTIMEZONE with a made-up name is solved to the IANA zone with the same offsets; its series repeats on that clock")
    func customZoneSolved() throws {
        // The VTIMEZONE's TZID is TEXT (commas escaped); the parameter is quoted instead (RFC 5545 §3.2).
        let tzid = "(UTC+01:00) Amsterdam, Berlin, Bern, Rom, Stockholm, Wien"
        let text = Self.calendar(
            Self.outlookBerlin + """
                BEGIN:VEVENT
                UID:w
                DTSTART;TZID="\(tzid)":20260302T090000
                DTEND;TZID="\(tzid)":20260302T100000
                RRULE:FREQ=WEEKLY;COUNT=6
                SUMMARY:Weekly
                END:VEVENT

                """)
        let file = try ICalendarReader.read(text, floatingZone: Self.utc)
        let event = try #require(file.events.first)
        // Europe/Amsterdam, Berlin and the rest share these rules; the solver takes the first Windows default.
        let zone = try #require(event.start.zone)
        #expect(TimeZone(identifier: zone)?.secondsFromGMT(for: Self.date(2026, 7, 1)) == 7200, "\(zone)")
        #expect(
            event.start
                == .timed(instant: LocalDateTime("2026-03-02T09:00:00")!.instant(in: TimeZone(identifier: "Europe/Berlin")!), zone: zone))
        let starts = try RecurrenceExpansion.starts(
            of: try #require(event.recurrence), from: event.start, through: LocalDate(year: 2026, month: 12, day: 31)!)
        // Across the change to summer time on 29 March: still 09:00 on the wall clock.
        #expect(
            starts.compactMap(\.localText)
                == ["2026-03-02", "2026-03-09", "2026-03-16", "2026-03-23", "2026-03-30", "2026-04-06"].map { $0 + "T09:00:00" })
    }

    @Test("a VTIMEZONE no IANA zone matches: a single time is read by its own rules; a series in it is refused with the line")
    func customZoneUnsolved() throws {
        // Daylight time from the first Sunday of February to the first Sunday of September, +03:30/+04:30: no such zone.
        let zone = """
            BEGIN:VTIMEZONE
            TZID:Nowhere
            BEGIN:STANDARD
            DTSTART:20000903T030000
            RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=9
            TZOFFSETFROM:+0430
            TZOFFSETTO:+0330
            END:STANDARD
            BEGIN:DAYLIGHT
            DTSTART:20000206T020000
            RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=2
            TZOFFSETFROM:+0330
            TZOFFSETTO:+0430
            END:DAYLIGHT
            END:VTIMEZONE

            """
        let single = Self.calendar(zone + "BEGIN:VEVENT\nUID:one\nDTSTART;TZID=Nowhere:20260601T090000\nDURATION:PT1H\nEND:VEVENT\n")
        let event = try #require(try ICalendarReader.read(single, floatingZone: Self.utc).events.first)
        #expect(event.start.instant(allDayZone: Self.utc) == LocalDateTime("2026-06-01T04:30:00")!.instant(in: Self.utc))
        let series = Self.calendar(zone + "BEGIN:VEVENT\nUID:s\nDTSTART;TZID=Nowhere:20260601T090000\nRRULE:FREQ=DAILY\nEND:VEVENT\n")
        let message = Self.refusal(series).message ?? "read"
        #expect(message.contains("own time zone 'Nowhere'") && message.contains("(line 21)"), "\(message)")
    }
}
