import Foundation
import HTTP

/// Stands in for the user's browser against the sandbox's sign-in servers (auto-approve on): opens the
/// authorization URL, follows its redirect to calbridge's loopback listener, and reports how that went.
///
/// Only loopback URLs are visited (127.0.0.1, and localhost, where Microsoft sign-ins redirect), so the
/// demo and the tests never reach the network.
package struct SandboxBrowser: Sendable {
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    let transport: any HTTPTransport

    /// - Parameter transport: a transport that does not follow redirects (the sign-in must see them).
    package init(transport: any HTTPTransport) {
        self.transport = transport
    }

    /// Visits the authorization URL and then the page it redirects to.
    /// - Returns: the status of the final page (200 when calbridge finished the sign-in).
    @discardableResult
    package func signIn(at url: URL) async throws -> Int {
        let first = try await get(url)
        guard (300..<400).contains(first.status), let location = first.headers["Location"],
            let redirect = URL(string: location, relativeTo: url)?.absoluteURL
        else {
            throw Failure(description: "the sign-in page answered \(first.status) without a redirect (is auto-approve on?)")
        }
        return try await get(redirect).status
    }

    private func get(_ url: URL) async throws -> HTTPResponse {
        guard url.scheme == "http", url.host == "127.0.0.1" || url.host == "localhost" else {
            throw Failure(description: "the stand-in browser only visits http://127.0.0.1 or http://localhost, not \(url.scheme ?? "?")://\(url.host ?? "?")")
        }
        return try await transport.send(HTTPRequest(url: url, headers: ["Accept": "text/html"], timeout: .seconds(30)))
    }
}
