import Foundation
import HTTP
import LoopbackServer
import Testing

@Suite("HTTP/1.1 request framing (HTTPRequestParser)")
struct HTTPRequestParserTests {
    /// Every request in `text`, then the failure that ended it (if any).
    static func parse(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> ([HTTPRequestParser.Request], HTTPRequestParser.Failure?) {
        var parser = HTTPRequestParser(limits: limits)
        parser.append(Array(text.utf8))
        var requests: [HTTPRequestParser.Request] = []
        do {
            while let request = try parser.next() { requests.append(request) }
            return (requests, nil)
        } catch {
            return (requests, error)
        }
    }

    @Test("issue 13: an empty chunk-size line is a 400, not a crash")
    func emptyChunkSize() {
        let (requests, failure) = Self.parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n\r\n")
        #expect(requests.isEmpty)
        #expect(failure?.status == 400)
        #expect(failure?.reason == "empty chunk size line")
    }

    @Test("issue 13: chunk sizes that would overflow are refused before any arithmetic",
          arguments: ["7fffffffffffffff", "ffffffffffffffff", "10000000000000000000", "8000000000000000"])
    func hugeChunkSize(_ size: String) {
        let (requests, failure) = Self.parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\nx\r\n")
        #expect(requests.isEmpty)
        #expect(failure?.status == 400 || failure?.status == 413)
    }

    @Test("a chunk just over the body limit is 413; chunks adding up past it too")
    func chunkedLimit() {
        var limits = HTTPRequestParser.Limits()
        limits.maxBodyBytes = 10
        #expect(Self.parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nb\r\n", limits: limits).1?.status == 413)
        let twoChunks = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\nabcdef\r\n0\r\n\r\n"
        #expect(Self.parse(twoChunks, limits: limits).1?.status == 413)
    }

    @Test("chunked body with extensions and trailers, then a pipelined request")
    func chunkedAndPipelined() throws {
        let text = "POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n1\r\n!\r\n0\r\nT: 1\r\n\r\n"
            + "GET /b HTTP/1.0\r\n\r\n"
        let (requests, failure) = Self.parse(text)
        #expect(failure == nil)
        #expect(requests.map(\.head.target) == ["/a", "/b"])
        #expect(requests.first?.body == Data("hello!".utf8))
        #expect(requests.last?.head.wantsKeepAlive == false)
    }

    @Test("the same bytes in any two pieces give the same requests")
    func splitFeeds() throws {
        let text = Array("PUT /x HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET /y HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n".utf8)
        let whole = Self.parse(String(decoding: text, as: UTF8.self)).0
        #expect(whole.count == 2)
        for cut in 0...text.count {
            var parser = HTTPRequestParser()
            var requests: [HTTPRequestParser.Request] = []
            parser.append(text[..<cut])
            while let request = try parser.next() { requests.append(request) }
            parser.append(text[cut...])
            while let request = try parser.next() { requests.append(request) }
            #expect(requests == whole, "cut at \(cut)")
        }
    }

    @Test("header limits: a too-long line, too many fields, a too-long head are 431",
          arguments: [
            "GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: 9000))\r\n\r\n",
            "GET / HTTP/1.1\r\n" + String(repeating: "X: 1\r\n", count: 101) + "\r\n",
            "GET / HTTP/1.1\r\n" + String(repeating: "X-Long: \(String(repeating: "b", count: 1000))\r\n", count: 70),
          ])
    func headLimits(_ text: String) {
        #expect(Self.parse(text).1?.status == 431)
    }

    @Test("malformed requests are 400", arguments: [
        "GET /\r\n\r\n",
        "GET / HTTP/2.0\r\n\r\n",
        "G(T / HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\nNo colon here\r\n\r\n",
        "GET / HTTP/1.1\r\n folded: value\r\n\r\n",
        "GET / HTTP/1.1\r\nBad Name: v\r\n\r\n",
        "GET / HTTP/1.1\r\nX: a\rb\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: 1e3\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
        "POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
    ])
    func malformed(_ text: String) {
        let (requests, failure) = Self.parse(text)
        #expect(requests.isEmpty)
        #expect(failure?.status == 400, "\(failure.map { "\($0)" } ?? "no failure")")
    }

    @Test("a transfer coding other than chunked is 501; a body over the limit is 413 before it is read")
    func unsupportedAndTooLarge() {
        #expect(Self.parse("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n").1?.status == 501)
        #expect(Self.parse("POST / HTTP/1.1\r\nContent-Length: \(64 << 20 + 1)\r\n\r\n").1?.status == 413)
    }

    @Test("a failure sticks: later calls fail the same way")
    func failureSticks() {
        var parser = HTTPRequestParser()
        parser.append(Array("BAD\r\n\r\nGET / HTTP/1.1\r\n\r\n".utf8))
        #expect(throws: HTTPRequestParser.Failure.self) { try parser.next() }
        #expect(throws: HTTPRequestParser.Failure.self) { try parser.next() }
    }
}
