import Foundation
import Sandbox
import TestSupport
import Testing

/// Outlook events in custom zones (`tzone://Microsoft/Custom`, as Outlook desktop makes them), copied by the
/// built binary: the copy takes the IANA zone whose offsets equal the event's own definition, keeps the
/// wall clock across that zone's DST changes, and is written once however often the copy runs.
@Suite("copy: Outlook events in custom time zones, end to end against the sandbox")
struct CopyCustomZoneEndToEndTests {
    /// A custom zone in the Microsoft seed format: one rule, `standard`/`daylight` as
    /// (month, weekday, week, hour); month 0 = no daylight time.
    static func customZone(bias: Int, daylightBias: Int = 0, standard: (Int, Int, Int, Int) = (0, 0, 0, 0),
                           daylight: (Int, Int, Int, Int) = (0, 0, 0, 0)) -> [String: Any] {
        func date(_ d: (Int, Int, Int, Int)) -> [String: Any] {
            ["month": d.0, "dayOfWeek": d.1, "day": d.2, "hour": d.3, "minute": 0]
        }
        return ["custom": ["keyName": "Customized Time Zone", "rules": [[
            "year": 2000, "bias": bias, "standardBias": 0, "daylightBias": daylightBias,
            "standardDate": date(standard), "daylightDate": date(daylight),
        ]]]]
    }

    /// +05:30, no daylight time.
    static var india: [String: Any] { customZone(bias: -330) }
    /// US Pacific rules: UTC-8, daylight time from the second Sunday of March to the first Sunday of November.
    static var usPacific: [String: Any] { customZone(bias: 480, daylightBias: -60, standard: (11, 0, 1, 2), daylight: (3, 0, 2, 2)) }
    /// New South Wales rules: UTC+10, daylight time from the first Sunday of October to the first Sunday of April.
    static var newSouthWales: [String: Any] { customZone(bias: -600, daylightBias: -60, standard: (4, 0, 1, 3), daylight: (10, 0, 1, 2)) }
    /// UTC+05:17: no zone has it.
    static var unmatched: [String: Any] { customZone(bias: -317) }

    static func event(_ subject: String, _ zone: [String: Any], _ start: String, _ end: String,
                      recurrence: [String: Any]? = nil) -> [String: Any] {
        var event: [String: Any] = ["key": subject, "subject": subject, "timeZone": zone, "start": start, "end": end]
        if let recurrence { event["recurrence"] = recurrence }
        return event
    }

    static let seed = SandboxSeed.withOutlookEvents([
        event("Mumbai stand-up", india, "2027-03-10T09:30:00", "2027-03-10T10:00:00"),
        event("Review in US rules", usPacific, "2027-03-15T09:00:00", "2027-03-15T10:00:00"),
        event("Weekly in US rules", usPacific, "2027-03-01T09:00:00", "2027-03-01T09:30:00", recurrence: [
            "pattern": ["type": "weekly", "interval": 1, "daysOfWeek": ["monday"], "firstDayOfWeek": "sunday"],
            "range": ["type": "numbered", "startDate": "2027-03-01", "numberOfOccurrences": 4],
        ]),
        event("Sydney before the change", newSouthWales, "2027-04-02T08:00:00", "2027-04-02T09:00:00"),
        event("Sydney after the change", newSouthWales, "2027-04-05T08:00:00", "2027-04-05T09:00:00"),
        event("Odd offset", unmatched, "2027-05-05T12:00:00", "2027-05-05T13:00:00"),
    ])

    /// Each copied event's start as Google stores it: the wall clock and offset in the event's own zone
    /// (Google answers in the calendar's zone), and that zone.
    static func starts(_ events: [String: [String: Any]]) -> [String: [String]] {
        events.mapValues { e in
            let start = e["start"] as? [String: Any] ?? [:]
            let zone = start["timeZone"] as? String ?? ""
            return [wallClock(start["dateTime"] as? String, in: zone), zone]
        }
    }

