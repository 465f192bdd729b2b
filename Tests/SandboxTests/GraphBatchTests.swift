import Foundation
import HTTP
import Sandbox
import Testing

@Suite("Graph emulator: JSON batching")
struct GraphBatchTests {
    @Test("a batch runs each request and answers {responses: [{id, status, headers, body}]}")
    func basic() async throws {
        let emulator = try GraphTest.emulator()
        let reply = try await GraphTest.send(emulator, "POST", "/v1.0/$batch", body: ["requests": [
            ["id": "1", "method": "GET", "url": "/me?$select=displayName"],
            ["id": "2", "method": "GET", "url": "me/calendars"],
            ["id": "3", "method": "POST", "url": "/me/events", "headers": ["Content-Type": "application/json"],
             "body": GraphTest.newEvent(subject: "Batched", start: "2026-03-05T10:00:00", end: "2026-03-05T11:00:00")],
            ["id": "4", "method": "GET", "url": "/me/events/AAMkADnope="],
        ]])
        #expect(reply.status == 200)
        let responses = try #require(reply.json["responses"] as? [[String: Any]])
        #expect(responses.map { $0["id"] as? String } == ["1", "2", "3", "4"])
        #expect(responses.map { $0["status"] as? Int } == [200, 200, 201, 404])
        #expect((responses[0]["body"] as? [String: Any])?["displayName"] as? String == "Carol Diaz")
        #expect(((responses[1]["body"] as? [String: Any])?["value"] as? [Any])?.count == 3)
        #expect((responses[3]["body"] as? [String: Any])?.string("error.code") == "ErrorItemNotFound")
        #expect((responses[2]["headers"] as? [String: Any])?["Content-Type"] != nil)
    }

    @Test("dependsOn orders the steps; a failed dependency makes its dependants 424")
    func dependsOn() async throws {
        let emulator = try GraphTest.emulator()
        let body = GraphTest.newEvent(subject: "Chain", start: "2026-03-05T10:00:00", end: "2026-03-05T11:00:00",
                                      extra: ["transactionId": "chain-1"])
        let reply = try await GraphTest.send(emulator, "POST", "/v1.0/$batch", body: ["requests": [
            ["id": "list", "method": "GET", "url": "/me/events?$filter=subject eq 'Chain'", "dependsOn": ["create"]],
            ["id": "create", "method": "POST", "url": "/me/events", "headers": ["Content-Type": "application/json"], "body": body],
            ["id": "broken", "method": "GET", "url": "/me/calendars/nope"],
            ["id": "after-broken", "method": "GET", "url": "/me", "dependsOn": ["broken"]],
        ]])
        #expect(reply.status == 200)
        let responses = try #require(reply.json["responses"] as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: responses.map { ($0["id"] as? String ?? "", $0) })
        #expect(byID["create"]?["status"] as? Int == 201)
        // "list" ran after "create", so it sees the new event.
        #expect(((byID["list"]?["body"] as? [String: Any])?["value"] as? [Any])?.count == 1)
        #expect(byID["broken"]?["status"] as? Int == 404)
        #expect(byID["after-broken"]?["status"] as? Int == 424)
    }

    @Test("more than 20 requests is 400 MaximumValueExceeded; malformed batches are 400 and nothing runs")
    func limits() async throws {
        let emulator = try GraphTest.emulator()
        let twenty = (1...20).map { ["id": "\($0)", "method": "GET", "url": "/me"] }
        let ok = try await GraphTest.send(emulator, "POST", "/v1.0/$batch", body: ["requests": twenty])
        #expect(ok.status == 200)
        #expect((ok.json["responses"] as? [Any])?.count == 20)
        let creates = (1...21).map {
            ["id": "\($0)", "method": "POST", "url": "/me/events", "headers": ["Content-Type": "application/json"],
             "body": GraphTest.newEvent(subject: "Too many", start: "2026-03-05T10:00:00", end: "2026-03-05T11:00:00")] as [String: Any]
        }
        let tooMany = try await GraphTest.send(emulator, "POST", "/v1.0/$batch", body: ["requests": creates])
        #expect(tooMany.status == 400)
        #expect(tooMany.errorCode == "MaximumValueExceeded")
        #expect(tooMany.errorMessage == "Number of batch request steps exceeds the maximum value of 20.")
        let after = try await GraphTest.send(emulator, "GET", "/v1.0/me/events?$filter=subject eq 'Too many'")
        #expect(after.value.isEmpty)

        let malformed: [Any] = [
            ["nothing": []],
            ["requests": [["id": "1", "url": "/me"]]],
            ["requests": [["id": "1", "method": "GET", "url": "/me"], ["id": "1", "method": "GET", "url": "/me"]]],
            ["requests": [["id": "1", "method": "GET", "url": "/me", "dependsOn": ["9"]]]],
            ["requests": [["id": "1", "method": "GET", "url": "/me", "dependsOn": ["2"]],
                          ["id": "2", "method": "GET", "url": "/me", "dependsOn": ["1"]]]],
        ]
        for body in malformed {
            let reply = try await GraphTest.send(emulator, "POST", "/v1.0/$batch", body: body)
            #expect(reply.status == 400, "\(body)")
            #expect(reply.errorCode == "BadRequest")
        }
        let notJSON = try await GraphTest.send(emulator, "POST", "/v1.0/$batch", body: Data("requests".utf8))
        #expect(notJSON.status == 400)
        let get = try await GraphTest.send(emulator, "GET", "/v1.0/$batch")
        #expect(get.status == 405)
    }
}
