import Foundation
import HTTP
import Testing
import TestSupport
import LoopbackServer

/// Raw-socket work runs through `blocking` (off the cooperative pool, which the server's handler needs);
/// it only collects what came back, and the expectations run in the test's own context.
@Suite("Loopback HTTP/1.1 server")
struct LoopbackHTTPServerTests {
    typealias Response = (status: Int, headers: [String: String], body: String)

    /// Echoes method, decoded path, query and body, and the connection id.
    static func echoServer() throws -> LoopbackHTTPServer {
        let server = LoopbackHTTPServer { request in
            if request.path == "/drop" { return .drop }
            if request.path == "/close" { return ServerResponse(status: 200, body: Data("bye".utf8), closeConnection: true) }
            let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
            let text = "\(request.method) \(request.path) [\(query)] conn=\(request.connectionID) body=\(String(decoding: request.body, as: UTF8.self))"
            return .text(200, text)
        }
        try server.start()
        return server
    }

    /// Sends each text on one connection and reads one response after each (nil: connection closed).
    static func exchange(_ port: UInt16, _ sends: [String], expectBody: Bool = true) async throws -> [Response?] {
        try await blocking {
            let client = try RawHTTPClient(port: port)
            return sends.map { text in
                if !text.isEmpty { client.send(text) }
                return client.readResponse(expectBody: expectBody)
            }
        }
    }

    @Test("binds an ephemeral port when asked for port 0 and reports it")
    func ephemeralPort() throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        #expect(server.port > 1023)
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
    }

    @Test("keep-alive: several requests on one connection, one connection accepted")
    func keepAlive() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let requests = (1...3).map { "GET /a%40b/c%2Fd?x=\($0)&name=a+b%26c HTTP/1.1\r\nHost: x\r\n\r\n" }
        let responses = try await Self.exchange(server.port, requests)
        for (index, response) in responses.enumerated() {
            #expect(response?.status == 200)
            #expect(response?.body == "GET /a@b/c/d [x=\(index + 1),name=a b&c] conn=1 body=")
            #expect(response?.headers["connection"] == "keep-alive")
        }
        #expect(server.connectionsAccepted == 1)
        #expect(server.requestsServed == 3)
    }

    @Test("an encoded slash stays inside its path segment")
    func encodedSlash() {
        let request = ServerRequest(method: "get", target: "/me/events/AAMk%2Fxy%3D%3D/instances")
        #expect(request.pathSegments == ["me", "events", "AAMk/xy==", "instances"])
        #expect(request.method == "GET")
    }

    @Test("Content-Length and chunked request bodies, pipelined on one connection")
    func bodies() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let pipelined = "POST /p HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"
            + "POST /q HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n4;ext=1\r\ndefg\r\n0\r\nX-Trailer: t\r\n\r\n"
        let responses = try await Self.exchange(server.port, [pipelined, ""])
        #expect(responses[0]?.body == "POST /p [] conn=1 body=hello")
        #expect(responses[1]?.body == "POST /q [] conn=1 body=abcdefg")
    }

    @Test("Expect: 100-continue gets an interim response before the body is sent")
    func expectContinue() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let responses = try await Self.exchange(server.port, ["PUT /e HTTP/1.1\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n", "ok"])
        #expect(responses[0]?.status == 100)
        #expect(responses[1]?.body == "PUT /e [] conn=1 body=ok")
    }

    @Test("Connection: close, HTTP/1.0 and a handler's close all end the connection", arguments: [
        "GET / HTTP/1.1\r\nConnection: close\r\n\r\n", "GET / HTTP/1.0\r\n\r\n", "GET /close HTTP/1.1\r\n\r\n",
    ])
    func closing(request: String) async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let (response, closed) = try await blocking {
            let client = try RawHTTPClient(port: server.port)
            client.send(request)
            return (client.readResponse(), client.isClosedByPeer())
        }
        #expect(response?.status == 200)
        #expect(response?.headers["connection"] == "close")
        #expect(closed)
    }

    @Test("a dropped connection gets no response at all")
    func drop() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let responses = try await Self.exchange(server.port, ["GET /drop HTTP/1.1\r\n\r\n"])
        #expect(responses[0] == nil)
    }

    @Test("a malformed request gets 400 and the server keeps serving")
    func malformed() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let bad = try await Self.exchange(server.port, ["NONSENSE\r\n\r\n"])
        let good = try await Self.exchange(server.port, ["GET /fine HTTP/1.1\r\n\r\n"])
        #expect(bad[0]?.status == 400)
        #expect(good[0]?.status == 200)
    }

    @Test("HEAD gets the headers with Content-Length but no body")
    func head() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let responses = try await blocking {
            let client = try RawHTTPClient(port: server.port)
            client.send("HEAD /h HTTP/1.1\r\n\r\n")
            let head = client.readResponse(expectBody: false)
            client.send("GET /after HTTP/1.1\r\n\r\n")
            return [head, client.readResponse()]
        }
        #expect(responses[0]?.status == 200)
        #expect(responses[0]?.headers["content-length"] == "\("HEAD /h [] conn=1 body=".utf8.count)")
        // Had the HEAD response carried a body, those bytes would have been read as this response.
        #expect(responses[1]?.body == "GET /after [] conn=1 body=")
    }

    @Test("form encoding round-trips reserved characters")
    func formEncoding() {
        let encoded = FormEncoding.encode([("text", "Lunch & talk = 1+1 @ café/bar")])
        #expect(encoded == "text=Lunch%20%26%20talk%20%3D%201%2B1%20%40%20caf%C3%A9%2Fbar")
        #expect(FormEncoding.decode(encoded) == [ServerRequest.QueryItem(name: "text", value: "Lunch & talk = 1+1 @ café/bar")])
    }
}
