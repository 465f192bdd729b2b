import Accounts
import Foundation
import OAuth

/// `calbridge accounts list`: every stored account with its token state, without any network call.
package enum AccountsListCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let format = OutputFormat.standardOption
        package static let noHeader = OutputFormat.noHeader
    }

    package static let path = ["accounts", "list"]

    package static let spec = CommandSpec(
        path,
        abstract: "List signed-in accounts: name, provider, user, token expiry, status.",
        discussion: """
            Status: ok; expired (refreshed on next use); no refresh token (sign in again when expired); signed out \
            (no tokens); unreadable token file (sign in again; the exit code is then 4); ok (password) for an \
            account that signs in with a stored password; ok (feed) for a subscribed feed (its URL is never shown).
            """,
        options: [Options.format, Options.noHeader]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let format = (arguments[Options.format] ?? .table)
        let home = CalbridgeHome(environment: context.environment)
        let records = try AccountRegistry(home: home).accounts().sorted { $0.name < $1.name }
        let store = FileTokenStore(home: home)
        let passwords = FilePasswordStore(home: home)
        let urls = FileSecretURLStore(home: home)
        let now = context.now()
        var rows: [[String]] = []
        var unreadable = false
        for record in records {
            let providerName = context.providers.displayName(for: record)
            // One unreadable token file is that account's status, not a failure of the whole listing.
            var tokens: TokenSet?
            let state: String
            do {
                if case .secretURL = record.credential {
                    // A subscribed feed: its URL is a secret and is not shown, only whether it is stored.
                    state = try urls.load(account: record.name) == nil ? "no feed URL" : "ok (feed)"
                } else if record.oauth == nil {
                    // A password account: no expiry; its status is whether a password is stored.
                    state = try passwords.load(account: record.name) == nil ? "signed out" : "ok (password)"
                } else {
                    tokens = try store.load(account: record.name)
                    state = status(tokens, now: now)
                }
            } catch let error as StorageError where error.code == .loosePermissions {
                // A fix for the home, not for one account: the error names the chmod that fixes it.
                throw error
            } catch {
                tokens = nil
                state = "unreadable \(record.oauth == nil ? "password" : "token") file (sign in again: \(record.signInCommand))"
                unreadable = true
            }
            rows.append([record.name, providerName, record.user, tokens?.expiresAt.map(Self.timestamp) ?? "", state])
        }
        switch format {
        case .json:
            let objects = rows.map { row in
                ["name": row[0], "provider": row[1], "user": row[2], "expires": row[3], "status": row[4]]
            }
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            context.print(String(decoding: data, as: UTF8.self))
        case .tsv, .table:
            let table = Table(
                columns: [
                    .init("name", "NAME", shrinkable: false), .init("provider", "PROVIDER"), .init("user", "USER", shrinkable: false),
                    .init("expires", "TOKEN EXPIRES", shrinkable: false), .init("status", "STATUS", shrinkable: false),
                ],
                rows: rows
            )
            if format == .table, rows.isEmpty {
                context.printError("No accounts yet. Add one with: calbridge accounts add google|microsoft")
            } else {
                context.printTable(table, format: format, header: !arguments[Options.noHeader])
            }
        }
        // Listed, but not all is well: a script sees it in the exit code.
        return unreadable ? .partial : .success
    }

    static func status(_ tokens: TokenSet?, now: Date) -> String {
        guard let tokens else { return "signed out" }
        guard tokens.needsRefresh(at: now, margin: 0) else { return "ok" }
        return tokens.refreshToken == nil ? "expired, no refresh token" : "expired (refreshed on next use)"
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
