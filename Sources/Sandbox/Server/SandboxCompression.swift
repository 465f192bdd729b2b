import CZlib
import Foundation
import HTTP
import LoopbackServer

/// gzip on API answers, when the client asks for it the way each real service requires.
///
/// - Microsoft Graph compresses when `Accept-Encoding` offers gzip (Microsoft's SDKs carry a
///   decompression handler for it).
/// - Google compresses only when `Accept-Encoding` offers gzip *and* the `User-Agent` contains "gzip"
///   (Google Calendar API, "Improve performance": "you must do two things"); otherwise it answers plain.
///
/// A client that offers gzip pays for inflating every answer, as it would against the real services;
/// `calbridge-bench` measures that cost with the rest of the client's CPU.
package enum SandboxCompression {
    /// zlib's fastest level: the sandbox's own CPU, not the ratio, is what matters here; how long the
    /// client takes to inflate depends on the size it inflates to.
    static let level: Int32 = 1

    /// `response`, gzip-encoded when `request` asks for it as `provider` requires.
    static func apply(to response: ServerResponse, request: ServerRequest, provider: SandboxProvider) -> ServerResponse {
        // A list header may come as several fields (RFC 9110 §5.3): all of them count.
        let offered = request.headers.values(for: "Accept-Encoding")
        guard response.action == .respond, !response.body.isEmpty, response.headers["Content-Encoding"] == nil,
            offersGzip(offered.isEmpty ? nil : offered.joined(separator: ","))
        else { return response }
        if provider == .google, !(request.headers["User-Agent"] ?? "").lowercased().contains("gzip") { return response }
        guard let compressed = gzip(response.body) else { return response }
        var answer = response
        answer.body = compressed
        answer.headers["Content-Encoding"] = "gzip"
        // Google's answers already vary by origin headers; the encoding joins them.
        answer.headers["Vary"] = response.headers["Vary"].map { $0 + ", Accept-Encoding" } ?? "Accept-Encoding"
        return answer
    }

    /// Whether an `Accept-Encoding` value accepts gzip (RFC 9110 §12.5.3: listed, or `*`, with a q-value above 0).
    package static func offersGzip(_ value: String?) -> Bool {
        guard let value else { return false }
        var wildcard = false
        for item in value.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if coding == "gzip" || coding == "x-gzip" { return quality > 0 }
            if coding == "*" { wildcard = quality > 0 }
        }
        return wildcard
    }

    /// `data` in a gzip wrapper, or nil if zlib fails (the answer then goes uncompressed).
    package static func gzip(_ data: Data) -> Data? {
        guard data.count < Int(UInt32.max / 2) else { return nil }
        var stream = z_stream()
        guard cb_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(data.count)))
        var output = Data(count: bound)
        let result: Int32 = data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { return nil }
        output.count = Int(stream.total_out)
        return output
    }
}
