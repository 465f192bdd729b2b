import Foundation
import HTTP
import Sandbox
import TestSupport
import Testing
import LoopbackServer

@Suite("Graph emulator: authentication, error bodies, concurrency, garbage, state")
struct GraphErrorTests {
    @Test("401s: no token, malformed token, expired token; each with Graph's body and WWW-Authenticate")
    func unauthorized() async throws {
        let emulator = try GraphTest.emulator()
        let none = try await GraphTest.send(emulator, "GET", "/v1.0/me", as: nil)
        #expect(none.status == 401)
        #expect(none.errorCode == "InvalidAuthenticationToken")
        #expect(none.errorMessage == "Access token is empty.")
        #expect(none.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
        let garbage = try await GraphTest.send(emulator, "GET", "/v1.0/me", as: nil, headers: ["Authorization": "Bearer abc"])
        #expect(garbage.status == 401)
        #expect(garbage.errorMessage?.hasPrefix("IDX14100: JWT is not well formed, there are no dots (.).") == true)
        let expired = try await GraphTest.send(emulator, "GET", "/v1.0/me/calendarView", as: nil, headers: ["Authorization": "Bearer expired"])
        #expect(expired.status == 401)
        #expect(expired.errorMessage == "Access token has expired or is not yet valid.")
    }

    @Test("every error has exactly {error: {code, message, innerError: {date, request-id, client-request-id}}}")
    func errorShape() async throws {
        let emulator = try GraphTest.emulator()
        let reply = try await GraphTest.send(emulator, "GET", "/v1.0/me/events/AAMkADnope=",
                                             headers: ["client-request-id": "11111111-2222-4333-8444-555555555555"])
        #expect(reply.status == 404)
        #expect(Set(reply.json.keys) == ["error"])
        let error = try #require(reply.json["error"] as? [String: Any])
        #expect(Set(error.keys) == ["code", "message", "innerError"])
        let inner = try #require(error["innerError"] as? [String: Any])
        #expect(Set(inner.keys) == ["date", "request-id", "client-request-id"])
        #expect(inner["date"] as? String == "2026-03-04T12:00:00")
        #expect(inner["client-request-id"] as? String == "11111111-2222-4333-8444-555555555555")
        #expect(UUID(uuidString: inner["request-id"] as? String ?? "") != nil)
        #expect(reply.headers["request-id"] == inner["request-id"] as? String)
        #expect(reply.headers["Content-Type"]?.hasPrefix("application/json") == true)
    }

    @Test("the public error helper builds the same shape for the core's fault injector, with Retry-After")
    func publicHelper() throws {
        let response = GraphError.mailboxConcurrency(retryAfter: 3).response(requestID: "r", clientRequestID: "c", date: GraphTest.now)
        #expect(response.status == 429)
        #expect(response.headers["Retry-After"] == "3")
        let json = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(json.string("error.code") == "ApplicationThrottled")
        #expect(json.string("error.message")?.contains("MailboxConcurrency") == true)
        #expect(json.string("error.innerError.request-id") == "r")
        #expect(GraphError.serviceUnavailable(retryAfter: 5).response().headers["Retry-After"] == "5")
        #expect(GraphError.throttled(retryAfter: 2).status == 429)
    }

    @Test("unknown segments and methods are 400 / 405 with Graph's codes")
    func unknownPaths() async throws {
        let emulator = try GraphTest.emulator()
        let segment = try await GraphTest.send(emulator, "GET", "/v1.0/me/contacts")
        #expect(segment.status == 400)
        #expect(segment.errorMessage == "Resource not found for the segment 'contacts'.")
        let top = try await GraphTest.send(emulator, "GET", "/v1.0/groups")
        #expect(top.status == 400)
        let method = try await GraphTest.send(emulator, "PUT", "/v1.0/me/events")
        #expect(method.status == 405)
    }

