import Foundation
import Sandbox
import Testing
import TestSupport

@Suite("calbridge quick-add CALENDAR_REF TEXT, end to end against the sandbox")
struct QuickAddCommandTests {
    @Test("Outlook: read locally in the mailbox zone (Pacific), created, and listed at that instant")
    func outlookLocalParser() async throws {
        try await SandboxHome.with { home in
            let result = try await home.run([
                "quick-add", "carol:Calendar", "Lunch with Ann tomorrow 1pm at Cafe Luna",
                "--now", "2027-03-13T09:00:00-08:00", "--format", "json",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let event = try JSONOutput.object(result.stdout)
            #expect(event["title"] as? String == "Lunch with Ann")
            #expect(event["location"] as? String == "Cafe Luna")
            // Tomorrow is the spring-forward day: 13:00 is PDT.
            #expect(event["start"] as? String == "2027-03-14T20:00:00+00:00")
            #expect(event["end"] as? String == "2027-03-14T21:00:00+00:00")
            #expect(event["timeZone"] as? String == "America/Los_Angeles")
            let listed = try await home.run([
                "events", "carol:Calendar", "--from", "2027-03-14", "--to", "2027-03-15", "--tz", "America/Los_Angeles", "--format", "tsv",
            ])
            #expect(listed.stdout.contains("2027-03-14T13:00:00-07:00\t2027-03-14T14:00:00-07:00\tfalse\tLunch with Ann\tCafe Luna"), "\(listed.stdout)")
        }
    }

    @Test("Google: the server's quickAdd creates the event; the table names the calendar, id and link")
    func googleServerQuickAdd() async throws {
        try await SandboxHome.with { home in
            let before = home.sandbox.requestLog.filter { $0.path.contains("/quickAdd") }.count
            let result = try await home.run(["quick-add", "ann:Family", "Lunch with Ann tomorrow 1pm at Cafe Luna"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("calendar: ann:Family"))
            #expect(result.stdout.contains("link:     https://"))
            #expect(home.sandbox.requestLog.filter { $0.path.contains("/quickAdd") }.count == before + 1)
            let id = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("id:") }?.split(separator: " ").last)
            let json = try await home.run(["quick-add", "ann:Family", "Dentist Friday 3pm", "--format", "json"])
            #expect(try JSONOutput.object(json.stdout)["id"] as? String != String(id))
        }
    }

    @Test("--dry-run with a calendar sends nothing; read-only, unknown and revoked calendars fail with 2, 2 and 3")
    func dryRunAndErrors() async throws {
        try await SandboxHome.with { home in
            let requests = home.sandbox.requestLog.count
            let dry = try await home.run(["quick-add", "carol:Calendar", "Lunch tomorrow 1pm", "--dry-run", "--tz", "UTC"])
            #expect(dry.status == 0)
            #expect(dry.stdout.contains("Lunch"))
            #expect(home.sandbox.requestLog.count == requests)

            let readOnly = try await home.run(["quick-add", "carol:Contoso Holidays", "Lunch tomorrow 1pm"])
            #expect(readOnly.status == 2)
            #expect(readOnly.stderr.contains("read-only"))
            let unknown = try await home.run(["quick-add", "carol:Nope", "Lunch tomorrow 1pm"])
            #expect(unknown.status == 2)
            let nothing = try await home.run(["quick-add", "carol:Calendar", "tomorrow"])
            #expect(nothing.status == 2, "\(nothing.stderr)")

            await home.sandbox.tokens.revokeAll(user: home.user(.microsoft), provider: .microsoft)
            let revoked = try await home.run(["quick-add", "carol:Calendar", "Lunch tomorrow 1pm"])
            #expect(revoked.status == 3)
            #expect(revoked.stderr.contains("calbridge accounts add \(home.signIn.descriptorFile("microsoft")) --name carol"))
        }
    }
}
