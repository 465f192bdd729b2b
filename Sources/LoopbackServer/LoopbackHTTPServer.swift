import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTP

/// Handles one request of a `LoopbackHTTPServer`.
public typealias ServerHandler = @Sendable (ServerRequest) async -> ServerResponse

/// A small HTTP/1.1 server on 127.0.0.1 for the OAuth redirect listener, the sandbox and tests.
///
/// Design: one accept thread and one thread per connection, with blocking POSIX sockets. That is the
/// simplest correct design for loopback use: a handful to a few hundred connections, keep-alive, and
/// request handling that is `async` (each request is handed to the handler in a Task while the
/// connection's thread waits). It supports Content-Length and chunked request bodies,
/// `Expect: 100-continue`, keep-alive (HTTP/1.1 default, HTTP/1.0 on request), and closing or
/// dropping a connection on the handler's word (for fault injection).
public final class LoopbackHTTPServer: @unchecked Sendable {
    private let requestedPort: UInt16
    private let handler: ServerHandler
    private let maxBodyBytes: Int
    private let maxHeadBytes = 64 * 1024
    private let executor = HandlerExecutor.shared

    // Guarded by `lock`.
    private let lock = NSLock()
    private var listenDescriptor: Int32 = -1
    private var boundPort: UInt16 = 0
    private var clients: Set<Int32> = []
    private var accepted = 0
    private var served = 0
    private var stopped = false

    /// - Parameters:
    ///   - port: the port to bind on 127.0.0.1; 0 picks a free ephemeral port (see `port` after `start`).
    ///   - maxBodyBytes: larger request bodies are answered with 413 and the connection is closed.
    ///   - handler: called once per request, concurrently for different connections.
    public init(port: UInt16 = 0, maxBodyBytes: Int = 64 << 20, handler: @escaping ServerHandler) {
        self.requestedPort = port
        self.maxBodyBytes = maxBodyBytes
        self.handler = handler
    }

    deinit { stop() }

