import Foundation
import HTTP
import HTTPCurl
import LoopbackServer
import Testing

@Suite("CurlTransport: response bodies beyond the limit, as sent or inflated")
struct CurlResponseLimitTests {
    @Test("a body over maxResponseBytes fails with .responseTooLarge; a small one on the same transport works")
    func plainBody() async throws {
        let body = Data(repeating: 65, count: 50_000)
        let server = try CurlTestSupport.server { _ in
            ServerResponse(status: 200, headers: ["Content-Type": "text/plain"], body: body)
        }
        defer { server.stop() }
        let transport = CurlTransport(configuration: .init(maxResponseBytes: 10_000))
        let error = await CurlTestSupport.httpError { try await transport.send(HTTPRequest(url: server.baseURL)) }
        #expect(error?.code == .responseTooLarge)
        #expect(error?.description.contains("over the limit of 10000 bytes") == true)
        // Under the limit, the same transport works.
        let small = try CurlTestSupport.server { _ in .text(200, "fine") }
        defer { small.stop() }
        #expect(try await transport.send(HTTPRequest(url: small.baseURL)).body == Data("fine".utf8))
    }

    @Test("a gzip body small on the wire but larger inflated is refused (a decompression bomb)")
    func inflated() async throws {
        let compressed = try CurlTestSupport.fixture("sample.txt.gz")  // 635 bytes -> 15,000
        let server = try CurlTestSupport.server { _ in
            ServerResponse(status: 200, headers: ["Content-Encoding": "gzip"], body: compressed)
        }
        defer { server.stop() }
        let transport = CurlTransport(configuration: .init(maxResponseBytes: 5_000))
        let error = await CurlTestSupport.httpError { try await transport.send(HTTPRequest(url: server.baseURL)) }
        #expect(error?.code == .responseTooLarge)
    }
}
