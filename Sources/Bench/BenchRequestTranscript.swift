import CLI
import Foundation
import LoopbackServer
import Synchronization

/// Every API request a benchmark's client sent, written so that two runs of the same code compare equal
/// with `diff`: one line per request (method, target, headers, body with CR and LF escaped), sorted, since
/// concurrent batches arrive in any order. What differs from run to run by design is left out or replaced:
/// the bearer token, `Host` (the port), the multipart boundary (random per batch) becomes `BOUNDARY`, and
/// ids the sandbox made up at random (with what calbridge derives from them) become names given with
/// `alias` (`outlook-7`, `copy-of-outlook-7`). Bodies are kept byte for byte otherwise, so a change in how
/// a body is encoded shows as a difference.
final class BenchRequestTranscript: Sendable {
    private struct State {
        var lines: [String] = []
        var recording = true
        var aliases: [String: String] = [:]
    }
    private let state = Mutex(State())

    /// Headers that carry no request content: credentials, the sandbox's port, the transport's framing.
    static let ignoredHeaders: Set<String> = ["authorization", "host", "content-length", "transfer-encoding", "connection"]

    func record(_ request: ServerRequest) {
        guard state.withLock({ $0.recording }) else { return }
        let lines = Self.lines(request)
        state.withLock { $0.lines += lines }
    }

    /// Forgets what was recorded and records from now on (the copies, not the benchmark's seeding).
    func start() { state.withLock { $0.lines.removeAll(); $0.recording = true } }

    /// Records nothing more (the benchmark's own reads after the copies).
    func stop() { state.withLock { $0.recording = false } }

    /// Writes `name` for `id` wherever it stands as a whole token (letters, digits, `-`, `_`; a trailing `=`
    /// of the id, percent-encoded or not, stays).
    func alias(_ id: String, as name: String) {
        var token = Substring(id)
        while token.last == "=" { token = token.dropLast() }
        state.withLock { $0.aliases[String(token)] = name }
    }

    /// The requests recorded, with aliases applied, sorted.
    var sortedLines: [String] {
        let (lines, aliases) = state.withLock { ($0.lines, $0.aliases) }
        return lines.map { Self.applying(aliases, to: $0) }.sorted()
    }

    func write(to url: URL) throws {
        try Data(sortedLines.map { $0 + "\n" }.joined().utf8).write(to: url)
    }

    /// `line` with every token found in `aliases` replaced; a token of the form `ID_suffix` (a Google
    /// instance id) has its `ID` replaced.
    static func applying(_ aliases: [String: String], to line: String) -> String {
        guard !aliases.isEmpty else { return line }
        func isTokenByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default: false
            }
        }
        let bytes = Array(line.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard isTokenByte(bytes[index]) else {
                out.append(bytes[index])
                index += 1
                continue
            }
            var end = index
            while end < bytes.count && isTokenByte(bytes[end]) { end += 1 }
            let token = String(decoding: bytes[index..<end], as: UTF8.self)
            if let name = aliases[token] {
                out.append(contentsOf: name.utf8)
            } else if let underscore = token.firstIndex(of: "_"), let name = aliases[String(token[..<underscore])] {
                out.append(contentsOf: (name + token[underscore...]).utf8)
            } else {
                out.append(contentsOf: bytes[index..<end])
            }
            index = end
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The request's line; a batch (Google multipart, Graph `$batch`) is its own line plus one line per
    /// call in it without the call's position (`Content-ID`, Graph's `id` and `dependsOn`), since which
    /// calls share a batch follows the listing's order, and that orders events of equal start by their
    /// random ids.
    static func lines(_ request: ServerRequest) -> [String] {
        let head = "\(request.method) \(request.target)"
        if request.target.hasPrefix("/batch/"), let boundary = request.headers["Content-Type"].flatMap(multipartBoundary) {
            let parts = String(decoding: request.body, as: UTF8.self).components(separatedBy: "--" + boundary)
                .filter { !$0.isEmpty && $0 != "--\r\n" && $0 != "--" }
                .map { part in
                    part.split(separator: "\r\n", omittingEmptySubsequences: false)
                        .filter { !$0.lowercased().hasPrefix("content-id:") }.joined(separator: "\r\n")
                }
            return ["\(head)\t\(parts.count) calls"] + parts.map { "  call in \(head)\t" + escaped($0) }
        }
        if request.target.hasPrefix("/v1.0/$batch"),
            let object = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any],
            let steps = object["requests"] as? [[String: Any]]
        {
            let calls = steps.map { step in
                var step = step
                step["id"] = nil
                step["dependsOn"] = nil
                let data = (try? JSONSerialization.data(withJSONObject: step, options: [.sortedKeys])) ?? Data()
                return "  call in \(head)\t" + escaped(String(decoding: data, as: UTF8.self))
            }
            return ["\(head)\t\(steps.count) calls"] + calls
        }
        return [line(request)]
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\r", with: "\\r")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    static func line(_ request: ServerRequest) -> String {
        let boundary = request.headers["Content-Type"].flatMap(multipartBoundary)
        func normalized(_ text: String) -> String {
            guard let boundary else { return text }
            return text.replacingOccurrences(of: boundary, with: "BOUNDARY")
        }
        let headers = request.headers.fields
            .filter { !ignoredHeaders.contains($0.name.lowercased()) }
            .map { "\($0.name.lowercased()): \(normalized($0.value))" }
            .sorted()
        let body = escaped(normalized(String(decoding: request.body, as: UTF8.self)))
        return "\(request.method) \(request.target)\t\(headers.joined(separator: "; "))\t\(body)"
    }

    private static func multipartBoundary(_ contentType: String) -> String? {
        guard let range = contentType.range(of: "boundary=") else { return nil }
        let value = contentType[range.upperBound...].prefix { $0 != ";" }.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        return value.isEmpty ? nil : value
    }
}