    /// Binds, listens and starts accepting. Returns the bound port.
    @discardableResult
    public func start() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ServerError.socket("socket", errno) }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requestedPort.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let error = errno
            close(descriptor)
            throw ServerError.socket("bind to 127.0.0.1:\(requestedPort)", error)
        }
        guard listen(descriptor, 1024) == 0 else {
            let error = errno
            close(descriptor)
            throw ServerError.socket("listen", error)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        let port = UInt16(bigEndian: actual.sin_port)
        lock.withLock {
            listenDescriptor = descriptor
            boundPort = port
            stopped = false
        }
        let thread = Thread { [self] in acceptLoop(descriptor) }
        thread.name = "calbridge-http-accept"
        thread.start()
        return port
    }

    /// The bound port (0 before `start`).
    public var port: UInt16 { lock.withLock { boundPort } }

    /// `http://127.0.0.1:<port>`
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Connections accepted since start (keep-alive makes this smaller than the request count).
    public var connectionsAccepted: Int { lock.withLock { accepted } }

    /// Requests answered since start.
    public var requestsServed: Int { lock.withLock { served } }

    /// Connections open right now.
    public var openConnections: Int { lock.withLock { clients.count } }

    /// Stops accepting and closes every connection. Safe to call more than once.
    public func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            if listenDescriptor >= 0 {
                // Only wake the accept thread here; it closes the descriptor itself when it leaves. Closing
                // it here would free the number while that thread may be about to call accept() again, on
                // whatever socket (another server's listener) reuses the number next.
                shutdown(listenDescriptor, Int32(SHUT_RDWR))
                listenDescriptor = -1
            }
            for client in clients { shutdown(client, Int32(SHUT_RDWR)) }
        }
    }

    // MARK: - Accepting

    private func acceptLoop(_ descriptor: Int32) {
        defer { close(descriptor) }
        while true {
            let client = accept(descriptor, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if lock.withLock({ stopped }) { return }
                if errno == EMFILE || errno == ENFILE {
                    usleep(10_000)
                    continue
                }
                return
            }
            var one: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let id: Int? = lock.withLock {
                guard !stopped else { return nil }
                accepted += 1
                clients.insert(client)
                return accepted
            }
            guard let id else {
                close(client)
                return
            }
            let thread = Thread { [self] in
                serve(client, connectionID: id)
                lock.withLock { _ = clients.remove(client) }
                close(client)
            }
            thread.name = "calbridge-http-conn-\(id)"
            thread.start()
        }
    }

    // MARK: - One connection

    private func serve(_ client: Int32, connectionID: Int) {
        var reader = SocketReader(descriptor: client)
        while true {
            let parsed: ParsedHead
            switch readHead(&reader) {
            case .closed: return
            case .tooLarge:
                write(client, response: .text(431, "request head too large\n"), keepAlive: false, isHead: false)
                return
            case .malformed(let why):
                write(client, response: .text(400, "malformed request: \(why)\n"), keepAlive: false, isHead: false)
                return
            case .head(let head):
                parsed = head
            }
            if parsed.headers["Expect"]?.lowercased() == "100-continue" {
                sendAll(client, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
            }
            let body: Data
            switch readBody(&reader, headers: parsed.headers) {
            case .closed: return
            case .tooLarge:
                write(client, response: .text(413, "request body too large\n"), keepAlive: false, isHead: false)
                return
            case .malformed(let why):
                write(client, response: .text(400, "malformed body: \(why)\n"), keepAlive: false, isHead: false)
                return
            case .body(let data):
                body = data
            }
            let request = ServerRequest(
                method: parsed.method, target: parsed.target, headers: parsed.headers, body: body,
                connectionID: connectionID
            )
            let response = runHandler(request)
            if response.action == .dropConnection { return }
            let connectionHeader = parsed.headers["Connection"]?.lowercased() ?? ""
            let clientKeepsAlive = parsed.version == "HTTP/1.1"
                ? !connectionHeader.contains("close")
                : connectionHeader.contains("keep-alive")
            let keepAlive = clientKeepsAlive && !response.closeConnection && !lock.withLock({ stopped })
            lock.withLock { served += 1 }
            guard write(client, response: response, keepAlive: keepAlive, isHead: parsed.method == "HEAD"),
                  keepAlive else { return }
        }
    }

    /// Runs the async handler on the server's own executor while this connection's thread waits.
    private func runHandler(_ request: ServerRequest) -> ServerResponse {
        final class Box: @unchecked Sendable { var response: ServerResponse? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let handler = self.handler
        Task(executorPreference: executor) {
            box.response = await handler(request)
            done.signal()
        }
        done.wait()
        return box.response ?? .text(500, "handler produced no response\n")
    }

    private struct ParsedHead {
        var method: String
        var target: String
        var version: String
        var headers: HTTPHeaders
    }

    private enum HeadResult {
        case head(ParsedHead)
        case closed
        case tooLarge
        case malformed(String)
    }

    private func readHead(_ reader: inout SocketReader) -> HeadResult {
        guard let headBytes = reader.readUntilBlankLine(limit: maxHeadBytes) else {
            return reader.overflowed ? .tooLarge : .closed
        }
        let text = String(decoding: headBytes, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        // Tolerate stray empty lines before the request line (RFC 9112 §2.2).
        while lines.first == "" { lines.removeFirst() }
        guard let requestLine = lines.first else { return .malformed("empty request") }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return .malformed("bad request line") }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return .malformed("bad header line") }
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.add(name: name, value: value)
        }
        return .head(ParsedHead(method: String(parts[0]), target: String(parts[1]), version: String(parts[2]), headers: headers))
    }

    private enum BodyResult {
        case body(Data)
        case closed
        case tooLarge
        case malformed(String)
    }

    private func readBody(_ reader: inout SocketReader, headers: HTTPHeaders) -> BodyResult {
        if let encoding = headers["Transfer-Encoding"], encoding.lowercased().contains("chunked") {
            var body = [UInt8]()
            while true {
                guard let sizeLine = reader.readLine(limit: 1024) else { return .closed }
                let sizeText = String(decoding: sizeLine, as: UTF8.self).split(separator: ";")[0]
                    .trimmingCharacters(in: .whitespaces)
                guard let size = Int(sizeText, radix: 16), size >= 0 else { return .malformed("bad chunk size") }
                if size == 0 {
                    // Trailer fields, up to the blank line.
                    while let trailer = reader.readLine(limit: 8192), !trailer.isEmpty {}
                    return .body(Data(body))
                }
                guard body.count + size <= maxBodyBytes else { return .tooLarge }
                guard let chunk = reader.read(exactly: size) else { return .closed }
                body += chunk
                guard let end = reader.readLine(limit: 2), end.isEmpty else { return .malformed("chunk not followed by CRLF") }
            }
        }
        guard let lengthText = headers["Content-Length"] else { return .body(Data()) }
        guard let length = Int(lengthText.trimmingCharacters(in: .whitespaces)), length >= 0 else {
            return .malformed("bad Content-Length")
        }
        guard length <= maxBodyBytes else { return .tooLarge }
        guard let bytes = reader.read(exactly: length) else { return .closed }
        return .body(Data(bytes))
    }

    // MARK: - Writing

    @discardableResult
    private func write(_ client: Int32, response: ServerResponse, keepAlive: Bool, isHead: Bool) -> Bool {
        var head = "HTTP/1.1 \(response.status) \(ServerResponse.reason(for: response.status))\r\n"
        for field in response.headers where !field.name.caseInsensitiveEquals("Content-Length")
            && !field.name.caseInsensitiveEquals("Connection")
            && !field.name.caseInsensitiveEquals("Transfer-Encoding") {
            head += "\(field.name): \(field.value)\r\n"
        }
        let noBody = response.status == 204 || response.status == 304 || (100..<200).contains(response.status)
        if !noBody { head += "Content-Length: \(response.body.count)\r\n" }
        head += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        var bytes = Array(head.utf8)
        if !isHead && !noBody { bytes += response.body }
        return sendAll(client, bytes)
    }

    @discardableResult
    private func sendAll(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                send(client, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }
}

