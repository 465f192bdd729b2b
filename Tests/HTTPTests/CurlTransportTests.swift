import Foundation
import HTTP
import Testing
import TestSupport
import HTTPCurl
import LoopbackServer

/// CurlTransport against the loopback server started by each test. Handlers only await (never block);
/// timing is measured loosely (what matters is "well before the server's delay", not a number).
@Suite("CurlTransport")
struct CurlTransportTests {
    typealias Support = CurlTestSupport

    @Test("at least 50 requests are in flight at once from one process")
    func fiftyInFlight() async throws {
        let arrived = Tally()
        let server = try Support.server { _ in
            arrived.increment()
            // Answer only once 50 requests have arrived; this can happen only if all 50 are in flight together.
            let deadline = ContinuousClock.now + .seconds(20)
            while arrived.value < 50, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return .text(200, "\(arrived.value)")
        }
        defer { server.stop() }
        let transport = CurlTransport(configuration: .init(maxConnectionsPerHost: 64))
        let url = server.baseURL.appendingPathComponent("gate")
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 {
                group.addTask { try await transport.send(HTTPRequest(url: url)).bodyText }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(bodies.count == 50)
        #expect(bodies.allSatisfy { (Int($0) ?? 0) >= 50 })
        #expect(server.connectionsAccepted == 50)
    }

    /// Whether a connection is reused is the client's decision to test, not the server's idle timeout (60 s by
    /// default): with every test started at once on two cores, one request waited 29 s for a pool thread.
    static let neverIdle = LoopbackHTTPServer.Timeouts(idle: .seconds(3600))

    @Test("sequential requests reuse one kept-alive connection")
    func keepAlive() async throws {
        let server = try Support.server(timeouts: Self.neverIdle) { request in .text(200, "conn=\(request.connectionID)") }
        defer { server.stop() }
        let transport = CurlTransport()
        for index in 0..<20 {
            let response = try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("r\(index)")))
            #expect(response.status == 200)
            #expect(response.bodyText == "conn=1")
        }
        #expect(server.connectionsAccepted == 1)
        #expect(server.requestsServed == 20)
    }

    @Test("bursts with quiet times between them stay within maxConnectionsPerHost, reusing the idle connections")
    func connectionLimit() async throws {
        let server = try Support.server(timeouts: Self.neverIdle) { _ in
            try? await Task.sleep(for: .milliseconds(20))
            return .text(200, "ok")
        }
        defer { server.stop() }
        // Single requests between the bursts: the idle connections must survive quiet times for the next burst.
        let transport = CurlTransport(configuration: .init(maxConnectionsPerHost: 16))
        for _ in 0..<3 {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<32 { group.addTask { try await transport.send(HTTPRequest(url: server.baseURL)).status } }
                for try await status in group { #expect(status == 200) }
            }
            for _ in 0..<4 { #expect(try await transport.send(HTTPRequest(url: server.baseURL)).status == 200) }
        }
        #expect(server.requestsServed == 108)
        #expect(server.connectionsAccepted <= 16)
    }

    @Test("a server slower than the request's timeout gives HTTPError(.timeout)")
    func totalTimeout() async throws {
        let server = try Support.server { _ in
            try? await Task.sleep(for: .seconds(3))
            return .text(200, "late")
        }
        defer { server.stop() }
        let transport = CurlTransport()
        let error = await Support.httpError {
            try await transport.send(HTTPRequest(url: server.baseURL, timeout: .milliseconds(300)))
        }
        #expect(error?.code == .timeout)
        // libcurl measures the time itself; a wall clock taken here would include however long this
        // task waited for a thread on a loaded machine.
        #expect((Self.milliseconds(in: error?.message) ?? .max) < 2_500, "\(error?.message ?? "")")
    }

    /// The "after N milliseconds" libcurl puts in its timeout messages.
    static func milliseconds(in message: String?) -> Int? {
        guard let message, let range = message.range(of: "after ") else { return nil }
        return Int(message[range.upperBound...].prefix { $0.isNumber })
    }

    @Test("a connection that is never answered gives HTTPError(.timeout) after the connect timeout")
    func connectTimeout() async throws {
        let listener = UnansweredListener()
        let transport = CurlTransport(configuration: .init(connectTimeout: .milliseconds(300)))
        let error = await Support.httpError {
            try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/x")!))
        }
        #expect(error?.code == .timeout)
        #expect(error?.message.lowercased().contains("connect") == true)
        #expect((Self.milliseconds(in: error?.message) ?? .max) < 5_000, "\(error?.message ?? "")")
        withExtendedLifetime(listener) {}
    }

    @Test("cancelling the task cancels the transfer: .cancelled before the server answers, and the server sees the connection closed")
    func cancellation() async throws {
        let arrived = Tally(), released = Tally()
        let server = try Support.server { _ in
            arrived.increment()
            // Held until the test has the transfer's result: only a transfer cut short can end before the
            // answer, so no wall-clock bound (which a loaded machine's scheduling can exceed) is needed.
            let deadline = ContinuousClock.now + .seconds(30)
            while released.value == 0, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
            return .text(200, "too late")
        }
        defer { server.stop() }
        let transport = CurlTransport()
        let url = server.baseURL.appendingPathComponent("slow")
        let task = Task { try await transport.send(HTTPRequest(url: url)) }
        while arrived.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        let result = await task.result
        released.increment()
        var code: HTTPError.Code?
        if case .failure(let error as HTTPError) = result { code = error.code }
        #expect(code == .cancelled)
        // Released, the handler answers; the server then finds the connection closed and ends it.
        let deadline = ContinuousClock.now + .seconds(30)
        while server.openConnections > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(server.openConnections == 0)
        #expect(server.connectionsAccepted == 1)
    }

    @Test("a task cancelled before sending never reaches the server")
    func cancelledBeforeSend() async throws {
        let server = try Support.server { _ in .text(200, "ok") }
        defer { server.stop() }
        let transport = CurlTransport()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(HTTPRequest(url: server.baseURL))
        }
        var code: HTTPError.Code?
        if case .failure(let error as HTTPError) = await task.result { code = error.code }
        #expect(code == .cancelled)
        #expect(server.requestsServed == 0)
    }

    @Test("connection refused gives HTTPError(.connect) naming the URL, without query or Authorization")
    func connectionRefused() async throws {
        let port = Support.closedPort()
        let transport = CurlTransport()
        let request = HTTPRequest(
            url: URL(string: "http://127.0.0.1:\(port)/calendars/list?access_token=query-secret")!,
            headers: ["Authorization": "Bearer header-secret-4711"]
        )
        let error = await Support.httpError { try await transport.send(request) }
        #expect(error?.code == .connect)
        let description = error?.description ?? ""
        #expect(description.contains("http://127.0.0.1:\(port)/calendars/list"))
        #expect(!description.contains("header-secret-4711"))
        #expect(!description.contains("query-secret"))
    }

    @Test("no HTTPError description ever contains the Authorization header value")
    func authorizationNeverInErrors() async throws {
        let secret = "ya29.never-print-me"
        let server = try Support.server { request in
            if request.path == "/slow" { try? await Task.sleep(for: .seconds(2)) }
            return .drop
        }
        defer { server.stop() }
        let transport = CurlTransport()
        func request(_ url: URL, timeout: Duration? = nil) -> HTTPRequest {
            HTTPRequest(url: url, headers: ["Authorization": "Bearer \(secret)"], timeout: timeout)
        }
        var errors: [HTTPError] = []
        let refused = URL(string: "http://127.0.0.1:\(Support.closedPort())/a")!
        if let error = await Support.httpError({ try await transport.send(request(refused)) }) { errors.append(error) }
        let dropped = server.baseURL.appendingPathComponent("drop")
        if let error = await Support.httpError({ try await transport.send(request(dropped)) }) { errors.append(error) }
        let slow = server.baseURL.appendingPathComponent("slow")
        if let error = await Support.httpError({
            try await transport.send(request(slow, timeout: .milliseconds(200)))
        }) { errors.append(error) }
        let task = Task { try await transport.send(request(slow)) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        if case .failure(let error as HTTPError) = await task.result { errors.append(error) }
        #expect(errors.map(\.code) == [.connect, .connectionReset, .timeout, .cancelled])
        for error in errors {
            #expect(!error.description.contains(secret))
            #expect(!String(describing: error).contains(secret))
            #expect(!String(reflecting: error).contains(secret))
        }
    }

    @Test("a gzip body is requested and decoded to the original bytes")
    func gzip() async throws {
        let original = try Support.fixture("sample.txt")
        let compressed = try Support.fixture("sample.txt.gz")
        let acceptEncoding = Tally()
        let server = try Support.server { request in
            acceptEncoding.record(request.headers["Accept-Encoding"] ?? "")
            return ServerResponse(status: 200, headers: ["Content-Encoding": "gzip", "Content-Type": "text/plain"], body: compressed)
        }
        defer { server.stop() }
        let response = try await CurlTransport().send(HTTPRequest(url: server.baseURL))
        #expect(response.status == 200)
        #expect(response.body == original)
        // What ContentDecoding reads, and nothing else (libcurl's own list would add br and zstd).
        #expect(acceptEncoding.recorded == ["gzip, deflate"])
    }

    @Test("a body in a coding not offered, or not valid in the one named, fails with a message naming it")
    func undecodable() async throws {
        let compressed = try Support.fixture("sample.txt.gz")
        var changed = compressed
        changed[changed.count - 8] ^= 0xFF  // the CRC
        let corrupt = changed
        let server = try Support.server { request in
            request.path == "/br"
                ? ServerResponse(status: 200, headers: ["Content-Encoding": "br"], body: Data([0x0B, 0x02, 0x80]))
                : ServerResponse(status: 200, headers: ["Content-Encoding": "gzip"], body: corrupt)
        }
        defer { server.stop() }
        let transport = CurlTransport()
        let unsupported = await Support.httpError {
            try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("br")))
        }
        #expect(unsupported?.code == .other)
        #expect(unsupported?.message == "the response is in Content-Encoding 'br', which was not asked for (gzip, deflate)")
        let malformed = await Support.httpError { try await transport.send(HTTPRequest(url: server.baseURL)) }
        #expect(malformed?.code == .other)
        #expect(malformed?.message == "the response body is not valid gzip data, as its Content-Encoding says it is")
        // A HEAD answer names the coding of a body it does not carry.
        let head = try await transport.send(HTTPRequest(method: .head, url: server.baseURL))
        #expect(head.status == 200 && head.body.isEmpty)
    }

    @Test("requests name calbridge with gzip in the User-Agent (Google compresses only then); none when configured so; a request's own wins")
    func userAgent() async throws {
        let agents = Tally()
        let server = try Support.server { request in
            agents.record(request.headers["User-Agent"] ?? "<none>")
            return ServerResponse(status: 204)
        }
        defer { server.stop() }
        _ = try await CurlTransport().send(HTTPRequest(url: server.baseURL))
        _ = try await CurlTransport(configuration: .init(userAgent: nil)).send(HTTPRequest(url: server.baseURL))
        _ = try await CurlTransport().send(HTTPRequest(url: server.baseURL, headers: ["User-Agent": "mine/1"]))
        #expect(agents.recorded == ["calbridge (gzip)", "<none>", "mine/1"])
    }

    @Test("a gzip body inflating to 400 times its length on the wire arrives whole")
    func gzipBeyondReservation() async throws {
        let compressed = try Support.fixture("repetitive.txt.gz")
        let server = try Support.server { _ in
            ServerResponse(status: 200, headers: ["Content-Encoding": "gzip", "Content-Type": "application/json"], body: compressed)
        }
        defer { server.stop() }
        let response = try await CurlTransport().send(HTTPRequest(url: server.baseURL))
        let expected = Data(String(repeating: "{\"summary\":\"weekly sync\"},\n", count: 80_000).utf8)
        #expect(compressed.count * 16 < expected.count)
        #expect(response.body == expected)
    }

    @Test("a deflate (zlib) body is decoded to the original bytes")
    func deflate() async throws {
        let original = try Support.fixture("sample.txt")
        let compressed = try Support.fixture("sample.txt.zlib")
        let server = try Support.server { _ in
            ServerResponse(status: 200, headers: ["Content-Encoding": "deflate"], body: compressed)
        }
        defer { server.stop() }
        let response = try await CurlTransport().send(HTTPRequest(url: server.baseURL))
        #expect(response.body == original)
    }

    @Test("a 10 MB body goes up and comes back byte-exact")
    func tenMegabytes() async throws {
        var words = [UInt64](repeating: 0, count: (10 << 20) / 8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in words.indices {
            // xorshift64: fast, every byte value occurs, and most of the stream is not valid UTF-8.
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            words[index] = state
        }
        let payload = words.withUnsafeBytes { Data($0) }
        let received = Tally()
        let server = try Support.server { request in
            received.record("\(request.body.count) \(request.headers["Content-Type"] ?? "none")")
            return ServerResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: request.body)
        }
        defer { server.stop() }
        let request = HTTPRequest(
            method: .post, url: server.baseURL.appendingPathComponent("echo"),
            headers: ["Content-Type": "application/octet-stream"], body: payload
        )
        let response = try await CurlTransport().send(request)
        #expect(received.recorded == ["\(10 << 20) application/octet-stream"])
        #expect(response.body.count == payload.count)
        #expect(response.body == payload)
    }

    @Test("non-UTF-8 bodies are byte-exact in both directions")
    func nonUTF8() async throws {
        let bytes = Data((0...255).map { UInt8($0) } + [0xC3, 0x28, 0xFF, 0xFE, 0x00, 0x80])
        let received = Tally()
        let server = try Support.server { request in
            received.record(request.body == bytes ? "same" : "different")
            return ServerResponse(status: 200, body: Data(request.body.reversed()))
        }
        defer { server.stop() }
        let response = try await CurlTransport().send(HTTPRequest(method: .put, url: server.baseURL, body: bytes))
        #expect(received.recorded == ["same"])
        #expect(response.body == Data(bytes.reversed()))
    }

    @Test("methods, headers and bodies arrive as sent; no form Content-Type or Expect is added")
    func methodsAndHeaders() async throws {
        let seen = Tally()
        let server = try Support.server { request in
            let contentType = request.headers["Content-Type"] ?? "-"
            let length = request.headers["Content-Length"] ?? "-"
            let expect = request.headers["Expect"] ?? "-"
            seen.record("\(request.method) \(request.target) type=\(contentType) len=\(length) expect=\(expect) x=\(request.headers["X-Empty"] ?? "nil") body=\(String(decoding: request.body, as: UTF8.self))")
            var headers: HTTPHeaders = ["X-Reply": "yes"]
            headers.add(name: "Set-Cookie", value: "a=1")
            headers.add(name: "Set-Cookie", value: "b=2")
            return ServerResponse(status: request.method == "DELETE" ? 204 : 201, headers: headers, body: Data("done".utf8))
        }
        defer { server.stop() }
        let transport = CurlTransport()
        let url = server.baseURL.appendingPathComponent("items")
        let post = try await transport.send(HTTPRequest(method: .post, url: url))
        let patch = try await transport.send(HTTPRequest(
            method: .patch, url: url, headers: ["Content-Type": "application/json", "X-Empty": ""], body: Data("{\"a\":1}".utf8)
        ))
        let delete = try await transport.send(HTTPRequest(method: .delete, url: url))
        let head = try await transport.send(HTTPRequest(method: .head, url: url))
        let custom = try await transport.send(HTTPRequest(method: HTTPMethod("REPORT"), url: url, body: Data("q".utf8)))
        #expect(seen.recorded == [
            "POST /items type=- len=0 expect=- x=nil body=",
            "PATCH /items type=application/json len=7 expect=- x= body={\"a\":1}",
            "DELETE /items type=- len=- expect=- x=nil body=",
            "HEAD /items type=- len=- expect=- x=nil body=",
            "REPORT /items type=- len=1 expect=- x=nil body=q",
        ])
        #expect(post.status == 201)
        #expect(post.bodyText == "done")
        #expect(post.headers.values(for: "set-cookie") == ["a=1", "b=2"])
        #expect(post.headers["x-reply"] == "yes")
        #expect(patch.status == 201)
        #expect(delete.status == 204)
        #expect(head.status == 201)
        #expect(head.body.isEmpty)
        #expect(custom.status == 201)
    }

    @Test("an error status is a response, not a thrown error")
    func errorStatus() async throws {
        let server = try Support.server { _ in .text(503, "busy") }
        defer { server.stop() }
        let response = try await CurlTransport().send(HTTPRequest(url: server.baseURL))
        #expect(response.status == 503)
        #expect(response.bodyText == "busy")
    }

    @Test("redirects are returned as they are by default and followed only when configured")
    func redirects() async throws {
        let server = try Support.server { request in
            request.path == "/from" ? .redirect(to: "/to") : .text(200, "arrived at \(request.path)")
        }
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("from")
        let plain = try await CurlTransport().send(HTTPRequest(url: url))
        #expect(plain.status == 302)
        #expect(plain.headers["Location"] == "/to")
        let following = try await CurlTransport(configuration: .init(followRedirects: true)).send(HTTPRequest(url: url))
        #expect(following.status == 200)
        #expect(following.bodyText == "arrived at /to")
        #expect(following.headers["Location"] == nil)
    }

    @Test("a configured proxy receives the request in absolute form")
    func explicitProxy() async throws {
        let targets = Tally()
        let proxy = try Support.server { request in
            targets.record(request.target)
            return .text(200, "via proxy")
        }
        defer { proxy.stop() }
        let transport = CurlTransport(configuration: .init(proxy: .url(proxy.baseURL.absoluteString)))
        // calendar.invalid is never resolved: with a proxy, libcurl hands the whole URL to the proxy.
        let response = try await transport.send(HTTPRequest(url: URL(string: "http://calendar.invalid/v3/x?y=1")!))
        #expect(response.bodyText == "via proxy")
        #expect(targets.recorded == ["http://calendar.invalid/v3/x?y=1"])
    }

    @Test("a header value with a line break is refused before anything is sent")
    func headerInjection() async throws {
        let server = try Support.server { _ in .text(200, "ok") }
        defer { server.stop() }
        let request = HTTPRequest(url: server.baseURL, headers: ["X-Evil": "a\r\nAuthorization: Bearer stolen"])
        let error = await Support.httpError { try await CurlTransport().send(request) }
        #expect(error?.code == .other)
        #expect(error?.description.contains("stolen") == false)
        #expect(server.requestsServed == 0)
    }

    @Test("libcurl facts: version and HTTP/2 support are readable")
    func curlInfo() {
        #expect(CurlInfo.version.split(separator: ".").count >= 2)
        #expect(CurlInfo.supportsGzip)
        // Debian's libcurl4-openssl is built with nghttp2.
        #expect(CurlInfo.supportsHTTP2)
    }
}
