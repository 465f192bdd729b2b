import CLI
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A load generator for loopback HTTP/1.1 servers: N keep-alive connections, each on its own thread with a
/// blocking socket, sending one request and reading its response in a loop until the time is up.
/// Raw sockets keep the generator cheap, so that the server, not the client, is what gets measured.
struct LoopbackLoadGenerator: Sendable {
    struct Result: Sendable {
        var requests = 0
        var non2xx = 0
        var errors = 0
        var seconds: Double = 0
        var latenciesMs: [Double] = []

        var requestsPerSecond: Double { seconds > 0 ? Double(requests) / seconds : 0 }

        func percentile(_ p: Double) -> Double {
            guard !latenciesMs.isEmpty else { return 0 }
            let sorted = latenciesMs.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
        }
    }

    var port: UInt16
    var connections: Int
    var duration: Double
    /// The complete request bytes, sent as they are on every iteration (must not ask to close).
    var request: [UInt8]

    /// Runs the load on threads of its own (never the cooperative pool, which the server's handlers need).
    func run() async -> Result {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: runBlocking()) }
            thread.start()
        }
    }

    private func runBlocking() -> Result {
        let total = Mutex(Result())
        let group = DispatchGroup()
        let start = DispatchTime.now()
        let deadline = start.uptimeNanoseconds + UInt64(duration * 1e9)
        for index in 0..<connections {
            group.enter()
            let thread = Thread {
                let result = connectionLoop(deadline: deadline)
                total.withLock { total in
                    total.requests += result.requests
                    total.non2xx += result.non2xx
                    total.errors += result.errors
                    total.latenciesMs += result.latenciesMs
                }
                group.leave()
            }
            thread.name = "calbridge-bench-\(index)"
            thread.start()
        }
        group.wait()
        var merged = total.withLock { $0 }
        merged.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return merged
    }

    private func connectionLoop(deadline: UInt64) -> Result {
        var result = Result()
        var descriptor = connectSocket()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while DispatchTime.now().uptimeNanoseconds < deadline {
            if descriptor < 0 {
                result.errors += 1
                usleep(1000)
                descriptor = connectSocket()
                continue
            }
            let sent = DispatchTime.now().uptimeNanoseconds
            guard sendAll(descriptor, request), let status = readResponse(descriptor, &buffer) else {
                result.errors += 1
                close(descriptor)
                descriptor = connectSocket()
                continue
            }
            result.latenciesMs.append(Double(DispatchTime.now().uptimeNanoseconds - sent) / 1e6)
            result.requests += 1
            if !(200..<300).contains(status) { result.non2xx += 1 }
        }
        if descriptor >= 0 { close(descriptor) }
        return result
    }

    private func connectSocket() -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            return -1
        }
        return descriptor
    }

    private func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Reads one response with a Content-Length body; returns its status, nil on a closed or bad connection.
    private func readResponse(_ descriptor: Int32, _ buffer: inout [UInt8]) -> Int? {
        var data = [UInt8]()
        var headEnd: Int?
        var needed = Int.max
        while true {
            if headEnd == nil, let end = Self.blankLine(in: data) {
                headEnd = end
                let head = String(decoding: data[0..<end], as: UTF8.self)
                var length = 0
                for line in head.split(separator: "\r\n").dropFirst() {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    if parts.count == 2, parts[0].lowercased() == "content-length" {
                        length = Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
                    }
                }
                needed = end + 4 + length
            }
            if let headEnd, data.count >= needed {
                let statusLine = String(decoding: data[0..<min(headEnd, 64)], as: UTF8.self).split(separator: " ")
                return statusLine.count > 1 ? Int(statusLine[1]) : nil
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    private static func blankLine(in data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        for index in 0...(data.count - 4)
        where data[index] == 13 && data[index + 1] == 10 && data[index + 2] == 13 && data[index + 3] == 10 {
            return index
        }
        return nil
    }
}
