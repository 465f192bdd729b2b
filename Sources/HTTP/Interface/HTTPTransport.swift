/// Sends one HTTP request and returns its response. The only way providers and OAuth reach the network.
///
/// An HTTP error status (404, 500, ...) is a response, not a thrown error; `send` throws only when no
/// response arrived (DNS, connect, TLS, timeout, cancellation), as an `HTTPError`.
///
/// A test double records what it is sent and answers from fixtures:
/// ```swift
/// struct FixtureTransport: HTTPTransport {
///     let answer: @Sendable (HTTPRequest) async throws -> HTTPResponse
///     func send(_ request: HTTPRequest) async throws -> HTTPResponse { try await answer(request) }
/// }
/// ```
/// `TestSupport.RecordingTransport` is the ready-made one.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
