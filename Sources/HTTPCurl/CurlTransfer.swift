internal import CCurl
import Foundation
import HTTP

/// One request's libcurl easy handle and the response arriving on it.
///
/// Built and configured on the caller's task; from `CurlMultiDriver.submit` on, only the driver thread
/// touches the handle and the response buffers (libcurl calls the callbacks there). `state` and
/// `continuation` are guarded by the driver's lock, so the continuation is resumed exactly once; once it
/// is, the caller's task decodes the response (`decoded`), reading only what was set before `submit`.
final class CurlTransfer: @unchecked Sendable {
    enum State {
        /// Built, not yet submitted.
        case created
        /// Cancelled before it was submitted: `submit` resumes it at once.
        case cancelledEarly
        /// Waiting in the driver's queue.
        case queued
        /// Added to the multi handle.
        case running
        /// Its continuation was resumed.
        case finished
    }

    let request: HTTPRequest
    let easy: UnsafeMutableRawPointer

    // Guarded by the driver's lock.
    var state = State.created
    var continuation: CheckedContinuation<HTTPResponse, any Error>?

    // Driver thread only (written by libcurl's callbacks).
    private var body = Data()
    private var maxBodyBytes = Int.max
    private var bodyTooLarge = false
    private var headers = HTTPHeaders()
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init(request: HTTPRequest, configuration: CurlTransport.Configuration) throws {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw HTTPError(code: .other, url: request.url, message: "only http and https URLs are supported")
        }
        guard let easy = curl_easy_init() else {
            throw HTTPError(code: .other, url: request.url, message: "libcurl could not create a handle")
        }
        self.request = request
        self.easy = easy
        let errorSize = Int(cb_error_size())
        errorBuffer = .allocate(capacity: errorSize)
        errorBuffer.initialize(repeating: 0, count: errorSize)
        try configure(configuration)
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    // MARK: - Options

