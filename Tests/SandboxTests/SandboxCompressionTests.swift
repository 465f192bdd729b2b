import CalbridgeSupport
import CZlib
import Foundation
import LoopbackServer
import Sandbox
import Testing
import TestSupport

@Suite("Sandbox: gzip answers where the real services send them")
struct SandboxCompressionTests {
    @Test(
        "Accept-Encoding offers gzip when it lists gzip or x-gzip, or * without gzip, with a q-value above 0",
        arguments: [
            ("gzip", true), ("GZIP", true), ("x-gzip", true), ("deflate, gzip, br, zstd", true),
            ("deflate, gzip;q=0.5", true), ("gzip; q=0", false), ("gzip;q=0, *", false), ("*", true),
            ("*;q=0", false), ("identity", false), ("deflate, br", false), ("", false), ("gzipped", false),
        ])
    func offersGzip(value: String, offered: Bool) {
        #expect(SandboxCompression.offersGzip(value) == offered)
        #expect(!SandboxCompression.offersGzip(nil))
    }

    @Test("Graph compresses when asked; Google only when the User-Agent also contains gzip; both inflate to the plain answer")
    func whoCompresses() async throws {
        let sandbox = try await SandboxServer.start()
        defer { Task { try? await sandbox.stop() } }
        let google = try #require(sandbox.info.accounts.first { $0.provider == .google }).accessToken
        let microsoft = try #require(sandbox.info.accounts.first { $0.provider == .microsoft }).accessToken
        let graph = "/v1.0/me/calendars", calendars = "/calendar/v3/users/me/calendarList"

        let plainGraph = try #require(try await exchange(sandbox.port, graph, token: microsoft, headers: []))
        let gzipGraph = try #require(try await exchange(sandbox.port, graph, token: microsoft, headers: ["Accept-Encoding: gzip"]))
        #expect(plainGraph.headers["content-encoding"] == nil)
        #expect(gzipGraph.headers["content-encoding"] == "gzip")
        #expect(gzipGraph.body.count < plainGraph.body.count)
        #expect(Self.gunzip(gzipGraph.body) == plainGraph.body)
        // What calbridge offers (libcurl's list) counts as asking.
        let curlList = try await exchange(sandbox.port, graph, token: microsoft, headers: ["Accept-Encoding: deflate, gzip, br, zstd"])
        #expect(curlList?.headers["content-encoding"] == "gzip")
        // A list header may come as several fields (RFC 9110 §5.3): gzip in the second counts.
        let twoFields = try await exchange(sandbox.port, graph, token: microsoft, headers: ["Accept-Encoding: deflate", "Accept-Encoding: gzip"])
        #expect(twoFields?.headers["content-encoding"] == "gzip")

        let port = try #require(sandbox.googleBaseURL.port.flatMap { UInt16(exactly: $0) })
        let plainGoogle = try #require(try await exchange(port, calendars, token: google, headers: ["Accept-Encoding: gzip"]))
        #expect(plainGoogle.headers["content-encoding"] == nil, "no User-Agent: Google answers plain")
        let otherAgent = try await exchange(port, calendars, token: google, headers: ["Accept-Encoding: gzip", "User-Agent: calbridge"])
        #expect(otherAgent?.headers["content-encoding"] == nil)
        let gzipGoogle = try #require(
            try await exchange(port, calendars, token: google, headers: ["Accept-Encoding: gzip", "User-Agent: calbridge (gzip)"]))
        #expect(gzipGoogle.headers["content-encoding"] == "gzip")
        #expect(gzipGoogle.headers["vary"] == "Origin, X-Origin, Referer, Accept-Encoding")
        #expect(plainGoogle.headers["vary"] == "Origin, X-Origin, Referer")
        #expect(Self.gunzip(gzipGoogle.body) == plainGoogle.body)
        let refused = try await exchange(port, calendars, token: google, headers: ["Accept-Encoding: gzip;q=0", "User-Agent: x (gzip)"])
        #expect(refused?.headers["content-encoding"] == nil)
        // Errors are compressed too: the answer is the service's, whatever its status.
        let unauthorized = try #require(try await exchange(sandbox.port, graph, token: "wrong", headers: ["Accept-Encoding: gzip"]))
        #expect(unauthorized.status == 401 && unauthorized.headers["content-encoding"] == "gzip")
        #expect(String(decoding: Self.gunzip(unauthorized.body) ?? [], as: UTF8.self).contains("InvalidAuthenticationToken"))
    }

    @Test("gzip output inflates to its input, from empty to a megabyte of noise")
    func roundTrip() throws {
        var generator = SplitMix64(seed: 20_261_204)
        for size in [0, 1, 100, 65_537, 1 << 20] {
            let input = Data((0..<size).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            let compressed = try #require(SandboxCompression.gzip(input))
            #expect(Self.gunzip(Array(compressed)) == Array(input))
        }
    }

    private func exchange(_ port: UInt16, _ target: String, token: String, headers: [String]) async throws
        -> (status: Int, headers: [String: String], body: [UInt8])?
    {
        let text = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
            + headers.map { $0 + "\r\n" }.joined() + "\r\n"
        return try await blocking {
            let client = try RawHTTPClient(port: port)
            client.send(text)
            return client.readResponseBytes()
        }
    }

    /// The bytes a gzip member inflates to, or nil if zlib refuses them.
    static func gunzip(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard cb_inflate_init_gzip(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = bytes, output: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65_536)
        return input.withUnsafeMutableBufferPointer { source -> [UInt8]? in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let result = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output += chunk[0..<(chunk.count - Int(stream.avail_out))]
                if result == Z_STREAM_END { return output }
                guard result == Z_OK else { return nil }
            }
        }
    }
}
