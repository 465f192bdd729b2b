import Foundation
import HTTP
import Sandbox
import TestSupport
import Testing
import LoopbackServer

@Suite("Google emulator: error shapes and robustness")
struct GoogleErrorTests {
    @Test("401: missing, expired and unknown tokens get Google's bodies and WWW-Authenticate")
    func unauthenticated() async throws {
        let emulator = try GoogleFixture.emulator()
        let missing = await emulator.call("GET", "/calendar/v3/users/me/calendarList", as: nil)
        #expect(missing.status == 401)
        #expect(missing.errorReason == "required")
        #expect(missing.json?["error"]?["status"] == "UNAUTHENTICATED")
        #expect(missing.headers["WWW-Authenticate"]?.hasPrefix("Bearer realm=") == true)
        for header in ["Bearer expired", "Bearer nonsense", "Basic abc", "Bearer "] {
            let reply = await emulator.call("GET", "/calendar/v3/users/me/calendarList", as: nil, headers: ["Authorization": header])
            #expect(reply.status == 401, "\(header)")
            #expect(reply.json == GoogleAPIError.invalidCredentials.body)
            #expect(reply.json?["error"]?["message"]?.stringValue?.hasPrefix("Request had invalid authentication credentials.") == true)
            #expect(reply.json?["error"]?["errors"]?.arrayValue?.first?["location"] == "Authorization")
            #expect(reply.headers["WWW-Authenticate"]?.contains("invalid_token") == true)
        }
        let queryToken = await emulator.call("GET", "/calendar/v3/users/me/calendarList?access_token=token-ann.lee%40gmail.sandbox", as: nil)
        #expect(queryToken.status == 200)
        let stranger = await emulator.call("GET", "/calendar/v3/users/me/calendarList", as: "mallory@example.com")
        #expect(stranger.status == 401)
    }

    @Test("400 for bad times and parameters, 404 for unknown paths; other paths are not this component's")
    func badRequests() async throws {
        let emulator = try GoogleFixture.emulator()
        for time in ["2026-10-19", "2026-10-19T00:00:00", "yesterday", "2026-13-01T00:00:00Z", "2026-10-19T25:00:00Z"] {
            let reply = await emulator.list("primary", [("timeMin", time)])
            #expect(reply.status == 400, "\(time)")
            #expect(reply.json == GoogleAPIError.badRequest.body)
        }
        let empty = await emulator.list("primary", [("timeMin", "2026-10-20T00:00:00Z"), ("timeMax", "2026-10-19T00:00:00Z")])
        #expect(empty.status == 400)
        #expect(empty.errorReason == "timeRangeEmpty")
        #expect(await emulator.list("primary", [("maxResults", "-5")]).status == 400)
        #expect(await emulator.list("primary", [("maxResults", "99999")]).status == 200)  // capped, as Google does
        #expect(await emulator.list("primary", [("singleEvents", "maybe")]).status == 400)
        #expect(await emulator.list("primary", [("timeZone", "Mars/Olympus")]).status == 400)
        #expect(await emulator.list("primary", [("orderBy", "summary")]).status == 400)
        #expect(await emulator.call("GET", "/calendar/v3/nothing/here").status == 404)
        #expect(await emulator.call("PUT", GoogleFixture.path("calendars", "primary", "events")).status == 404)
        #expect(await emulator.call("GET", "/v1.0/me").status == -1)
        #expect(await emulator.call("GET", "/token").status == -1)
    }

