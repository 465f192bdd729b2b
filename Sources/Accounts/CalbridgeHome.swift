import Foundation

/// Where calbridge keeps `accounts.json`, the token files and the password files:
/// `$CALBRIDGE_HOME`, else `$XDG_CONFIG_HOME/calbridge`, else `~/.config/calbridge`.
public struct CalbridgeHome: Sendable, Equatable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// The home chosen by an environment (the process's, or a test's).
    public init(environment: [String: String]) {
        if let home = environment["CALBRIDGE_HOME"], !home.isEmpty {
            directory = URL(fileURLWithPath: home, isDirectory: true)
        } else if let config = environment["XDG_CONFIG_HOME"], !config.isEmpty {
            directory = URL(fileURLWithPath: config, isDirectory: true).appendingPathComponent("calbridge", isDirectory: true)
        } else {
            let user = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            directory = URL(fileURLWithPath: user, isDirectory: true)
                .appendingPathComponent(".config", isDirectory: true)
                .appendingPathComponent("calbridge", isDirectory: true)
        }
    }

    /// `accounts.json`.
    public var accountsFile: URL { directory.appendingPathComponent("accounts.json") }

    /// The token file of one account: `tokens-<name>.json`, the name percent-encoded so that any
    /// account name (an e-mail address, a label with spaces) makes one safe file name.
    public func tokenFile(account: String) -> URL {
        accountFile("tokens", account: account)
    }

    /// The password file of one password account: `password-<name>.json`, named as `tokenFile` is.
    public func passwordFile(account: String) -> URL {
        accountFile("password", account: account)
    }

    /// The URL file of one secret-URL account (a subscribed feed): `feed-<name>.json`, named as `tokenFile` is.
    public func secretURLFile(account: String) -> URL {
        accountFile("feed", account: account)
    }

    /// One item of a provider's own state for an account: `state-<name>~<item>` (`~` is escaped in names, so
    /// one account's items never share a prefix with another's).
    public func providerStateFile(account: String, item: String) -> URL {
        directory.appendingPathComponent("state-\(encoded(account))~\(item)")
    }

    private func accountFile(_ prefix: String, account: String) -> URL {
        directory.appendingPathComponent("\(prefix)-\(encoded(account)).json")
    }

    private func encoded(_ account: String) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@._-+")
        var name = ""
        for byte in account.utf8 {
            let character = Character(UnicodeScalar(byte))
            if byte < 128, allowed.contains(character), !(name.isEmpty && character == ".") {
                name.append(character)
            } else {
                name += String(format: "%%%02X", byte)
            }
        }
        return name
    }
}
