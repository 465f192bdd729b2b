import HTTP
import OAuth
import HTTPCurl

extension CommandContext {
    /// The network transport every command uses: the one place to swap the implementation.
    /// With `--verbose`, every request and response is logged to stderr, secrets redacted.
    /// - Parameter connectionsPerHost: most connections open at once to one host (over HTTP/2 the
    ///   requests share one connection as streams whatever this says).
    func makeTransport(verbose: Bool = false, connectionsPerHost: Int = 8) -> any HTTPTransport {
        let base: any HTTPTransport = CurlTransport(configuration: .init(maxConnectionsPerHost: connectionsPerHost))
        guard verbose else { return base }
        let sink = stderr
        return MiddlewareTransport(base: base, middlewares: [RedactingLogger { sink.write(TerminalText.sanitize($0, keepingLayout: true) + "\n") }])
    }
}
