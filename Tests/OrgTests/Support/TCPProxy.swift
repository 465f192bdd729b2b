import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on 127.0.0.1 that a test controls: each connection made to `port` is forwarded to
/// 127.0.0.1:`target`. `cut()` closes every forwarded connection and refuses new ones until `restore()`:
/// a worker cut off from its database, as a broken network or a failed-over server would. `stall()` keeps
/// every connection open and forwards nothing until `restore()`: a peer that stopped answering, which no
/// socket error ever reports.
///
/// Blocking sockets on threads of their own (never the cooperative pool): two per connection, one per direction.
final class TCPProxy: @unchecked Sendable {
    let port: Int
    private let target: Int
    private let listener: Int32
    private let lock = NSLock()
    // Guarded by `lock`.
    private var links: [ObjectIdentifier: Link] = [:]
    private var isCut = false
    private var isStalled = false
    private var stopped = false

    /// One forwarded connection: both sockets are closed when both directions have ended.
    private final class Link: @unchecked Sendable {
        let client: Int32
        let server: Int32
        var running = 2

        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }

        func shutDown() {
            Glibc.shutdown(client, Int32(SHUT_RDWR))
            Glibc.shutdown(server, Int32(SHUT_RDWR))
        }
    }

    init(forwardingTo target: Int) throws {
        self.target = target
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw TestPostgresError("proxy: socket() failed") }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw TestPostgresError("proxy: cannot listen on 127.0.0.1")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Closes every forwarded connection and refuses new ones.
    func cut() {
        lock.withLock {
            isCut = true
            for link in links.values { link.shutDown() }
        }
    }

    /// Holds every byte in either direction, on the connections open and on new ones, until `restore()`.
    func stall() { lock.withLock { isStalled = true } }

    /// Forwards again: new connections after a cut, held bytes after a stall.
    func restore() {
        lock.withLock {
            isCut = false
            isStalled = false
        }
    }

    private var stalled: Bool { lock.withLock { isStalled && !stopped } }

    /// Stops listening and closes everything.
    func stop() {
        lock.withLock { stopped = true }
        cut()
        Glibc.shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if lock.withLock({ stopped }) { return }
                continue
            }
            guard !lock.withLock({ isCut || stopped }), let server = connectToTarget() else {
                close(client)
                continue
            }
            let link = Link(client: client, server: server)
            lock.withLock { links[ObjectIdentifier(link)] = link }
            for (from, to) in [(client, server), (server, client)] {
                let thread = Thread { [self] in
                    pump(from: from, to: to)
                    link.shutDown()
                    let last = lock.withLock {
                        link.running -= 1
                        if link.running == 0 { links[ObjectIdentifier(link)] = nil }
                        return link.running == 0
                    }
                    if last {
                        close(link.client)
                        close(link.server)
                    }
                }
                thread.start()
            }
        }
    }

    private func connectToTarget() -> Int32? {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard server >= 0 else { return nil }
        var address = Self.loopback(port: target)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(server)
            return nil
        }
        return server
    }

    /// Copies bytes until either side ends. MSG_NOSIGNAL: a peer gone is an error here, not a SIGPIPE.
    /// Bytes read during a stall are held until `restore()`.
    private func pump(from: Int32, to: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress, $0.count) }
            if count <= 0 { return }
            while stalled { usleep(5_000) }
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes { send(to, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL)) }
                if written <= 0 { return }
                sent += written
            }
        }
    }
}
