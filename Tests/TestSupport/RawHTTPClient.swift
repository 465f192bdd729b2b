import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP client for tests that must control the exact bytes on the wire.
package final class RawHTTPClient {
    private let descriptor: Int32
    /// Bytes received beyond the last response read (pipelined responses can arrive in one segment).
    private var pending: [UInt8] = []

    package init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(descriptor) }

    package func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads one response (head + Content-Length body). Nil when the server closed the connection.
    package func readResponse(expectBody: Bool = true) -> (status: Int, headers: [String: String], body: String)? {
        readResponseBytes(expectBody: expectBody).map { ($0.status, $0.headers, String(decoding: $0.body, as: UTF8.self)) }
    }

    /// Reads one response with its body's bytes as sent (a compressed body is not text).
    package func readResponseBytes(expectBody: Bool = true) -> (status: Int, headers: [String: String], body: [UInt8])? {
        var data = pending
        pending = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        func fill() -> Bool {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
            guard count > 0 else { return false }
            data += chunk[0..<count]
            return true
        }
        while true {
            if let range = findBlankLine(data) {
                let head = String(decoding: data[0..<range], as: UTF8.self).components(separatedBy: "\r\n")
                var headers: [String: String] = [:]
                for line in head.dropFirst() {
                    if let colon = line.firstIndex(of: ":") {
                        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    }
                }
                let status = Int(head[0].split(separator: " ")[1]) ?? 0
                let length = expectBody ? Int(headers["content-length"] ?? "0") ?? 0 : 0
                while data.count < range + 4 + length { guard fill() else { return nil } }
                let body = Array(data[(range + 4)..<(range + 4 + length)])
                pending = Array(data[(range + 4 + length)...])
                return (status, headers, body)
            }
            guard fill() else { return nil }
        }
    }

    /// True when the server has closed its side (recv returns 0).
    package func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, 0) == 0
    }

    private func findBlankLine(_ data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        for index in 0...(data.count - 4) where data[index] == 13 && data[index + 1] == 10 && data[index + 2] == 13 && data[index + 3] == 10 {
            return index
        }
        return nil
    }
}
