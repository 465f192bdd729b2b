import Foundation
import HTTP
import Sandbox
import Testing

@Suite("Google emulator: batch requests")
struct GoogleBatchTests {
    /// Splits a multipart/mixed answer into (part headers, embedded status, embedded body).
    func parts(_ reply: GoogleReply) throws -> [(headers: String, status: Int, body: String)] {
        let contentType = try #require(reply.headers["Content-Type"])
        let boundary = try #require(contentType.components(separatedBy: "boundary=").last)
        let text = String(decoding: reply.body, as: UTF8.self)
        #expect(text.hasSuffix("--\(boundary)--\r\n"))
        return text.components(separatedBy: "--\(boundary)").dropFirst().filter { !$0.hasPrefix("--") }.map { chunk in
            let sections = chunk.components(separatedBy: "\r\n\r\n")
            let statusLine = sections.count > 1 ? sections[1].components(separatedBy: "\r\n").first ?? "" : ""
            let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
            let body = sections.count > 2 ? sections[2...].joined(separator: "\r\n\r\n").trimmingCharacters(in: .whitespacesAndNewlines) : ""
            return (sections[0], status, body)
        }
    }

    @Test("parts are answered in order with response-<Content-ID>; the outer Authorization covers parts without one")
    func mixed() async throws {
        let emulator = try GoogleFixture.emulator()
        let boundary = "batch_foobarbaz"
        let body = [
            "--\(boundary)\r\nContent-Type: application/http\r\nContent-ID: <item1:12930812@calbridge>\r\n\r\n"
                + "GET /calendar/v3/calendars/primary/events/annkickoff0001 HTTP/1.1\r\n\r\n",
            "--\(boundary)\r\nContent-Type: application/http\r\nContent-ID: item2\r\n\r\n"
                + "POST /calendar/v3/calendars/primary/events?sendUpdates=none HTTP/1.1\r\nContent-Type: application/json\r\n\r\n"
                + #"{"id": "batchinsert001", "summary": "From a batch", "start": {"date": "2026-10-23"}, "end": {"date": "2026-10-24"}}"#
                + "\r\n",
            "--\(boundary)\r\nContent-Type: application/http\r\nContent-ID: item3\r\n\r\n"
                + "GET https://www.googleapis.com/calendar/v3/calendars/primary/events/nothing00000\r\n\r\n",
            "--\(boundary)\r\nContent-Type: application/http\r\nContent-ID: item4\r\n\r\n"
                + "GET /calendar/v3/users/me/calendarList HTTP/1.1\r\nAuthorization: Bearer revoked\r\n\r\n",
            "--\(boundary)--\r\n",
        ].joined()
        let reply = await emulator.call("POST", "/batch/calendar/v3", body: body,
                                        headers: ["Content-Type": "multipart/mixed; boundary=\(boundary)"])
        #expect(reply.status == 200)
        #expect(reply.headers["Content-Type"]?.hasPrefix("multipart/mixed; boundary=") == true)
        let answers = try parts(reply)
        #expect(answers.map(\.status) == [200, 200, 404, 401], "\(answers.map(\.body))")
        #expect(answers[0].headers.contains("Content-ID: <response-item1:12930812@calbridge>"))
        #expect(answers[1].headers.contains("Content-ID: <response-item2>"))
        #expect(GoogleJSON.parse(Data(answers[0].body.utf8))?.summary == "Project Atlas kickoff")
        #expect(GoogleJSON.parse(Data(answers[3].body.utf8))?["error"]?["errors"]?.arrayValue?.first?["reason"] == "authError")
        let inserted = await emulator.call("GET", GoogleFixture.path("calendars", "primary", "events", "batchinsert001"))
        #expect(inserted.json?.summary == "From a batch")
    }

    @Test("LF-only line endings and a quoted boundary are accepted")
    func lenientParsing() async throws {
        let emulator = try GoogleFixture.emulator()
        let body = "--b1\nContent-Type: application/http\n\nGET /calendar/v3/calendars/primary HTTP/1.1\n\n--b1--\n"
        let reply = await emulator.call("POST", "/batch/calendar/v3", body: body, headers: ["Content-Type": "multipart/mixed; boundary=\"b1\""])
        #expect(try parts(reply).map(\.status) == [200])
    }

    @Test("not multipart, no parts, or more parts than Google's limit: 400")
    func rejected() async throws {
        let emulator = try GoogleFixture.emulator()
        let plain = await emulator.call("POST", "/batch/calendar/v3", body: "{}")
        #expect(plain.status == 400)
        let empty = await emulator.call("POST", "/batch/calendar/v3", body: "nothing", headers: ["Content-Type": "multipart/mixed; boundary=x"])
        #expect(empty.status == 400)
        let one = "--x\r\nContent-Type: application/http\r\n\r\nGET /calendar/v3/calendars/primary\r\n\r\n"
        let tooMany = String(repeating: one, count: GoogleCalendarEmulator.maxBatchParts + 1) + "--x--"
        let reply = await emulator.call("POST", "/batch/calendar/v3", body: tooMany, headers: ["Content-Type": "multipart/mixed; boundary=x"])
        #expect(reply.status == 400)
        #expect(reply.errorReason == "badRequest")
    }
}
