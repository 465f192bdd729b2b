import Accounts
import Foundation
import CalendarBridge
import OAuth

/// `calbridge accounts remove`: revokes the grant at the provider (where it can), then deletes the
/// local tokens and the account.
package enum AccountsRemoveCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let localOnly = Flag("local-only", "Only delete the local tokens; do not revoke at the provider.")
        package static let force = Flag("force", "Remove the account even though sync pairs use it (they then fail until removed).")
        package static let name = Argument("NAME", "the account's name (see 'calbridge accounts list')").completing(.accounts)
    }

    package static let path = ["accounts", "remove"]

    package static let spec = CommandSpec(
        path,
        abstract: "Sign an account out: revoke its grant at the provider, then delete its local tokens.",
        discussion: """
        If the revocation fails, nothing is deleted (so you can retry); --local-only deletes the local
        tokens without asking the provider. Microsoft has no revocation endpoint: its grant ends when it
        expires or when you remove the app from your account's app permissions.
        An account that sync pairs use is kept unless --force is given: the pairs are named, so that they
        can be removed first ('calbridge sync remove NAME').
        """,
        options: [Options.localOnly, Options.force],
        positionals: [Options.name]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let name = arguments[Options.name]
        let home = CalbridgeHome(environment: context.environment)
        let registry = AccountRegistry(home: home)
        let record = try registry.require(name)
        let users = try await pairsUsing(name, context: context)
        if !users.isEmpty, !arguments[Options.force] {
            throw UsageError(
                "account '\(name)' is used by sync pair\(users.count == 1 ? "" : "s") \(users.joined(separator: ", ")); "
                    + "remove \(users.count == 1 ? "it" : "them") first ('calbridge sync remove NAME') or add --force",
                command: spec.name)
        }
        if case .secretURL = record.credential {
            // A subscribed feed: its URL and its cached body go; there is nothing to revoke.
            try await FileSecretURLStore(home: home).deleteAll(account: name)
            try await FileProviderState(home: home, account: name).removeAll()
            try registry.remove(name)
            context.print("Removed feed '\(name)' (its stored URL and cached copy deleted).")
            warnAboutPairs(users, context: context)
            return .success
        }
        guard let descriptor = try context.providers.descriptor(for: record) else {
            // A password account: nothing to revoke (the user withdraws an app password at the service). What its
            // provider kept (a CalDAV account's discovered calendar home) goes with it.
            try await FilePasswordStore(home: home).deleteAll(account: name)
            try await FileProviderState(home: home, account: name).removeAll()
            try registry.remove(name)
            let providerName = context.providers.displayName(for: record)
            context.print(
                "Removed account '\(name)' (local password deleted; withdraw the app password at \(providerName) to end it there).")
            warnAboutPairs(users, context: context)
            return .success
        }
        let store = FileTokenStore(home: home)
        // An unreadable token file is no reason to keep the account: there is nothing to revoke with.
        let tokens = try? store.load(account: name)

        var note = "local tokens deleted"
        if arguments[Options.localOnly] {
            note += "; not revoked at \(descriptor.displayName) (--local-only)"
        } else if descriptor.revocationEndpoint == nil {
            note += "; \(descriptor.displayName) has no revocation endpoint, so the grant ends when it expires or when you remove the app from your account"
        } else if let tokens, let oauth = record.oauth {
            let client = OAuthClient(
                descriptor: descriptor,
                credentials: oauth.clientCredentials(descriptor: descriptor),
                transport: context.makeTransport(verbose: arguments[CommonOptions.verbose]),
                now: context.now
            )
            // Revoking the refresh token ends the whole grant (RFC 7009 §2.1); the access token may be expired.
            do {
                if let refresh = tokens.refreshToken {
                    try await client.revoke(refresh, hint: "refresh_token")
                } else {
                    try await client.revoke(tokens.accessToken, hint: "access_token")
                }
            } catch {
                throw RevocationFailed(account: name, provider: descriptor.displayName, underlying: ErrorReporting.message(for: error))
            }
            note = "revoked at \(descriptor.displayName); " + note
        }
        // Under the account's lock, so that a refresh in another process does not write the file back.
        try await store.deleteAll(account: name)
        try registry.remove(name)
        context.print("Removed account '\(name)' (\(note)).")
        warnAboutPairs(users, context: context)
        return .success
    }

    private static func warnAboutPairs(_ users: [String], context: CommandContext) {
        guard !users.isEmpty else { return }
        context.printError(
            "warning: sync pair\(users.count == 1 ? "" : "s") \(users.joined(separator: ", ")) used it and will fail until removed "
                + "('calbridge sync remove NAME')")
    }

    /// The sync pairs with a side on `account`, by name (sync.db read only; none when there is none).
    static func pairsUsing(_ account: String, context: CommandContext) async throws -> [String] {
        guard let pairs = try SyncPairs.reading(context: context) else { return [] }
        return try await pairs.all().filter { pair in
            [pair.record.sideA, pair.record.sideB].contains { (try? CalendarRef(parsing: $0))?.account == account }
        }.map(\.name)
    }
}

/// The provider did not confirm the revocation; the account is kept so the user can retry.
struct RevocationFailed: Error, Sendable, CustomStringConvertible {
    var account: String
    var provider: String
    var underlying: String
    var description: String {
        "could not revoke account '\(account)' at \(provider) (\(underlying)); the account was kept. Retry, or run 'calbridge accounts remove \(AccountRecord.shellQuoted(account)) --local-only' to forget it here only"
    }
}
