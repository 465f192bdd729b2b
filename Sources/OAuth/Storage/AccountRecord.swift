import Foundation

/// One signed-in account as `accounts.json` keeps it. No token lives here (see `TokenStore`).
public struct AccountRecord: Sendable, Equatable, Codable {
    /// The name the user refers to it by (default: the account's e-mail address).
    public var name: String
    /// The descriptor's `id` (`google`, `microsoft`, or a user descriptor's own).
    public var provider: String
    /// Which API the account speaks.
    public var api: ProviderAPI
    /// The full descriptor, kept for accounts signed in with a user's descriptor file so the account
    /// keeps working if the file moves. Nil for the built-in providers (loaded fresh by id).
    public var descriptor: ProviderDescriptor?
    /// The descriptor file given at sign-in, if any (for the re-authentication command).
    public var descriptorFile: String?
    /// The signed-in user's e-mail address.
    public var user: String
    public var clientId: String
    /// Stored only when it came from the command line (a descriptor's own secret stays there).
    public var clientSecret: String?
    public var tenant: String
    public var scopes: [String]
    public var createdAt: Date
    /// The account's stable identity at its provider (Graph: the user's object id; Google: the primary
    /// calendar id), which copy markers carry instead of the local `name`. Nil for accounts stored before
    /// identities (`copy` fetches and stores it on first use).
    public var accountIdentity: String?

    public init(
        name: String, provider: String, api: ProviderAPI, descriptor: ProviderDescriptor? = nil,
        descriptorFile: String? = nil, user: String, clientId: String, clientSecret: String? = nil,
        tenant: String = ProviderDescriptor.defaultTenant, scopes: [String], createdAt: Date = Date(),
        accountIdentity: String? = nil
    ) {
        self.name = name
        self.provider = provider
        self.api = api
        self.descriptor = descriptor
        self.descriptorFile = descriptorFile
        self.user = user
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.tenant = tenant
        self.scopes = scopes
        self.createdAt = createdAt
        self.accountIdentity = accountIdentity
    }

    /// The exact command that signs this account in again (shown when the grant is gone).
    /// The client secret is never spelled out; a placeholder shows where it goes.
    public var signInCommand: String {
        var words = ["calbridge", "accounts", "add", descriptorFile ?? provider, "--name", name]
        if tenant != ProviderDescriptor.defaultTenant { words += ["--tenant", tenant] }
        // Built-in descriptors carry no client id, so theirs always came from the command line.
        if descriptor?.clientId != clientId { words += ["--client-id", clientId] }
        var command = words.map(Self.shellQuoted).joined(separator: " ")
        if clientSecret != nil { command += " --client-secret <your client secret>" }
        return command
    }

    /// Quotes a word for a POSIX shell when it needs it (for commands shown to the user).
    public static func shellQuoted(_ word: String) -> String {
        let safe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@%_+=:,./-")
        if !word.isEmpty, word.allSatisfy(safe.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
