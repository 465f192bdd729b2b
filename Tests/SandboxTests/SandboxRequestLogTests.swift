import Foundation
import HTTP
@testable import Sandbox
import Testing
import LoopbackServer

@Suite("Sandbox request log: what a batch holds")
struct SandboxRequestLogTests {
    @Test("a Graph $batch lists its inner methods; a batch of GETs is not a write")
    func graphBatch() {
        let body = #"{"requests":[{"id":"1","method":"get","url":"/me/events"},{"id":"2","method":"GET","url":"/me"}]}"#
        let request = ServerRequest(method: "POST", target: "/v1.0/$batch", body: Data(body.utf8))
        let methods = SandboxRequestLogEntry.batchMethods(of: request)
        #expect(methods == ["GET", "GET"])
        let entry = SandboxRequestLogEntry(time: Date(), method: "POST", path: "/v1.0/$batch", status: 200, durationMs: 1, fault: false, batchMethods: methods)
        #expect(!entry.isWrite)
    }

    @Test("a Google multipart batch lists the request line of every part")
    func googleBatch() {
        let body = """
        --b\r\nContent-Type: application/http\r\nContent-ID: <item-1>\r\n\r\nPOST /calendar/v3/calendars/primary/events HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{"summary":"x"}\r\n--b\r\nContent-Type: application/http\r\n\r\nGET /calendar/v3/calendars/primary/events/abc HTTP/1.1\r\n\r\n--b--\r\n
        """
        let request = ServerRequest(method: "POST", target: "/batch/calendar/v3", body: Data(body.utf8))
        #expect(SandboxRequestLogEntry.batchMethods(of: request) == ["POST", "GET"])
    }

    @Test("other requests have no batch methods, and their own method decides")
    func plain() {
        #expect(SandboxRequestLogEntry.batchMethods(of: ServerRequest(method: "PATCH", target: "/v1.0/me/events/1")) == nil)
        let entry = SandboxRequestLogEntry(time: Date(), method: "PATCH", path: "/v1.0/me/events/1", status: 200, durationMs: 1, fault: false)
        #expect(entry.isWrite)
    }
}
