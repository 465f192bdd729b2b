import Foundation

/// A provider descriptor pointing at a running sandbox, in the format of `Providers/*/*.json` (absent values
/// are written as `null`, as those files do); for a service that signs in with a password, a password
/// descriptor: id, API, name, the server's URL and `"credential": "password"` (`accounts add FILE --user
/// NAME` takes it, the password from `$CALBRIDGE_PASSWORD` or the terminal).
package struct SandboxDescriptor: Sendable, Codable, Equatable {
    package var id: String
    package var api: String
    package var displayName: String
    /// `password` for a user name and app password; nil for OAuth.
    package var credential: String?
    package var authorizationEndpoint: String?
    package var tokenEndpoint: String?
    package var deviceAuthorizationEndpoint: String?
    package var revocationEndpoint: String?
    /// The sandbox's base URL: Google paths then start with /calendar/v3, Graph paths with /v1.0; a password
    /// service's: the URL a user gives (a CalDAV server's root).
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

    /// A service that signs in with a user name and app password, at `server`.
    package static func password(id: String, api: String, displayName: String, server: String) -> SandboxDescriptor {
        SandboxDescriptor(
            id: id, api: api, displayName: displayName, credential: "password", apiBaseURL: server, scopes: [],
            authorizationParameters: [:])
    }

    package init(
        id: String, api: String, displayName: String, credential: String? = nil, authorizationEndpoint: String? = nil,
        tokenEndpoint: String? = nil, deviceAuthorizationEndpoint: String? = nil, revocationEndpoint: String? = nil,
        apiBaseURL: String, scopes: [String], authorizationParameters: [String: String], clientId: String? = nil,
        clientSecret: String? = nil
    ) {
        self.id = id
        self.api = api
        self.displayName = displayName
        self.credential = credential
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.apiBaseURL = apiBaseURL
        self.scopes = scopes
        self.authorizationParameters = authorizationParameters
        self.clientId = clientId
        self.clientSecret = clientSecret
    }

    enum CodingKeys: String, CodingKey {
        case id, api, displayName, credential, authorizationEndpoint, tokenEndpoint, deviceAuthorizationEndpoint, revocationEndpoint
        case apiBaseURL, scopes, authorizationParameters, clientId, clientSecret
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(api, forKey: .api)
        try container.encode(displayName, forKey: .displayName)
        if let credential {
            // A password descriptor has no OAuth fields at all.
            try container.encode(credential, forKey: .credential)
            try container.encode(apiBaseURL, forKey: .apiBaseURL)
            return
        }
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

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        api = try container.decode(String.self, forKey: .api)
        displayName = try container.decode(String.self, forKey: .displayName)
        credential = try container.decodeIfPresent(String.self, forKey: .credential)
        authorizationEndpoint = try container.decodeIfPresent(String.self, forKey: .authorizationEndpoint)
        tokenEndpoint = try container.decodeIfPresent(String.self, forKey: .tokenEndpoint)
        deviceAuthorizationEndpoint = try container.decodeIfPresent(String.self, forKey: .deviceAuthorizationEndpoint)
        revocationEndpoint = try container.decodeIfPresent(String.self, forKey: .revocationEndpoint)
        apiBaseURL = try container.decode(String.self, forKey: .apiBaseURL)
        scopes = try container.decodeIfPresent([String].self, forKey: .scopes) ?? []
        authorizationParameters = try container.decodeIfPresent([String: String].self, forKey: .authorizationParameters) ?? [:]
        clientId = try container.decodeIfPresent(String.self, forKey: .clientId)
        clientSecret = try container.decodeIfPresent(String.self, forKey: .clientSecret)
    }

    /// Pretty JSON with sorted keys, as a descriptor file is written.
    package func fileData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
