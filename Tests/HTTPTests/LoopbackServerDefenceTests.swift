import Foundation
import HTTP
import HTTPCurl
import LoopbackServer
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What any local process can do to the sandbox or the redirect listener (issue 13).
@Suite("Loopback server: malformed, idle, slow and too many connections")
struct LoopbackServerDefenceTests {
    static func server(
        timeouts: LoopbackHTTPServer.Timeouts = .init(), maxConnections: Int = 512,
        interfaces: [LoopbackHTTPServer.Interface] = [.ipv4]
    ) throws -> LoopbackHTTPServer {
        let server = LoopbackHTTPServer(interfaces: interfaces, timeouts: timeouts, maxConnections: maxConnections) { request in
            .text(200, "ok \(request.path)")
        }
        try server.start()
        return server
    }

    @Test(
        "issue 13: chunked with an empty chunk-size line or 7fffffffffffffff: answered (400/413) and closed; the server goes on",
        arguments: ["\r\n", "7fffffffffffffff\r\nx\r\n"])
    func chunkedAttacks(_ chunk: String) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let port = server.port
        let (status, closed, next) = try await blocking {
            let client = try RawHTTPClient(port: port)
            client.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk)
            let response = client.readResponse()
            let closed = client.isClosedByPeer()
            let other = try RawHTTPClient(port: port)
            other.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
            return (response?.status, closed, other.readResponse()?.body)
        }
        #expect(status == 400 || status == 413)
        #expect(closed)
        #expect(next == "ok /after")
    }

    @Test("150 idle connections do not delay a real request")
    func idleConnections() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let port = server.port
        let (elapsed, open) = try await blocking {
            // Half send nothing, half a partial head (a slow client).
            let idle = try (0..<150).map { index in
                let client = try RawHTTPClient(port: port)
                if index % 2 == 1 { client.send("GET / HTTP/1.1\r\nHost: slow") }
                return client
            }
            let start = ContinuousClock.now
            let real = try RawHTTPClient(port: port)
            real.send("GET /real HTTP/1.1\r\nHost: x\r\n\r\n")
            let body = real.readResponse()?.body
            let elapsed = ContinuousClock.now - start
            let open = server.openConnections
            withExtendedLifetime(idle) {}
            return (body == "ok /real" ? elapsed : .seconds(999), open)
        }
        // Held behind the idle ones it would wait for their 60 s timeout; 10 s leaves room for a loaded machine.
        #expect(elapsed < .seconds(10), "took \(elapsed)")
        // All 150 were accepted and are still held open while the real request was served.
        #expect(open >= 151)
    }

    @Test("a connection that sends nothing is closed after the idle timeout; one that sends a head slowly gets 408")
    func timeouts() async throws {
        let server = try Self.server(timeouts: .init(idle: .milliseconds(300), request: .milliseconds(600)))
        defer { server.stop() }
        let port = server.port
        let (idleClosed, slowStatus, slowElapsed) = try await blocking {
            let silent = try RawHTTPClient(port: port)
            let slow = try RawHTTPClient(port: port)
            let start = ContinuousClock.now
            slow.send("GET / HTTP/1.1\r\n")
            // Keep dripping bytes: each arrives before the idle timeout, but the request never ends.
            for _ in 0..<2 {
                usleep(200_000)
                slow.send("X: 1\r\n")
            }
            let response = slow.readResponse()
            return (silent.readResponse() == nil && silent.isClosedByPeer(), response?.status, ContinuousClock.now - start)
        }
        #expect(idleClosed)
        #expect(slowStatus == 408)
        #expect(slowElapsed < .seconds(5))
    }

    @Test("connections beyond maxConnections are answered 503 and closed; the others keep working")
    func connectionCap() async throws {
        let server = try Self.server(maxConnections: 3)
        defer { server.stop() }
        let port = server.port
        let (refused, kept) = try await blocking {
            let held = try (0..<3).map { _ in try RawHTTPClient(port: port) }
            // Give the accept thread time to register the three.
            usleep(100_000)
            let extra = try RawHTTPClient(port: port)
            let refused = extra.readResponse()?.status
            held[0].send("GET /kept HTTP/1.1\r\nHost: x\r\n\r\n")
            return (refused, held[0].readResponse()?.body)
        }
        #expect(refused == 503)
        #expect(kept == "ok /kept")
        #expect(server.connectionsRefused == 1)
    }

    @Test("listening on 127.0.0.1 and ::1 shares one port (what http://localhost:PORT/ needs)")
    func dualStack() async throws {
        let server = try Self.server(interfaces: [.ipv4, .ipv6])
        defer { server.stop() }
        let transport = CurlTransport()
        let v4 = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(server.port)/four")!))
        #expect(String(decoding: v4.body, as: UTF8.self) == "ok /four")
        // ::1 exists on this machine's loopback unless IPv6 is off; then the server listens on IPv4 only.
        let hasIPv6 = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard hasIPv6 >= 0 else { return }
        close(hasIPv6)
        let v6 = try await transport.send(HTTPRequest(url: URL(string: "http://[::1]:\(server.port)/six")!))
        #expect(String(decoding: v6.body, as: UTF8.self) == "ok /six")
    }
}
