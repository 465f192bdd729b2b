import CalendarBridge
import Foundation
import HTTP
import MicrosoftGraph
import TestSupport
import Testing

@Suite("Graph $batch writes: request shape and answer parsing")
struct BatchGraphRequestTests {
    static let base = URL(string: "http://127.0.0.1:8080")!

    static func eventJSON(id: String, title: String) -> [String: Any] {
        [
            "id": id, "subject": title, "type": "singleInstance", "isAllDay": false, "isCancelled": false,
            "showAs": "busy", "sensitivity": "normal", "originalStartTimeZone": "W. Europe Standard Time",
            "start": ["dateTime": "2026-03-02T08:00:00.0000000", "timeZone": "UTC"],
            "end": ["dateTime": "2026-03-02T09:00:00.0000000", "timeZone": "UTC"],
        ]
    }

    static func error(_ fixture: String) -> Any {
        try! JSONSerialization.jsonObject(with: Fixture.data("graph/\(fixture)"))
    }

    /// `{"responses": [...]}` with the given answers.
    static func answer(_ responses: [[String: Any]]) -> HTTPResponse {
        let body = try! JSONSerialization.data(withJSONObject: ["responses": responses])
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: body)
    }

    static func requests(of request: HTTPRequest) -> [[String: Any]] {
        (request.jsonBody?["requests"] as? [[String: Any]]) ?? []
    }

    @Test("one POST /v1.0/$batch: ids, methods, relative urls, headers, bodies, one serial dependsOn chain")
    func requestShape() async throws {
        let transport = RecordingTransport { request in
            let steps = Self.requests(of: request)
            return Self.answer(steps.reversed().map { step in
                let id = step["id"] as! String
                switch step["method"] as! String {
                case "POST": return ["id": id, "status": 201, "headers": ["Content-Type": "application/json"], "body": Self.eventJSON(id: "new-1", title: "Standup")]
                case "PATCH": return ["id": id, "status": 200, "body": Self.eventJSON(id: "ev/2", title: "Moved")]
                default: return ["id": id, "status": 204, "headers": [:]]
                }
            })
        }
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: Self.base)
        let key = BatchSamples.key("standup")
        let results = await p.applyWrites(
            [
                .create(BatchSamples.event("Standup"), idempotencyKey: key),
                .update(BatchSamples.event("Moved", id: "ev/2")),
                .delete(id: "ev=3"),
            ], in: "cal-1", maxConcurrent: 4)

        let sent = transport.requests
        #expect(sent.count == 1)
        let request = try #require(sent.first)
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "http://127.0.0.1:8080/v1.0/$batch")
        #expect(request.headers["Content-Type"] == "application/json")
        let steps = Self.requests(of: request)
        #expect(steps.map { $0["id"] as? String } == ["1", "2", "3"])
        #expect(steps.map { $0["method"] as? String } == ["POST", "PATCH", "DELETE"])
        #expect(steps.map { $0["url"] as? String } == ["/me/calendars/cal-1/events", "/me/events/ev%2F2", "/me/events/ev%3D3"])
        #expect(steps[0]["dependsOn"] == nil)
        #expect(steps[1]["dependsOn"] as? [String] == ["1"])
        #expect(steps[2]["dependsOn"] as? [String] == ["2"])
        #expect(steps[0]["headers"] as? [String: String] == ["Content-Type": "application/json", "Prefer": "outlook.timezone=\"UTC\""])
        #expect(steps[2]["headers"] as? [String: String] == ["Prefer": "outlook.timezone=\"UTC\""])
        #expect(steps[2]["body"] == nil)
        let create = try #require(steps[0]["body"] as? [String: Any])
        #expect(create["subject"] as? String == "Standup")
        #expect(create["transactionId"] as? String == key.transactionID)
        #expect((create["start"] as? [String: Any])?["timeZone"] as? String == "W. Europe Standard Time")
        #expect((steps[1]["body"] as? [String: Any])?["subject"] as? String == "Moved")

        guard case .success(.created(let created)) = results[0] else { Issue.record("\(results[0])"); return }
        #expect(created.id == "new-1" && created.calendarID == "cal-1")
        guard case .success(.updated(let updated)) = results[1] else { Issue.record("\(results[1])"); return }
        #expect(updated.title == "Moved")
        guard case .success(.deleted(id: "ev=3")) = results[2] else { Issue.record("\(results[2])"); return }
    }

    @Test("per-item failures: a 404 update is reported, the 424s after it are resent, a 429 waits for Retry-After")
    func mixedFailures() async throws {
        let round = CallCounter()
        let transport = RecordingTransport { request in
            let steps = Self.requests(of: request)
            let n = round.next()
            return Self.answer(steps.enumerated().map { offset, step in
                let id = step["id"] as! String
                let url = step["url"] as! String
                if n == 0 {
                    if offset == 0 {
                        return ["id": id, "status": 429, "headers": ["Retry-After": "0"], "body": Self.error("error-TooManyRequests.json")]
                    }
                    return ["id": id, "status": 424, "body": ["error": ["code": "FailedDependency", "message": "dependency failed"]]]
                }
                if url.hasSuffix("missing") {
                    return ["id": id, "status": 404, "body": Self.error("error-ErrorItemNotFound.json")]
                }
                if offset > 0 && steps[offset - 1]["url"] as? String == "/me/events/missing" {
                    return ["id": id, "status": 424, "body": ["error": ["code": "FailedDependency", "message": "dependency failed"]]]
                }
                return ["id": id, "status": 204]
            })
        }
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: Self.base)
        let results = await p.applyWrites(
            [.delete(id: "a"), .update(BatchSamples.event("X", id: "missing")), .delete(id: "b"), .delete(id: "c")],
            in: "cal-1", maxConcurrent: 4)

        let sent = transport.requests
        // Round 1: 429 then 424s. Round 2: all four; "b" after the failed update gets 424. Round 3: "b" alone.
        #expect(sent.count == 3)
        #expect(Self.requests(of: sent[1]).count == 4)
        #expect(sent[2].method == .post && sent[2].url.path.hasSuffix("$batch"))
        #expect(Self.requests(of: sent[2]).map { $0["url"] as? String } == ["/me/events/b"])
        guard case .success(.deleted(id: "a")) = results[0] else { Issue.record("\(results[0])"); return }
        #expect(CalendarError.Code.of(results[1]) == .notFound)
        guard case .success(.deleted(id: "b")) = results[2], case .success(.deleted(id: "c")) = results[3] else {
            Issue.record("\(results)")
            return
        }
    }

    @Test("25 writes go out as two batches of 20 and 5; a 409 create looks its event up by transactionId")
    func chunkingAndConflict() async throws {
        let key = BatchSamples.key("dup")
        let transport = RecordingTransport { request in
            Self.answer(Self.requests(of: request).map { step in
                let id = step["id"] as! String
                if step["method"] as? String == "POST" {
                    return ["id": id, "status": 409, "body": ["error": ["code": "ErrorDuplicateTransactionId", "message": "duplicate"]]]
                }
                if step["method"] as? String == "GET" {
                    return ["id": id, "status": 200, "body": ["value": [Self.eventJSON(id: "existing", title: "Dup")]]]
                }
                return ["id": id, "status": 204]
            })
        }
        let p = GraphCalendarProvider(account: "o365", transport: transport, baseURL: Self.base)
        let writes: [EventWrite] = [.create(BatchSamples.event("Dup"), idempotencyKey: key)] + (1...24).map { .delete(id: "d\($0)") }
        let results = await p.applyWrites(writes, in: "cal-1", maxConcurrent: 4)
        let sent = transport.requests
        let batches = sent.filter { $0.url.path.hasSuffix("$batch") }
        #expect(batches.map { Self.requests(of: $0).count }.sorted() == [1, 5, 20])
        let lookup = try #require(batches.first { Self.requests(of: $0).first?["method"] as? String == "GET" })
        let url = try #require(Self.requests(of: lookup).first?["url"] as? String)
        #expect(url.hasPrefix("/me/calendars/cal-1/events?$filter=transactionId%20eq%20%27\(key.transactionID)%27"))
        guard case .success(.created(let event)) = results[0] else { Issue.record("\(results[0])"); return }
        #expect(event.id == "existing")
        #expect(results.dropFirst().allSatisfy { if case .success(.deleted) = $0 { true } else { false } })
    }
}
