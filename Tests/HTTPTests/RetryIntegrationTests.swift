import Foundation
import HTTP
import Testing
import HTTPCurl
import LoopbackServer

/// RetryMiddleware in front of the real CurlTransport, against the loopback server.
@Suite("Retry through CurlTransport")
struct RetryIntegrationTests {
    /// Answers the scripted responses in order, then 200 "done"; records request count.
    static func scriptedServer(_ script: [ServerResponse]) throws -> (LoopbackHTTPServer, Tally) {
        let count = Tally()
        let server = try CurlTestSupport.server { _ in
            let index = count.increment() - 1
            return index < script.count ? script[index] : .text(200, "done")
        }
        return (server, count)
    }

    static func transport(_ middleware: RetryMiddleware) -> MiddlewareTransport {
        MiddlewareTransport(base: CurlTransport(), middlewares: [middleware])
    }

    @Test("429 with Retry-After in seconds: waits that long (really) and succeeds")
    func retryAfterSeconds() async throws {
        let (server, count) = try Self.scriptedServer([
            ServerResponse(status: 429, headers: ["Retry-After": "1"], body: Data("slow down".utf8)),
        ])
        defer { server.stop() }
        let started = ContinuousClock.now
        let response = try await Self.transport(RetryMiddleware()).send(HTTPRequest(url: server.baseURL))
        #expect(response.status == 200)
        #expect(response.bodyText == "done")
        #expect(count.value == 2)
        #expect(ContinuousClock.now - started >= .milliseconds(950))
    }

    @Test("503 with Retry-After as an HTTP-date, then 504, then success")
    func retryAfterDate() async throws {
        let (server, count) = try Self.scriptedServer([
            ServerResponse(status: 503, headers: ["Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"]),
            ServerResponse(status: 504),
        ])
        defer { server.stop() }
        let script = RetryScript([.success(HTTPResponse(status: 0))])
        let middleware = script.middleware(RetryPolicy(baseDelay: .milliseconds(250), jitter: 0), now: Date(timeIntervalSince1970: 784_111_777 - 5))
        let response = try await Self.transport(middleware).send(HTTPRequest(url: server.baseURL))
        #expect(response.status == 200)
        #expect(count.value == 3)
        #expect(script.waits == [.seconds(5), .milliseconds(500)])
    }

    @Test("a dropped connection is retried for GET but not for POST")
    func connectionReset() async throws {
        let (server, count) = try Self.scriptedServer([.drop])
        defer { server.stop() }
        let script = RetryScript([.success(HTTPResponse(status: 0))])
        let transport = Self.transport(script.middleware())
        #expect(try await transport.send(HTTPRequest(url: server.baseURL)).status == 200)
        #expect(count.value == 2)

        let (postServer, postCount) = try Self.scriptedServer([.drop])
        defer { postServer.stop() }
        let error = await CurlTestSupport.httpError {
            try await transport.send(HTTPRequest(method: .post, url: postServer.baseURL, body: Data("x".utf8)))
        }
        #expect(error?.code == .connectionReset)
        #expect(postCount.value == 1)
    }
}
