import Foundation
import Sandbox
import TestSupport
import Testing

@Suite("calbridge agenda, end to end against the sandbox")
struct AgendaCommandTests {
    /// The window the seeded events lie in (a Monday to the next Monday, UTC).
    static let window = ["--from", "2027-03-01", "--to", "2027-03-07"]

    /// The seeded events in agenda order (UTC): by day, all-day first, then by start, then by end.
    static let expectedOrder = [
        "Company day", "Café Planung", "Standup", "Falcon sync", "Design review",  // Mon 1 March
        "Standup", "Late call",  // Tue 2
        "Ski trip", "Standup",  // Wed 3
    ]

    @Test("json: every calendar of both providers merged in time order, all-day first, each with its reference and id")
    func mergedJSON() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            try await Self.seed(home)
            let result = try await home.run(["agenda", "--format", "json"] + Self.window)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty)
            let document = try JSONOutput.object(result.stdout)
            #expect(document["from"] as? String == "2027-03-01T00:00:00+00:00")
            #expect(document["to"] as? String == "2027-03-08T00:00:00+00:00")
            #expect(document["timeZone"] as? String == "UTC")
            #expect((document["failures"] as? [Any])?.isEmpty == true)
            // Read-only calendars (the holidays) are read too.
            let calendars = try #require(document["calendars"] as? [String])
            #expect(Set(calendars) == Set(CalendarsCommandTests.expectedRefs))
            let events = try #require(document["events"] as? [[String: Any]])
            #expect(events.map { $0["title"] as? String } == Self.expectedOrder)
            func event(_ title: String) throws -> [String: Any] { try #require(events.first { $0["title"] as? String == title }) }
            #expect(try event("Café Planung")["calendar"] as? String == "ann:Family")
            #expect(try event("Café Planung")["account"] as? String == "ann")
            #expect(try event("Falcon sync")["calendar"] as? String == "carol:Project Falcon")
            #expect(try event("Company day")["allDay"] as? Bool == true)
            #expect(try event("Company day")["start"] as? String == "2027-03-01")
            #expect(try event("Ski trip")["end"] as? String == "2027-03-05")
            #expect(try event("Late call")["end"] as? String == "2027-03-03T00:30:00+00:00")
            #expect(events.allSatisfy { ($0["id"] as? String)?.isEmpty == false && ($0["calendarId"] as? String)?.isEmpty == false })
            let standups = events.filter { $0["title"] as? String == "Standup" }
            #expect(standups.allSatisfy { $0["seriesId"] is String && $0["calendar"] as? String == "ann:ann.lee@gmail.sandbox" })
            #expect(Set(standups.compactMap { $0["id"] as? String }).count == 3)
        }
    }

    @Test("tsv (ids, references, series ids) and the table (fits 80 columns, repeat marker, --ids) list the same rows")
    func tsvAndTable() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            try await Self.seed(home)
            let tsv = try await home.run(["agenda", "--format", "tsv"] + Self.window)
            #expect(tsv.status == 0, "\(tsv.stderr)")
            let rows = tsv.stdout.split(separator: "\n").map {
                $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            }
            #expect(rows.first == ["start", "end", "all_day", "calendar", "title", "location", "id", "series_id"])
            let body = rows.dropFirst()
            #expect(body.map { $0[4] } == Self.expectedOrder)
            #expect(body.allSatisfy { $0.count == 8 && !$0[6].isEmpty })
            #expect(body.filter { $0[4] == "Standup" }.allSatisfy { !$0[7].isEmpty })
            #expect(body.filter { $0[4] != "Standup" }.allSatisfy { $0[7].isEmpty })
            #expect(body.first { $0[4] == "Café Planung" }?[3] == "ann:Family")
            #expect(body.first { $0[4] == "Café Planung" }?[5] == "Küche")
            let ids = body.map { $0[6] }
            let noHeader = try await home.run(["agenda", "--format", "tsv", "--no-header"] + Self.window)
            #expect(noHeader.stdout.split(separator: "\n").count == Self.expectedOrder.count)

            let table = try await home.run(
                ["agenda", "--ids"] + Self.window, environment: ["NO_COLOR": "1"], stdoutTerminalColumns: 200)
            #expect(table.status == 0, "\(table.stderr)")
            let lines = table.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "Agenda: 2027-03-01 to 2027-03-07 (UTC), 6 calendars of 2 accounts")
            #expect(lines.dropFirst().first?.hasPrefix("DATE") == true)
            #expect(lines.dropFirst().first?.contains("CALENDAR") == true)
            let tableRows = Array(lines.dropFirst(3))
            #expect(tableRows.count == ids.count)
            // Each row ends with its id, in the TSV's order; the repeat marker is on the series' rows only.
            for (row, id) in zip(tableRows, ids) { #expect(row.hasSuffix(id), "\(row) does not end with \(id)") }
            #expect(tableRows.filter { $0.contains("\u{21BB} Standup") }.count == 3)
            #expect(tableRows.filter { $0.contains("\u{21BB}") }.count == 3)
            #expect(tableRows.first?.contains("all day") == true && tableRows.first?.contains("Company day") == true)
            #expect(tableRows.contains { $0.contains("all day (2 days)") && $0.contains("Ski trip") })
            #expect(tableRows.contains { $0.contains("23:30-00:30 (+1d)") && $0.contains("Late call") })

            let narrow = try await home.run(["agenda"] + Self.window, environment: ["NO_COLOR": "1"], stdoutTerminalColumns: 80)
            let narrowLines = narrow.stdout.split(separator: "\n")
            #expect(narrowLines.allSatisfy { $0.count <= 80 }, "\(narrow.stdout)")
            // References are never cut, titles give way.
            #expect(narrowLines.filter { $0.contains("ann:ann.lee@gmail.sandbox ") }.count == 3)
            #expect(narrowLines.contains { $0.contains("carol:Project Falcon ") })
            #expect(!narrowLines.contains { $0.contains(" ID") })
        }
    }

    @Test("--query matches words in title, location or description across accounts, ignoring case and accents")
    func query() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            try await Self.seed(home)
            func titles(_ extra: [String]) async throws -> [String?] {
                let result = try await home.run(["agenda", "--format", "json"] + Self.window + extra)
                #expect(result.status == 0, "\(result.stderr)")
                return (try JSONOutput.object(result.stdout)["events"] as? [[String: Any]] ?? []).map { $0["title"] as? String }
            }
            #expect(try await titles(["--query", "CAFE"]) == ["Café Planung"])
            #expect(try await titles(["--query", "kuche"]) == ["Café Planung"])  // the location
            #expect(try await titles(["--query", "quarterly"]) == ["Design review"])  // the description
            #expect(try await titles(["--query", "sync"]) == ["Falcon sync"])
            #expect(try await titles(["--query", "s"]).count == 6)  // Standup ×3, Falcon sync, Design review, Ski trip
            #expect(try await titles(["--query", "standup falcon"]) == [])  // every word must occur
            let empty = try await home.run(["agenda", "--query", "  "] + Self.window)
            #expect(empty.status == 2)
            #expect(empty.stderr.contains("--query needs at least one word"))
        }
    }

    @Test("--calendar narrows its account to the calendars named; --account keeps every calendar of the others")
    func calendarNarrowing() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            try await Self.seed(home)
            func read(_ extra: [String]) async throws -> (titles: [String?], calendars: Set<String>) {
                let result = try await home.run(["agenda", "--format", "json"] + Self.window + extra)
                #expect(result.status == 0, "\(result.stderr)")
                let document = try JSONOutput.object(result.stdout)
                let titles = (document["events"] as? [[String: Any]] ?? []).map { $0["title"] as? String }
                return (titles, Set(document["calendars"] as? [String] ?? []))
            }
            let family = try await read(["--calendar", "ann:Family"])
            #expect(family.calendars == ["ann:Family"])
            #expect(family.titles == ["Café Planung", "Ski trip"])
            let two = try await read(["--calendar", "ann:family", "--calendar", "carol:primary"])
            #expect(two.calendars == ["ann:Family", "carol:Calendar"])
            #expect(two.titles == ["Company day", "Café Planung", "Design review", "Late call", "Ski trip"])
            let mixed = try await read(["--account", "carol", "--calendar", "ann:Family"])
            #expect(mixed.calendars == ["ann:Family", "carol:Calendar", "carol:Contoso Holidays", "carol:Project Falcon"])
            #expect(mixed.titles == ["Company day", "Café Planung", "Falcon sync", "Design review", "Late call", "Ski trip"])
            let narrowed = try await read(["--account", "carol", "--calendar", "carol:Project Falcon"])
            #expect(narrowed.calendars == ["carol:Project Falcon"])
            #expect(narrowed.titles == ["Falcon sync"])
        }
    }

    @Test("read-only calendars (holidays) are listed unless --calendar narrows; all-day rows lead their day")
    func holidays() async throws {
        try await SandboxHome.with { home in
            let year = Calendar(identifier: .gregorian).component(.year, from: Date()) + 1
            let christmas = ["--from", "\(year)-12-25", "--to", "\(year)-12-25"]
            let all = try await home.run(["agenda", "--format", "json"] + christmas)
            #expect(all.status == 0, "\(all.stderr)")
            let events = try #require(try JSONOutput.object(all.stdout)["events"] as? [[String: Any]])
            let holiday = try #require(events.first { $0["title"] as? String == "Christmas Day" })
            #expect(holiday["calendar"] as? String == "ann:Holidays in Germany")
            // All-day rows first, then the timed ones by start.
            let allDay = events.map { $0["allDay"] as? Bool == true }
            #expect(allDay == allDay.sorted { $0 && !$1 }, "\(events.map { $0["title"] ?? "" })")
            let narrowed = try await home.run(["agenda", "--format", "json", "--calendar", "ann:Family"] + christmas)
            let titles = (try JSONOutput.object(narrowed.stdout)["events"] as? [[String: Any]] ?? []).map { $0["title"] as? String }
            #expect(!titles.contains("Christmas Day"))
        }
    }

    @Test("one account failing (grant revoked): the other lists, one stderr line names the failure, exit 4; alone: exit 3")
    func failingAccount() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            try await Self.seed(home)
            await home.sandbox.tokens.revokeAll(user: home.user(.google), provider: .google)
            let result = try await home.run(["agenda"] + Self.window)
            #expect(result.status == 4)
            #expect(result.stdout.contains("carol:Calendar") && result.stdout.contains("Design review"))
            #expect(!result.stdout.contains("ann:"))
            let errors = result.stderr.split(separator: "\n")
            #expect(errors.count == 1, "\(result.stderr)")
            #expect(errors.first?.contains("'ann'") == true)
            #expect(errors.first?.contains("sign in again with: calbridge accounts add") == true)

            let json = try await home.run(["agenda", "--format", "json"] + Self.window)
            #expect(json.status == 4)
            let document = try JSONOutput.object(json.stdout)
            let titles = (document["events"] as? [[String: Any]] ?? []).map { $0["title"] as? String }
            #expect(titles == ["Company day", "Falcon sync", "Design review", "Late call"])
            let failures = try #require(document["failures"] as? [[String: Any]])
            #expect(failures.count == 1)
            #expect(failures.first?["account"] as? String == "ann")

            let alone = try await home.run(["agenda", "--account", "ann"] + Self.window)
            #expect(alone.status == 3)
            #expect(alone.stdout.isEmpty)
        }
    }

    @Test(
        "bad input: exit 2, one line naming what was wrong, nothing listed",
        arguments: [
            (["agenda", "--from", "nonsense"], "--from takes a date"),
            (["agenda", "--from", "2027-03-08", "--to", "2027-03-01"], "--to (2027-03-01) must be after --from (2027-03-08)"),
            (["agenda", "--account", "nobody"], "no account named 'nobody'"),
            (["agenda", "--calendar", "nobody:Calendar"], "no account named 'nobody'"),
            (["agenda", "--calendar", "carol:Nope"], "calendar 'Nope': no calendar with that id or name"),
            (["agenda", "--calendar", "carol"], ""),  // an account alone names its primary calendar: fine
            (["agenda", "--tz", "Mars/Olympus"], "--tz"),
            (["agenda", "--format", "xml"], "--format"),
        ])
    func badInput(_ arguments: [String], _ expected: String) async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let result = try await home.run(arguments)
            if expected.isEmpty {
                #expect(result.status == 0, "\(result.stderr)")
                return
            }
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains(expected), "\(result.stderr)")
        }
    }

    @Test("events REF --query filters, and its table marks repeating events")
    func eventsQueryAndMarker() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            try await Self.seed(home)
            let query = try await home.run(["events", "ann:primary", "--format", "json", "--query", "STAND"] + Self.window)
            #expect(query.status == 0, "\(query.stderr)")
            let titles = (try JSONOutput.object(query.stdout)["events"] as? [[String: Any]] ?? []).map { $0["title"] as? String }
            #expect(titles == ["Standup", "Standup", "Standup"])
            let none = try await home.run(["events", "ann:Family", "--format", "json", "--query", "standup"] + Self.window)
            #expect((try JSONOutput.object(none.stdout)["events"] as? [Any])?.isEmpty == true)
            let table = try await home.run(["events", "ann:primary"] + Self.window)
            #expect(table.stdout.split(separator: "\n").filter { $0.contains("\u{21BB} Standup") }.count == 3)
            let single = try await home.run(["events", "carol:Calendar"] + Self.window)
            #expect(single.stdout.contains("Design review") && !single.stdout.contains("\u{21BB}"))
            let tsv = try await home.run(["events", "ann:primary", "--format", "tsv"] + Self.window)
            #expect(tsv.stdout.split(separator: "\n").first == "start\tend\tall_day\ttitle\tlocation\tid\tseries_id")
        }
    }

    @Test("agenda, week and month --help list every option and an example", arguments: ["agenda", "week", "month"])
    func help(_ command: String) async throws {
        let result = try await CalbridgeBinary.run([command, "--help"], environment: ["COLUMNS": "100"])
        #expect(result.status == 0)
        var options = ["--account NAME", "--calendar REF", "--query TEXT", "--tz ZONE", "--format"]
        options += command == "agenda" ? ["--from DATE", "--to DATE", "--ids", "--no-header"] : ["--week-start monday|sunday", "DATE"]
        for option in options { #expect(result.stdout.contains(option), "\(command) --help lacks \(option)") }
        #expect(result.stdout.contains("Examples:\n  calbridge \(command)"), "\(result.stdout)")
    }

    /// Seeds the events of `expectedOrder` through the services' own APIs, in both providers.
    static func seed(_ home: SandboxHome) async throws {
        let api = home.api
        let primary = try await api.googleCalendarID("primary"), family = try await api.googleCalendarID("Family")
        func timed(_ start: String, _ end: String) -> [String: Any] {
            ["start": ["dateTime": start + "Z", "timeZone": "UTC"], "end": ["dateTime": end + "Z", "timeZone": "UTC"]]
        }
        _ = try await api.googleInsert(
            primary,
            timed("2027-03-01T09:00:00", "2027-03-01T09:15:00").merging(["summary": "Standup", "recurrence": ["RRULE:FREQ=DAILY;COUNT=3"]])
            { $1 })
        _ = try await api.googleInsert(
            family, timed("2027-03-01T08:00:00", "2027-03-01T09:00:00").merging(["summary": "Café Planung", "location": "Küche"]) { $1 })
        _ = try await api.googleInsert(family, ["summary": "Ski trip", "start": ["date": "2027-03-03"], "end": ["date": "2027-03-05"]])

        func graph(_ start: String, _ end: String, allDay: Bool = false) -> [String: Any] {
            ["start": ["dateTime": start, "timeZone": "UTC"], "end": ["dateTime": end, "timeZone": "UTC"], "isAllDay": allDay]
        }
        let falcon = try await api.graphCalendarID("Project Falcon")
        _ = try await api.graphCreate(
            graph("2027-03-01T10:00:00", "2027-03-01T11:00:00").merging([
                "subject": "Design review", "body": ["contentType": "html", "content": "<p>The <b>quarterly</b> plan</p>"],
            ]) { $1 })
        _ = try await api.graphCreate(
            graph("2027-03-01T00:00:00", "2027-03-02T00:00:00", allDay: true).merging(["subject": "Company day"]) { $1 })
        _ = try await api.graphCreate(graph("2027-03-02T23:30:00", "2027-03-03T00:30:00").merging(["subject": "Late call"]) { $1 })
        _ = try await api.graphCreate(
            graph("2027-03-01T09:00:00", "2027-03-01T09:30:00").merging(["subject": "Falcon sync"]) { $1 }, calendarID: falcon)
    }
}
