import Foundation
import Testing
import TestSupport

@Suite("calbridge demo")
struct DemoCommandTests {
    @Test("runs from any directory with the compiled-in seeds: exit 0, every section, temporary home removed")
    func demo() async throws {
        let elsewhere = try TemporaryDirectory(prefix: "calbridge-demo-cwd")
        defer { elsewhere.remove() }
        // `env -C DIR calbridge demo`: started in an unrelated directory, as after a fresh clone.
        let result = try await Self.run(
            ["-C", elsewhere.path, CalbridgeBinary.url.path, "demo", "--tz", "UTC"],
            environment: ["CALBRIDGE_HOME": elsewhere.path + "/untouched"]
        )
        #expect(result.status == 0, "\(result.stderr)")
        for section in [
            "== 1. A sandbox", "== 2. Sign in", "== 3. Every calendar", "== 4. Quick add", "== 5. This week", "== 6. Copy",
            "== 7. And to iCloud",
        ] {
            #expect(result.stdout.contains(section), "missing \(section)")
        }
        #expect(result.stdout.contains("account name 'ann'"))
        #expect(result.stdout.contains("account name 'carol'"))
        #expect(result.stdout.contains("$ calbridge calendars"))
        #expect(result.stdout.contains("carol:Calendar"))
        #expect(result.stdout.contains("ann:Family"))
        // Both quick adds created the lunch, and this week's listings show it (unless tomorrow is next week).
        #expect(result.stdout.components(separatedBy: "Lunch with Ann").count >= 3, "\(result.stdout)")
        #expect(result.stdout.contains("Cafe Luna"))
        // The copy step: the real copy twice, the second run writing nothing, then Google's week again.
        let copySection = try #require(result.stdout.components(separatedBy: "== 6. Copy").last)
        let summaries = copySection.split(separator: "\n").filter { $0.hasPrefix("Copied carol:Calendar -> ann:") }
        #expect(summaries.count == 2, "\(copySection)")
        if summaries.count == 2 {
            // Outlook's week holds at least the quick-added lunch, so the first run creates something.
            #expect(!summaries[0].contains(": 0 created"), "\(summaries[0])")
            #expect(summaries[0].hasSuffix(" 0 failed"), "\(summaries[0])")
            #expect(summaries[1].contains(": 0 created, 0 updated, "), "\(summaries[1])")
            #expect(summaries[1].contains(" 0 deleted, 0 skipped, 0 failed"), "\(summaries[1])")
        }
        #expect(copySection.components(separatedBy: "$ calbridge copy carol:Calendar ann:primary --from ").count == 3)
        #expect(copySection.contains("$ calbridge events ann:primary"), "\(copySection)")
        // The CalDAV account: signed in from the sandbox's caldav.json with $CALBRIDGE_PASSWORD, its calendars
        // listed, the lunch quick-added, this week's Outlook events copied to it.
        #expect(result.stdout.contains("$ calbridge accounts add "), "\(result.stdout)")
        #expect(result.stdout.contains("/descriptors/caldav.json --user dana@icloud.sandbox --name dana"))
        #expect(!result.stdout.contains("sbxa-dana-app-pass"))
        #expect(result.stdout.contains("Signed in to CalDAV as Dana Ito <dana@icloud.sandbox>; account name 'dana'"))
        #expect(result.stdout.contains("dana:Home"))
        #expect(result.stdout.contains("$ calbridge quick-add dana:home "))
        let caldavSection = try #require(result.stdout.components(separatedBy: "== 7. ").last)
        let caldavCopy = caldavSection.split(separator: "\n").filter { $0.hasPrefix("Copied carol:Calendar -> dana:") }
        #expect(caldavCopy.count == 1 && caldavCopy.first?.hasSuffix(" 0 failed") == true, "\(caldavSection)")
        #expect(caldavCopy.first?.contains(": 0 created") == false, "\(caldavSection)")
        // Its temporary home is gone, and the user's home was never used.
        let home = try #require(result.stdout.split(separator: "\n").first { $0.contains("/descriptors/google.json") })
        let path = try #require(home.split(separator: " ").first { $0.hasSuffix("/descriptors/google.json") })
        #expect(!FileManager.default.fileExists(atPath: String(path)))
        #expect(!FileManager.default.fileExists(atPath: elsewhere.path + "/untouched"))
    }

    static func run(_ arguments: [String], environment: [String: String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }
        )
        return (result.status, result.stdout, result.stderr)
    }
}
