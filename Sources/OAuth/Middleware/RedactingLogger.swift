import Foundation
import HTTP

/// `--verbose` request logging: every request and response, secrets masked by `Redactor`.
public struct RedactingLogger: HTTPMiddleware {
    private let write: @Sendable (String) -> Void
    private let bodyLimit: Int

    /// - Parameter write: receives one multi-line block per request and per response.
    public init(bodyLimit: Int = 2048, write: @escaping @Sendable (String) -> Void) {
        self.write = write
        self.bodyLimit = bodyLimit
    }

    public func intercept(
        _ request: HTTPRequest,
        next: @Sendable (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        write(Redactor.describe(request, bodyLimit: bodyLimit))
        let started = ContinuousClock.now
        do {
            let response = try await next(request)
            let elapsed = ContinuousClock.now - started
            let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
            write(Redactor.describe(response, bodyLimit: bodyLimit) + "\n< (\(milliseconds) ms)")
            return response
        } catch {
            write("< no response: \(Redactor.text(String(describing: error)))")
            throw error
        }
    }
}