    @Test("MailboxConcurrency: with 6 concurrent requests to one mailbox exactly 2 get 429 ApplicationThrottled")
    func concurrency() async throws {
        // The admitted requests hold their slots until the gate opens, so all six are in at once however
        // loaded the machine is; the gate opens when two were turned away (or after 10 s, so a broken
        // limit fails the expectations below instead of hanging).
        let gate = Gate()
        let emulator = try GraphTest.emulator(holdSlot: { await gate.wait() })
        let statuses = try await withThrowingTaskGroup(of: GraphReply?.self) { group in
            for _ in 0..<6 { group.addTask { try await GraphTest.send(emulator, "GET", "/v1.0/me") } }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                await gate.open()
                return nil
            }
            var replies: [GraphReply] = []
            for try await reply in group {
                guard let reply else { continue }
                replies.append(reply)
                if replies.filter({ $0.status == 429 }).count == 2 { await gate.open() }
                if replies.count == 6 { group.cancelAll() }
            }
            return replies
        }
        #expect(statuses.filter { $0.status == 200 }.count == 4)
        let throttled = statuses.filter { $0.status == 429 }
        #expect(throttled.count == 2)
        #expect(throttled.allSatisfy { $0.errorCode == "ApplicationThrottled" && $0.headers["Retry-After"] != nil })
        #expect(throttled.allSatisfy { $0.errorMessage?.contains("MailboxConcurrency") == true })
        // Another mailbox is not affected, and the slots are free again afterwards.
        let other = try await GraphTest.send(emulator, "GET", "/v1.0/me", as: GraphTest.dan)
        #expect(other.status == 200)
        #expect(try await GraphTest.send(emulator, "GET", "/v1.0/me").status == 200)
    }

    @Test("garbage never crashes: bad JSON, bad dates, odd paths and headers all get answers, and serving goes on")
    func garbage() async throws {
        let emulator = try GraphTest.emulator()
        let requests: [(String, String, Data, [String: String])] = [
            ("POST", "/v1.0/me/events", Data([0xFF, 0xFE, 0x00]), [:]),
            ("POST", "/v1.0/me/events", Data("[1,2,3]".utf8), [:]),
            ("POST", "/v1.0/me/events", Data("{\"start\": {\"dateTime\": 5}, \"end\": null}".utf8), [:]),
            ("POST", "/v1.0/me/events", Data("{\"start\": {\"dateTime\": \"2026-03-05T25:00\"}, \"end\": {\"dateTime\": \"x\"}}".utf8), [:]),
            ("POST", "/v1.0/me/events", Data("{\"subject\": \"r\", \"start\": {\"dateTime\": \"2026-03-05T10:00\"}, \"end\": {\"dateTime\": \"2026-03-05T11:00\"}, \"recurrence\": {\"pattern\": {\"type\": \"weekly\", \"interval\": 0}, \"range\": {}}}".utf8), [:]),
            ("POST", "/v1.0/me/events", Data("{\"subject\": \"r\", \"start\": {\"dateTime\": \"2026-03-05T10:00\"}, \"end\": {\"dateTime\": \"2026-03-05T11:00\"}, \"recurrence\": {\"pattern\": {\"type\": \"weekly\"}, \"range\": {\"type\": \"noEnd\", \"startDate\": \"2026-03-05\"}}}".utf8), [:]),
            ("PATCH", "/v1.0/me/events/AAMkOC%2F%2F%2F", Data("{}".utf8), [:]),
            ("GET", "/v1.0/me/events/AAMkOCbm90LWJhc2U2NA==", Data(), [:]),
            ("GET", "/v1.0/me/calendarView?startDateTime=2026-13-45&endDateTime=%%%", Data(), [:]),
            ("GET", "/v1.0/me/calendarView?startDateTime=2026-03-01T00:00:00Z&endDateTime=2026-03-02T00:00:00Z&$top=-1", Data(), [:]),
            ("GET", "/v1.0/me/calendarView?startDateTime=2026-03-01T00:00:00Z&endDateTime=2026-03-02T00:00:00Z&$top=abc&$skip=9999999999999999999999", Data(), [:]),
            ("GET", "/v1.0/me/calendarView?startDateTime=0001-01-01T00:00:00Z&endDateTime=9999-12-31T00:00:00Z", Data(), [:]),
            ("GET", "/v1.0/me/events?$filter=singleValueExtendedProperties/Any(ep: ep/id eq 'unterminated", Data(), [:]),
            ("GET", "/v1.0/me/events?$filter=((((", Data(), [:]),
            ("GET", "/v1.0/me/events?$orderby=start/dateTime%20sideways", Data(), [:]),
            ("GET", "/v1.0/me/events?$expand=attachments", Data(), [:]),
            ("GET", "/v1.0/me/events?$select=", Data(), ["Prefer": "outlook.timezone=\"\", odata.maxpagesize=x"]),
            ("GET", "/v1.0/me/events", Data(), ["Prefer": "outlook.timezone=\"Pacific Standard Time"]),
            ("GET", "/v1.0//me//", Data(), [:]),
            ("DELETE", "/v1.0/me", Data(), [:]),
            ("POST", "/v1.0/$batch", Data("{\"requests\": [{\"id\": \"1\", \"method\": \"GET\", \"url\": \"/$batch\"}, {\"id\": \"2\", \"method\": \"GET\", \"url\": \"https://graph.microsoft.com/v1.0/me\"}, {\"id\": \"3\", \"method\": \"GET\", \"url\": \"\"}]}".utf8), [:]),
        ]
        for (method, target, body, headers) in requests {
            let reply = try await GraphTest.send(emulator, method, target, headers: headers, body: body)
            #expect((200...599).contains(reply.status), "\(method) \(target)")
            if reply.status >= 400 { #expect(reply.errorCode != nil, "\(method) \(target)") }
        }
        #expect(try await GraphTest.send(emulator, "GET", "/v1.0/me").status == 200)
    }

    @Test("snapshot and restore carry created events across emulator instances")
    func snapshotRestore() async throws {
        let first = try GraphTest.emulator()
        let created = try await GraphTest.send(first, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Persisted", start: "2026-03-05T10:00:00", end: "2026-03-05T11:00:00", extra: ["transactionId": "p-1"]))
        let id = try #require(created.json["id"] as? String)
        let snapshot = try await first.snapshot()
        let second = try GraphTest.emulator()
        #expect(try await GraphTest.send(second, "GET", "/v1.0/me/events/\(id)").status == 404)
        try await second.restore(snapshot)
        let restored = try await GraphTest.send(second, "GET", "/v1.0/me/events/\(id)")
        #expect(restored.json["subject"] as? String == "Persisted")
        let retried = try await GraphTest.send(second, "POST", "/v1.0/me/events", body: GraphTest.newEvent(
            subject: "Persisted", start: "2026-03-05T10:00:00", end: "2026-03-05T11:00:00", extra: ["transactionId": "p-1"]))
        #expect(retried.json["id"] as? String == id)
        await #expect(throws: (any Error).self) { try await second.restore(Data("nope".utf8)) }
    }

    @Test("a malformed seed is a clear error, not a crash")
    func badSeed() {
        for seed in ["", "{}", "{\"users\": [{\"mail\": \"a@b\"}]}",
                     "{\"users\": [{\"mail\": \"a@b\", \"displayName\": \"A\", \"mailboxSettings\": {\"timeZone\": \"Mars Standard Time\"}}]}",
                     "{\"users\": [{\"mail\": \"a@b\", \"displayName\": \"A\", \"calendars\": [{\"name\": \"C\", \"isDefaultCalendar\": true, \"events\": [{\"subject\": \"x\", \"start\": \"\", \"end\": \"week\"}]}]}]}"] {
            #expect(throws: GraphSeedError.self) {
                _ = try GraphEmulator(seed: Data(seed.utf8), tokens: StubGraphTokens(), timeZoneNames: GraphTest.zones)
            }
        }
    }

    @Test("through the loopback server: a real HTTP round trip with Host-based nextLink")
    func overHTTP() async throws {
        let emulator = try GraphTest.emulator()
        let server = LoopbackHTTPServer { request in
            await emulator.handle(request) ?? .text(404, "not found")
        }
        let port = try server.start()
        defer { server.stop() }
        let token = "token-\(GraphTest.carol)"
        let reply = try await blocking { () -> (status: Int, body: String)? in
            let client = try RawHTTPClient(port: port)
            client.send("GET /v1.0/me/calendars?$top=1 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n\r\n")
            return client.readResponse().map { ($0.status, $0.body) }
        }
        #expect(reply?.status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: Data((reply?.body ?? "").utf8)) as? [String: Any])
        #expect((json["@odata.nextLink"] as? String)?.hasPrefix("http://127.0.0.1:\(port)/v1.0/me/calendars?") == true)
    }
}
