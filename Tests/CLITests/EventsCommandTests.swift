import Foundation
import Sandbox
import Testing
import TestSupport

@Suite("calbridge events, end to end against the sandbox")
struct EventsCommandTests {
    @Test("default: this week (Monday-based) in the owner's zone, occurrences expanded, all-day as dates")
    func thisWeek() async throws {
        try await SandboxHome.with { home in
            let result = try await home.run(["events", "carol:Calendar", "--tz", "America/Los_Angeles", "--format", "json"])
            #expect(result.status == 0, "\(result.stderr)")
            let document = try JSONOutput.object(result.stdout)
            #expect(document["timeZone"] as? String == "America/Los_Angeles")
            #expect(document["calendar"] as? String == "carol:Calendar")
            // The window is Monday 00:00 to Monday 00:00 in the mailbox zone (Pacific).
            let from = try #require(document["from"] as? String)
            let to = try #require(document["to"] as? String)
            let monday = String(from.prefix(10))
            #expect(from.dropFirst(10).hasPrefix("T00:00:00-0"))
            #expect(to.dropFirst(10).hasPrefix("T00:00:00-0"))
            #expect(Self.weekday(monday) == 2, "\(from) is not a Monday")
            let events = try #require(document["events"] as? [[String: Any]])
            func event(_ title: String) -> [String: Any]? { events.first { $0["title"] as? String == title } }
            // Seeded: the recurring "Team sync" (10:00 Pacific), "Focus day" all day on Tuesday.
            let syncs = events.filter { $0["title"] as? String == "Team sync" }
            #expect(syncs.count >= 2, "occurrences are expanded")
            #expect(syncs.allSatisfy { $0["seriesId"] is String && $0["timeZone"] as? String == "America/Los_Angeles" })
            #expect(syncs.contains { ($0["start"] as? String)?.dropFirst(10).hasPrefix("T10:00:00-0") == true })
            let iso = ISO8601DateFormatter()
            let (weekStart, weekEnd) = (try #require(iso.date(from: from)), try #require(iso.date(from: to)))
            for sync in syncs {
                let start = try #require(iso.date(from: sync["start"] as? String ?? ""))
                #expect(start >= weekStart && start < weekEnd, "\(start) outside the week")
            }
            let focus = try #require(event("Focus day"))
            #expect(focus["allDay"] as? Bool == true)
            #expect(focus["start"] as? String == Self.adding(1, to: monday))
            #expect(focus["end"] as? String == Self.adding(2, to: monday))
            let starts = events.compactMap { $0["start"] as? String }
            #expect(starts.count == events.count)
        }
    }

    @Test("table (an 80-column terminal, dates for all-day) and tsv (header row); times in $TZ when --tz is absent")
    func tableAndTSV() async throws {
        try await SandboxHome.with { home in
            let table = try await home.run(
                ["events", "carol:Calendar"], environment: ["TZ": "Asia/Tokyo", "NO_COLOR": "1"], stdoutTerminalColumns: 80)
            #expect(table.status == 0, "\(table.stderr)")
            let lines = table.stdout.split(separator: "\n")
            #expect(lines.first?.hasPrefix("carol:Calendar: ") == true)
            #expect(lines.first?.hasSuffix("(Asia/Tokyo)") == true)
            #expect(lines.dropFirst().first?.hasPrefix("DATE") == true)
            #expect(lines.allSatisfy { $0.count <= 80 })
            #expect(lines.contains { $0.contains("all day") && $0.contains("Focus day") })
            #expect(lines.contains { $0.contains("all day (2 days)") && $0.contains("Team offsite") })

            let tsv = try await home.run(["events", "ann:primary", "--format", "tsv", "--tz", "Europe/Berlin"])
            #expect(tsv.status == 0, "\(tsv.stderr)")
            let rows = tsv.stdout.split(separator: "\n")
            #expect(rows.first == "start\tend\tall_day\ttitle\tlocation\tid\tseries_id")
            #expect(rows.count > 2)
            // Timed values carry Berlin's offset.
            #expect(rows.dropFirst().contains { $0.contains("+01:00\t") || $0.contains("+02:00\t") })
        }
    }

    @Test("--from/--to as dates (midnight in the shown zone) and as RFC 3339")
    func explicitWindow() async throws {
        try await SandboxHome.with { home in
            let created = try await home.run([
                "add", "ann:Family", "--title", "Window probe", "--start", "2027-02-10T12:00:00Z", "--tz", "UTC",
            ])
            #expect(created.status == 0, "\(created.stderr)")
            let byDate = try await home.run([
                "events", "ann:Family", "--from", "2027-02-10", "--to", "2027-02-10", "--tz", "Asia/Tokyo", "--format", "json",
            ])
            // --to a date includes that day (the one rule of DateOptions): the window ends at the next midnight.
            let document = try JSONOutput.object(byDate.stdout)
            #expect(document["from"] as? String == "2027-02-10T00:00:00+09:00")
            #expect(document["to"] as? String == "2027-02-11T00:00:00+09:00")
            let titles = (document["events"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
            #expect(titles == ["Window probe"])
            #expect((document["events"] as? [[String: Any]])?.first?["start"] as? String == "2027-02-10T21:00:00+09:00")

            // An RFC 3339 window that ends just before the event leaves it out.
            let before = try await home.run([
                "events", "ann:Family", "--from", "2027-02-10T00:00:00Z", "--to", "2027-02-10T11:59:00Z", "--format", "json",
            ])
            #expect((try JSONOutput.object(before.stdout)["events"] as? [Any])?.count == 0)
            // --from alone: seven days.
            let week = try await home.run(["events", "ann:Family", "--from", "2027-02-08", "--format", "json"])
            #expect(try JSONOutput.object(week.stdout)["to"] as? String == "2027-02-15T00:00:00+00:00")
        }
    }

    @Test("bad input: exit 2 with one line naming the option or the calendar", arguments: [
        (["events", "carol:Calendar", "--to", "2026-02-30"], "--to"),
        (["events", "carol:Calendar", "--from", "2027-01-02", "--to", "2027-01-01"], "--to (2027-01-01) must be after --from"),
        (["events", "carol:Calendar", "--week", "--from", "2027-01-02"], "--week"),
        (["events", "carol:Calendar", "--tz", "Atlantis Standard Time"], "--tz"),
        (["events", "carol:Nope"], "calendar 'Nope': no calendar with that id or name; candidates: Calendar, Contoso Holidays, Project Falcon"),
        (["events", "nobody:Calendar"], "no account named 'nobody'"),
        (["events", ":Calendar"], "has no account"),
        (["events", "carol:"], "has no calendar after ':'"),
    ])
    func badInput(_ arguments: [String], _ expected: String) async throws {
        try await SandboxHome.with { home in
            let result = try await home.run(arguments)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(result.stderr.contains(expected), "\(result.stderr)")
        }
    }

    @Test("a name shared by two calendars is ambiguous (exit 2, candidates with ids); the id still works")
    func ambiguousName() async throws {
        var seed = SandboxSeed.builtIn
        var microsoft = try #require(try JSONSerialization.jsonObject(with: seed.microsoft) as? [String: Any])
        var users = try #require(microsoft["users"] as? [[String: Any]])
        var calendars = try #require(users[0]["calendars"] as? [[String: Any]])
        calendars.append(["key": "falcon-archive", "name": "project falcon", "canEdit": true, "canShare": true])
        users[0]["calendars"] = calendars
        microsoft["users"] = users
        seed.microsoft = try JSONSerialization.data(withJSONObject: microsoft)
        try await SandboxHome.with(seed: seed) { home in
            let result = try await home.run(["events", "carol:Project Falcon"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("2 calendars have that name"), "\(result.stderr)")
            #expect(result.stderr.contains("'Project Falcon' (id ") && result.stderr.contains("'project falcon' (id "))
            // `calendars` prints ids for the two, and those references work.
            let listing = try JSONOutput.array(try await home.run(["calendars", "--account", "carol", "--format", "json"]).stdout)
            let refs = listing.compactMap { $0["ref"] as? String }.filter { !$0.hasSuffix(":Calendar") && !$0.hasSuffix(":Contoso Holidays") }
            #expect(refs.count == 2)
            for ref in refs {
                #expect(!ref.lowercased().hasSuffix("project falcon"))
                #expect(try await home.run(["events", ref]).status == 0)
            }
        }
    }

    static func weekday(_ date: String) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = date.split(separator: "-").compactMap { Int($0) }
        let day = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))!
        return calendar.component(.weekday, from: day)
    }

    static func adding(_ days: Int, to date: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = date.split(separator: "-").compactMap { Int($0) }
        let day = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2] + days, hour: 12))!
        let c = calendar.dateComponents([.year, .month, .day], from: day)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }
}
