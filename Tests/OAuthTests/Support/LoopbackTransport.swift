import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTP

/// A URLSession transport for tests against servers on 127.0.0.1 (until CurlTransport lands; then the
/// tests can use that instead). Counts what it sends so tests can assert traffic.
final class LoopbackTransport: HTTPTransport, @unchecked Sendable {
    private let session: URLSession
    private let lock = NSLock()
    private var sent: [HTTPRequest] = []

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 30
        session = URLSession(configuration: configuration)
    }

    deinit { session.invalidateAndCancel() }

    var requests: [HTTPRequest] { lock.withLock { sent } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        precondition(request.url.host == "127.0.0.1", "tests may only talk to 127.0.0.1")
        lock.withLock { sent.append(request) }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = request.body
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else {
                throw HTTPError(code: .other, url: request.url, message: "not an HTTP response")
            }
            var headers = HTTPHeaders()
            for (name, value) in http.allHeaderFields {
                headers.add(name: "\(name)", value: "\(value)")
            }
            return HTTPResponse(status: http.statusCode, headers: headers, body: data)
        } catch let error as HTTPError {
            throw error
        } catch {
            throw HTTPError(code: .connect, url: request.url, message: error.localizedDescription)
        }
    }
}
