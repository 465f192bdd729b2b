import Foundation
import HTTP
import TestSupport
#if canImport(Glibc)
import Glibc
#endif
import LoopbackServer

/// A thread-safe tally a server handler and the test can both read.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var texts: [String] = []

    @discardableResult
    func increment() -> Int { lock.withLock { count += 1; return count } }
    var value: Int { lock.withLock { count } }
    func record(_ text: String) { lock.withLock { texts.append(text) } }
    var recorded: [String] { lock.withLock { texts } }
}

enum CurlTestSupport {
    /// Fixtures/http in the package.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/http")

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    /// Starts a server; the caller stops it.
    /// - Parameter timeouts: tests of connection reuse give an idle timeout longer than any stall of a loaded
    ///   machine, so that only the client decides whether a connection is reused.
    static func server(
        timeouts: LoopbackHTTPServer.Timeouts = .init(), _ handler: @escaping ServerHandler
    ) throws -> LoopbackHTTPServer {
        let server = LoopbackHTTPServer(timeouts: timeouts, handler: handler)
        try server.start()
        return server
    }

    /// Runs `operation` and returns the HTTPError it throws (nil when it returns or throws something else).
    static func httpError(_ operation: () async throws -> HTTPResponse) async -> HTTPError? {
        do {
            _ = try await operation()
            return nil
        } catch let error as HTTPError {
            return error
        } catch {
            return nil
        }
    }

    /// A loopback port nothing listens on: bound once to learn a free number, then closed.
    static func closedPort() -> UInt16 {
        let descriptor = boundSocket()
        defer { close(descriptor) }
        return boundPort(descriptor)
    }

    /// A TCP socket bound to a free port of 127.0.0.1 (`boundPort` tells which); the caller closes it.
    static func boundSocket() -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port: 0)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return descriptor
    }

    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    static func boundPort(_ descriptor: Int32) -> UInt16 {
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return UInt16(bigEndian: actual.sin_port)
    }
}

/// A loopback listener whose accept queue is full, so a further connection attempt is never answered
/// (Linux drops the SYN): a connect timeout without leaving 127.0.0.1.
final class UnansweredListener {
    let port: UInt16
    private let listener: Int32
    private var fillers: [Int32] = []

    init() {
        let listener = CurlTestSupport.boundSocket()
        self.listener = listener
        listen(listener, 0)
        let port = CurlTestSupport.boundPort(listener)
        self.port = port
        // Backlog 0 queues one connection; fill it (non-blocking connects, never accepted).
        for _ in 0..<3 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var target = CurlTestSupport.loopback(port: port)
            _ = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            fillers.append(filler)
        }
    }

    deinit {
        for filler in fillers { close(filler) }
        close(listener)
    }
}
