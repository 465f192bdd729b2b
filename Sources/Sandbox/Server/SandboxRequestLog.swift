import HTTP
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import LoopbackServer

/// One request the sandbox answered, as `--log` writes it (no query string: it may carry a token).
package struct SandboxRequestLogEntry: Sendable, Codable, Equatable {
    package var time: Date
    package var method: String
    /// The path without the query.
    package var path: String
    package var status: Int
    package var durationMs: Double
    /// The status came from fault injection, not from the emulator.
    package var fault: Bool
    /// For a batch request (Google `/batch/calendar/v3`, Graph `/v1.0/$batch`): the method of each request
    /// inside it, so that a log can tell reads from writes. Nil for other requests.
    package var batchMethods: [String]?

    /// Whether the request (or any request inside a batch) could change data.
    package var isWrite: Bool {
        (batchMethods ?? [method]).contains { $0 != "GET" && $0 != "HEAD" }
    }

    /// The inner methods of a batch request, read from its body; nil when it is not a batch.
    static func batchMethods(of request: ServerRequest) -> [String]? {
        let segments = request.pathSegments.map { $0.lowercased() }
        if segments == ["v1.0", "$batch"] {
            let object = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any]
            let requests = object?["requests"] as? [[String: Any]] ?? []
            return requests.map { ($0["method"] as? String ?? "").uppercased() }
        }
        if segments == ["batch", "calendar", "v3"] {
            // Each part holds an HTTP request line: METHOD SP path SP HTTP/1.1.
            return String(decoding: request.body, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line in
                let words = line.split(separator: " ")
                guard words.count == 3, words[2].hasPrefix("HTTP/"), words[1].hasPrefix("/") else { return nil }
                return String(words[0]).uppercased()
            }
        }
        return nil
    }
}

/// The request log: the last requests in memory (tests, benchmarks) and, with `--log FILE`, one JSON line
/// per request appended to the file. A mutex, not an actor: every request passes here, and a lock held for
/// an append is cheaper than a hop.
package final class SandboxRequestLog: Sendable {
    private struct State {
        var entries: [SandboxRequestLogEntry] = []
        var total = 0
        var descriptor: Int32 = -1
        /// How many of each component's mails are recorded (components by their index in the router).
        var mailsSeen: [Int: Int] = [:]
        var mails: [SandboxInvitation] = []
    }

    private let state: Mutex<State>
    private let capacity: Int
    package let fileURL: URL?

    /// Opens (creating, appending) `file` when given.
    package init(capacity: Int, file: URL?) throws(SandboxError) {
        self.capacity = max(0, capacity)
        fileURL = file
        var initial = State()
        if let file {
            let descriptor = open(file.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw .cannotWrite(path: file.path, reason: String(cString: strerror(errno)))
            }
            initial.descriptor = descriptor
        }
        state = Mutex(initial)
    }

    deinit { close() }

    package func record(_ entry: SandboxRequestLogEntry) {
        let line = fileURL == nil ? nil : Self.jsonLine(entry)
        state.withLock { state in
            state.total += 1
            if capacity > 0 {
                state.entries.append(entry)
                // Drop in batches so that appends stay amortised O(1).
                if state.entries.count > capacity + capacity / 4 { state.entries.removeFirst(state.entries.count - capacity) }
            }
            if let line, state.descriptor >= 0 { Self.append(line, to: state.descriptor) }
        }
    }

    /// Records the mails of `all` (one component's every mail so far, as `SandboxComponent.sentMails` lists
    /// them) not recorded yet: in memory (`mails`) and, with `--log FILE`, one line each:
    /// `{"mailSent":{"from":...,"kind":"update","subject":...,"to":...},"time":"..."}`.
    package func recordMails(_ all: [SandboxInvitation], source: Int) {
        state.withLock { state in
            let seen = state.mailsSeen[source, default: 0]
            guard all.count > seen else { return }
            let new = all[seen...]
            state.mailsSeen[source] = all.count
            state.mails += new
            guard state.descriptor >= 0 else { return }
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let time = formatter.string(from: Date())
            for mail in new {
                let fields =
                    "\"from\":\(Self.quote(mail.from)),\"kind\":\"\(mail.kind.rawValue)\","
                    + "\"subject\":\(Self.quote(mail.subject)),\"to\":\(Self.quote(mail.to))"
                Self.append("{\"mailSent\":{\(fields)},\"time\":\"\(time)\"}\n", to: state.descriptor)
            }
        }
    }

    /// Every mail recorded since start ("mail sent" in the log), oldest first.
    package var mails: [SandboxInvitation] { state.withLock { $0.mails } }

    private static func append(_ line: String, to descriptor: Int32) {
        var bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { break }
            offset += written
        }
    }

    /// The most recent requests, oldest first (at most the capacity).
    package var entries: [SandboxRequestLogEntry] { state.withLock { Array($0.entries.suffix(capacity)) } }

    /// Requests recorded since start.
    package var count: Int { state.withLock { $0.total } }

    /// Closes the file. Later records stay in memory only.
    package func close() {
        state.withLock { state in
            if state.descriptor >= 0 {
                _ = Glibc.close(state.descriptor)
                state.descriptor = -1
            }
        }
    }

    /// `{"durationMs":1.234,"fault":false,"method":"GET","path":"/v1.0/me","status":200,"time":"..."}`
    static func jsonLine(_ entry: SandboxRequestLogEntry) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let time = formatter.string(from: entry.time)
        let duration = (entry.durationMs * 1000).rounded() / 1000
        return "{\"durationMs\":\(duration),\"fault\":\(entry.fault),\"method\":\(quote(entry.method)),\"path\":\(quote(entry.path)),\"status\":\(entry.status),\"time\":\"\(time)\"}\n"
    }

    private static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20: out += String(format: "\\u%04x", s.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
