import CalendarBridge
import Foundation
import GoogleCalendar
import HTTP
import TestSupport
import Testing

@Suite("Google batch writes: request shape and answer parsing")
struct BatchGoogleRequestTests {
    static let base = URL(string: "http://127.0.0.1:8080")!

    static func eventJSON(id: String, title: String, status: String = "confirmed") -> String {
        #"{"id":"\#(id)","status":"\#(status)","summary":"\#(title)","start":{"dateTime":"2026-03-02T09:00:00+01:00","timeZone":"Europe/Berlin"},"end":{"dateTime":"2026-03-02T10:00:00+01:00","timeZone":"Europe/Berlin"}}"#
    }

    /// A multipart/mixed answer; parts are (content id, status line, headers, body).
    static func answer(_ parts: [(String, String, [String], String)], boundary: String = "batch_abc") -> HTTPResponse {
        var text = ""
        for (id, status, headers, body) in parts {
            text += "--\(boundary)\r\nContent-Type: application/http\r\nContent-ID: <response-\(id)>\r\n\r\n"
            text += "HTTP/1.1 \(status)\r\n"
            for header in headers { text += header + "\r\n" }
            text += "\r\n\(body)\r\n"
        }
        text += "--\(boundary)--\r\n"
        return HTTPResponse(
            status: 200, headers: ["Content-Type": "multipart/mixed; boundary=\(boundary)"], body: Data(text.utf8))
    }

    static func errorBody(_ fixture: String) -> String { String(decoding: Fixture.data("google/\(fixture)"), as: UTF8.self) }

    @Test("one POST to /batch/calendar/v3: one application/http part per write with Content-ID, request line, headers, JSON body")
    func requestShape() async throws {
        let transport = RecordingTransport { _ in
            Self.answer([
                ("item-1", "204 No Content", [], ""),
                ("item-0", "200 OK", ["Content-Type: application/json; charset=UTF-8"], Self.eventJSON(id: "e1", title: "Standup")),
            ])
        }
        let p = GoogleCalendarProvider(account: "work", transport: transport, baseURL: Self.base)
        let results = await p.applyWrites(
            [.create(BatchSamples.event("Standup"), idempotencyKey: nil), .delete(id: "old#1")], in: "team@example.com",
            maxConcurrent: 4)

        let requests = transport.requests
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "http://127.0.0.1:8080/batch/calendar/v3")
        let boundary = try #require(BatchSamples.boundary(request.headers["Content-Type"]))
        #expect(request.headers["Content-Type"] == "multipart/mixed; boundary=\(boundary)")
        #expect(request.isRetrySafe == false, "an insert without our own id must not be repeated blindly")
        let body = String(decoding: try #require(request.body), as: UTF8.self)
        #expect(body.hasSuffix("--\(boundary)--\r\n"))
        let parts = BatchSamples.multipartParts(try #require(request.body), boundary: boundary)
        #expect(parts.count == 2)

        // The insert: part headers, blank line, the inner request with the path only.
        let insert = parts[0].components(separatedBy: "\r\n")
        #expect(Array(insert.prefix(8)) == [
            "", "Content-Type: application/http", "Content-ID: <item-0>", "",
            "POST /calendar/v3/calendars/team%40example.com/events?sendUpdates=none HTTP/1.1",
            "Accept: application/json", "Content-Type: application/json; charset=UTF-8", insert[7],
        ])
        let json = insert[9]
        #expect(insert[7] == "Content-Length: \(json.utf8.count)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["summary"] as? String == "Standup")
        #expect((object["start"] as? [String: Any])?["timeZone"] as? String == "Europe/Berlin")

