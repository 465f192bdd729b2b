import Accounts
import Foundation
import Sync

/// `calbridge accounts rename OLD NEW`: gives an account another name; its token (or password) file and the
/// sync pairs that use it follow.
package enum AccountsRenameCommand: Command {
    package enum Options {
        package static let old = Argument("OLD", "The account's current name (see 'calbridge accounts list').").completing(.accounts)
        package static let new = Argument("NEW", "The new name: not empty, no ':', no control characters.")
    }

    package static let path = ["accounts", "rename"]

    package static let spec = CommandSpec(
        path,
        abstract: "Rename an account; its sign-in and the sync pairs that use it follow.",
        discussion: """
            Nothing is asked of the provider: the grant stays, the token or password file takes the new name, \
            and every sync pair with a side on the account names it by the new name (ACCOUNT:CALENDAR), keeping \
            its state. Copies already made stay recognised: their markers carry the account's identity, not its \
            name. Exit code 2 for an unknown account, a name in use or a name that cannot be used.
            """,
        positionals: [Options.old, Options.new]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let old = arguments[Options.old]
        let new = arguments[Options.new]
        do {
            try AccountsAddCommand.validate(name: new)
        } catch {
            throw UsageError(error.message.replacingOccurrences(of: " (e.g. --name work)", with: ""), command: spec.name)
        }
        let home = CalbridgeHome(environment: context.environment)
        let registry = AccountRegistry(home: home)
        let all = try registry.accounts()
        let record = try registry.require(old, in: all)
        guard old != new else { throw UsageError("the account is called '\(new)' already", command: spec.name) }
        if all.contains(where: { $0.name == new }) {
            throw UsageError("an account named '\(new)' exists; pick another name or remove that one first", command: spec.name)
        }
        // Before anything moves: a damaged definitions file is refused, and the pairs of a home from before
        // they were kept apart are copied out of sync.db.
        let definitions = SyncPairDefinitions(home: home)
        if try definitions.load() == nil, try SyncPairs.reading(context: context) != nil {
            _ = try await SyncPairs(context: context).all()
        }

        // The secret first (a crash here leaves the account without its sign-in under the old name: sign in
        // again), then the account, then the pairs.
        if case .secretURL = record.credential {
            try await FileSecretURLStore(home: home).move(account: old, to: new)
            try await FileProviderState(home: home, account: old).move(to: new)
        } else if try context.providers.descriptor(for: record) == nil {
            try await FilePasswordStore(home: home).move(account: old, to: new)
        } else {
            try await FileTokenStore(home: home).move(account: old, to: new)
        }
        try registry.rename(old, to: new)
        let renamed = try definitions.renameAccount(old, to: new)
        var line = "Renamed account '\(old)' to '\(new)'"
        if !renamed.isEmpty {
            line +=
                "; sync pair\(renamed.count == 1 ? "" : "s") \(renamed.joined(separator: ", ")) now name\(renamed.count == 1 ? "s" : "") it '\(new)'"
        }
        context.print(line + ".")
        return .success
    }
}
