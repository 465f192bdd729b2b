import Foundation
import HTTP
import Sandbox
import LoopbackServer

/// A clock tests move by hand, so expiry needs no sleeping.
final class SandboxTestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = start }
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
    var function: @Sendable () -> Date { { [self] in now } }
}

enum SandboxTestRequests {
    static let googleUsers = [
        SandboxUser(provider: .google, email: "ada@sandbox.example", displayName: "Ada"),
        SandboxUser(provider: .google, email: "bob@sandbox.example", displayName: "Bob"),
    ]
    static let microsoftUsers = [
        SandboxUser(provider: .microsoft, email: "carol@sandbox.example", displayName: "Carol"),
        SandboxUser(provider: .microsoft, email: "dan@sandbox.example", displayName: "Dan"),
    ]
    static let users = googleUsers + microsoftUsers

    static func get(_ target: String, headers: HTTPHeaders = [:]) -> ServerRequest {
        ServerRequest(method: "GET", target: target, headers: headers)
    }

    static func post(_ path: String, form: [(String, String)], headers: HTTPHeaders = [:]) -> ServerRequest {
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return ServerRequest(method: "POST", target: path, headers: headers, body: Data(FormEncoding.encode(form).utf8))
    }

    static func query(_ items: [(String, String)]) -> String { FormEncoding.encode(items) }
}

extension ServerResponse {
    /// The body as a JSON object (empty when it is not one).
    var jsonObject: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The Location header split into the URI before `?` and its decoded query parameters.
    var redirect: (base: String, parameters: [String: String])? {
        guard status == 302, let location = headers["Location"] else { return nil }
        let parts = location.split(separator: "?", maxSplits: 1).map(String.init)
        var parameters: [String: String] = [:]
        if parts.count > 1 { for item in FormEncoding.decode(parts[1]) { parameters[item.name] = item.value } }
        return (parts[0], parameters)
    }
}
