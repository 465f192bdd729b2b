import Foundation
import TestSupport

/// Does what a browser does with an auto-approving authorization server: GET the authorization
/// URL without following redirects, take the `Location` (the loopback redirect URI), GET that.
enum BrowserStandIn {
    struct Visit: Sendable {
        var authorizationStatus: Int
        var redirectLocation: String
        var pageStatus: Int
        var page: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func follow(_ url: URL) async throws -> Visit {
        try await blocking {
            let first = try get(url)
            guard let location = first.headers["location"], let redirect = URL(string: location) else {
                throw Failure(description: "authorization answered \(first.status) without Location: \(first.body)")
            }
            let second = try get(redirect)
            return Visit(authorizationStatus: first.status, redirectLocation: location, pageStatus: second.status, page: second.body)
        }
    }

    /// One GET without redirects (a forged redirect straight to the listener).
    static func open(_ url: URL) async throws -> Visit {
        try await blocking {
            let response = try get(url)
            return Visit(authorizationStatus: 0, redirectLocation: "", pageStatus: response.status, page: response.body)
        }
    }

    private static func get(_ url: URL) throws -> (status: Int, headers: [String: String], body: String) {
        // localhost is where Microsoft redirects; the listener is on 127.0.0.1 (and ::1) for it.
        guard let host = url.host, host == "127.0.0.1" || host == "localhost", let port = url.port else {
            throw Failure(description: "the stand-in browser only visits 127.0.0.1 or localhost with a port: \(url)")
        }
        let client = try RawHTTPClient(port: UInt16(port))
        let parts = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var target = parts?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = parts?.percentEncodedQuery { target += "?" + query }
        client.send("GET \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n")
        guard let response = client.readResponse() else { throw Failure(description: "no answer from \(url)") }
        return response
    }
}
