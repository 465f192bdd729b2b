import Foundation
import OAuth
import ProviderSeam

/// How an account signs in. One case per kind of credential; the secret itself (tokens, a
/// password) is kept in its own 0600 file, never in `accounts.json`.
public enum AccountCredential: Sendable, Equatable {
    /// OAuth 2.0: tokens from an authorization server, refreshed with this client registration.
    case oauth(OAuthAccountCredential)
    /// A user name and password (an app password), sent as HTTP Basic authentication to `server`.
    case password(PasswordAccountCredential)
    /// A secret address (a subscribed feed): the URL is in `feed-<name>.json` (`FileSecretURLStore`), never here.
    case secretURL

    /// The value of `authentication` in `accounts.json`.
    public var kind: CredentialKind {
        switch self {
        case .oauth: .oauth
        case .password: .password
        case .secretURL: .secretURL
        }
    }
}

/// What a password account needs besides its password: where the service is and the user name.
/// The password itself is in `password-<name>.json` (`FilePasswordStore`), never here.
public struct PasswordAccountCredential: Sendable, Equatable, Codable {
    /// The service's base URL (the provider's default, or `accounts add --server URL`).
    public var server: URL
    /// The user name the service knows (sent with the password).
    public var userName: String

    public init(server: URL, userName: String) {
        self.server = server
        self.userName = userName
    }
}

/// What an OAuth account needs besides its tokens: the client registration, tenant and scopes.
public struct OAuthAccountCredential: Sendable, Equatable, Codable {
    /// The full descriptor, kept for accounts signed in with a user's descriptor file so the account
    /// keeps working if the file moves. Nil for the built-in providers (loaded fresh by id).
    public var descriptor: ProviderDescriptor?
    /// The descriptor file given at sign-in, if any (for the re-authentication command).
    public var descriptorFile: String?
    public var clientId: String
    /// Stored only when the user gave it (option, file or environment; a descriptor's own secret stays there).
    public var clientSecret: String?
    public var tenant: String
    public var scopes: [String]

    public init(
        descriptor: ProviderDescriptor? = nil, descriptorFile: String? = nil, clientId: String,
        clientSecret: String? = nil, tenant: String = ProviderDescriptor.defaultTenant, scopes: [String]
    ) {
        self.descriptor = descriptor
        self.descriptorFile = descriptorFile
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.tenant = tenant
        self.scopes = scopes
    }

    /// The credentials the token endpoint wants (a secret from the command line wins over the descriptor's).
    public func clientCredentials(descriptor: ProviderDescriptor) -> ClientCredentials {
        ClientCredentials(clientId: clientId, clientSecret: clientSecret ?? descriptor.clientSecret)
    }
}

extension AccountRecord {
    /// An OAuth account (the parameters of `OAuthAccountCredential`).
    public init(
        name: String, provider: String, api: ProviderAPI, descriptor: ProviderDescriptor? = nil,
        descriptorFile: String? = nil, user: String, clientId: String, clientSecret: String? = nil,
        tenant: String = ProviderDescriptor.defaultTenant, scopes: [String], createdAt: Date = Date()
    ) {
        self.init(
            name: name, provider: provider, api: api, user: user,
            credential: .oauth(OAuthAccountCredential(
                descriptor: descriptor, descriptorFile: descriptorFile, clientId: clientId,
                clientSecret: clientSecret, tenant: tenant, scopes: scopes
            )),
            createdAt: createdAt
        )
    }

    /// The OAuth part of the credential, or nil for an account that signs in another way.
    public var oauth: OAuthAccountCredential? {
        switch credential {
        case .oauth(let oauth): oauth
        case .password, .secretURL: nil
        }
    }
}
