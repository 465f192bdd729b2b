import Foundation
import Sandbox
import TestSupport
import Testing

/// `calbridge import --prune`, the built binary, against the sandbox.
@Suite("calbridge import --prune, end to end against the sandbox")
struct ImportPruneEndToEndTests {
    @Test("events gone from a file since its last import are deleted; another file's events are not")
    func prune() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let a = home.directory.url.appendingPathComponent("a.ics")
            let b = home.directory.url.appendingPathComponent("b.ics")
            try FeedServer.calendar(FeedServer.matches(1...4, prefix: "a")).write(to: a, atomically: true, encoding: .utf8)
            try FeedServer.calendar([(uid: "b-1@example", title: "Other file", day: 20, location: "")]).write(
                to: b, atomically: true, encoding: .utf8)
            for file in [a, b] {
                let run = try await home.run(["import", file.path, "ann:primary", "--format", "json"])
                #expect(run.status == 0, "\(run.stderr)")
            }

            // a.ics loses two events; --dry-run says so and deletes nothing.
            try FeedServer.calendar(FeedServer.matches(1...2, prefix: "a")).write(to: a, atomically: true, encoding: .utf8)
            let dry = try await home.run(["import", a.path, "ann:primary", "--prune", "--dry-run", "--format", "json"])
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(try JSONOutput.object(dry.stdout)["deleted"] as? Int == 2, "\(dry.stdout)")
            let mark = home.sandbox.log.count
            let pruned = try await home.run(["import", a.path, "ann:primary", "--prune", "--format", "json"])
            #expect(pruned.status == 0, "\(pruned.stderr)")
            let result = try JSONOutput.object(pruned.stdout)
            #expect(result["deleted"] as? Int == 2 && result["created"] as? Int == 0, "\(pruned.stdout)")
            #expect(home.apiMethods(since: mark).contains("DELETE"))

            let listed = try await home.run(["events", "ann:primary", "--tz", "UTC", "--format", "json"] + CopyFixtures.windowOptions)
            let titles = (try JSONOutput.object(listed.stdout)["events"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            #expect(titles.sorted() == ["Match 1", "Match 2", "Other file"], "\(titles)")

            // Again: nothing to prune; and - cannot prune.
            let again = try await home.run(["import", a.path, "ann:primary", "--prune", "--format", "json"])
            #expect(try JSONOutput.object(again.stdout)["deleted"] as? Int == 0, "\(again.stdout)")
            let stdin = try await home.run(["import", "-", "ann:primary", "--prune"])
            #expect(stdin.status == 2 && stdin.stderr.contains("--prune needs the file's path"), "\(stdin.stderr)")
        }
    }
}
