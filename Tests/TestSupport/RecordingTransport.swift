import Foundation
import HTTP

/// A transport that records every request and answers through a closure (fixture JSON, errors).
package final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [HTTPRequest] = []
    private let answer: @Sendable (HTTPRequest) async throws -> HTTPResponse

    package init(answer: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
        self.answer = answer
    }

    /// Answers every request with the same status and body.
    package convenience init(status: Int = 200, json: String) {
        self.init { _ in
            HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(json.utf8))
        }
    }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        lock.withLock { recorded.append(request) }
        return try await answer(request)
    }

    /// Every request sent so far, in order.
    package var requests: [HTTPRequest] { lock.withLock { recorded } }
}
