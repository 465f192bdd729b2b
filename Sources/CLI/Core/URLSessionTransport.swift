// TEMPORARY until CurlTransport lands: the lead swaps `makeTransport()` to CurlTransport at merge
// and deletes this file.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTP

/// A minimal `HTTPTransport` over Foundation's URLSession (temporary, see above).
final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    private let session: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = request.body
        if let timeout = request.timeout {
            urlRequest.timeoutInterval = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        }
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else {
                throw HTTPError(code: .other, url: request.url, message: "not an HTTP response")
            }
            var headers = HTTPHeaders()
            for (name, value) in http.allHeaderFields { headers.add(name: "\(name)", value: "\(value)") }
            return HTTPResponse(status: http.statusCode, headers: headers, body: data)
        } catch let error as HTTPError {
            throw error
        } catch is CancellationError {
            throw HTTPError(code: .cancelled, url: request.url, message: "cancelled")
        } catch let error as URLError {
            let code: HTTPError.Code = switch error.code {
            case .timedOut: .timeout
            case .cannotFindHost, .dnsLookupFailed: .dns
            case .cannotConnectToHost: .connect
            case .networkConnectionLost: .connectionReset
            case .secureConnectionFailed, .serverCertificateUntrusted: .tls
            case .cancelled: .cancelled
            default: .other
            }
            throw HTTPError(code: code, url: request.url, message: error.localizedDescription)
        } catch {
            throw HTTPError(code: .other, url: request.url, message: "\(error)")
        }
    }
}
