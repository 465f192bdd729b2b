import Foundation

/// A provider descriptor pointing at a running sandbox, in the format of `Providers/*/*.json`
/// (absent values are written as `null`, as those files do).
package struct SandboxDescriptor: Sendable, Codable, Equatable {
    package var id: String
    package var api: String
    package var displayName: String
    package var authorizationEndpoint: String
    package var tokenEndpoint: String
    package var deviceAuthorizationEndpoint: String?
    package var revocationEndpoint: String?
    /// The sandbox's base URL: Google paths then start with /calendar/v3, Graph paths with /v1.0.
    package var apiBaseURL: String
    package var scopes: [String]
    package var authorizationParameters: [String: String]
    package var clientId: String?
    package var clientSecret: String?

    /// Google Calendar through the sandbox at `base` (no trailing slash).
    package static func google(base: String, client: SandboxClientRegistration = .google) -> SandboxDescriptor {
        SandboxDescriptor(
            id: "google", api: "google-calendar-v3", displayName: "Google Calendar (sandbox)",
            authorizationEndpoint: base + "/o/oauth2/v2/auth", tokenEndpoint: base + "/token",
            deviceAuthorizationEndpoint: nil, revocationEndpoint: base + "/revoke", apiBaseURL: base,
            scopes: ["https://www.googleapis.com/auth/calendar"],
            authorizationParameters: ["access_type": "offline", "prompt": "consent"],
            clientId: client.clientId, clientSecret: client.clientSecret
        )
    }

    /// Microsoft Graph through the sandbox at `base`, tenant `common` (any tenant segment works).
    package static func microsoft(base: String, client: SandboxClientRegistration = .microsoft) -> SandboxDescriptor {
        SandboxDescriptor(
            id: "microsoft", api: "microsoft-graph-v1", displayName: "Microsoft Outlook (Graph, sandbox)",
            authorizationEndpoint: base + "/common/oauth2/v2.0/authorize", tokenEndpoint: base + "/common/oauth2/v2.0/token",
            deviceAuthorizationEndpoint: base + "/common/oauth2/v2.0/devicecode", revocationEndpoint: nil, apiBaseURL: base,
            scopes: ["offline_access", "User.Read", "MailboxSettings.Read", "Calendars.ReadWrite"],
            authorizationParameters: [:], clientId: client.clientId, clientSecret: client.clientSecret
        )
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(api, forKey: .api)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(authorizationEndpoint, forKey: .authorizationEndpoint)
        try container.encode(tokenEndpoint, forKey: .tokenEndpoint)
        try container.encode(deviceAuthorizationEndpoint, forKey: .deviceAuthorizationEndpoint)
        try container.encode(revocationEndpoint, forKey: .revocationEndpoint)
        try container.encode(apiBaseURL, forKey: .apiBaseURL)
        try container.encode(scopes, forKey: .scopes)
        try container.encode(authorizationParameters, forKey: .authorizationParameters)
        try container.encode(clientId, forKey: .clientId)
        try container.encode(clientSecret, forKey: .clientSecret)
    }

    /// Pretty JSON with sorted keys, as a descriptor file is written.
    package func fileData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
