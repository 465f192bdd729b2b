import Foundation
import Sandbox
import TestSupport
import Testing

/// `calbridge sync conflicts restore ID`, the built binary against the sandbox: a two-way pair between carol's
/// Outlook calendar and ann's Google calendar "Family".
@Suite("calbridge sync conflicts restore, end to end against the sandbox")
struct SyncConflictRestoreEndToEndTests {
    typealias Sync = SyncEndToEndTests

    @Test(
        "an edit that lost goes back onto its Outlook event and the next sync carries it to Google; a lost deletion deletes again; bad ids exit 2"
    )
    func restore() async throws {
        try await SandboxHome.with(seed: .withoutEvents) { home in
            let api = home.api
            let family = try await api.googleCalendarID("Family")
            let sync = Sync()
            _ = try await api.graphCreate(Sync.graphEvent("Review", day: 2))
            _ = try await api.graphCreate(Sync.graphEvent("Call", day: 3))
            let add = try await home.run(["sync", "add", "p", "--a", Sync.outlook, "--b", Sync.google, "--direction", "both"])
            #expect(add.status == 0, "\(add.stderr)")
            _ = try await sync.sync(home)

            // Review edited on both sides (Google's edit newer: it wins); Call deleted on Google, edited on Outlook.
            let outlook = try await api.graphEventsBySubject("Calendar")
            let google = try SandboxAPI.byTitle(try await sync.googleStored(api, family), key: "summary")
            let reviewA = try #require(outlook["Review"]?["id"] as? String)
            let reviewB = try #require(google["Review"]?["id"] as? String)
            let callA = try #require(outlook["Call"]?["id"] as? String)
            let callB = try #require(google["Call"]?["id"] as? String)
            try await api.ok(.microsoft, "PATCH", "/v1.0/me/events/\(reviewA)", json: ["subject": "Review (Outlook edit)"])
            try await api.ok(.microsoft, "PATCH", "/v1.0/me/events/\(callA)", json: ["subject": "Call (moved)"])
            _ = try await api.send(.google, "DELETE", SandboxAPI.googlePath(family, "/\(callB)"))
            try await Task.sleep(for: .milliseconds(1100))
            try await api.ok(.google, "PATCH", SandboxAPI.googlePath(family, "/\(reviewB)"), json: ["summary": "Review (Google edit)"])
            let second = try await home.run(["sync"])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.contains("B's deletion is kept in sync.db"), "\(second.stdout)")
            #expect(try await sync.outlookTitles(api) == ["Call (moved)", "Review (Google edit)"])
            #expect(try await sync.googleTitles(api, family) == ["Call (moved)", "Review (Google edit)"])

            let listed = try JSONOutput.object(try await home.run(["sync", "conflicts", "--format", "json"]).stdout)
            let entries = listed["conflicts"] as? [[String: Any]] ?? []
            #expect(entries.count == 2, "\(listed)")
            let review = try #require(entries.first { ($0["title"] as? String)?.hasPrefix("Review") == true })
            let call = try #require(entries.first { ($0["title"] as? String)?.hasPrefix("Call") == true })
            let reviewID = try #require(review["id"] as? Int)
            let callID = try #require(call["id"] as? Int)
            let table = try await home.run(["sync", "conflicts"])
            #expect(table.stdout.contains("(deleted)"), "\(table.stdout)")

            // The edit that lost: written back onto the Outlook event it came from, under its own id.
            let restored = try await home.run(["sync", "conflicts", "restore", String(reviewID)])
            #expect(restored.status == 0, "\(restored.stderr)")
            #expect(restored.stdout.contains("Restored conflict \(reviewID) of sync pair 'p'"), "\(restored.stdout)")
            let outlookAfter = try await api.graphEventsBySubject("Calendar")
            #expect(outlookAfter["Review (Outlook edit)"]?["id"] as? String == reviewA, "\(outlookAfter.keys)")
            // The lost deletion: the event made again on Google is deleted again.
            let deleted = try await home.run(["sync", "conflicts", "restore", String(callID), "--format", "json"])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(try JSONOutput.object(deleted.stdout)["action"] as? String == "deleted", "\(deleted.stdout)")
            #expect(try await sync.googleTitles(api, family) == ["Review (Google edit)"])

            // The next sync carries both: one event on each side, with the restored title; nothing duplicated.
            let third = try await sync.sync(home)
            #expect((third["conflicts"] as? [Any])?.isEmpty == true, "\(third)")
            #expect(try await sync.outlookTitles(api) == ["Review (Outlook edit)"])
            #expect(try await sync.googleTitles(api, family) == ["Review (Outlook edit)"])

            for bad in ["abc", "0", "9999"] {
                let refused = try await home.run(["sync", "conflicts", "restore", bad])
                #expect(refused.status == 2, "\(bad): \(refused.stderr)")
                #expect(refused.stderr.contains("'calbridge sync conflicts' lists them"), "\(refused.stderr)")
            }
        }
    }
}
