import CalendarBridge
import Foundation
import HTTP

/// Google's batch wire format (developers.google.com/calendar/api/guides/batch): a `multipart/mixed` body
/// whose parts are `Content-Type: application/http` with a `Content-ID`, each holding one whole HTTP request
/// (request line with the URL's path and query only, headers, blank line, body). The answer is
/// `multipart/mixed` too, one `application/http` part per call with `Content-ID: <response-ID>`; Google
/// may answer in any order, so parts are matched by that id, never by position.
enum GoogleBatchCodec {
    /// One call in a batch.
    struct Call: Sendable {
        var method: HTTPMethod
        var target: APIURL
        var body: Data? = nil
        /// Sending it twice has the effect of sending it once (false only for inserts without our own id).
        var isRetrySafe = true

        /// The whole URL, for sending the call on its own (a batch names only `target.requestTarget`).
        var url: URL { target.url }
    }

    /// Why a batch answer could not be read.
    struct DecodeError: Error, CustomStringConvertible {
        var description: String
    }

    /// The `Content-ID` of call `index` (`<item-3>`); the answer carries `<response-item-3>`.
    static func contentID(_ index: Int) -> String { "item-\(index)" }

    /// The body and `Content-Type` of a batch request. Ids are the calls' positions (see `contentID`).
    static func encode(_ calls: [Call], boundary: String) -> (body: Data, contentType: String) {
        // Written into one byte array, made a `Data` once, not by ten `Data` appends a part, each of a new
        // array of a new string.
        var out: [UInt8] = []
        out.reserveCapacity(calls.reduce(0) { $0 + 300 + boundary.utf8.count + ($1.body?.count ?? 0) } + 10 + boundary.utf8.count)
        func text(_ piece: String) { out.append(contentsOf: piece.utf8) }
        func endLine() {
            out.append(UInt8(ascii: "\r"))
            out.append(UInt8(ascii: "\n"))
        }
        for (index, call) in calls.enumerated() {
            text("--")
            text(boundary)
            endLine()
            text("Content-Type: application/http\r\nContent-ID: <")
            text(contentID(index))
            text(">\r\n\r\n")
            text(call.method.rawValue)
            text(" ")
            text(call.target.requestTarget)
            text(" HTTP/1.1\r\nAccept: application/json\r\n")
            if let body = call.body {
                text("Content-Type: application/json; charset=UTF-8\r\nContent-Length: ")
                text(String(body.count))
                text("\r\n\r\n")
                out.append(contentsOf: body)
                endLine()
            } else {
                endLine()
            }
        }
        text("--")
        text(boundary)
        text("--\r\n")
        return (Data(out), "multipart/mixed; boundary=\(boundary)")
    }

