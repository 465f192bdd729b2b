import CalbridgeSupport
import Foundation
import HTTP
import HTTPCurl
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// One loopback connection answered with bytes given as they are: response heads `LoopbackHTTPServer`
/// would never write (odd whitespace, folded lines, interim responses).
final class RawResponder: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let thread: Thread

    init(_ response: [UInt8]) {
        let listener = CurlTestSupport.boundSocket()
        self.listener = listener
        listen(listener, 1)
        port = CurlTestSupport.boundPort(listener)
        thread = Thread {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            // The request's head, then the answer.
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while !received.suffix(4).elementsEqual("\r\n\r\n".utf8) {
                let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return }
                received += chunk[0..<count]
            }
            _ = response.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
        }
        thread.start()
    }

    deinit { close(listener) }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/")! }
}

@Suite("CurlTransport: response header lines as received")
struct CurlHeaderLineTests {
    @Test("values lose spaces and tabs at either end (only those), folded lines join the field before, the last head counts")
    func headerLines() async throws {
        let head = "HTTP/1.1 100 Continue\r\nX-Interim: gone\r\n\r\n"
            + "HTTP/1.1 200 OK\r\n"
            + "Content-Length: 2\r\n"
            + "X-Spaces:    padded value \t \r\n"
            + "X-Tight:tight\r\n"
            + "X-Empty:\r\n"
            + "X-Folded: first\r\n"
            + " \t second part  \r\n"
            + "X-Nbsp: \u{A0}kept\u{A0}\r\n"
            + "X-Colon: a: b\r\n"
            + "\r\n"
            + "ok"
        let responder = RawResponder(Array(head.utf8))
        let transport = CurlTransport(configuration: .init())
        let response = try await transport.send(HTTPRequest(url: responder.url))
        #expect(response.status == 200)
        #expect(response.body == Data("ok".utf8))
        #expect(response.headers["X-Spaces"] == "padded value")
        #expect(response.headers["X-Tight"] == "tight")
        #expect(response.headers["X-Empty"] == "")
        #expect(response.headers["X-Folded"] == "first second part")
        #expect(response.headers["X-Nbsp"] == "\u{A0}kept\u{A0}")
        #expect(response.headers["X-Colon"] == "a: b")
        #expect(response.headers["X-Interim"] == nil)
    }

    @Test("the optional-whitespace trim against a reference on 20,000 seeded lines of spaces, tabs and other bytes")
    func trimReference() {
        var random = SplitMix64(seed: 0x5EED)
        func next() -> UInt64 { random.next() }
        let alphabet: [UInt8] = [32, 9, 65, 0xC2, 0xA0, 58, 13, 10, 11, 12]
        for _ in 0..<20_000 {
            let bytes = (0..<Int(next() % 9)).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }
            let isOWS = { (byte: UInt8) in byte == 32 || byte == 9 }
            let expected = Array(bytes.drop(while: isOWS).reversed().drop(while: isOWS).reversed())
            #expect(Array(HTTPHeaders.withoutOptionalWhitespace(bytes)) == expected)
        }
    }
}
