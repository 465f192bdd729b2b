import Foundation
import Sandbox
import TestSupport
import Testing

/// The date grammar end to end, one command each: `add --start`, `events --from/--to` and `copy
/// --from/--to` take "tomorrow 9am", "tomorrow" and "+1d" as quick-add reads them, in the zone given.
@Suite("Date options end to end: add, events and copy take the quick-add grammar")
struct DateOptionsEndToEndTests {
    /// Tomorrow in UTC, as the commands read "tomorrow" with --tz UTC.
    static func tomorrow() -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = calendar.date(byAdding: .day, value: 1, to: Date())!
        let parts = calendar.dateComponents([.year, .month, .day], from: day)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    @Test("add --start 'tomorrow 9am', events --from tomorrow --to tomorrow, copy --from tomorrow --to +1d")
    func oneGrammar() async throws {
        try await SandboxHome.with { home in
            let day = Self.tomorrow()
            let created = try await home.run([
                "add", "ann:Family", "--title", "Grammar probe", "--start", "tomorrow 9am", "--tz", "UTC", "--format", "json",
            ])
            #expect(created.status == 0, "\(created.stderr)")
            #expect(try JSONOutput.object(created.stdout)["start"] as? String == "\(day)T09:00:00+00:00")

            // --to a date includes that day: "--from tomorrow --to tomorrow" is the whole of tomorrow.
            let listed = try await home.run([
                "events", "ann:Family", "--from", "tomorrow", "--to", "tomorrow", "--tz", "UTC", "--format", "json",
            ])
            #expect(listed.status == 0, "\(listed.stderr)")
            let document = try JSONOutput.object(listed.stdout)
            #expect(document["from"] as? String == "\(day)T00:00:00+00:00")
            let titles = (document["events"] as? [[String: Any]])?.compactMap { $0["title"] as? String } ?? []
            #expect(titles.contains("Grammar probe"), "\(listed.stdout)")

            let copied = try await home.run(["copy", "ann:Family", "carol:Calendar", "--from", "tomorrow", "--to", "+1d", "--tz", "UTC"])
            #expect(copied.status == 0, "\(copied.stderr)")
            let target = try await home.run([
                "events", "carol:Calendar", "--from", "tomorrow", "--to", "+1d", "--tz", "UTC", "--format", "json",
            ])
            let copiedTitles =
                (try JSONOutput.object(target.stdout)["events"] as? [[String: Any]])?.compactMap { $0["title"] as? String } ?? []
            #expect(copiedTitles.contains("Grammar probe"), "\(target.stdout)")

            let wrong = try await home.run(["events", "ann:Family", "--from", "every monday"])
            #expect(wrong.status == 2)
            #expect(wrong.stderr.contains("--from takes a date"), "\(wrong.stderr)")
        }
    }
}
