import Foundation
import HTTP

/// The real `HTTPTransport`, over libcurl.
///
/// Design: one dedicated driver thread owns a libcurl *multi* handle and runs every transfer of this
/// transport (`curl_multi_poll` + `curl_multi_perform`). `send` builds an easy handle on the caller's
/// task, hands it to the driver through a lock-protected queue (waking it with `curl_multi_wakeup`)
/// and suspends on a continuation that the driver resumes when the transfer ends. So thousands of
/// requests can be in flight from many tasks with one thread in total, never a blocked thread per
/// request, and no cooperative-pool thread ever waits on the network. The multi handle also holds the
/// connection cache (keep-alive across requests to the same host), the DNS cache, and multiplexes
/// HTTP/2 streams over one connection when the server offers h2 (ALPN on https).
///
/// Behaviour a caller can rely on:
/// - TLS certificate and host-name verification are always on; there is no option to turn them off.
/// - Proxies: with `.environment` (the default) libcurl itself reads `http_proxy`, `https_proxy`,
///   `all_proxy`/`ALL_PROXY` and `no_proxy`/`NO_PROXY` for each transfer. libcurl deliberately ignores the
///   uppercase `HTTP_PROXY` (it can be set by a CGI environment from a request header, "httpoxy");
///   `HTTPS_PROXY` in uppercase is honoured.
/// - `gzip` and `deflate` bodies are requested (`Accept-Encoding: gzip, deflate`) and decoded, with
///   libdeflate, not libcurl's zlib (`ContentDecoding`); the response keeps the server's
///   `Content-Encoding`/`Content-Length` headers but its body is the decoded one. A body in a coding
///   not offered, or not valid in the one named, fails with `HTTPError(.other)`.
/// - Redirects are not followed unless `Configuration.followRedirects` is set (OAuth must see them).
/// - Cancelling the calling task cancels the transfer (its connection is closed) and `send` throws
///   `HTTPError` with code `.cancelled`.
/// - Failures are `HTTPError` values carrying the URL without its query, and never a header value.
public final class CurlTransport: HTTPTransport {
    /// How a transport behaves; the defaults suit a sync tool talking to two cloud APIs.
    public struct Configuration: Sendable, Equatable {
        /// Where requests go through a proxy.
        public enum Proxy: Sendable, Equatable {
            /// libcurl reads the usual lowercase environment variables (see `CurlTransport`).
            case environment
            /// Never use a proxy, whatever the environment says.
            case direct
            /// Use this proxy URL (for example `http://proxy.example:3128`) for every request.
            case url(String)
        }

        /// Time allowed to establish a connection (TCP and TLS).
        public var connectTimeout: Duration
        /// Total time allowed per request when the request itself sets no `timeout`.
        public var requestTimeout: Duration
        /// Most connections open at once to one host; further requests wait for a free one
        /// (or share one as HTTP/2 streams).
        public var maxConnectionsPerHost: Int
        /// Follow 3xx redirects inside the transport. Off by default: OAuth flows must see them.
        public var followRedirects: Bool
        /// With `followRedirects`, the most redirects followed before `HTTPError(.tooManyRedirects)`.
        public var maxRedirects: Int
        public var proxy: Proxy
        /// The largest response body accepted, as sent and after decompression (a gzip bomb is as
        /// large as what it inflates to); larger ones fail with `HTTPError(.responseTooLarge)`.
        public var maxResponseBytes: Int
        /// The `User-Agent` of requests that set none themselves; nil sends none. The default names
        /// calbridge and contains "gzip": Google compresses an answer only for a user agent containing
        /// "gzip" (Calendar API, "Improve performance"), and compressed listings are a seventh of the bytes.
        public var userAgent: String?

        public init(
            connectTimeout: Duration = .seconds(10),
            requestTimeout: Duration = .seconds(60),
            maxConnectionsPerHost: Int = 8,
            followRedirects: Bool = false,
            maxRedirects: Int = 10,
            proxy: Proxy = .environment,
            maxResponseBytes: Int = 256 << 20,
            userAgent: String? = "calbridge (gzip)"
        ) {
            self.connectTimeout = connectTimeout
            self.requestTimeout = requestTimeout
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.followRedirects = followRedirects
            self.maxRedirects = maxRedirects
            self.proxy = proxy
            self.maxResponseBytes = max(0, maxResponseBytes)
            self.userAgent = userAgent
        }
    }

    public let configuration: Configuration
    private let driver: CurlMultiDriver

    /// Creates a transport with its own driver thread and connection cache. Share one transport across
    /// the whole process (or at least across all requests to one host) to benefit from keep-alive.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        driver = CurlMultiDriver(maxConnectionsPerHost: configuration.maxConnectionsPerHost)
    }

    deinit { driver.shutdown() }

    /// Sends the request and returns the response with its decoded body.
    /// - Throws: `HTTPError` when no response arrived (dns, connect, tls, timeout, cancelled,
    ///   connection-reset, too-many-redirects, other).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let transfer = try CurlTransfer(request: request, configuration: configuration)
        let driver = self.driver
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                driver.submit(transfer, continuation: continuation)
            }
        } onCancel: {
            driver.cancel(transfer)
        }
        return try transfer.decoded(response)
    }
}
