import Foundation
import HTTP
import Sandbox
import Testing
import LoopbackServer

/// Accepts `token-<email>` for Microsoft, treats `expired` as expired, anything else as invalid.
struct StubGraphTokens: SandboxAccessTokenValidator {
    func check(accessToken: String, provider: SandboxProvider) async -> AccessCheck {
        guard provider == .microsoft else { return .invalid }
        if accessToken.hasPrefix("token-") { return .valid(user: String(accessToken.dropFirst(6))) }
        // App-only tokens: `app-all` reaches every mailbox, `app-carol` only Carol's (an RBAC scope).
        if accessToken == "app-all" { return .application(clientId: "app-all", mailboxScope: nil) }
        if accessToken == "app-carol" { return .application(clientId: "app-carol", mailboxScope: ["carol.diaz@contoso.sandbox"]) }
        return accessToken == "expired" ? .expired : .invalid
    }
}

/// A decoded response of the emulator.
struct GraphReply {
    var status: Int
    var headers: HTTPHeaders
    var body: Data

    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    var value: [[String: Any]] { json["value"] as? [[String: Any]] ?? [] }
    var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }
}

enum GraphTest {
    static let carol = "carol.diaz@contoso.sandbox"
    static let dan = "dan.wu@contoso.sandbox"
    /// Wednesday 2026-03-04 12:00 UTC: the seeded week is Monday 2 March to Sunday 8 March 2026, and US daylight
    /// saving time starts on Sunday 8 March (Europe's on 29 March).
    static let now = Date(timeIntervalSince1970: 1_772_625_600)
    static let zones = GraphTimeZoneNames.table([
        "Pacific Standard Time": "America/Los_Angeles",
        "W. Europe Standard Time": "Europe/Berlin",
        "GMT Standard Time": "Europe/London",
        "Tokyo Standard Time": "Asia/Tokyo",
        "Eastern Standard Time": "America/New_York",
    ])
    static let extendedID = "String {00020329-0000-0000-C000-000000000046} Name calbridge.origin"

    static func emulator(holdSlot: (@Sendable () async -> Void)? = nil, exceptionsFollowSeries: Bool = false) throws -> GraphEmulator {
        try GraphEmulator(seed: GraphEmulator.defaultSeed, tokens: StubGraphTokens(), now: { now },
                          timeZoneNames: zones, holdSlot: holdSlot, exceptionsFollowSeries: exceptionsFollowSeries)
    }

    /// Sends a request as `user` (nil: no Authorization header). `body` is JSON-encoded unless it is `Data`.
    static func send(_ emulator: GraphEmulator, _ method: String, _ target: String, as user: String? = carol,
                     headers: [String: String] = [:], body: Any? = nil) async throws -> GraphReply {
        var fields: HTTPHeaders = ["Host": "127.0.0.1:8765"]
        if let user { fields["Authorization"] = "Bearer token-\(user)" }
        for (name, value) in headers { fields[name] = value }
        var data = Data()
        if let raw = body as? Data {
            data = raw
        } else if let body {
            data = try JSONSerialization.data(withJSONObject: body)
            fields["Content-Type"] = "application/json"
        }
        let request = ServerRequest(method: method, target: target, headers: fields, body: data)
        let response = try #require(await emulator.handle(request))
        return GraphReply(status: response.status, headers: response.headers, body: response.body)
    }

    /// Follows `@odata.nextLink` through `handle`, collecting every page's values.
    static func all(_ emulator: GraphEmulator, _ target: String, headers: [String: String] = [:],
                    pages: inout Int) async throws -> [[String: Any]] {
        var values: [[String: Any]] = []
        var next: String? = target
        pages = 0
        while let link = next {
            let path = link.hasPrefix("http") ? String(link.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" }) : link
            let reply = try await send(emulator, "GET", path, headers: headers)
            #expect(reply.status == 200)
            values += reply.value
            pages += 1
            next = reply.json["@odata.nextLink"] as? String
            if pages > 50 { break }
        }
        return values
    }

    static func newEvent(subject: String, start: String, end: String, zone: String = "Pacific Standard Time",
                         extra: [String: Any] = [:]) -> [String: Any] {
        var body: [String: Any] = [
            "subject": subject,
            "start": ["dateTime": start, "timeZone": zone],
            "end": ["dateTime": end, "timeZone": zone],
        ]
        for (key, value) in extra { body[key] = value }
        return body
    }

    static func query(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~$=&"))) ?? text
    }
}

extension Dictionary where Key == String, Value == Any {
    func string(_ path: String) -> String? {
        var current: Any? = self
        for part in path.split(separator: ".") { current = (current as? [String: Any])?[String(part)] }
        return current as? String
    }
}

/// Holds every task that waits on it until `open()`; later waiters pass straight through.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}