    private func configure(_ configuration: CurlTransport.Configuration) throws {
        let isHTTPS = request.url.scheme?.lowercased() == "https"
        try set(CURLOPT_URL, request.url.absoluteString)
        // Refused from Content-Length before the body comes; the write callback caps what arrives, and
        // `ContentDecoding` what it decodes to.
        maxBodyBytes = configuration.maxResponseBytes
        try check(cb_easy_setopt_off(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(configuration.maxResponseBytes)))
        // Signals cannot be used from threads; libcurl then relies on its threaded resolver for DNS timeouts.
        try set(CURLOPT_NOSIGNAL, 1)
        // Reads of up to 512 KB (libcurl's default is 16 KB): large listings arrive in a tenth of the
        // `recvfrom` calls and polls.
        try set(CURLOPT_BUFFERSIZE, 512 * 1024)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_FOLLOWLOCATION, configuration.followRedirects ? 1 : 0)
        try set(CURLOPT_MAXREDIRS, configuration.maxRedirects)
        try set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(configuration.connectTimeout))
        try set(CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeout ?? configuration.requestTimeout))
        // Bodies arrive as sent and are decoded by `ContentDecoding` (libdeflate), which reads what is offered.
        try set(CURLOPT_ACCEPT_ENCODING, ContentDecoding.accepted)
        try set(CURLOPT_HTTP_CONTENT_DECODING, 0)
        // libcurl sends none unless asked; a request's own User-Agent header overrides this one.
        if let userAgent = configuration.userAgent { try set(CURLOPT_USERAGENT, userAgent) }
        // Always verified; deliberately not configurable.
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        try set(CURLOPT_HTTP_VERSION, cb_http_version_2tls())
        // On https, wait for a connection being set up that may turn out to be HTTP/2 (and so shareable)
        // rather than opening another one. Plain http here is HTTP/1.1, where waiting would only serialise.
        if isHTTPS { try set(CURLOPT_PIPEWAIT, 1) }
        switch configuration.proxy {
        case .environment: break
        case .direct: try set(CURLOPT_PROXY, "")
        case .url(let proxy): try set(CURLOPT_PROXY, proxy)
        }
        try check(cb_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer))

        try configureMethodAndBody()
        try configureHeaders()

        let me = Unmanaged.passUnretained(self).toOpaque()
        try check(cb_easy_setopt_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, user in
            guard let user else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
            let length = size * count
            guard length <= transfer.maxBodyBytes - transfer.body.count else {
                transfer.bodyTooLarge = true
                return 0  // anything but `length` makes libcurl stop with CURLE_WRITE_ERROR
            }
            if let data, length > 0 {
                if transfer.body.isEmpty { transfer.reserveDeclaredLength() }
                transfer.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
            }
            return length
        })
        try check(cb_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, me))
        try check(cb_easy_setopt_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, user in
            guard let user else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
            let length = size * count
            if let data {
                transfer.receivedHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
            }
            return length
        })
        try check(cb_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, me))
    }

    /// Room for the body the response declares (Content-Length, its length as sent), before its first
    /// bytes, so that a large listing is not copied again at each growth. At most `maxReservedBytes`, whatever a
    /// server declares; a longer body grows from there.
    private func reserveDeclaredLength() {
        var declared: curl_off_t = -1
        guard cb_easy_getinfo_off(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared) == CURLE_OK, declared > 0 else { return }
        body.reserveCapacity(Int(min(declared, curl_off_t(min(maxBodyBytes, Self.maxReservedBytes)))))
    }

    /// The most `reserveDeclaredLength` sets aside ahead (a full page of 2,500 Google events is about 4 MB).
    static let maxReservedBytes = 16 << 20

    private func configureMethodAndBody() throws {
        let method = request.method
        switch method {
        case .get where request.body == nil:
            try set(CURLOPT_HTTPGET, 1)
        case .head:
            try set(CURLOPT_NOBODY, 1)
        default:
            // POST, PUT, PATCH always send a body (possibly empty, so Content-Length: 0); other methods
            // send one only when given. The copy lets the caller's Data go as soon as `send` returns.
            let body = request.body ?? Data()
            if request.body != nil || [.post, .put, .patch].contains(method) {
                try check(cb_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
                if body.isEmpty {
                    // A non-null pointer even for an empty body (null would mean "use the read callback").
                    try set(CURLOPT_COPYPOSTFIELDS, "")
                } else {
                    try check(body.withUnsafeBytes { cb_easy_setopt_ptr(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) })
                }
            }
            if method != .post { try set(CURLOPT_CUSTOMREQUEST, method.rawValue) }
        }
    }

    private func configureHeaders() throws {
        var list: UnsafeMutablePointer<curl_slist>?
        defer { headerList = list }
        func append(_ line: String) throws {
            guard let appended = curl_slist_append(list, line) else {
                throw HTTPError(code: .other, url: request.url, message: "libcurl could not store a header")
            }
            list = appended
        }
        for field in request.headers {
            // A line break would let a value smuggle extra headers; the name only goes in the message.
            // Checked as bytes: Swift treats "\r\n" as one Character, equal to neither "\r" nor "\n".
            guard !field.name.isEmpty, !field.name.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 58 }),
                  !field.value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
                throw HTTPError(code: .other, url: request.url, message: "header '\(Self.safeName(field.name))' is malformed")
            }
            // "Name;" is libcurl's spelling of a header with an empty value ("Name:" would remove it).
            try append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        // libcurl would otherwise add a form Content-Type to bodies, and `Expect: 100-continue` (one more
        // round trip) to large ones.
        if request.body != nil || [.post, .put, .patch].contains(request.method) {
            if !request.headers.contains("Content-Type") { try append("Content-Type:") }
            if !request.headers.contains("Expect") { try append("Expect:") }
        }
        try check(cb_easy_setopt_ptr(easy, CURLOPT_HTTPHEADER, list))
    }

    private func set(_ option: CURLoption, _ value: Int) throws {
        try check(cb_easy_setopt_long(easy, option, value))
    }

    private func set(_ option: CURLoption, _ value: String) throws {
        // libcurl copies string options.
        try check(value.withCString { cb_easy_setopt_ptr(easy, option, $0) })
    }

    private func check(_ code: CURLcode) throws {
        guard code == CURLE_OK else {
            throw HTTPError(code: .other, url: request.url, message: "libcurl rejected an option: \(String(cString: curl_easy_strerror(code)))")
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    private static func safeName(_ name: String) -> String {
        String(name.prefix(40).map { $0 == "\r" || $0 == "\n" ? " " : $0 })
    }

    // MARK: - Receiving (driver thread)

    private func receivedHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        var length = bytes.count
        while length > 0, bytes[length - 1] == 10 || bytes[length - 1] == 13 { length -= 1 }
        // Byte-wise, values trimmed of spaces and tabs only (RFC 9110's optional whitespace): Foundation's
        // `trimmingCharacters(in: .whitespaces)` is slow per field and also takes Unicode spaces, which
        // belong to the value.
        let line = UnsafeRawBufferPointer(rebasing: bytes[0..<length])
        if line.starts(with: "HTTP/".utf8) {
            // A new status line: an interim 100 response, or a redirect being followed. Keep the last head only.
            headers = HTTPHeaders()
        } else if let first = line.first, first == 32 || first == 9, var last = headers.fields.last {
            // Obsolete line folding: continue the previous value.
            last.value += " " + String(decoding: HTTPHeaders.withoutOptionalWhitespace(line), as: UTF8.self)
            var fields = headers.fields
            fields[fields.count - 1] = last
            headers = HTTPHeaders(fields)
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            headers.add(
                name: String(decoding: line[..<colon], as: UTF8.self),
                value: String(decoding: HTTPHeaders.withoutOptionalWhitespace(line[(colon + 1)...]), as: UTF8.self))
        }
    }

    /// The outcome once libcurl reports the transfer done with `code`: the body as it was sent.
    func result(_ code: CURLcode) -> Result<HTTPResponse, any Error> {
        guard code == CURLE_OK else { return .failure(error(for: code)) }
        var status = 0
        _ = cb_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        return .success(HTTPResponse(status: status, headers: headers, body: body))
    }

    /// `response` (this transfer's, from `result`) with its body decoded by its `Content-Encoding`; the
    /// headers stay as sent. Called on the caller's task, so the driver thread goes on receiving.
    func decoded(_ response: HTTPResponse) throws -> HTTPResponse {
        let codings = ContentDecoding.codings(response.headers.values(for: "Content-Encoding"))
        guard !codings.isEmpty, !response.body.isEmpty else { return response }
        do throws(ContentDecoding.Failure) {
            var decoded = response
            decoded.body = try ContentDecoding.decode(response.body, codings: codings, limit: maxBodyBytes)
            return decoded
        } catch .tooLarge {
            throw HTTPError(
                code: .responseTooLarge, url: request.url,
                message: "the response body is over the limit of \(maxBodyBytes) bytes once decompressed")
        } catch .unsupported(let coding) {
            throw HTTPError(
                code: .other, url: request.url,
                message: "the response is in Content-Encoding '\(Self.safeName(coding))', which was not asked for (\(ContentDecoding.accepted))")
        } catch .malformed(let coding) {
            throw HTTPError(
                code: .other, url: request.url,
                message: "the response body is not valid \(coding) data, as its Content-Encoding says it is")
        }
    }

    /// An `HTTPError` for a failed transfer: libcurl's detailed message when there is one.
    func error(for code: CURLcode) -> HTTPError {
        if bodyTooLarge || code == CURLE_FILESIZE_EXCEEDED {
            return HTTPError(
                code: .responseTooLarge, url: request.url,
                message: "the response body is over the limit of \(maxBodyBytes) bytes")
        }
        let detail = String(cString: errorBuffer)
        let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        return HTTPError(code: Self.errorCode(for: code), url: request.url, message: message)
    }

    static func errorCode(for code: CURLcode) -> HTTPError.Code {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .dns
        case CURLE_COULDNT_CONNECT: .connect
        case CURLE_OPERATION_TIMEDOUT: .timeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
             CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_SHUTDOWN_FAILED,
             CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            .tls
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2,
             CURLE_HTTP2_STREAM, CURLE_HTTP3:
            .connectionReset
        case CURLE_TOO_MANY_REDIRECTS: .tooManyRedirects
        case CURLE_ABORTED_BY_CALLBACK: .cancelled
        default: .other
        }
    }
}
