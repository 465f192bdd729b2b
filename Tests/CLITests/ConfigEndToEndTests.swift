import CLI
import Foundation
import TestSupport
import Testing

/// `config.toml` through the binary: each default applies where the command line is silent, the command
/// line wins, `$TZ` wins over the file's zone, and a broken file stops every command with its line.
@Suite struct ConfigEndToEndTests {
    private func write(_ text: String, in home: SandboxHome) throws {
        let path = try #require(home.environment["CALBRIDGE_HOME"]) + "/config.toml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func formatAndAliasesApplyAndTheCommandLineWins() async throws {
        try await SandboxHome.with { home in
            try write("format = \"json\"\n[aliases]\nw = \"carol\"\n", in: home)
            let listed = try await home.run(["accounts", "list"])
            #expect(listed.status == 0)
            #expect(try JSONOutput.array(listed.stdout).compactMap { $0["name"] as? String }.sorted() == ["ann", "carol"])
            let table = try await home.run(["accounts", "list", "--format", "table"])
            #expect(table.stdout.hasPrefix("NAME"))
            // The alias names the account in an option and in a calendar reference.
            let calendars = try await home.run(["calendars", "--account", "w"])
            #expect(calendars.status == 0, "\(calendars.stderr)")
            #expect(try JSONOutput.array(calendars.stdout).allSatisfy { ($0["account"] as? String) == "carol" })
            let events = try await home.run(["events", "w:Calendar"])
            #expect(events.status == 0, "\(events.stderr)")
            // A choice a command does not offer is not forced on it: timezones has no week-start.
            try write("format = \"tsv\"\nweek-start = \"sunday\"\n", in: home)
            let zones = try await home.run(["timezones", "Pacific Standard Time"])
            #expect(zones.status == 0)
            #expect(zones.stdout.hasPrefix("input\t"))
        }
    }

    @Test func theDefaultCalendarServesAddAndQuickAdd() async throws {
        try await SandboxHome.with { home in
            try write("calendar = \"carol:Calendar\"\n", in: home)
            let added = try await home.run(["add", "--title", "Config default calendar", "--start", "2027-01-12T10:00"])
            #expect(added.status == 0, "\(added.stderr)")
            #expect(try await home.api.graphEventsBySubject("Calendar")["Config default calendar"] != nil)
            let preview = try await home.run(["quick-add", "--dry-run", "--format", "json", "Lunch on 2027-01-13 at noon"])
            #expect(preview.status == 0, "\(preview.stderr)")
            // Read in the default calendar's zone (the mailbox's), not in $TZ.
            #expect((try JSONOutput.object(preview.stdout)["readIn"] as? String)?.contains("mailbox") == true)
            // A calendar on the command line wins.
            let other = try await home.run(["add", "ann:primary", "--title", "Config explicit calendar", "--start", "2027-01-12T11:00"])
            #expect(other.status == 0, "\(other.stderr)")
            #expect(try await home.api.graphEventsBySubject("Calendar")["Config explicit calendar"] == nil)
        }
    }

    @Test func theZoneStandsInForAMissingTZAndConfigShowSaysWhereEachValueCameFrom() async throws {
        try await SandboxHome.with { home in
            try write("# mine\nzone = \"W. Europe Standard Time\"\n[aliases]\nw = \"carol\"\n", in: home)
            let shown = try await home.run(["config", "show", "--format", "json"], environment: ["TZ": ""])
            #expect(shown.status == 0, "\(shown.stderr)")
            let settings = try #require(try JSONOutput.object(shown.stdout)["settings"] as? [[String: String]])
            let bySetting = Dictionary(uniqueKeysWithValues: settings.map { ($0["setting"]!, $0) })
            #expect(bySetting["zone"]?["value"] == "Europe/Berlin")
            #expect(bySetting["zone"]?["source"] == "config.toml line 2")
            #expect(bySetting["format"]?["source"] == "built in")
            #expect(bySetting["alias w"]?["value"] == "carol")
            let preview = try await home.run(
                ["quick-add", "--dry-run", "--format", "json", "Lunch on 2027-01-13 at noon"], environment: ["TZ": ""])
            #expect((try JSONOutput.object(preview.stdout)["start"] as? String) == "2027-01-13T12:00:00+01:00")
            // $TZ wins over the file.
            let withTZ = try await home.run(["config", "show", "--format", "tsv", "--no-header"], environment: ["TZ": "Asia/Tokyo"])
            #expect(withTZ.stdout.split(separator: "\n").first == "zone\tAsia/Tokyo\t$TZ (over config.toml line 2)")
        }
    }

    @Test func aBrokenFileStopsEveryCommandWithItsLine() async throws {
        try await SandboxHome.with { home in
            try write("zone = \"Europe/Berlin\"\nzonee = \"x\"\n", in: home)
            let result = try await home.run(["calendars"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("config.toml line 2: unknown setting 'zonee' (did you mean 'zone'?)"))
            #expect(result.stdout.isEmpty)
        }
    }
}
