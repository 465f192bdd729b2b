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