/// A failure to start the server (the port is taken, no sockets left).
public struct ServerError: Error, Sendable, CustomStringConvertible {
    public var operation: String
    public var code: Int32

    static func socket(_ operation: String, _ code: Int32) -> ServerError {
        ServerError(operation: operation, code: code)
    }

    public var description: String { "could not \(operation): \(String(cString: strerror(code)))" }
}

/// Buffered reads from a blocking socket.
private struct SocketReader {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private(set) var overflowed = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    private var available: Int { buffer.count - start }

    /// Reads more bytes; false on EOF or error.
    private mutating func fill() -> Bool {
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 65536 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count < 0, errno == EINTR { continue }
            return false
        }
    }

    /// Everything up to and excluding the first CRLFCRLF, which is consumed; nil on EOF or overflow.
    mutating func readUntilBlankLine(limit: Int) -> ArraySlice<UInt8>? {
        // Bytes after `start` already scanned; relative, because `fill` may compact the buffer.
        var scanned = 0
        while true {
            var index = start + max(0, scanned - 3)
            while index + 3 < buffer.count {
                if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                    let head = buffer[start..<index]
                    start = index + 4
                    return head
                }
                index += 1
            }
            scanned = available
            if available > limit {
                overflowed = true
                return nil
            }
            guard fill() else { return nil }
        }
    }

    /// One line without its CRLF; nil on EOF or when longer than `limit`.
    mutating func readLine(limit: Int) -> ArraySlice<UInt8>? {
        while true {
            var index = start
            while index + 1 < buffer.count {
                if buffer[index] == 13, buffer[index + 1] == 10 {
                    let line = buffer[start..<index]
                    start = index + 2
                    return line
                }
                index += 1
            }
            if available > limit + 2 { return nil }
            guard fill() else { return nil }
        }
    }

    /// Exactly `count` bytes; nil on EOF first.
    mutating func read(exactly count: Int) -> [UInt8]? {
        while available < count {
            guard fill() else { return nil }
        }
        let bytes = Array(buffer[start..<(start + count)])
        start += count
        return bytes
    }
}
