import Foundation
import OAuth
import ProviderSeam

/// `accounts.json` keeps a record flat: the common keys, `authentication` naming the credential's
/// kind, and that kind's own keys beside them. Files written before `authentication` existed are
/// OAuth accounts and load unchanged.
extension AccountRecord {
    private enum CodingKeys: String, CodingKey {
        case name, provider, api, user, createdAt, authentication, accountIdentity
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decodeIfPresent(String.self, forKey: .authentication) ?? "oauth"
        let credential: AccountCredential
        switch kind {
        case CredentialKind.oauth.rawValue: credential = .oauth(try OAuthAccountCredential(from: decoder))
        case CredentialKind.password.rawValue: credential = .password(try PasswordAccountCredential(from: decoder))
        case CredentialKind.secretURL.rawValue: credential = .secretURL
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .authentication, in: container,
                debugDescription: "unknown authentication '\(kind)' (this calbridge knows: oauth, password, secret-url)"
            )
        }
        self.init(
            name: try container.decode(String.self, forKey: .name),
            provider: try container.decode(String.self, forKey: .provider),
            api: try container.decode(ProviderAPI.self, forKey: .api),
            user: try container.decode(String.self, forKey: .user),
            credential: credential,
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            accountIdentity: try container.decodeIfPresent(String.self, forKey: .accountIdentity)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(provider, forKey: .provider)
        try container.encode(api, forKey: .api)
        try container.encode(user, forKey: .user)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(credential.kind.rawValue, forKey: .authentication)
        try container.encodeIfPresent(accountIdentity, forKey: .accountIdentity)
        switch credential {
        case .oauth(let oauth): try oauth.encode(to: encoder)
        case .password(let password): try password.encode(to: encoder)
        case .secretURL: break
        }
    }
}
