import Foundation
import HTTP
import OAuth

/// Who is signed in: the few profile facts `accounts add` and `whoami` need.
/// (Minimal on purpose; the provider modules take this over.)
struct UserProfile: Sendable, Equatable {
    var displayName: String?
    var email: String
    /// Microsoft: the mailbox time zone (a Windows name); Google: the primary calendar's zone.
    var timeZone: String?

    /// Reads the profile with an authorized transport.
    /// - Graph: `GET /v1.0/me?$select=displayName,mail,userPrincipalName` and `/v1.0/me/mailboxSettings`.
    /// - Google: `GET /calendar/v3/users/me/calendarList/primary` (`id` is the address, `summary` the name).
    static func fetch(api: ProviderAPI, baseURL: URL, transport: any HTTPTransport, includeTimeZone: Bool) async throws -> UserProfile {
        func url(_ pathAndQuery: String) -> URL {
            var text = baseURL.absoluteString
            while text.hasSuffix("/") { text.removeLast() }
            // A descriptor's apiBaseURL is a parsed URL and the paths are constants; the fallback keeps a
            // hand-edited descriptor from crashing (the request then fails with the server's answer).
            return URL(string: text + pathAndQuery) ?? baseURL
        }
        func get(_ target: URL) async throws -> [String: Any] {
            let response = try await transport.send(HTTPRequest(url: target, headers: ["Accept": "application/json"], timeout: .seconds(30)))
            guard response.isSuccess else { throw APIFailure(url: target, response: response) }
            guard let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] else {
                throw APIFailure(url: target, response: response, problem: "the answer is not a JSON object")
            }
            return object
        }
        switch api {
        case .microsoftGraphV1:
            let me = try await get(url("/v1.0/me?$select=displayName,mail,userPrincipalName"))
            let mail = (me["mail"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? me["userPrincipalName"] as? String
            guard let mail else { throw APIFailure(url: url("/v1.0/me"), status: 200, problem: "/me has neither mail nor userPrincipalName") }
            var zone: String?
            if includeTimeZone {
                zone = try await get(url("/v1.0/me/mailboxSettings"))["timeZone"] as? String
            }
            return UserProfile(displayName: me["displayName"] as? String, email: mail, timeZone: zone)
        default:
            let primary = try await get(url("/calendar/v3/users/me/calendarList/primary"))
            guard let id = primary["id"] as? String else {
                throw APIFailure(url: url("/calendar/v3/users/me/calendarList/primary"), status: 200, problem: "the primary calendar has no id")
            }
            return UserProfile(displayName: primary["summary"] as? String, email: id, timeZone: primary["timeZone"] as? String)
        }
    }
}

/// An API answer calbridge cannot use (the provider modules bring the full error model later).
struct APIFailure: Error, Sendable, CustomStringConvertible {
    var url: String
    var status: Int
    var problem: String

    init(url: URL, status: Int, problem: String) {
        self.url = Redactor.url(url)
        self.status = status
        self.problem = problem
    }

    init(url: URL, response: HTTPResponse, problem: String? = nil) {
        let excerpt = Redactor.text(String(response.bodyText.prefix(300))).split(whereSeparator: \.isNewline).joined(separator: " ")
        self.init(url: url, status: response.status, problem: problem ?? "HTTP \(response.status): \(excerpt)")
    }

    var description: String { "\(url) answered \(status): \(problem)" }
}
