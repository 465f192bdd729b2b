import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTP

/// Handles one request of a `LoopbackHTTPServer`.
public typealias ServerHandler = @Sendable (ServerRequest) async -> ServerResponse

/// A small HTTP/1.1 server on the loopback interface for the OAuth redirect listener, the sandbox and tests.
///
/// Design: one accept thread per listening socket and one thread per connection, with blocking POSIX
/// sockets. That is the simplest correct design for loopback use: a handful to a few hundred connections,
/// keep-alive, and request handling that is `async` (each request is handed to the handler in a Task while
/// the connection's thread waits). Framing is `HTTPRequestParser`'s (Content-Length and chunked bodies,
/// pipelining); this type adds `Expect: 100-continue`, keep-alive (HTTP/1.1 default, HTTP/1.0 on request),
/// closing or dropping a connection on the handler's word (for fault injection), and the defences any
/// local process may test: a malformed request is answered 400 and closed, a connection that sends
/// nothing for `idleTimeout` is closed, a request that takes longer than `requestTimeout` to arrive is
/// answered 408 and closed, and connections beyond `maxConnections` are answered 503 and closed.
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// A loopback address to listen on.
    public enum Interface: Sendable, Hashable {
        /// 127.0.0.1
        case ipv4
        /// ::1 (skipped when the machine has no IPv6).
        case ipv6
    }

    /// How long a connection may stay silent, and how long one request may take to arrive.
    public struct Timeouts: Sendable, Equatable {
        /// Between requests on a kept-alive connection (and before the first byte of the first one).
        public var idle: Duration
        /// From the first byte of a request to its last.
        public var request: Duration

        public init(idle: Duration = .seconds(60), request: Duration = .seconds(30)) {
            self.idle = idle
            self.request = request
        }
    }

    private let requestedPort: UInt16
    private let interfaces: [Interface]
    private let handler: ServerHandler
    private let limits: HTTPRequestParser.Limits
    private let timeouts: Timeouts
    private let maxConnections: Int
    private let executor = HandlerExecutor.shared

    // Guarded by `lock`.
    private let lock = NSLock()
    private var listenDescriptors: [Int32] = []
    private var boundPort: UInt16 = 0
    private var clients: Set<Int32> = []
    private var accepted = 0
    private var served = 0
    private var refused = 0
    private var stopped = false

    /// - Parameters:
    ///   - port: the port to bind; 0 picks a free ephemeral port (see `port` after `start`).
    ///   - interfaces: where to listen; several share one port (`.ipv6` is skipped where there is none).
    ///   - maxBodyBytes: larger request bodies are answered with 413 and the connection is closed.
    ///   - limits: the request head's limits (the body limit is `maxBodyBytes`).
    ///   - timeouts: when silent and slow connections are closed.
    ///   - maxConnections: connections open at once; more are answered 503 and closed.
    ///   - handler: called once per request, concurrently for different connections.
    public init(
        port: UInt16 = 0, interfaces: [Interface] = [.ipv4], maxBodyBytes: Int = 64 << 20,
        limits: HTTPRequestParser.Limits = HTTPRequestParser.Limits(), timeouts: Timeouts = Timeouts(),
        maxConnections: Int = 512, handler: @escaping ServerHandler
    ) {
        self.requestedPort = port
        self.interfaces = interfaces.isEmpty ? [.ipv4] : interfaces
        var limits = limits
        limits.maxBodyBytes = max(0, maxBodyBytes)
        self.limits = limits
        self.timeouts = timeouts
        self.maxConnections = max(1, maxConnections)
        self.handler = handler
    }

    deinit { stop() }

    /// Binds, listens and starts accepting. Returns the bound port.
    @discardableResult
    public func start() throws -> UInt16 {
        var lastError: ServerError?
        // With an ephemeral port on two interfaces, the port the first gets may be taken on the second.
        for _ in 0..<(requestedPort == 0 && interfaces.count > 1 ? 8 : 1) {
            do {
                let (descriptors, port) = try bindAll()
                lock.withLock {
                    listenDescriptors = descriptors
                    boundPort = port
                    stopped = false
                }
                for descriptor in descriptors {
                    let thread = Thread { [self] in acceptLoop(descriptor) }
                    thread.name = "calbridge-http-accept"
                    thread.start()
                }
                return port
            } catch let error as ServerError {
                lastError = error
                guard error.code == EADDRINUSE else { throw error }
            }
        }
        throw lastError ?? ServerError.socket("bind", EADDRINUSE)
    }

    private func bindAll() throws -> ([Int32], UInt16) {
        var descriptors: [Int32] = []
        var port = requestedPort
        do {
            for interface in interfaces {
                guard let descriptor = try Self.listen(on: interface, port: port) else { continue }
                descriptors.append(descriptor)
                if port == 0 { port = Self.localPort(descriptor) }
            }
        } catch {
            for descriptor in descriptors { close(descriptor) }
            throw error
        }
        guard !descriptors.isEmpty else { throw ServerError.socket("listen on loopback", EADDRNOTAVAIL) }
        return (descriptors, port)
    }

    /// A listening socket, or nil for IPv6 on a machine without it.
    private static func listen(on interface: Interface, port: UInt16) throws -> Int32? {
        let family = interface == .ipv4 ? AF_INET : AF_INET6
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else {
            if interface == .ipv6, errno == EAFNOSUPPORT { return nil }
            throw ServerError.socket("socket", errno)
        }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32
        let name: String
        switch interface {
        case .ipv4:
            name = "127.0.0.1:\(port)"
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .ipv6:
            name = "[::1]:\(port)"
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = in6addr_loopback
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        guard bound == 0 else {
            let error = errno
            close(descriptor)
            if interface == .ipv6, error == EADDRNOTAVAIL || error == EAFNOSUPPORT { return nil }
            throw ServerError.socket("bind to \(name)", error)
        }
        guard Glibc.listen(descriptor, 1024) == 0 else {
            let error = errno
            close(descriptor)
            throw ServerError.socket("listen", error)
        }
        return descriptor
    }

    private static func localPort(_ descriptor: Int32) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// The bound port (0 before `start`).
    public var port: UInt16 { lock.withLock { boundPort } }

    /// `http://127.0.0.1:<port>`
    public var baseURL: URL {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = Int(port)
        return components.url ?? URL(fileURLWithPath: "/")
    }

    /// Connections accepted since start (keep-alive makes this smaller than the request count).
    public var connectionsAccepted: Int { lock.withLock { accepted } }

    /// Connections answered 503 because `maxConnections` were open.
    public var connectionsRefused: Int { lock.withLock { refused } }

    /// Requests answered since start.
    public var requestsServed: Int { lock.withLock { served } }

    /// Connections open right now.
    public var openConnections: Int { lock.withLock { clients.count } }

    /// Stops accepting and closes every connection. Safe to call more than once.
    public func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            // Only wake the accept threads here; each closes its descriptor itself when it leaves. Closing
            // it here would free the number while that thread may be about to call accept() again, on
            // whatever socket (another server's listener) reuses the number next.
            for descriptor in listenDescriptors { shutdown(descriptor, Int32(SHUT_RDWR)) }
            listenDescriptors = []
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
            // A client that stops reading must not hold a thread forever in send().
            var sendTimeout = timeval(tv_sec: Int(timeouts.request.components.seconds), tv_usec: 0)
            if sendTimeout.tv_sec < 1 { sendTimeout.tv_sec = 1 }
            setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
            enum Admission { case serve(Int), full, stopped }
            let admission: Admission = lock.withLock {
                guard !stopped else { return .stopped }
                guard clients.count < maxConnections else {
                    refused += 1
                    return .full
                }
                accepted += 1
                clients.insert(client)
                return .serve(accepted)
            }
            switch admission {
            case .stopped:
                close(client)
                return
            case .full:
                // Said at once, without reading: the point is not to spend a thread on it.
                write(client, response: .text(503, "too many connections\n"), keepAlive: false, isHead: false)
                close(client)
            case .serve(let id):
                let thread = Thread { [self] in
                    serve(client, connectionID: id)
                    lock.withLock { _ = clients.remove(client) }
                    close(client)
                }
                thread.name = "calbridge-http-conn-\(id)"
                thread.stackSize = 1 << 20
                thread.start()
            }
        }
    }

    // MARK: - One connection

    private func serve(_ client: Int32, connectionID: Int) {
        var parser = HTTPRequestParser(limits: limits)
        var continued = false
        var requestStarted: ContinuousClock.Instant?
        let clock = ContinuousClock()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let request: HTTPRequestParser.Request
            do {
                guard let next = try parser.next() else {
                    if let head = parser.pendingHead, head.expectsContinue, !continued {
                        continued = true
                        sendAll(client, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                    }
                    if parser.isMidRequest {
                        if requestStarted == nil { requestStarted = clock.now }
                    } else {
                        requestStarted = nil
                    }
                    let deadline = requestStarted.map { $0 + timeouts.request } ?? clock.now + timeouts.idle
                    switch receive(client, into: &chunk, until: deadline, clock: clock) {
                    case .bytes(let count): parser.append(chunk[0..<count])
                    case .closed: return
                    case .timedOut:
                        if requestStarted != nil {
                            write(client, response: .text(408, "request not received within \(timeouts.request)\n"),
                                  keepAlive: false, isHead: false)
                        }
                        return
                    }
                    continue
                }
                request = next
            } catch {
                let text = error.status == 400 ? "malformed request: \(error.reason)\n" : "\(error.reason)\n"
                write(client, response: .text(error.status, text), keepAlive: false, isHead: false)
                return
            }
            continued = false
            requestStarted = nil
            let head = request.head
            let serverRequest = ServerRequest(
                method: head.method, target: head.target, headers: head.headers, body: request.body,
                connectionID: connectionID
            )
            let response = runHandler(serverRequest)
            if response.action == .dropConnection { return }
            let keepAlive = head.wantsKeepAlive && !response.closeConnection && !lock.withLock({ stopped })
            lock.withLock { served += 1 }
            guard write(client, response: response, keepAlive: keepAlive, isHead: head.method == "HEAD"),
                  keepAlive else { return }
        }
    }

    private enum Received { case bytes(Int), closed, timedOut }

    /// Waits for bytes until `deadline`.
    private func receive(
        _ client: Int32, into chunk: inout [UInt8], until deadline: ContinuousClock.Instant, clock: ContinuousClock
    ) -> Received {
        while true {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { return .timedOut }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                return .closed
            }
            if ready == 0 { continue }
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count > 0 { return .bytes(count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            return .closed
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
                guard let base = raw.baseAddress else { return 0 }
                return send(client, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
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
