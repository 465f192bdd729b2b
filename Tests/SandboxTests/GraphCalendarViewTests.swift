import Foundation
import HTTP
import Sandbox
import Testing

@Suite("Graph emulator: calendarView, recurrence and Prefer time zones")
struct GraphCalendarViewTests {
    /// The seeded week (Monday 2 March 2026, Pacific) as UTC instants, unencoded as the tutorials send them.
    let week = "startDateTime=2026-03-02T08:00:00Z&endDateTime=2026-03-09T07:00:00Z"

    @Test("startDateTime and endDateTime are both required; bad values are rejected")
    func requiredWindow() async throws {
        let emulator = try GraphTest.emulator()
        for target in ["/v1.0/me/calendarView", "/v1.0/me/calendarView?startDateTime=2026-03-02T08:00:00Z"] {
            let reply = try await GraphTest.send(emulator, "GET", target)
            #expect(reply.status == 400)
            #expect(reply.errorCode == "ErrorInvalidParameter")
            #expect(reply.errorMessage == "This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.")
        }
        let bad = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView?startDateTime=yesterday&endDateTime=2026-03-09T07:00:00Z")
        #expect(bad.status == 400)
        #expect(bad.errorCode == "ErrorInvalidParameter")
    }

    @Test("the seeded week: series occurrences, a moved exception, no cancelled occurrence, all-day and single events")
    func seededWeek() async throws {
        let emulator = try GraphTest.emulator()
        var pages = 0
        let events = try await GraphTest.all(emulator, "/v1.0/me/calendarview?\(week)&$orderby=start/dateTime&$top=25",
                                             headers: ["Prefer": "outlook.timezone=\"Pacific Standard Time\""], pages: &pages)
        #expect(pages == 1)
        let sync = events.filter { ($0["subject"] as? String) == "Team sync" }
        // Mon (moved to 11:00, an exception), Wed cancelled, Fri an ordinary occurrence.
        #expect(sync.map { $0.string("start.dateTime") } == ["2026-03-02T11:00:00.0000000", "2026-03-06T10:00:00.0000000"])
        #expect(sync.map { $0["type"] as? String } == ["exception", "occurrence"])
        let masterID = try #require(sync.first?["seriesMasterId"] as? String)
        #expect(sync.allSatisfy { $0["seriesMasterId"] as? String == masterID })
        #expect(Set(sync.compactMap { $0["id"] as? String }).count == 2)
        #expect(!sync.contains { $0["id"] as? String == masterID })
        #expect(events.contains { $0["subject"] as? String == "Monthly product review" && $0.string("start.dateTime") == "2026-03-05T14:00:00.0000000" })
        let offsite = try #require(events.first { $0["subject"] as? String == "Team offsite" })
        #expect(offsite["isAllDay"] as? Bool == true)
        #expect(offsite.string("start.dateTime") == "2026-03-05T00:00:00.0000000")
        #expect(offsite.string("end.dateTime") == "2026-03-07T00:00:00.0000000")
        #expect(offsite["type"] as? String == "singleInstance")
        let vendor = try #require(events.first { ($0["subject"] as? String)?.hasPrefix("Vendor call") == true })
        // 17:00 Berlin is 08:00 in Seattle; the stored zone stays visible as originalStartTimeZone.
        #expect(vendor.string("start.dateTime") == "2026-03-03T08:00:00.0000000")
        #expect(vendor.string("start.timeZone") == "Pacific Standard Time")
        #expect(vendor["originalStartTimeZone"] as? String == "W. Europe Standard Time")
        #expect(vendor.string("onlineMeeting.joinUrl")?.hasPrefix("https://teams.microsoft.com/") == true)
        let doctor = try #require(events.first { $0["subject"] as? String == "Doctor appointment" })
        #expect(doctor["sensitivity"] as? String == "private")
        #expect((5...12).contains(events.count))
        let starts = events.compactMap { $0.string("start.dateTime") }
        #expect(starts == starts.sorted())
        // Only the default calendar: the shared calendars' events are not in /me/calendarView.
        #expect(!events.contains { $0["subject"] as? String == "Falcon design review" })
    }

