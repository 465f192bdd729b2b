import Foundation
import HTTP
import Sandbox
import LoopbackServer

/// Accepts `token-<email>` as that user's Google token; `expired` is expired; anything else is invalid.
struct StubGoogleTokens: SandboxAccessTokenValidator {
    func check(accessToken: String, provider: SandboxProvider) async -> AccessCheck {
        guard provider == .google else { return .invalid }
        if accessToken == "expired" { return .expired }
        if accessToken.hasPrefix("token-") { return .valid(user: String(accessToken.dropFirst(6))) }
        return .invalid
    }
}

/// One answer of the emulator, with the body parsed as JSON when it is JSON.
struct GoogleReply {
    var status: Int
    var headers: HTTPHeaders
    var body: Data
    var json: GoogleJSON? { GoogleJSON.parse(body) }
    var items: [GoogleJSON] { json?["items"]?.arrayValue ?? [] }
    var errorReason: String? { json?["error"]?["errors"]?.arrayValue?.first?["reason"]?.stringValue }
}

enum GoogleFixture {
    static let ann = "ann.lee@gmail.sandbox"
    static let bob = "bob.kim@gmail.sandbox"
    static let holidaysDE = "en.german#holiday@group.v.calendar.google.com"
    static let family = "family0u4k7s2m9q1ddc3e@group.calendar.google.com"
    /// Wednesday 2026-10-21 14:00 in Berlin: the week of the late-October DST change (Sunday the 25th).
    static let now = ISO8601DateFormatter().date(from: "2026-10-21T12:00:00Z")!

    static func emulator(
        now: Date = GoogleFixture.now, quickAdd: GoogleCalendarEmulator.QuickAddInterpreter? = nil
    ) throws -> GoogleCalendarEmulator {
        try GoogleCalendarEmulator(seed: GoogleCalendarEmulator.defaultSeed, tokens: StubGoogleTokens(), now: { now }, quickAdd: quickAdd)
    }

    static func path(_ segments: String...) -> String {
        "/calendar/v3/" + segments.map { FormEncoding.percentEncode($0) }.joined(separator: "/")
    }

    static func query(_ items: [(String, String)]) -> String {
        items.isEmpty ? "" : "?" + FormEncoding.encode(items)
    }
}

extension GoogleCalendarEmulator {
    /// Sends one request as `user` (nil: no Authorization header).
    func call(
        _ method: String, _ target: String, as user: String? = GoogleFixture.ann, body: String? = nil,
        headers extra: HTTPHeaders = [:]
    ) async -> GoogleReply {
        var headers = extra
        if let user, headers["Authorization"] == nil { headers["Authorization"] = "Bearer token-" + user }
        if body != nil, headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        let request = ServerRequest(method: method, target: target, headers: headers, body: Data((body ?? "").utf8))
        guard let response = await handle(request) else { return GoogleReply(status: -1, headers: [:], body: Data()) }
        return GoogleReply(status: response.status, headers: response.headers, body: response.body)
    }

    func list(_ calendarID: String, _ query: [(String, String)] = [], as user: String = GoogleFixture.ann) async -> GoogleReply {
        await call("GET", GoogleFixture.path("calendars", calendarID, "events") + GoogleFixture.query(query), as: user)
    }
}

extension GoogleJSON {
    var id: String { self["id"]?.stringValue ?? "" }
    var summary: String { self["summary"]?.stringValue ?? "" }
}
