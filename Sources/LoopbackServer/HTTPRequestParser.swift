import Foundation
import HTTP

/// HTTP/1.1 request framing (RFC 9112) as a pure state machine: bytes in, requests out, no I/O.
///
/// `LoopbackHTTPServer` appends what it receives and asks for the next request; the fuzz target does the
/// same with arbitrary bytes. Every limit is checked before memory is committed, and every number read
/// from the wire is range-checked, so no input can crash it or make it allocate more than its limits.
/// One request is decoded at a time; bytes after it stay buffered for the next (pipelining).
public struct HTTPRequestParser: Sendable {
    /// The parser's limits. Defaults suit the sandbox and the redirect listener.
    public struct Limits: Sendable, Equatable {
        /// The request line and header fields together (and, separately, the trailer fields).
        public var maxHeadBytes = 64 * 1024
        /// One request line or header line.
        public var maxLineBytes = 8 * 1024
        /// Header fields in one request (and trailer fields, separately).
        public var maxHeaderCount = 100
        /// The decoded body.
        public var maxBodyBytes = 64 << 20

        public init() {}

        public init(maxBodyBytes: Int) { self.maxBodyBytes = maxBodyBytes }
    }

    /// Why a request cannot be read; the connection gets `status` and is closed.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// 400 malformed, 413 body too large, 431 head too large, 501 unknown transfer coding.
        public var status: Int
        public var reason: String
        public var description: String { "\(status): \(reason)" }