    @Test("the public error values carry Google's documented reasons, domains and statuses")
    func faultShapes() {
        let rate = GoogleAPIError.rateLimitExceeded
        #expect(rate.body == [
            "error": ["code": 403, "message": "Rate Limit Exceeded", "status": "PERMISSION_DENIED",
                      "errors": [["domain": "usageLimits", "reason": "rateLimitExceeded", "message": "Rate Limit Exceeded"]]],
        ])
        #expect(GoogleAPIError.tooManyRequests.response.status == 429)
        #expect(GoogleAPIError.tooManyRequests.body["error"]?["status"] == "RESOURCE_EXHAUSTED")
        #expect(GoogleAPIError.fullSyncRequired.body["error"]?["errors"]?.arrayValue?.first?["domain"] == "calendar")
        #expect(GoogleAPIError.duplicate.response.headers["Content-Type"] == "application/json; charset=UTF-8")
    }

    @Test("garbage never crashes the emulator, and it keeps answering real requests (also over loopback HTTP)")
    func garbage() async throws {
        let emulator = try GoogleFixture.emulator()
        let events = GoogleFixture.path("calendars", "primary", "events")
        let bodies = ["", "null", "[]", "42", "\"text\"", "{\"start\": 5, \"end\": []}", "{\"start\": {\"dateTime\": 1}}",
                      "{\"recurrence\": \"RRULE\"}", "{\"attendees\": [1, 2]}", "{\"reminders\": {\"overrides\": [{}]}}",
                      "{\"id\": 12345}", "{\"extendedProperties\": {\"private\": {\"a\": 1}}}", String(repeating: "[", count: 5000),
                      "{\"recurrence\": [\"RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30\"], \"start\": {\"dateTime\": \"2026-01-01T00:00:00Z\", \"timeZone\": \"UTC\"}, \"end\": {\"dateTime\": \"2026-01-01T01:00:00Z\", \"timeZone\": \"UTC\"}}",
                      "\u{FF}\u{FE}binary\u{00}"]
        for body in bodies {
            for method in ["POST", "PUT", "PATCH"] {
                let target = method == "POST" ? events : events + "/annkickoff0001"
                let reply = await emulator.call(method, target, body: body)
                #expect(reply.status >= 200 && reply.status < 500, "\(method) \(body.prefix(40))")
                if reply.status >= 400 { #expect(reply.errorReason != nil) }
            }
        }
        // An empty rule and a never-ending one are listed without hanging.
        let list = await emulator.list("primary", [("singleEvents", "true")])
        #expect(list.status == 200)
        for target in ["/calendar/v3/calendars/%ZZ/events", "/calendar/v3/calendars//events", "/calendar/v3/calendars/primary/events/%00",
                       "/calendar/v3/calendars/primary/events/a_20261026T080000Z/instances", "/calendar/v3/calendars/primary/events?timeMin=%FF"] {
            let reply = await emulator.call("GET", target)
            #expect(reply.status >= 200 && reply.status < 500, "\(target)")
        }
        let server = LoopbackHTTPServer(port: 0) { request in
            await emulator.handle(request) ?? .text(404, "not found")
        }
        let port = try server.start()
        defer { server.stop() }
        // Raw sockets block: keep them off the cooperative pool the server's handler needs.
        let answers = try await blocking { () -> [String] in
            let client = try RawHTTPClient(port: port)
            let auth = "Authorization: Bearer token-ann.lee@gmail.sandbox\r\n"
            client.send("POST /calendar/v3/calendars/primary/events HTTP/1.1\r\nHost: x\r\n" + auth + "Content-Length: 9\r\n\r\n{garbage}")
            let first = client.readResponse().map { "\($0.status)" } ?? "closed"
            client.send("GET /calendar/v3/calendars/primary HTTP/1.1\r\nHost: x\r\n" + auth + "\r\n")
            let second = client.readResponse().map { "\($0.status) \($0.body)" } ?? "closed"
            return [first, second]
        }
        #expect(answers[0] == "400")
        #expect(answers[1].hasPrefix("200 "))
        #expect(answers[1].contains("calendar#calendar"))
    }

    @Test("snapshot and restore carry every change")
    func snapshot() async throws {
        let emulator = try GoogleFixture.emulator()
        _ = await emulator.call("POST", GoogleFixture.path("calendars", "primary", "events"),
                                body: #"{"id": "persisted0001", "start": {"date": "2026-10-30"}, "end": {"date": "2026-10-31"}}"#)
        let data = try await emulator.snapshot()
        let fresh = try GoogleFixture.emulator()
        #expect(await fresh.call("GET", GoogleFixture.path("calendars", "primary", "events", "persisted0001")).status == 404)
        try await fresh.restore(data)
        #expect(await fresh.call("GET", GoogleFixture.path("calendars", "primary", "events", "persisted0001")).status == 200)
        await #expect(throws: (any Error).self) { try await fresh.restore(Data("nope".utf8)) }
    }
}
