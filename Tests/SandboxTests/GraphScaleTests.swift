import Foundation
import HTTP
import Testing

@testable import Sandbox

/// What one request costs the Graph emulator must not grow with the number of mailboxes: the organisation
/// benchmark runs 2,000 of them in one process, and until 2026-12-05 every delta read copied and scanned every
/// mailbox's delta tokens and every request compared its address with every mailbox's. Measured by the
/// emulator's own work counts (`GraphEmulatorWork`), which do not depend on the machine's load.
@Suite("Graph emulator: per-request work and the number of mailboxes")
struct GraphScaleTests {
    /// The organisation seed's last Outlook mailbox of `count` (the furthest from the start of any list).
    static func last(_ count: Int) -> String { "outlook\(count - 1)@contoso.sandbox" }

    /// An emulator seeded with `count` app-only mailboxes, each with a delta token, as after a first sync; the
    /// delta link of the last mailbox.
    static func synced(mailboxes count: Int) async throws -> (GraphEmulator, String) {
        let seed = try SandboxSeed.organisation(pairs: count)
        let emulator = try GraphEmulator(
            seed: try #require(seed.parts["microsoft"]), tokens: StubGraphTokens(), now: { GraphTest.now }, timeZoneNames: GraphTest.zones)
        var lastLink = ""
        for index in 0..<count {
            lastLink = try await deltaLink(
                emulator,
                "/v1.0/users/outlook\(index)@contoso.sandbox/calendarView/delta?startDateTime=2026-03-01T00:00:00Z&endDateTime=2026-04-01T00:00:00Z"
            )
        }
        return (emulator, lastLink)
    }

    /// Follows one delta round from `target` to its delta link, with the app-only token that reaches every mailbox.
    static func deltaLink(_ emulator: GraphEmulator, _ target: String) async throws -> String {
        var next = target
        for _ in 0..<20 {
            let reply = try await GraphAppOnlyTests.send(emulator, GraphDeltaTests.path(next), token: "app-all")
            try #require(reply.status == 200, "\(reply.errorCode ?? "") \(reply.errorMessage ?? "")")
            if let link = reply.json["@odata.deltaLink"] as? String { return link }
            next = try #require(reply.json["@odata.nextLink"] as? String)
        }
        Issue.record("no delta link after 20 pages")
        return ""
    }

    /// The work of an idle cycle's Graph request (the last mailbox's delta read, nothing changed).
    static func idleWork(mailboxes count: Int) async throws -> GraphEmulatorWork {
        let (emulator, link) = try await synced(mailboxes: count)
        let before = await emulator.work
        let reply = try await GraphAppOnlyTests.send(emulator, GraphDeltaTests.path(link), token: "app-all")
        #expect(reply.status == 200)
        #expect(reply.value.isEmpty, "nothing changed")
        return await emulator.work.since(before)
    }

    @Test("an idle delta read costs the same with 10 mailboxes as with 2,000 (mailboxes compared, delta states visited)")
    func idleDeltaRead() async throws {
        let small = try await Self.idleWork(mailboxes: 10)
        let large = try await Self.idleWork(mailboxes: 2_000)
        // A scan of every mailbox, or of every mailbox's tokens, would cost about 200 times as much.
        #expect(small.mailboxesCompared >= 1 && small.deltaStatesVisited >= 1, "the counts are kept: \(small)")
        #expect(large.mailboxesCompared <= 2 * small.mailboxesCompared, "10: \(small), 2,000: \(large)")
        #expect(large.deltaStatesVisited <= 2 * small.deltaStatesVisited, "10: \(small), 2,000: \(large)")
    }
}
