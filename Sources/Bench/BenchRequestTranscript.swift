import CLI
import Foundation
import LoopbackServer
import Synchronization

/// Every API request a benchmark's client sent, written so that two runs of the same code compare equal
/// with `diff`: one line per request (method, target, headers, body with CR and LF escaped), sorted, since
/// concurrent batches arrive in any order. What differs from run to run by design is left out or replaced:
/// the bearer token, `Host` (the port), the multipart boundary (random per batch) becomes `BOUNDARY`, and
/// ids the sandbox made up at random (with what calbridge derives from them) become names given with
/// `alias` (`outlook-7`, `copy-of-outlook-7`), and the change and page tokens the services make up (a
/// Graph delta token is random, a Google sync token holds the sandbox's start time) become `TOKEN`. Bodies
/// are kept byte for byte otherwise, so a change in how a body is encoded shows as a difference.
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
        let lines = Self.lines(request).map(Self.maskingTokens)
        state.withLock { $0.lines += lines }
    }

    /// Forgets what was recorded and records from now on (the copies, not the benchmark's seeding).
    func start() { state.withLock { $0.lines.removeAll(); $0.recording = true } }

    /// Records nothing more (the benchmark's own reads after the copies).
    func stop() { state.withLock { $0.recording = false } }

    /// Records from now on, keeping what was recorded (the timed runs of several scenarios, not what lies between).
    func resume() { state.withLock { $0.recording = true } }

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

    /// What a sandbox Graph event id no alias names becomes (an event the benchmark did not list afterwards:
    /// deleted during the run).
    static let unnamedGraphEvent = "unnamed-graph-event"

    /// `line` with every token found in `aliases` replaced; a token of the form `ID_suffix` (a Google
    /// instance id) has its `ID` replaced, a sandbox Graph occurrence id its master's id, and a Graph event
    /// id no alias names becomes `unnamedGraphEvent`.
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
            } else if let (masterID, start) = graphOccurrence(token) {
                out.append(contentsOf: "occurrence-\(start)-of-\(aliases[masterID] ?? unnamedGraphEvent)".utf8)
            } else if token.hasPrefix("AAMkAD") {
                out.append(contentsOf: unnamedGraphEvent.utf8)
            } else if let underscore = token.firstIndex(of: "_"), let name = aliases[String(token[..<underscore])] {
                out.append(contentsOf: (name + token[underscore...]).utf8)
            } else {
                out.append(contentsOf: bytes[index..<end])
            }
            index = end
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The master id (without its trailing `=`) and original start of a sandbox Graph occurrence id (`AAMkOC`
    /// and base64url of `MASTER|SECONDS`, its padding left out of the token): the master's random id is in it.
    static func graphOccurrence(_ token: String) -> (masterID: String, start: String)? {
        guard token.hasPrefix("AAMkOC") else { return nil }
        var base64 = token.dropFirst(6).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: "|")
        guard parts.count == 2 else { return nil }
        var master = Substring(parts[0])
        while master.last == "=" { master = master.dropLast() }
        return (String(master), String(parts[1]))
    }

    /// Query parameters whose values the services made up for this run (`maskingTokens`).
    static let tokenParameters = ["$deltatoken=", "%24deltatoken=", "$skiptoken=", "%24skiptoken=", "syncToken=", "pageToken="]

    /// `line` with the value of every `tokenParameters` parameter replaced by `TOKEN`.
    static func maskingTokens(_ line: String) -> String {
        var line = line
        for parameter in tokenParameters {
            var searchFrom = line.startIndex
            while let found = line.range(of: parameter, range: searchFrom..<line.endIndex) {
                let end = line[found.upperBound...].firstIndex { "&\t\" \\#".contains($0) } ?? line.endIndex
                line.replaceSubrange(found.upperBound..<end, with: "TOKEN")
                searchFrom = line.index(found.upperBound, offsetBy: 5)
            }
        }
        return line
    }

    /// The request's line; a batch (Google multipart, Graph `$batch`) is its own line plus one line per
    /// call in it without the call's position (`Content-ID`, Graph's `id` and `dependsOn`), since which
    /// calls share a batch follows the listing's order, and that orders events of equal start by their
    /// random ids. For the same reason a Google write is one `write` line whether it went in a batch or alone
    /// (a batch of one is sent alone): its method, target and body.
    static func lines(_ request: ServerRequest) -> [String] {
        let head = "\(request.method) \(request.target)"
        if request.target.hasPrefix("/batch/"), let boundary = request.headers["Content-Type"].flatMap(multipartBoundary) {
            let parts = String(decoding: request.body, as: UTF8.self).components(separatedBy: "--" + boundary)
                .filter { !$0.isEmpty && $0 != "--\r\n" && $0 != "--" }
            let calls = parts.map { part in googleCall(part).map(googleWrite) ?? "  call in \(head)\t" + escaped(part) }
            return ["\(head)\t\(parts.count) calls"] + calls
        }
        if request.method != "GET", request.target.hasPrefix("/calendar/v3/calendars/"), request.target.contains("/events") {
            let body = String(decoding: request.body, as: UTF8.self)
            return ["\(request.method) Google event write, alone", googleWrite(request.method, request.target, body)]
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

    /// The method, target and body of one call of a Google batch (`part`: its MIME headers, a blank line,
    /// the HTTP request).
    static func googleCall(_ part: String) -> (method: String, target: String, body: String)? {
        guard let request = part.range(of: "\r\n\r\n").map({ part[$0.upperBound...] }) else { return nil }
        let line = request.prefix { $0 != "\r" }.split(separator: " ")
        guard line.count >= 2 else { return nil }
        var body = request.range(of: "\r\n\r\n").map { String(request[$0.upperBound...]) } ?? ""
        while body.hasSuffix("\r\n") { body.removeLast() }  // one Character
        return (String(line[0]), String(line[1]), body)
    }

    static func googleWrite(_ method: String, _ target: String, _ body: String) -> String {
        "  write\t\(method) \(target)\t" + escaped(body)
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