        static func malformed(_ reason: String) -> Failure { Failure(status: 400, reason: reason) }
    }

    /// A request line and header fields.
    public struct Head: Sendable, Equatable {
        public var method: String
        public var target: String
        /// `HTTP/1.0` or `HTTP/1.1`.
        public var version: String
        public var headers: HTTPHeaders

        /// Whether the client asked to keep the connection open after this request.
        public var wantsKeepAlive: Bool {
            let tokens = headers.values(for: "Connection").flatMap { $0.lowercased().split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
            return version == "HTTP/1.1" ? !tokens.contains("close") : tokens.contains("keep-alive")
        }

        /// Whether the client waits for `100 Continue` before sending the body.
        public var expectsContinue: Bool { headers["Expect"]?.lowercased() == "100-continue" }
    }

    /// One complete request.
    public struct Request: Sendable, Equatable {
        public var head: Head
        public var body: Data
    }

    private enum Chunk: Sendable {
        case sizeLine
        case data(remaining: Int)
        case dataEnd
        case trailers(bytes: Int, count: Int)
    }

    private enum State: Sendable {
        case head
        case fixed(Head, length: Int)
        case chunked(Head, Chunk, body: [UInt8])
        case failed(Failure)
    }

    public let limits: Limits
    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes after `start` already searched for the end of the head (so a slow head is not rescanned).
    private var scanned = 0
    private var state: State = .head

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Adds received bytes.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 64 * 1024 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// True when bytes of a request not yet complete are buffered (a client in the middle of sending).
    public var isMidRequest: Bool {
        if case .head = state { return start < buffer.count }
        return true
    }

    /// The head of a request whose body has not fully arrived yet, if any (to answer `100 Continue`).
    public var pendingHead: Head? {
        switch state {
        case .fixed(let head, _), .chunked(let head, _, _): head
        case .head, .failed: nil
        }
    }

    /// The next complete request, or nil when more bytes are needed.
    /// - Throws: `Failure` when the bytes cannot be a valid request (and on every later call).
    public mutating func next() throws(Failure) -> Request? {
        do {
            return try step()
        } catch {
            // Remembered, so later calls fail the same way.
            state = .failed(error)
            throw error
        }
    }

    private mutating func step() throws(Failure) -> Request? {
        while true {
            switch state {
            case .failed(let failure):
                throw failure
            case .head:
                guard let head = try readHead() else { return nil }
                state = try bodyState(for: head)
            case .fixed(let head, let length):
                guard buffer.count - start >= length else { return nil }
                let body = Data(buffer[start..<(start + length)])
                start += length
                state = .head
                return Request(head: head, body: body)
            case .chunked(let head, let chunk, var body):
                // Moved out so appending does not copy the whole body each time.
                state = .head
                switch try readChunked(chunk, into: &body) {
                case .needMore(let chunk):
                    state = .chunked(head, chunk, body: body)
                    return nil
                case .done:
                    return Request(head: head, body: Data(body))
                }
            }
        }
    }

    // MARK: - Head

    private mutating func readHead() throws(Failure) -> Head? {
        // Stray empty lines before the request line are ignored (RFC 9112 §2.2).
        while buffer.count - start >= 2, buffer[start] == 13, buffer[start + 1] == 10 {
            start += 2
            scanned = 0
        }
        guard let end = findBlankLine() else {
            if buffer.count - start > limits.maxHeadBytes {
                throw Failure(status: 431, reason: "request head longer than \(limits.maxHeadBytes) bytes")
            }
            return nil
        }
        guard end - start <= limits.maxHeadBytes else {
            throw Failure(status: 431, reason: "request head longer than \(limits.maxHeadBytes) bytes")
        }
        let lines = try splitLines(buffer[start..<end], what: "header")
        start = end + 4
        scanned = 0
        guard let requestLine = lines.first else { throw .malformed("empty request") }
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(Self.isTokenByte),
              !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 32 && $0 < 127 }),
              parts[2].elementsEqual("HTTP/1.1".utf8) || parts[2].elementsEqual("HTTP/1.0".utf8)
        else { throw .malformed("bad request line (want METHOD TARGET HTTP/1.1)") }
        let headers = try fields(lines.dropFirst(), what: "header")
        return Head(
            method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self),
            version: String(decoding: parts[2], as: UTF8.self), headers: headers)
    }

    /// The index of the CRLFCRLF ending the head, searching only bytes not searched before.
    private mutating func findBlankLine() -> Int? {
        var index = start + max(0, scanned - 3)
        while index + 3 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                return index
            }
            index += 1
        }
        scanned = buffer.count - start
        return nil
    }

    /// Lines separated by CRLF; a bare CR or LF inside a line is refused (request smuggling starts there).
    private func splitLines(_ bytes: ArraySlice<UInt8>, what: String) throws(Failure) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 13, index + 1 < bytes.endIndex, bytes[index + 1] == 10 {
                lines.append(bytes[lineStart..<index])
                index += 2
                lineStart = index
                continue
            }
            if byte == 13 || byte == 10 || byte == 0 { throw .malformed("stray CR, LF or NUL in a \(what) line") }
            index += 1
        }
        lines.append(bytes[lineStart..<bytes.endIndex])
        for line in lines where line.count > limits.maxLineBytes {
            throw Failure(status: 431, reason: "a \(what) line is longer than \(limits.maxLineBytes) bytes")
        }
        return lines
    }

    private func fields(_ lines: some Collection<ArraySlice<UInt8>>, what: String) throws(Failure) -> HTTPHeaders {
        guard lines.count <= limits.maxHeaderCount else {
            throw Failure(status: 431, reason: "more than \(limits.maxHeaderCount) \(what) fields")
        }
        var headers = HTTPHeaders()
        for line in lines {
            if line.first == 32 || line.first == 9 { throw .malformed("obsolete line folding in a \(what) field") }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[line.startIndex..<colon].allSatisfy(Self.isTokenByte)
            else { throw .malformed("bad \(what) line (want Name: value)") }
            headers.add(
                name: String(decoding: line[line.startIndex..<colon], as: UTF8.self),
                value: String(decoding: HTTPHeaders.withoutOptionalWhitespace(line[(colon + 1)...]), as: UTF8.self))
        }
        return headers
    }

    /// RFC 9110 §5.6.2 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    // MARK: - Body framing (RFC 9112 §6.3)

    private func bodyState(for head: Head) throws(Failure) -> State {
        let codings = head.headers.values(for: "Transfer-Encoding")
            .flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let lengths = head.headers.values(for: "Content-Length")
        if !codings.isEmpty {
            // Both at once is how request smuggling works; RFC 9112 §6.1 lets a server refuse it.
            guard lengths.isEmpty else { throw .malformed("both Transfer-Encoding and Content-Length") }
            guard codings.last == "chunked" else {
                throw Failure(status: 501, reason: "unsupported Transfer-Encoding '\(codings.joined(separator: ", "))'")
            }
            guard codings.count == 1 else {
                throw Failure(status: 501, reason: "only Transfer-Encoding: chunked is supported")
            }
            return .chunked(head, .sizeLine, body: [])
        }
        guard !lengths.isEmpty else { return .fixed(head, length: 0) }
        // "Content-Length: 5, 5" and repeated equal fields are one length (RFC 9110 §8.6); anything else is not.
        let values = Set(lengths.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) })
        guard values.count == 1, let text = values.first, !text.isEmpty, text.utf8.count <= 18,
              text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let length = Int(text)
        else { throw .malformed("bad Content-Length (want one decimal number)") }
        guard length <= limits.maxBodyBytes else {
            throw Failure(status: 413, reason: "body of \(length) bytes is over the limit of \(limits.maxBodyBytes)")
        }
        return .fixed(head, length: length)
    }

    private enum ChunkStep { case needMore(Chunk), done }

    private mutating func readChunked(_ initial: Chunk, into body: inout [UInt8]) throws(Failure) -> ChunkStep {
        var chunk = initial
        while true {
            switch chunk {
            case .sizeLine:
                guard let line = try takeLine(limit: 1024, what: "chunk size") else { return .needMore(chunk) }
                let size = try Self.chunkSize(line)
                guard size <= limits.maxBodyBytes - body.count else {
                    throw Failure(status: 413, reason: "chunked body over the limit of \(limits.maxBodyBytes) bytes")
                }
                chunk = size == 0 ? .trailers(bytes: 0, count: 0) : .data(remaining: size)
            case .data(let remaining):
                let available = min(remaining, buffer.count - start)
                guard available > 0 else { return .needMore(chunk) }
                body.append(contentsOf: buffer[start..<(start + available)])
                start += available
                chunk = remaining == available ? .dataEnd : .data(remaining: remaining - available)
            case .dataEnd:
                guard buffer.count - start >= 2 else { return .needMore(chunk) }
                guard buffer[start] == 13, buffer[start + 1] == 10 else { throw .malformed("chunk data not followed by CRLF") }
                start += 2
                chunk = .sizeLine
            case .trailers(let bytes, let count):
                guard let line = try takeLine(limit: limits.maxLineBytes, what: "trailer") else { return .needMore(chunk) }
                if line.isEmpty { return .done }
                // Trailer fields are read for their framing only; none is used.
                _ = try fields(CollectionOfOne(line), what: "trailer")
                guard count < limits.maxHeaderCount, bytes + line.count <= limits.maxHeadBytes else {
                    throw Failure(status: 431, reason: "trailer fields over the limit")
                }
                chunk = .trailers(bytes: bytes + line.count, count: count + 1)
            }
        }
    }

    /// One CRLF-terminated line (consumed), nil when it has not fully arrived.
    private mutating func takeLine(limit: Int, what: String) throws(Failure) -> ArraySlice<UInt8>? {
        var index = start
        while index < buffer.count, index - start <= limit {
            let byte = buffer[index]
            if byte == 13 {
                guard index + 1 < buffer.count else { return nil }
                guard buffer[index + 1] == 10 else { throw .malformed("stray CR in a \(what) line") }
                let line = buffer[start..<index]
                start = index + 2
                return line
            }
            if byte == 10 || byte == 0 { throw .malformed("stray LF or NUL in a \(what) line") }
            index += 1
        }
        if index - start > limit { throw .malformed("\(what) line longer than \(limit) bytes") }
        return nil
    }

    /// `1a;name=value` -> 26. Hex digits only, at most 15 of them, so the value always fits an `Int`.
    static func chunkSize(_ line: ArraySlice<UInt8>) throws(Failure) -> Int {
        let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != 32 && $0 != 9 }
        guard !digits.isEmpty else { throw .malformed("empty chunk size line") }
        guard digits.count <= 15 else { throw .malformed("chunk size has more than 15 hex digits") }
        var size = 0
        for byte in digits {
            let value: Int
            switch byte {
            case 48...57: value = Int(byte) - 48
            case 65...70: value = Int(byte) - 55
            case 97...102: value = Int(byte) - 87
            default: throw .malformed("bad chunk size (want hex digits)")
            }
            size = size << 4 | value
        }
        return size
    }
}