    /// An RFC 3339 instant written in `zone` (`2027-03-10T09:30:00+05:30`); "" when either is unreadable.
    static func wallClock(_ dateTime: String?, in zone: String) -> String {
        guard let dateTime, let instant = ISO8601DateFormatter().date(from: dateTime),
              let timeZone = TimeZone(identifier: zone) else { return "" }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: instant)
    }

    @Test("Outlook -> Google: the matched zone and the event's own wall clock, DST on both sides, one copy after two runs")
    func outlookToGoogle() async throws {
        try await SandboxHome.with(seed: Self.seed) { home in
            let first = try await home.copy("carol:Calendar", "ann:Family")
            #expect(first["created"] as? Int == 6 && first["failed"] as? Int == 0, "\(first)")

            let copies = try await home.api.googleEventsByTitle("Family")
            #expect(Self.starts(copies) == [
                "Mumbai stand-up": ["2027-03-10T09:30:00+05:30", "Asia/Calcutta"],
                "Review in US rules": ["2027-03-15T09:00:00-07:00", "America/Los_Angeles"],
                "Weekly in US rules": ["2027-03-01T09:00:00-08:00", "America/Los_Angeles"],
                "Sydney before the change": ["2027-04-02T08:00:00+11:00", "Australia/Sydney"],
                "Sydney after the change": ["2027-04-05T08:00:00+10:00", "Australia/Sydney"],
                // No zone keeps +05:17: the instant (06:43 UTC) is exact, in the zone Graph listed it in.
                "Odd offset": ["2027-05-05T06:43:00Z", "Etc/UTC"],
            ])
            // The series is a series, and each occurrence is at 09:00 in Los Angeles across the change on 14 March.
            let series = try #require(copies["Weekly in US rules"])
            // The Outlook series' week starts on Sunday (firstDayOfWeek), which the copy keeps as WKST.
            #expect(series["recurrence"] as? [String] == ["RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=MO;WKST=SU"])
            let instances = try await home.api.googleInstances(
                try await home.api.googleCalendarID("Family"), try #require(series["id"] as? String))
            #expect(instances.map { Self.wallClock(($0["start"] as? [String: Any])?["dateTime"] as? String, in: "America/Los_Angeles") } == [
                "2027-03-01T09:00:00-08:00", "2027-03-08T09:00:00-08:00",
                "2027-03-15T09:00:00-07:00", "2027-03-22T09:00:00-07:00",
            ])

            // The zone a custom event is given is the same on every run: nothing is written again.
            let mark = home.sandbox.log.count
            let second = try await home.copy("carol:Calendar", "ann:Family")
            #expect(second["unchanged"] as? Int == 6 && second["created"] as? Int == 0 && second["updated"] as? Int == 0)
            #expect(home.apiMethods(since: mark) == ["GET"])
        }
    }

    @Test("Outlook -> Outlook: the copy is in the matched zone's Windows name, at the same instant")
    func outlookToOutlook() async throws {
        try await SandboxHome.with(seed: Self.seed) { home in
            let result = try await home.copy("carol:Calendar", "carol:Project Falcon")
            #expect(result["created"] as? Int == 6 && result["failed"] as? Int == 0, "\(result)")
            let copies = try await home.api.graphEventsBySubject("Project Falcon")
            func zone(_ subject: String) -> String? { copies[subject]?["originalStartTimeZone"] as? String }
            #expect(zone("Mumbai stand-up") == "India Standard Time")
            #expect(zone("Review in US rules") == "Pacific Standard Time")
            #expect(zone("Weekly in US rules") == "Pacific Standard Time")
            #expect(zone("Sydney after the change") == "AUS Eastern Standard Time")
            // Read back in UTC (no Prefer header): the instants the custom zone gave.
            let start = copies["Mumbai stand-up"]?["start"] as? [String: Any]
            #expect(start?["dateTime"] as? String == "2027-03-10T04:00:00.0000000" && start?["timeZone"] as? String == "UTC")
        }
    }
}
