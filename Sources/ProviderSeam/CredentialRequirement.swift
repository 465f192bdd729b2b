import Foundation
import OAuth

/// The credential a provider's accounts sign in with: each registration names one.
///
/// Each kind has its own sign-in (`accounts add`), its own stored secret (a 0600 file in calbridge's home,
/// written atomically under the account's lock) and its own authentication of requests; the provider sees
/// only an authenticated transport. A further kind (a service key) is one more case here, with its store
/// and its session in `Accounts` and its sign-in in the CLI; no provider changes.
public enum CredentialRequirement: Sendable {
    /// OAuth 2.0 tokens, with the provider's built-in descriptor document (`ProviderDescriptor.parse`
    /// format; `{tenant}` is filled at sign-in). A user's descriptor file may stand in for it.
    case oauth(builtInDescriptor: Data)
    /// A user name and an (app) password, sent with every request as HTTP Basic authentication (RFC 7617).
    case password(PasswordSignIn)
    /// A secret address and nothing else (a subscribed iCalendar feed, whose URL carries a private token):
    /// `accounts add <id> URL` keeps the URL as a secret; requests carry no authentication of their own.
    case secretURL

    /// The kind's name, as `accounts.json` stores it in `authentication`.
    public var kind: CredentialKind {
        switch self {
        case .oauth: .oauth
        case .password: .password
        case .secretURL: .secretURL
        }
    }
}

/// The name of a kind of credential (`oauth`, `password`), as stored and as shown.
public struct CredentialKind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public var description: String { rawValue }

    public static let oauth = CredentialKind(rawValue: "oauth")
    public static let password = CredentialKind(rawValue: "password")
    public static let secretURL = CredentialKind(rawValue: "secret-url")
}

/// What a password provider tells sign-in: where its service usually lives and what to call the user name.
public struct PasswordSignIn: Sendable {
    /// The server accounts use unless `accounts add --server URL` names another (nil: `--server` is needed).
    public var defaultServer: URL?
    /// How the provider's service names the user name in its own pages ("Apple ID", "user name").
    public var userNameLabel: String
    /// Where the user makes an app password, shown at sign-in (nil for none).
    public var passwordHelp: String?
    /// The server of one user, when the service puts each user at a URL of their own (Fastmail's CalDAV
    /// principal); used before `defaultServer` when no server is given.
    public var serverForUser: (@Sendable (String) -> URL?)?

    public init(
        defaultServer: URL? = nil, userNameLabel: String = "user name", passwordHelp: String? = nil,
        serverForUser: (@Sendable (String) -> URL?)? = nil
    ) {
        self.defaultServer = defaultServer
        self.userNameLabel = userNameLabel
        self.passwordHelp = passwordHelp
        self.serverForUser = serverForUser
    }
}
