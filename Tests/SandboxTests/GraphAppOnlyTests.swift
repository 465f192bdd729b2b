import Foundation
import HTTP
import LoopbackServer
import Testing

@testable import Sandbox

/// Graph with app-only tokens: `/users/{id or UPN}` paths, the RBAC scope's 403, Outlook's per-mailbox budget.
@Suite("Graph emulator: app-only access")
struct GraphAppOnlyTests {
    static func send(_ emulator: GraphEmulator, _ target: String, method: String = "GET", token: String, body: Data = Data()) async throws
        -> GraphReply
    {
        let request = ServerRequest(
            method: method, target: target,
            headers: ["Host": "127.0.0.1:8765", "Authorization": "Bearer \(token)", "Content-Type": "application/json"],
            body: body
        )
        let response = try #require(await emulator.handle(request))
        return GraphReply(status: response.status, headers: response.headers, body: response.body)
    }

    @Test("an app token reaches a mailbox by UPN or id, and /me is refused as Graph refuses it")
    func usersPaths() async throws {
        let emulator = try GraphTest.emulator()
        let byName = try await Self.send(emulator, "/v1.0/users/\(GraphTest.carol)/calendars", token: "app-all")
        #expect(byName.status == 200)
        #expect(!byName.value.isEmpty)
        let profile = try await Self.send(emulator, "/v1.0/users/\(GraphTest.dan)", token: "app-all")
        let id = try #require(profile.json["id"] as? String)
        #expect(profile.json["mail"] as? String == GraphTest.dan)
        let byID = try await Self.send(emulator, "/v1.0/users/\(id)/calendar", token: "app-all")
        #expect(byID.status == 200)
        let me = try await Self.send(emulator, "/v1.0/me/calendars", token: "app-all")
        #expect(me.status == 400)
        #expect(me.errorMessage == "/me request is only valid with delegated authentication flow.")
        let nobody = try await Self.send(emulator, "/v1.0/users/nobody@contoso.sandbox/calendars", token: "app-all")
        #expect(nobody.status == 404)
        #expect(nobody.errorCode == "ErrorInvalidUser")
    }

    @Test("a mailbox outside the app's RBAC scope answers 403 ErrorAccessDenied, inside it 200, also in $batch")
    func rbacScope() async throws {
        let emulator = try GraphTest.emulator()
        #expect(try await Self.send(emulator, "/v1.0/users/\(GraphTest.carol)/calendars", token: "app-carol").status == 200)
        let outside = try await Self.send(emulator, "/v1.0/users/\(GraphTest.dan)/calendars", token: "app-carol")
        #expect(outside.status == 403)
        #expect(outside.errorCode == "ErrorAccessDenied")
        let batch = try JSONSerialization.data(withJSONObject: [
            "requests": [
                ["id": "1", "method": "GET", "url": "/users/\(GraphTest.carol)/calendars"],
                ["id": "2", "method": "GET", "url": "/users/\(GraphTest.dan)/calendars"],
            ]
        ])
        let reply = try await Self.send(emulator, "/v1.0/$batch", method: "POST", token: "app-carol", body: batch)
        let statuses = (reply.json["responses"] as? [[String: Any]] ?? []).reduce(into: [String: Int]()) {
            $0[$1["id"] as? String ?? ""] = $1["status"] as? Int
        }
        #expect(statuses == ["1": 200, "2": 403])
    }

    @Test("past its request budget a mailbox answers 429 ApplicationThrottled with Retry-After; other mailboxes go on; the window moves")
    func perMailboxBudget() async throws {
        let clock = SandboxTestClock(GraphTest.now)
        let emulator = try GraphEmulator(
            seed: GraphEmulator.defaultSeed, tokens: StubGraphTokens(), now: { clock.now }, timeZoneNames: GraphTest.zones,
            mailboxRequestLimit: 3, mailboxRequestWindow: 600
        )
        for _ in 0..<3 { #expect(try await Self.send(emulator, "/v1.0/users/\(GraphTest.carol)/calendar", token: "app-all").status == 200) }
        clock.advance(100)
        let throttled = try await Self.send(emulator, "/v1.0/users/\(GraphTest.carol)/calendar", token: "app-all")
        #expect(throttled.status == 429)
        #expect(throttled.errorCode == "ApplicationThrottled")
        #expect(throttled.headers["Retry-After"] == "500")
        #expect(try await Self.send(emulator, "/v1.0/users/\(GraphTest.dan)/calendar", token: "app-all").status == 200)
        clock.advance(501)
        #expect(try await Self.send(emulator, "/v1.0/users/\(GraphTest.carol)/calendar", token: "app-all").status == 200)
    }
}
