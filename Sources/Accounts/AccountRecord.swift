import Foundation
import OAuth

/// One signed-in account as `accounts.json` keeps it. No token lives here (see `TokenStore`).
public struct AccountRecord: Sendable, Equatable, Codable {
    /// The name the user refers to it by (default: the account's e-mail address).
    public var name: String
    /// The descriptor's `id` (`google`, `microsoft`, or a user descriptor's own).
    public var provider: String
    /// Which API the account speaks.
    public var api: ProviderAPI
    /// The signed-in user's e-mail address.
    public var user: String
    /// How the account signs in, and what that needs besides the stored secret.
    public var credential: AccountCredential
    public var createdAt: Date
    /// The account's stable identity at its provider (Graph: the user's object id; Google: the primary
    /// calendar id), which copy markers carry instead of the local `name`. Nil for accounts stored before
    /// identities (`copy` fetches and stores it on first use).
    public var accountIdentity: String?

    /// An account of any kind of credential.
    public init(
        name: String, provider: String, api: ProviderAPI, user: String, credential: AccountCredential,
        createdAt: Date = Date(), accountIdentity: String? = nil
    ) {
        self.name = name
        self.provider = provider
        self.api = api
        self.user = user
        self.credential = credential
        self.createdAt = createdAt
        self.accountIdentity = accountIdentity
    }

    /// The exact command that signs this account in again (shown when the grant is gone).
    /// The client secret is never spelled out; the command reads it from a file (a placeholder), so that
    /// following it keeps the secret out of argv.
    public var signInCommand: String {
        switch credential {
        case .oauth(let oauth):
            var words = ["calbridge", "accounts", "add", oauth.descriptorFile ?? provider, "--name", name]
            if oauth.tenant != ProviderDescriptor.defaultTenant { words += ["--tenant", oauth.tenant] }
            // Built-in descriptors carry no client id, so theirs always came from the command line.
            if oauth.descriptor?.clientId != oauth.clientId { words += ["--client-id", oauth.clientId] }
            var command = words.map(Self.shellQuoted).joined(separator: " ")
            if oauth.clientSecret != nil { command += " --client-secret-file <file with your client secret>" }
            return command
        case .password(let password):
            // The password is read from $CALBRIDGE_PASSWORD, the terminal or stdin, never from argv.
            let words = [
                "calbridge", "accounts", "add", provider, "--name", name, "--server", password.server.absoluteString,
                "--user-name", password.userName,
            ]
            return words.map(Self.shellQuoted).joined(separator: " ")
        case .secretURL:
            // The URL is a secret: never spelled out.
            return ["calbridge", "accounts", "add", provider].map(Self.shellQuoted).joined(separator: " ")
                + " <the feed's URL or file> --name " + Self.shellQuoted(name) + " --replace"
        }
    }

    /// Quotes a word for a POSIX shell when it needs it (for commands shown to the user).
    public static func shellQuoted(_ word: String) -> String {
        // Byte by byte (any byte outside ASCII needs quotes), with no set built per word: every session
        // opened works out this command.
        func safe(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: "@%_+=:,./-".utf8.contains(byte)
            }
        }
        if !word.isEmpty, word.utf8.allSatisfy(safe) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
