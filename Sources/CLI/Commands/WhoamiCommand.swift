import Accounts
import Foundation
import OAuth

/// `calbridge whoami`: who an account is signed in as (and, for Microsoft, the mailbox time zone).
public enum WhoamiCommand: Command {
    public static let spec = CommandSpec(
        ["whoami"],
        abstract: "Show the signed-in user's name and e-mail (and the mailbox time zone).",
        options: [.value("account", "NAME", "Which account (needed when there is more than one).")]
    )

    public static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let home = CalbridgeHome(environment: context.environment)
        let registry = AccountRegistry(home: home)
        let record: AccountRecord
        if let name = arguments.value("account") {
            record = try registry.require(name)
        } else {
            let all = try registry.accounts()
            guard let only = all.first, all.count == 1 else {
                if all.isEmpty { throw InputError("there are no accounts yet; add one with 'calbridge accounts add google|microsoft'") }
                throw UsageError("there are \(all.count) accounts; choose one with --account NAME (\(all.map(\.name).joined(separator: ", ")))", command: "whoami")
            }
            record = only
        }
        let descriptor = try ProviderCatalog.descriptor(for: record)
        let session = try AccountSession.open(
            record, descriptor: descriptor, store: FileTokenStore(home: home),
            base: context.makeTransport(verbose: arguments.flag("verbose")), now: context.now
        )
        let profile = try await UserProfile.fetch(
            api: descriptor.api, baseURL: descriptor.apiBaseURL, transport: session.transport, includeTimeZone: true
        )
        context.print("Account:   \(record.name) (\(descriptor.displayName))")
        context.print("Name:      \(profile.displayName ?? "(none)")")
        context.print("E-mail:    \(profile.email)")
        if let zone = profile.timeZone {
            let label = descriptor.api == .microsoftGraphV1 ? "mailbox" : "primary calendar"
            context.print("Time zone: \(zone) (\(label))")
        }
        return .success
    }
}
