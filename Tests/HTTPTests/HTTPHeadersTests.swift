import Testing
import HTTP

@Suite("HTTP headers and middleware")
struct HTTPHeadersTests {
    @Test("lookup is case-insensitive and keeps duplicates in order")
    func lookup() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "set-cookie", value: "b=2")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        headers["CONTENT-TYPE"] = "application/json"
        #expect(headers.values(for: "Content-Type") == ["application/json"])
    }

    @Test("names compare equal when their bytes do but for the case of ASCII letters (seeded)")
    func caseFolding() {
        // Letters at both ends of each case's range, the bytes next to them, and text beyond ASCII (which
        // must match exactly: "É" is not "é" here).
        let pieces = ["A", "Z", "a", "z", "@", "[", "`", "{", "-", "0", "É", "é", "😀"]
        func fold(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte + 32 : byte }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var equalPairs = 0
        for round in 0..<5_000 {
            // Up to 24 pieces: short names live inside the string value, longer ones in a buffer of their own.
            let a = (0..<next(25)).map { _ in pieces[next(pieces.count)] }.joined()
            // Half the time the same name with some letters' case flipped, else another random name.
            let b = next(2) == 0
                ? String(a.map { character in
                    next(2) == 0 ? character : Character(character.isUppercase ? character.lowercased() : character.uppercased())
                })
                : (0..<next(25)).map { _ in pieces[next(pieces.count)] }.joined()
            let expected = Array(a.utf8).map(fold) == Array(b.utf8).map(fold)
            if expected { equalPairs += 1 }
            #expect(a.caseInsensitiveEquals(b) == expected, "round \(round): \(a) vs \(b)")
            #expect(b.caseInsensitiveEquals(a) == expected, "round \(round): \(b) vs \(a)")
        }
        #expect(equalPairs > 1_000)
    }

    struct Tag: HTTPMiddleware {
        let name: String
        func intercept(_ request: HTTPRequest, next: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
            var request = request
            request.headers.add(name: "X-Chain", value: name)
            return try await next(request)
        }
    }

    @Test("middlewares run outermost first, then the base transport")
    func chainOrder() async throws {
        let base = EchoChain()
        let transport = MiddlewareTransport(base: base, middlewares: [Tag(name: "a"), Tag(name: "b")])
        let response = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1/")!))
        #expect(response.bodyText == "a,b")
    }

    struct EchoChain: HTTPTransport {
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            HTTPResponse(status: 200, body: Data(request.headers.values(for: "X-Chain").joined(separator: ",").utf8))
        }
    }
}

import Foundation
