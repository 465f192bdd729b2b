import Foundation
import HTTP
import LoopbackServer

/// `POST /batch/calendar/v3`: a `multipart/mixed` body whose parts (`Content-Type: application/http`, optional
/// `Content-ID`) each hold one HTTP request; the answer is `multipart/mixed` with one `application/http` part per
/// request, in order, `Content-ID: response-<id>`. Outer headers other than `Content-*` apply to every part
/// unless the part sets its own (so the outer `Authorization` covers parts without one).
extension GoogleCalendarEmulator {
    struct BatchPart {
        var contentID: String?
        var request: ServerRequest
    }

    func batch(_ request: ServerRequest) async -> ServerResponse {
        guard request.method == "POST" else { return GoogleAPIError.notFound.response }
        guard let contentType = request.headers["Content-Type"], contentType.lowercased().hasPrefix("multipart/mixed"),
              let boundary = Self.boundary(contentType) else {
            return GoogleAPIError(code: 400, reason: "badRequest", message: "Invalid batch request: expected multipart/mixed with a boundary.").response
        }
        let parts: [BatchPart]
        do {
            parts = try Self.parseBatch(request, boundary: boundary)
        } catch {
            return error.response
        }
        guard !parts.isEmpty else {
            return GoogleAPIError(code: 400, reason: "badRequest", message: "Invalid batch request: no parts.").response
        }
        guard parts.count <= Self.maxBatchParts else {
            return GoogleAPIError(code: 400, reason: "badRequest",
                                  message: "Too many requests in a batch: at most \(Self.maxBatchParts) are allowed.").response
        }
        let responseBoundary = "batch_" + Self.newEventID()
        var out = ""
        for part in parts {
            let response: ServerResponse
            if part.request.pathSegments.count >= 2, part.request.pathSegments[0] == "calendar", part.request.pathSegments[1] == "v3" {
                response = await api(part.request)
            } else {
                response = GoogleAPIError.notFound.response
            }
            out += "--\(responseBoundary)\r\nContent-Type: application/http\r\n"
            if let id = part.contentID {
                let inner = id.hasPrefix("<") && id.hasSuffix(">") ? String(id.dropFirst().dropLast()) : id
                out += "Content-ID: <response-\(inner)>\r\n"
            }
            out += "\r\nHTTP/1.1 \(response.status) \(ServerResponse.reason(for: response.status))\r\n"
            for field in response.headers where !field.name.caseInsensitiveEquals("Content-Length") {
                out += "\(field.name): \(field.value)\r\n"
            }
            out += "Content-Length: \(response.body.count)\r\n\r\n"
            out += String(decoding: response.body, as: UTF8.self) + "\r\n"
        }
        out += "--\(responseBoundary)--\r\n"
        return ServerResponse(status: 200, headers: ["Content-Type": "multipart/mixed; boundary=\(responseBoundary)",
                                                     "Vary": "Origin, X-Origin, Referer"], body: Data(out.utf8))
    }

    static func boundary(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.trimmingCharacters(in: .whitespaces)
            guard pair.lowercased().hasPrefix("boundary=") else { continue }
            var value = String(pair.dropFirst("boundary=".count))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// Splits the multipart body and parses each embedded request. Lines may end in CRLF or LF.
    static func parseBatch(_ outer: ServerRequest, boundary: String) throws(GoogleAPIError) -> [BatchPart] {
        let text = String(decoding: outer.body, as: UTF8.self)
        let delimiter = "--" + boundary
        var chunks = text.components(separatedBy: delimiter)
        guard chunks.count >= 2 else { throw GoogleAPIError(code: 400, reason: "badRequest", message: "Invalid batch request: boundary not found.") }
        chunks.removeFirst()  // preamble
        var parts: [BatchPart] = []
        for chunk in chunks {
            if chunk.hasPrefix("--") { break }  // closing delimiter
            var body = Substring(chunk)
            // "\r\n" is one Character, so one drop removes a CRLF as well as a bare LF.
            if body.hasPrefix("\r\n") || body.hasPrefix("\n") { body = body.dropFirst() }
            if body.hasSuffix("\r\n") || body.hasSuffix("\n") { body = body.dropLast() }
            let (partHeaders, embedded) = splitHead(body)
            let (head, requestBody) = splitHead(embedded)
            // "\r\n" is a single Character in Swift: split on newline characters, not on "\n".
            var lines = head.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
            while lines.first?.isEmpty == true { lines.removeFirst() }
            guard let requestLine = lines.first else {
                throw GoogleAPIError(code: 400, reason: "badRequest", message: "Invalid batch request: a part has no request line.")
            }
            let words = requestLine.split(separator: " ")
            guard words.count >= 2 else {
                throw GoogleAPIError(code: 400, reason: "badRequest", message: "Invalid batch request: bad request line.")
            }
            var target = String(words[1])
            if let schemeEnd = target.range(of: "://") {
                target = target[schemeEnd.upperBound...].firstIndex(of: "/").map { String(target[$0...]) } ?? "/"
            }
            var headers = HTTPHeaders()
            for field in outer.headers where !field.name.lowercased().hasPrefix("content-") {
                headers.add(name: field.name, value: field.value)
            }
            for line in lines.dropFirst() where !line.isEmpty {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
                headers[name] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            }
            var contentID: String?
            for line in partHeaders.split(whereSeparator: \.isNewline) {
                if let colon = line.firstIndex(of: ":"), line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "content-id" {
                    contentID = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            let request = ServerRequest(method: String(words[0]), target: target, headers: headers, body: Data(requestBody.utf8),
                                        connectionID: outer.connectionID)
            parts.append(BatchPart(contentID: contentID, request: request))
        }
        return parts
    }

    /// Splits at the first empty line: (head, rest).
    private static func splitHead(_ text: Substring) -> (Substring, Substring) {
        if let range = text.range(of: "\r\n\r\n") { return (text[..<range.lowerBound], text[range.upperBound...]) }
        if let range = text.range(of: "\n\n") { return (text[..<range.lowerBound], text[range.upperBound...]) }
        return (text, "")
    }
}
