import Foundation
import Sandbox
import TestSupport
import Testing

@testable import CLI

@Suite("calbridge week and month: grids that fit the width, end to end against the sandbox")
struct CalendarGridCommandTests {
    /// No colour, and no locale from the test's own environment (weeks start on Monday).
    static let plain = ["NO_COLOR": "1", "LC_ALL": "", "LC_TIME": "", "LANG": "C"]

    /// The grid's cells, row by row (each line that starts with "|"), seven cells each, trailing spaces cut.
    static func cells(_ output: String) -> [[String]] {
        output.split(separator: "\n").filter { $0.hasPrefix("|") }.map { line in
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map {
                String($0.reversed().drop { $0 == " " }.reversed())
            }
        }
    }

    /// The lines of each of the seven columns below the row of labels (a week grid).
    static func columns(_ rows: [[String]]) -> [[String]] {
        (0..<7).map { column in rows.dropFirst().map { $0[column] }.filter { !$0.isEmpty } }
    }

    @Test(
        "week at 80 and 200 columns: no line wider, labels, all-day first, events as '09:00 Title' wrapped to the cell",
        arguments: [80, 200])
    func week(width: Int) async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            try await AgendaCommandTests.seed(home)
            let result = try await home.run(["week", "2027-03-03"], environment: Self.plain, stdoutTerminalColumns: width)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.allSatisfy { $0.count <= width }, "\(result.stdout)")
            #expect(lines.first?.hasPrefix("Week of 1 Mar to 7 Mar 2027 (UTC)") == true)
            let rows = Self.cells(result.stdout)
            #expect(rows.allSatisfy { $0.count == 7 })
            #expect(rows.first == ["Mon 1 Mar", "Tue 2 Mar", "Wed 3 Mar", "Thu 4 Mar", "Fri 5 Mar", "Sat 6 Mar", "Sun 7 Mar"])
            let days = Self.columns(rows)
            #expect(CalendarGrid.cellWidth(for: width) == (width - 8) / 7)
            if width == 200 {
                #expect(days[0] == ["Company day", "08:00 Café Planung", "09:00 Standup", "09:00 Falcon sync", "10:00 Design review"])
                #expect(days[1] == ["09:00 Standup", "23:30 Late call"])
                // The all-day trip on both of its days, first; the late call's end the next day.
                #expect(days[2] == ["Ski trip", "..00:30 Late call", "09:00 Standup"])
            } else {
                // 10 columns a cell: each event wrapped at spaces, continuations indented.
                #expect(
                    days[0] == [
                        "Company", " day", "08:00 Café", " Planung", "09:00", " Standup", "09:00", " Falcon", " sync", "10:00", " Design",
                        " review",
                    ])
                #expect(days[1] == ["09:00", " Standup", "23:30 Late", " call"])
                #expect(days[2] == ["Ski trip", "..00:30", " Late call", "09:00", " Standup"])
            }
            #expect(days[3] == ["Ski trip"])
            #expect(days[4].isEmpty && days[5].isEmpty && days[6].isEmpty)
        }
    }

    @Test("month at 80 and 200 columns: weekday row, other months' days empty, multi-day events on each day", arguments: [80, 200])
    func month(width: Int) async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            try await AgendaCommandTests.seed(home)
            let result = try await home.run(["month", "2027-03"], environment: Self.plain, stdoutTerminalColumns: width)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.allSatisfy { $0.count <= width }, "\(result.stdout)")
            #expect(lines.first?.hasPrefix("March 2027 (UTC)") == true)
            let rows = Self.cells(result.stdout)
            #expect(rows.first == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
            // 1 March 2027 is a Monday; the 31st a Wednesday, followed by April's days, left empty.
            #expect(rows.dropFirst().first == ["1 Mar", "2", "3", "4", "5", "6", "7"])
            let lastWeek = try #require(rows.lastIndex { $0.first == "29" })
            #expect(rows[lastWeek] == ["29", "30", "31", "", "", "", ""])
            let firstWeek = Array(rows[2..<rows.firstIndex { $0.first == "8" }!])
            #expect(
                firstWeek.map { $0[3] }.filter { !$0.isEmpty }.first?.hasPrefix("Ski trip".prefix(CalendarGrid.cellWidth(for: width) - 1))
                    == true)

            // --week-start sunday: 28 February (a Sunday) is drawn empty before 1 March.
            let sunday = try await home.run(
                ["month", "2027-03", "--week-start", "sunday"], environment: Self.plain, stdoutTerminalColumns: width)
            let sundayRows = Self.cells(sunday.stdout)
            #expect(sundayRows.first == ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"])
            #expect(sundayRows.dropFirst().first == ["", "1 Mar", "2", "3", "4", "5", "6"])
            #expect(sunday.stdout.split(separator: "\n").allSatisfy { $0.count <= width })
        }
    }

    @Test("today is marked in the grid and in json; --week-start and the locale choose the first column")
    func todayAndWeekStart() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let before = Self.today()
            let grid = try await home.run(["week"], environment: Self.plain, stdoutTerminalColumns: 120)
            let json = try await home.run(["week", "--format", "json"], environment: Self.plain)
            let after = Self.today()
            #expect(grid.status == 0, "\(grid.stderr)")
            let labels = try #require(Self.cells(grid.stdout).first)
            let marked = labels.filter { $0.hasPrefix(CalendarGrid.todayMarker) }
            #expect(marked.count == 1, "\(labels)")
            #expect([before, after].contains { marked.first?.contains(" \($0.day) ") == true }, "\(marked)")
            #expect(labels.first?.hasPrefix("Mon") == true || labels.first?.hasPrefix("*Mon") == true)
            #expect(grid.stdout.split(separator: "\n").first?.contains("* today") == true)

            let document = try JSONOutput.object(json.stdout)
            #expect(document["view"] as? String == "week")
            #expect(document["weekStart"] as? String == "monday")
            let days = try #require(document["days"] as? [[String: Any]])
            #expect(days.count == 7)
            #expect(days.first?["weekday"] as? String == "Mon")
            let todays = days.filter { $0["today"] as? Bool == true }.compactMap { $0["date"] as? String }
            #expect(todays.count == 1 && [before.description, after.description].contains(todays[0]))
            #expect(document["today"] as? String == todays.first)

            // en_US starts weeks on Sunday, de_DE and C on Monday; --week-start wins over the locale.
            for (environment, first) in [
                (["LANG": "en_US.UTF-8"], "Sun"), (["LANG": "de_DE.UTF-8"], "Mon"), (["LANG": "C.UTF-8"], "Mon"),
                (["LANG": "de_DE.UTF-8", "LC_TIME": "en_US.UTF-8"], "Sun"), (["LC_ALL": "en_GB.UTF-8", "LC_TIME": "en_US.UTF-8"], "Mon"),
            ] {
                let result = try await home.run(
                    ["week", "2027-03-03", "--format", "json"], environment: Self.plain.merging(environment) { $1 })
                let days = try JSONOutput.object(result.stdout)["days"] as? [[String: Any]]
                #expect(days?.first?["weekday"] as? String == first, "\(environment)")
            }
            let forced = try await home.run(
                ["week", "2027-03-03", "--week-start", "monday", "--format", "json"], environment: ["LANG": "en_US.UTF-8"])
            #expect((try JSONOutput.object(forced.stdout)["days"] as? [[String: Any]])?.first?["date"] as? String == "2027-03-01")
        }
    }

    @Test("json shapes: a week's 7 days and a month's days, each with its events (multi-day ones on each day)")
    func json() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            try await AgendaCommandTests.seed(home)
            let week = try JSONOutput.object(
                try await home.run(["week", "2027-03-03", "--format", "json"], environment: Self.plain).stdout)
            #expect(week["from"] as? String == "2027-03-01T00:00:00+00:00")
            #expect(week["to"] as? String == "2027-03-08T00:00:00+00:00")
            #expect(week["timeZone"] as? String == "UTC")
            #expect((week["failures"] as? [Any])?.isEmpty == true)
            let weekDays = try #require(week["days"] as? [[String: Any]])
            #expect(weekDays.map { $0["date"] as? String } == (1...7).map { "2027-03-0\($0)" })
            func titles(_ day: [String: Any]) -> [String?] { (day["events"] as? [[String: Any]] ?? []).map { $0["title"] as? String } }
            #expect(titles(weekDays[0]) == ["Company day", "Café Planung", "Standup", "Falcon sync", "Design review"])
            #expect(titles(weekDays[2]) == ["Ski trip", "Late call", "Standup"])
            #expect(titles(weekDays[3]) == ["Ski trip"])
            let event = try #require((weekDays[0]["events"] as? [[String: Any]])?.first)
            #expect(event["calendar"] as? String == "carol:Calendar")
            #expect(event["id"] is String && event["allDay"] as? Bool == true)

            let month = try JSONOutput.object(try await home.run(["month", "2027-03-17", "--format", "json", "--query", "ski"]).stdout)
            #expect(month["view"] as? String == "month")
            #expect(month["month"] as? String == "2027-03")
            let monthDays = try #require(month["days"] as? [[String: Any]])
            #expect(monthDays.count == 31)
            #expect(monthDays.filter { !titles($0).isEmpty }.compactMap { $0["date"] as? String } == ["2027-03-03", "2027-03-04"])
        }
    }

    @Test("a failing account: the grid shows the other's events, exit 4; bad DATE: exit 2")
    func failuresAndBadInput() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            try await AgendaCommandTests.seed(home)
            await home.sandbox.tokens.revokeAll(user: home.user(.microsoft), provider: .microsoft)
            let result = try await home.run(["week", "2027-03-03"], environment: Self.plain, stdoutTerminalColumns: 200)
            #expect(result.status == 4)
            #expect(result.stdout.contains("09:00 Standup") && !result.stdout.contains("Design review"))
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("'carol'"))
            for arguments in [["week", "2027-02-30"], ["month", "2027-13"], ["week", "soon"], ["month", "--week-start", "friday"]] {
                let bad = try await home.run(arguments)
                #expect(bad.status == 2, "\(arguments)")
                #expect(bad.stdout.isEmpty)
                #expect(bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
            }
        }
    }

    @Test("an event's text wraps at spaces onto at most its lines, long words broken, the rest cut by the cell")
    func wrapping() {
        #expect(CalendarGrid.wrap("09:00 Standup", 13, lines: 3) == ["09:00 Standup"])
        #expect(CalendarGrid.wrap("09:00 Falcon sync", 10, lines: 3) == ["09:00", " Falcon", " sync"])
        // The last allowed line keeps the rest, for `fit` to cut with "…".
        #expect(CalendarGrid.wrap("09:00 Falcon sync", 10, lines: 2) == ["09:00", " Falcon sync"])
        #expect(CalendarGrid.fit(" Falcon sync", 10) == " Falcon s…")
        // A word longer than a line is broken; runs of spaces do not make empty lines.
        #expect(CalendarGrid.wrap("Kundenzufriedenheitsumfrage", 10, lines: 3) == ["Kundenzufr", " iedenheit", " sumfrage"])
        #expect(CalendarGrid.wrap("a    b", 8, lines: 3) == ["a    b"])
        #expect(CalendarGrid.wrap("Review   the plan", 8, lines: 3) == ["Review", " the", " plan"])
        // Narrow cells and one-line grids are cut, not wrapped.
        #expect(CalendarGrid.wrap("09:00 Falcon sync", 7, lines: 3) == ["09:00 Falcon sync"])
        #expect(CalendarGrid.wrap("09:00 Falcon sync", 10, lines: 1) == ["09:00 Falcon sync"])
        // Every line fits the cell, whatever the text.
        for text in ["", " ", "x", "🎄 Weihnachtsfeier mit dem ganzen Team", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b c"] {
            for width in 8...14 {
                let lines = CalendarGrid.wrap(text, width, lines: 3)
                #expect(lines.count <= 3 && lines.dropLast().allSatisfy { $0.count <= width }, "\(text) \(width)")
            }
        }
    }

    static func today() -> (day: Int, description: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: Date())
        let text = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        return (parts.day!, text)
    }
}