    /// The answers of a batch response by request `Content-ID` (`item-3`, without `response-` and brackets).
    static func decode(_ response: HTTPResponse) throws(DecodeError) -> [String: HTTPResponse] {
        guard let contentType = response.headers["Content-Type"],
            contentType.lowercased().hasPrefix("multipart/mixed"),
            let boundary = boundary(contentType)
        else {
            throw DecodeError(description: "the batch answer is not multipart/mixed with a boundary")
        }
        // Searched as bytes, once: `Data.range(of:)` (NSData's search) over the whole body for each
        // delimiter, and twice more over each part for its blank lines, is slow on large answers.
        let body = [UInt8](response.body)
        let delimiter = Array("--\(boundary)".utf8)
        var answers: [String: HTTPResponse] = [:]
        guard let first = firstRange(of: delimiter, in: body, from: 0) else {
            throw DecodeError(description: "the batch answer has no parts")
        }
        var cursor = first.upperBound
        while cursor < body.count {
            // After a delimiter: "--" closes the body, otherwise the line ends and a part follows.
            if body[cursor...].starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) { break }
            let next = firstRange(of: delimiter, in: body, from: cursor)
            if let (id, answer) = try parsePart(body[cursor..<(next?.lowerBound ?? body.count)]) { answers[id] = answer }
            guard let next else { break }
            cursor = next.upperBound
        }
        return answers
    }

    /// The first occurrence of `pattern` in `bytes` at or after `start`: candidates found by `memchr`,
    /// checked by `memcmp`, rather than a `firstIndex` scan byte by byte.
    static func firstRange(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Range<Int>? {
        guard let head = pattern.first, start >= 0, bytes.count - start >= pattern.count else { return nil }
        return bytes.withUnsafeBytes { haystack -> Range<Int>? in
            pattern.withUnsafeBytes { needle -> Range<Int>? in
                guard let base = haystack.baseAddress, let wanted = needle.baseAddress else { return nil }
                let last = haystack.count - pattern.count
                var index = start
                while index <= last {
                    guard let found = memchr(base + index, Int32(head), last - index + 1) else { return nil }
                    let offset = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(found, wanted, pattern.count) == 0 { return offset..<(offset + pattern.count) }
                    index = offset + 1
                }
                return nil
            }
        }
    }

    /// One part: MIME headers, a blank line, then an HTTP response (status line, headers, blank line, body).
    private static func parsePart(_ part: ArraySlice<UInt8>) throws(DecodeError) -> (String, HTTPResponse)? {
        var rest = part
        while rest.first == UInt8(ascii: "\r") || rest.first == UInt8(ascii: "\n") { rest = rest.dropFirst() }
        guard !rest.isEmpty else { return nil }
        let (mimeHead, embedded) = splitHead(rest)
        let mime = fields(mimeHead)
        guard var id = mime["Content-ID"] else {
            throw DecodeError(description: "a batch answer part has no Content-ID")
        }
        id = trimmed(Substring(id), dropping: [UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: " ")]) {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: "<> "))
        }
        // Its nine bytes are nine Characters when `hasPrefix` holds, so it is dropped by bytes.
        if id.hasPrefix("response-") { id = String(decoding: id.utf8.dropFirst("response-".utf8.count), as: UTF8.self) }
        let (head, payload) = splitHead(embedded)
        let (statusLine, fields) = asciiResponseHead(head) ?? characterResponseHead(head)
        guard let statusLine else {
            throw DecodeError(description: "the batch answer part \(id) has no status line")
        }
        guard let status = statusCode(statusLine) else {
            throw DecodeError(description: "the batch answer part \(id) has a bad status line")
        }
        var bodyData = payload
        let lengthText = fields["Content-Length"]
        let length = lengthText.flatMap(Int.init)
        if let lengthText, (length ?? -1) < 0 {
            // Negative or not a number: a broken answer, not a length to cut at.
            throw DecodeError(description: "the batch answer part \(id) has a bad Content-Length '\(lengthText)'")
        }
        if let length, length <= bodyData.count {
            bodyData = bodyData.prefix(length)
        } else {
            // No length: the part ends with the CRLF that precedes the next delimiter.
            if bodyData.last == UInt8(ascii: "\n") { bodyData.removeLast() }
            if bodyData.last == UInt8(ascii: "\r") { bodyData.removeLast() }
        }
        return (id, HTTPResponse(status: status, headers: fields, body: Data(bodyData)))
    }

    static func boundary(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.trimmingCharacters(in: .whitespaces)
            guard pair.lowercased().hasPrefix("boundary=") else { continue }
            var value = String(pair.dropFirst("boundary=".count))
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// Splits at the first blank line (CRLF CRLF, or LF LF from lenient servers), whichever comes first.
    private static func splitHead(_ data: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) {
        let (cr, lf) = (UInt8(ascii: "\r"), UInt8(ascii: "\n"))
        var index = data.startIndex
        while index < data.endIndex {
            if data[index] == lf, index + 1 < data.endIndex, data[index + 1] == lf {
                return (data[data.startIndex..<index], data[(index + 2)...])
            }
            if data[index] == cr, index + 3 < data.endIndex, data[index + 1] == lf, data[index + 2] == cr, data[index + 3] == lf {
                return (data[data.startIndex..<index], data[(index + 4)...])
            }
            index += 1
        }
        return (data, [])
    }

    // Heads are read on bytes when they are ASCII (every head Google sends): splitting into Characters
    // and Foundation's `trimmingCharacters` (an NSString bridge per call) are slow for a thousand parts.
    // Anything else takes the Character-level path (`lines`, then
    // `headers`), which the byte readers (`asciiFields`, `asciiResponseHead`) must agree with.

    /// The lines of a head, split where `Character.isNewline` splits (CR LF, CR or LF in ASCII; also VT,
    /// FF, NEL and the Unicode line and paragraph separators).
    static func lines(_ data: ArraySlice<UInt8>) -> [String] {
        String(decoding: data, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map(String.init)
    }

    /// The fields of a head: `headers(lines(head))`, in one pass over the bytes when the head is ASCII.
    static func fields(_ head: ArraySlice<UInt8>) -> HTTPHeaders {
        asciiFields(head) ?? headers(lines(head))
    }

    /// `headers(lines(data))` for a head of ASCII without the other line breaks `isNewline` knows (VT, FF),
    /// read in one pass without building each line as a string and cutting a name and a value from it;
    /// nil for any other head.
    static func asciiFields(_ data: ArraySlice<UInt8>) -> HTTPHeaders? {
        data.withUnsafeBufferPointer { asciiFields(in: $0) }
    }

    private static func asciiFields(in data: UnsafeBufferPointer<UInt8>) -> HTTPHeaders? {
        let (cr, lf) = (UInt8(ascii: "\r"), UInt8(ascii: "\n"))
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(8)
        var start = 0
        var index = 0
        while true {
            let atEnd = index == data.count
            let byte = atEnd ? lf : data[index]
            if byte >= 0x80 || byte == 0x0B || byte == 0x0C { return nil }
            guard byte == cr || byte == lf else {
                index += 1
                continue
            }
            if let field = field(UnsafeBufferPointer(rebasing: data[start..<index])) { fields.append(field) }
            if atEnd { return HTTPHeaders(fields) }
            if byte == cr, index + 1 < data.count, data[index + 1] == lf { index += 1 }
            index += 1
            start = index
        }
    }

    /// An embedded response's status line and fields as `characterResponseHead` reads them, on bytes when
    /// the head is ASCII (where every Character is one byte, a line break aside); else nil.
    static func asciiResponseHead(_ head: ArraySlice<UInt8>) -> (statusLine: String?, fields: HTTPHeaders)? {
        head.withUnsafeBufferPointer { head -> (statusLine: String?, fields: HTTPHeaders)? in
            let (cr, lf) = (UInt8(ascii: "\r"), UInt8(ascii: "\n"))
            // Blank lines before the status line are skipped: each is a CR, an LF or a CR LF.
            var start = 0
            while start < head.count, head[start] == cr || head[start] == lf { start += 1 }
            var end = start
            while end < head.count, head[end] != cr, head[end] != lf { end += 1 }
            var rest = end
            if rest < head.count {
                if head[rest] == cr, rest + 1 < head.count, head[rest + 1] == lf { rest += 1 }
                rest += 1
            }
            // The status line must be ASCII too; the rest is checked as its fields are read.
            let statusBytes = UnsafeBufferPointer(rebasing: head[start..<end])
            guard statusBytes.allSatisfy({ $0 < 0x80 && $0 != 0x0B && $0 != 0x0C }),
                let fields = asciiFields(in: UnsafeBufferPointer(rebasing: head[rest...]))
            else { return nil }
            return (start < head.count ? String(decoding: statusBytes, as: UTF8.self) : nil, fields)
        }
    }

    /// An embedded response's status line (its first line that is not blank) and the fields of the lines
    /// after it, as `lines` splits them.
    static func characterResponseHead(_ head: ArraySlice<UInt8>) -> (statusLine: String?, fields: HTTPHeaders) {
        var headLines = lines(head)
        while headLines.first?.isEmpty == true { headLines.removeFirst() }
        return (headLines.first, headers(Array(headLines.dropFirst())))
    }

    /// The code of a status line (`HTTP/1.1 200 OK`): its second word, where the first starts with
    /// `HTTP/`. Words are split on bytes where the line is ASCII, a space then being a Character of its own
    /// (`split` over Characters is slow).
    static func statusCode(_ line: String) -> Int? {
        var line = line
        if let code = line.withUTF8({ asciiStatusCode($0) }) { return code }
        let words = line.split(separator: " ")
        guard words.count >= 2, words[0].hasPrefix("HTTP/") else { return nil }
        return Int(words[1])
    }

    /// `statusCode` of an ASCII line: .some(nil) when it has none; nil when the line is not ASCII.
    private static func asciiStatusCode(_ line: UnsafeBufferPointer<UInt8>) -> Int?? {
        guard line.allSatisfy({ $0 < 0x80 }) else { return nil }
        let space = UInt8(ascii: " ")
        var index = 0
        func word() -> Range<Int> {
            while index < line.count, line[index] == space { index += 1 }
            let start = index
            while index < line.count, line[index] != space { index += 1 }
            return start..<index
        }
        let first = word(), second = word()
        guard !second.isEmpty, UnsafeBufferPointer(rebasing: line[first]).starts(with: "HTTP/".utf8) else { return .some(nil) }
        return .some(Int(String(decoding: UnsafeBufferPointer(rebasing: line[second]), as: UTF8.self)))
    }

    /// The fields of head lines: each split at its first colon byte, name and value without optional
    /// whitespace (spaces and tabs), as `CurlTransfer` reads a response's own head; lines without a colon
    /// are skipped. On bytes: `firstIndex(of: ":")` over Characters is slow, and runs for every line.
    static func headers(_ lines: [String]) -> HTTPHeaders {
        HTTPHeaders(lines.compactMap { line in
            var line = line
            return line.withUTF8 { field($0) }
        })
    }

    /// One head line's field (`headers`, `asciiFields`): split at its first colon byte, name and value
    /// without optional whitespace; nil without a colon.
    private static func field(_ line: UnsafeBufferPointer<UInt8>) -> HTTPHeaders.Field? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let name = HTTPHeaders.withoutOptionalWhitespace(line[..<colon])
        let value = HTTPHeaders.withoutOptionalWhitespace(line[(colon + 1)...])
        return HTTPHeaders.Field(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
    }

    /// `text` without the ASCII bytes `dropping` at either end, when it is ASCII; otherwise what
    /// `unicode` (the Foundation trim of the same set) makes of it.
    static func trimmed(_ text: Substring, dropping: [UInt8], unicode: (Substring) -> String) -> String {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return unicode(text) }
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, dropping.contains(utf8[start]) { start = utf8.index(after: start) }
        while end > start, dropping.contains(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        return String(text[start..<end])
    }
}
