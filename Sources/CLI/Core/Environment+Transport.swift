import HTTP
import OAuth
import HTTPCurl

extension CommandContext {
    /// The network transport every command uses: the one place to swap the implementation.
    /// With `--verbose`, every request and response is logged to stderr, secrets redacted.
    func makeTransport(verbose: Bool = false) -> any HTTPTransport {
        let base: any HTTPTransport = CurlTransport()
        guard verbose else { return base }
        let sink = stderr
        return MiddlewareTransport(base: base, middlewares: [RedactingLogger { sink.write(TerminalText.sanitize($0, keepingLayout: true) + "\n") }])
    }
}