        // The delete: no body; the id is one encoded path segment.
        #expect(parts[1] == "\r\nContent-Type: application/http\r\nContent-ID: <item-1>\r\n\r\n"
            + "DELETE /calendar/v3/calendars/team%40example.com/events/old%231?sendUpdates=none HTTP/1.1\r\n"
            + "Accept: application/json\r\n\r\n")

        // Answers were matched by Content-ID although they came in another order.
        guard case .success(.created(let event)) = results[0] else { Issue.record("create: \(results[0])"); return }
        #expect(event.id == "e1" && event.title == "Standup" && event.calendarID == "team@example.com")
        guard case .success(.deleted(let id)) = results[1] else { Issue.record("delete: \(results[1])"); return }
        #expect(id == "old#1")
    }

    @Test("mixed per-item answers: 409 adopts the earlier copy, throttled call resent alone, 404 update reported, 404 delete done")
    func mixedAnswers() async throws {
        let keyA = BatchSamples.key("a")
        let keyB = BatchSamples.key("b")
        let round = CallCounter()
        let transport = RecordingTransport { _ in
            switch round.next() {
            case 0:
                return Self.answer([
                    ("item-0", "409 Conflict", ["Content-Type: application/json"], Self.errorBody("error-duplicate.json")),
                    ("item-1", "403 Forbidden", ["Content-Type: application/json", "Retry-After: 0"],
                     Self.errorBody("error-rateLimitExceeded.json")),
                    ("item-2", "404 Not Found", ["Content-Type: application/json"], Self.errorBody("error-notFound.json")),
                    ("item-3", "404 Not Found", ["Content-Type: application/json"], Self.errorBody("error-notFound.json")),
                ])
            default:
                return Self.answer([
                    ("item-0", "200 OK", ["Content-Type: application/json"], Self.eventJSON(id: keyA.googleEventID, title: "A")),
                    ("item-1", "200 OK", ["Content-Type: application/json"], Self.eventJSON(id: keyB.googleEventID, title: "B")),
                ])
            }
        }
        let p = GoogleCalendarProvider(account: "work", transport: transport, baseURL: Self.base)
        let results = await p.applyWrites(
            [
                .create(BatchSamples.event("A"), idempotencyKey: keyA),
                .create(BatchSamples.event("B"), idempotencyKey: keyB),
                .update(BatchSamples.event("C", id: "missing")),
                .delete(id: "gone"),
            ], in: "primary", maxConcurrent: 4)

        let requests = transport.requests
        #expect(requests.count == 2)
        #expect(requests[0].isRetrySafe, "every insert carries its own id: repeating the batch is harmless")
        let boundary = try #require(BatchSamples.boundary(requests[1].headers["Content-Type"]))
        let second = BatchSamples.multipartParts(try #require(requests[1].body), boundary: boundary)
        #expect(second.count == 2)
        #expect(second[0].contains("GET /calendar/v3/calendars/primary/events/\(keyA.googleEventID) HTTP/1.1"))
        #expect(second[1].contains("POST /calendar/v3/calendars/primary/events?sendUpdates=none HTTP/1.1"))
        #expect(second[1].contains("\"id\":\"\(keyB.googleEventID)\""))

        guard case .success(.created(let a)) = results[0], case .success(.created(let b)) = results[1] else {
            Issue.record("creates: \(results[0]) \(results[1])")
            return
        }
        #expect(a.id == keyA.googleEventID && b.id == keyB.googleEventID)
        #expect(CalendarError.Code.of(results[2]) == .notFound)
        guard case .success(.deleted(id: "gone")) = results[3] else { Issue.record("delete: \(results[3])"); return }
    }

    @Test("a 409 whose event was deleted since is revived with a PATCH to confirmed")
    func revive() async throws {
        let key = BatchSamples.key("revive")
        let id = key.googleEventID
        let round = CallCounter()
        let transport = RecordingTransport { _ in
            switch round.next() {
            case 0:
                return Self.answer([
                    ("item-0", "409 Conflict", [], Self.errorBody("error-duplicate.json")), ("item-1", "204 No Content", [], ""),
                ])
            case 1:
                return HTTPResponse(status: 200, body: Data(Self.eventJSON(id: id, title: "R", status: "cancelled").utf8))
            default:
                return HTTPResponse(status: 200, body: Data(Self.eventJSON(id: id, title: "R").utf8))
            }
        }
        let p = GoogleCalendarProvider(account: "work", transport: transport, baseURL: Self.base)
        let results = await p.applyWrites(
            [.create(BatchSamples.event("R"), idempotencyKey: key), .delete(id: "x")], in: "primary", maxConcurrent: 1)
        let requests = transport.requests
        #expect(requests.count == 3)
        // Single follow-ups go out as plain requests: a batch of one saves nothing.
        #expect(requests[1].method == .get && requests[1].url.path.hasSuffix("/events/\(id)"))
        #expect(requests[2].method == .patch && requests[2].url.path.hasSuffix("/events/\(id)"))
        #expect(requests[2].jsonBody?["status"] as? String == "confirmed")
        #expect(requests[2].jsonBody?["id"] == nil)
        guard case .success(.created(let event)) = results[0] else { Issue.record("\(results[0])"); return }
        #expect(event.status == .confirmed)
    }

    @Test("a failed batch request fails every write in it, and an unreadable answer says so")
    func wholeBatchFailure() async throws {
        let transport = RecordingTransport { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
        }
        let p = GoogleCalendarProvider(account: "work", transport: transport, baseURL: Self.base)
        let results = await p.applyWrites([.delete(id: "a"), .delete(id: "b")], in: "primary", maxConcurrent: 1)
        #expect(results.count == 2)
        #expect(results.allSatisfy { CalendarError.Code.of($0) == .invalidResponse })

        let forbidden = RecordingTransport { _ in Fixture.response("google/error-forbidden.json", status: 403) }
        let q = GoogleCalendarProvider(account: "work", transport: forbidden, baseURL: Self.base)
        let refused = await q.applyWrites([.delete(id: "a"), .delete(id: "b")], in: "primary", maxConcurrent: 1)
        #expect(refused.allSatisfy { CalendarError.Code.of($0) == .forbidden })
    }
}
