import Foundation
import HTTP

/// Reads fixture files from the repository's Fixtures/ directory.
enum Fixture {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func data(_ path: String) -> Data {
        let url = root.appendingPathComponent(path)
        guard let data = try? Data(contentsOf: url) else { fatalError("missing fixture \(url.path)") }
        return data
    }

    /// A JSON response with the fixture as body.
    static func response(_ path: String, status: Int = 200, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var all = headers
        all["Content-Type"] = "application/json; charset=utf-8"
        return HTTPResponse(status: status, headers: all, body: data(path))
    }
}

/// Pieces of a recorded request, decoded for assertions.
extension HTTPRequest {
    /// The path exactly as sent (percent-encoding kept).
    var rawPath: String { URLComponents(url: url, resolvingAgainstBaseURL: false)!.percentEncodedPath }
    /// The query exactly as sent (percent-encoding kept).
    var rawQuery: String { URLComponents(url: url, resolvingAgainstBaseURL: false)!.percentEncodedQuery ?? "" }
    /// Query parameters as raw `name=value` pieces.
    var rawQueryItems: [String] { rawQuery.isEmpty ? [] : rawQuery.split(separator: "&").map(String.init) }
    /// Decoded query parameter values by name.
    func queryValue(_ name: String) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)!.queryItems?.first { $0.name == name }?.value
    }
    /// The JSON body as a dictionary.
    var jsonBody: [String: Any]? {
        body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }
}
