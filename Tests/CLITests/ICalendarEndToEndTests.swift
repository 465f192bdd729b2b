import Foundation
import Sandbox
import TestSupport
import Testing

/// `calbridge export` and `calbridge import`, the built binary, against the sandbox.
@Suite("calbridge export and import, end to end against the sandbox")
struct ICalendarEndToEndTests {
    static let window = CopyFixtures.windowOptions

    func events(_ home: SandboxHome, _ ref: String) async throws -> [[String: Any]] {
        let listed = try await home.run(["events", ref, "--tz", "UTC", "--format", "json"] + Self.window)
        guard listed.status == 0 else { throw SandboxAPI.Failed(description: "events \(ref): \(listed.stderr)") }
        return try JSONOutput.object(listed.stdout)["events"] as? [[String: Any]] ?? []
    }

    @Test("an Outlook calendar exported, imported into Google: the same occurrences; imported again: nothing written")
    func exportThenImport() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            try await CopyFixtures.seedGraph(home.api)
            let source = try await events(home, "carol:Calendar")
            #expect(source.count > 50, "the source expands to \(source.count) events")

            let file = home.directory.url.appendingPathComponent("carol.ics")
            let exported = try await home.run(["export", "carol:Calendar", "--output", file.path] + Self.window)
            #expect(exported.status == 0, "\(exported.stderr)")
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.hasPrefix("BEGIN:VCALENDAR\r\n"))
            #expect(text.contains("BEGIN:VTIMEZONE"))
            #expect(text.contains("RECURRENCE-ID"), "the moved occurrence is an override")
            #expect(text.contains("EXDATE"), "the cancelled occurrence is an EXDATE")
            #expect(!text.contains("ATTENDEE"))
            // stdout gives the same file.
            let printed = try await home.run(["export", "carol:Calendar"] + Self.window)
            #expect(printed.status == 0)
            #expect(printed.stdout.components(separatedBy: "BEGIN:VEVENT").count == text.components(separatedBy: "BEGIN:VEVENT").count)

            let dry = try await home.run(["import", file.path, "ann:Family", "--dry-run", "--format", "json"])
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(try await events(home, "ann:Family").isEmpty, "a dry run wrote")

            let first = try await home.run(["import", file.path, "ann:Family", "--format", "json"])
            #expect(first.status == 0, "\(first.stderr)")
            let result = try JSONOutput.object(first.stdout)
            #expect((result["created"] as? Int ?? 0) >= CopyFixtures.series.count, "\(first.stdout)")
            #expect(result["failed"] as? Int == 0, "\(first.stdout)")

            let target = try await events(home, "ann:Family")
            #expect(CopyEndToEndTests.signatures(target) == CopyEndToEndTests.signatures(source))

            // Again: nothing written.
            let mark = home.sandbox.log.count
            let second = try await home.run(["import", file.path, "ann:Family", "--format", "json"])
            #expect(second.status == 0, "\(second.stderr)")
            let again = try JSONOutput.object(second.stdout)
            #expect(again["created"] as? Int == 0, "\(second.stdout)")
            #expect(again["updated"] as? Int == 0, "\(second.stdout)")
            #expect(home.apiMethods(since: mark) == ["GET"], "a second import sent a write: \(home.apiMethods(since: mark))")
            #expect(try await events(home, "ann:Family").count == target.count)

            // A changed file: the one changed event is updated, nothing else written.
            var blocks = text.components(separatedBy: "BEGIN:VEVENT")
            let index = try #require(
                blocks.indices.dropFirst().first { !blocks[$0].contains("RRULE") && !blocks[$0].contains("RECURRENCE-ID") })
            let summary = try #require(blocks[index].components(separatedBy: "\r\n").first { $0.hasPrefix("SUMMARY:") })
            blocks[index] = blocks[index].replacingOccurrences(of: summary, with: "SUMMARY:Renamed in the file")
            try blocks.joined(separator: "BEGIN:VEVENT").write(to: file, atomically: true, encoding: .utf8)
            let changed = try await home.run(["import", file.path, "ann:Family", "--format", "json"])
            #expect(changed.status == 0, "\(changed.stderr)")
            let update = try JSONOutput.object(changed.stdout)
            #expect(update["created"] as? Int == 0 && update["updated"] as? Int == 1, "\(changed.stdout)")
            let renamed = try await events(home, "ann:Family")
            #expect(renamed.count == target.count)
            #expect(renamed.filter { $0["title"] as? String == "Renamed in the file" }.count == 1)
        }
    }

    @Test("a bad file: exit 2, one line naming the line; nothing read from the accounts")
    func refused() async throws {
        let directory = try TemporaryDirectory(prefix: "calbridge-ics")
        defer { directory.remove() }
        let bad = directory.url.appendingPathComponent("bad.ics")
        try "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20260231T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(to: bad, atomically: true, encoding: .utf8)
        let environment = ["CALBRIDGE_HOME": directory.url.appendingPathComponent("home").path, "TZ": "UTC"]
        let result = try await CalbridgeBinary.run(["import", bad.path, "ann:Family"], environment: environment)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("line 5") && result.stderr.contains("not a real date"), "\(result.stderr)")
        let missing = try await CalbridgeBinary.run(
            ["import", directory.url.appendingPathComponent("none.ics").path, "ann:Family"], environment: environment)
        #expect(missing.status == 2, "\(missing.stderr)")
        #expect(missing.stderr.contains("no such file"), "\(missing.stderr)")
    }
}