    @Test("without Prefer the times are UTC with seven fractional digits; Preference-Applied echoes the zone")
    func utcDefaultAndPreferenceApplied() async throws {
        let emulator = try GraphTest.emulator()
        let utc = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView?\(week)&$top=50")
        let doctor = try #require(utc.value.first { $0["subject"] as? String == "Doctor appointment" })
        #expect(doctor.string("start.dateTime") == "2026-03-04T16:00:00.0000000")
        #expect(doctor.string("start.timeZone") == "UTC")
        #expect(utc.headers["Preference-Applied"] == nil)

        let berlin = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView?\(week)&$top=50",
                                              headers: ["Prefer": "outlook.timezone=\"Europe/Berlin\""])
        #expect(berlin.headers["Preference-Applied"] == "outlook.timezone=\"Europe/Berlin\"")
        let inBerlin = try #require(berlin.value.first { $0["subject"] as? String == "Doctor appointment" })
        #expect(inBerlin.string("start.dateTime") == "2026-03-04T17:00:00.0000000")
        #expect(inBerlin.string("end.timeZone") == "Europe/Berlin")

        let windows = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView?\(week)&$top=50",
                                               headers: ["Prefer": "outlook.timezone=\"Tokyo Standard Time\""])
        let inTokyo = try #require(windows.value.first { $0["subject"] as? String == "Doctor appointment" })
        #expect(inTokyo.string("start.dateTime") == "2026-03-05T01:00:00.0000000")
        #expect(inTokyo.string("start.timeZone") == "Tokyo Standard Time")
    }

    @Test("an unknown Prefer time zone is TimeZoneNotSupportedException")
    func unknownZone() async throws {
        let emulator = try GraphTest.emulator()
        let reply = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView?\(week)",
                                             headers: ["Prefer": "outlook.timezone=\"Australia Eastern Standard Time\""])
        #expect(reply.status == 400)
        #expect(reply.errorCode == "TimeZoneNotSupportedException")
        #expect(reply.errorMessage == "A valid TimeZone value must be specified. The following TimeZone value is not supported: 'Australia Eastern Standard Time'.")
    }

    @Test("paging: default page size 10, $top, absolute nextLink carrying the window; every event exactly once")
    func paging() async throws {
        let emulator = try GraphTest.emulator()
        // Three weeks of Dan's calendar: many stand-up occurrences.
        let window = "startDateTime=2026-02-23T00:00:00Z&endDateTime=2026-03-16T00:00:00Z"
        let first = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView?\(window)", as: GraphTest.dan)
        #expect(first.value.count == 10)
        let link = try #require(first.json["@odata.nextLink"] as? String)
        #expect(link.hasPrefix("http://127.0.0.1:8765/v1.0/me/calendarView?"))
        #expect(link.contains("startDateTime=2026-02-23T00%3A00%3A00Z"))

        var collected: [[String: Any]] = []
        var next: String? = "/v1.0/me/calendarView?\(window)&$top=4"
        var pages = 0
        while let target = next {
            let path = target.hasPrefix("http") ? String(target.dropFirst("http://127.0.0.1:8765".count)) : target
            let reply = try await GraphTest.send(emulator, "GET", path, as: GraphTest.dan)
            #expect(reply.value.count <= 4)
            collected += reply.value
            next = reply.json["@odata.nextLink"] as? String
            pages += 1
        }
        let everything = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView?\(window)&$top=1000", as: GraphTest.dan)
        #expect(everything.json["@odata.nextLink"] == nil)
        #expect(collected.count == everything.value.count)
        #expect(Set(collected.compactMap { $0["id"] as? String }).count == collected.count)
        #expect(pages == (collected.count + 3) / 4)
        #expect(collected.count > 15)
    }

    @Test("$select keeps the chosen properties (and id); other calendars have their own calendarView")
    func selectAndCalendarScope() async throws {
        let emulator = try GraphTest.emulator()
        let list = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendars")
        let falcon = try #require(list.value.last?["id"] as? String)
        let reply = try await GraphTest.send(emulator, "GET",
                                             "/v1.0/me/calendars/\(falcon)/calendarView?\(week)&$select=subject,organizer,start,end")
        #expect(reply.status == 200)
        let event = try #require(reply.value.first)
        #expect(Set(event.keys) == ["@odata.etag", "id", "subject", "organizer", "start", "end"])
        #expect(event["subject"] as? String == "Falcon design review")
        #expect(event.string("organizer.emailAddress.address") == GraphTest.dan)
    }

    @Test("a weekly series keeps its wall-clock time across the US daylight-saving change")
    func dst() async throws {
        let emulator = try GraphTest.emulator()
        let created = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "DST check", start: "2026-03-02T10:00:00", end: "2026-03-02T10:30:00", extra: [
                "recurrence": [
                    "pattern": ["type": "weekly", "interval": 1, "daysOfWeek": ["monday"]],
                    "range": ["type": "numbered", "startDate": "2026-03-02", "numberOfOccurrences": 3],
                ],
            ]))
        #expect(created.status == 201)
        #expect(created.json["type"] as? String == "seriesMaster")
        let id = try #require(created.json["id"] as? String)
        let window = "startDateTime=2026-03-01T00:00:00Z&endDateTime=2026-04-01T00:00:00Z"
        let utc = try await GraphTest.send(emulator, "GET", "/v1.0/me/events/\(id)/instances?\(window)")
        #expect(utc.value.map { $0.string("start.dateTime") } == [
            "2026-03-02T18:00:00.0000000", "2026-03-09T17:00:00.0000000", "2026-03-16T17:00:00.0000000",
        ])
        let local = try await GraphTest.send(emulator, "GET", "/v1.0/me/events/\(id)/instances?\(window)",
                                             headers: ["Prefer": "outlook.timezone=\"America/Los_Angeles\""])
        #expect(local.value.map { $0.string("start.dateTime") } == [
            "2026-03-02T10:00:00.0000000", "2026-03-09T10:00:00.0000000", "2026-03-16T10:00:00.0000000",
        ])
        #expect(local.value.allSatisfy { $0["type"] as? String == "occurrence" && $0["seriesMasterId"] as? String == id })
    }

    struct PatternCase: Sendable, CustomStringConvertible {
        var pattern: String
        var startDate: String
        var expected: [String]
        var description: String { pattern }
    }

    static let patternCases: [PatternCase] = [
        PatternCase(pattern: #"{"type": "absoluteMonthly", "interval": 1, "dayOfMonth": 31}"#, startDate: "2026-01-31",
                    expected: ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"]),
        PatternCase(pattern: #"{"type": "relativeMonthly", "interval": 1, "daysOfWeek": ["friday"], "index": "last"}"#,
                    startDate: "2026-01-01", expected: ["2026-01-30", "2026-02-27", "2026-03-27", "2026-04-24"]),
        PatternCase(pattern: #"{"type": "relativeMonthly", "interval": 2, "daysOfWeek": ["monday"], "index": "second"}"#,
                    startDate: "2026-01-01", expected: ["2026-01-12", "2026-03-09", "2026-05-11", "2026-07-13"]),
        PatternCase(pattern: #"{"type": "absoluteYearly", "interval": 1, "month": 2, "dayOfMonth": 29}"#,
                    startDate: "2026-01-01", expected: ["2026-02-28", "2027-02-28", "2028-02-29", "2029-02-28"]),
        PatternCase(pattern: #"{"type": "relativeYearly", "interval": 1, "month": 11, "daysOfWeek": ["thursday"], "index": "fourth"}"#,
                    startDate: "2026-01-01", expected: ["2026-11-26", "2027-11-25", "2028-11-23", "2029-11-22"]),
        PatternCase(pattern: #"{"type": "daily", "interval": 3}"#, startDate: "2026-01-01",
                    expected: ["2026-01-01", "2026-01-04", "2026-01-07", "2026-01-10"]),
        PatternCase(pattern: #"{"type": "weekly", "interval": 2, "daysOfWeek": ["tuesday", "thursday"], "firstDayOfWeek": "monday"}"#,
                    startDate: "2026-01-01", expected: ["2026-01-01", "2026-01-13", "2026-01-15", "2026-01-27"]),
    ]

    @Test("monthly, yearly, daily and bi-weekly patterns expand as Outlook does", arguments: patternCases)
    func patterns(_ testCase: PatternCase) async throws {
        let pattern = try #require(try JSONSerialization.jsonObject(with: Data(testCase.pattern.utf8)) as? [String: Any])
        let startDate = testCase.startDate
        let expected = testCase.expected
        let emulator = try GraphTest.emulator()
        let created = try await GraphTest.send(emulator, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Pattern", start: startDate + "T12:00:00", end: startDate + "T13:00:00", zone: "UTC", extra: [
                "recurrence": ["pattern": pattern, "range": ["type": "numbered", "startDate": startDate, "numberOfOccurrences": 4]],
            ]))
        #expect(created.status == 201, "\(created.json)")
        let id = try #require(created.json["id"] as? String)
        let reply = try await GraphTest.send(emulator, "GET",
                                             "/v1.0/me/events/\(id)/instances?startDateTime=2025-12-01T00:00:00Z&endDateTime=2030-12-31T00:00:00Z")
        #expect(reply.value.compactMap { $0.string("start.dateTime").map { String($0.prefix(10)) } } == expected)
    }
}
