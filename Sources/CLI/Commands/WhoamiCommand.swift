import Accounts
import Foundation

/// `calbridge whoami`: who an account is signed in as (and, for Microsoft, the mailbox time zone).
package enum WhoamiCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let account = Option<String>("account", "NAME", "Which account (needed when there is more than one).")
        package static let format = OutputFormat.standardOption
        package static let noHeader = OutputFormat.noHeader
    }

    package static let path = ["whoami"]

    package static let spec = CommandSpec(
        path,
        abstract: "Show the signed-in user's name and e-mail (and the mailbox time zone).",
        options: [Options.account, Options.format, Options.noHeader]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let accounts = AccountProviders(context: context, verbose: arguments[CommonOptions.verbose])
        let record: AccountRecord
        if let name = arguments[Options.account] {
            record = try accounts.registry.require(name)
        } else {
            let all = try accounts.registry.accounts()
            guard let only = all.first, all.count == 1 else {
                if all.isEmpty {
                    throw InputError("there are no accounts yet; add one with 'calbridge accounts add \(context.providers.ids.joined(separator: "|"))'")
                }
                throw UsageError("there are \(all.count) accounts; choose one with --account NAME (\(all.map(\.name).joined(separator: ", ")))", command: "whoami")
            }
            record = only
        }
        let registration = try context.providers.registration(for: record)
        let displayName = try accounts.sessions.session(for: record).providerName
        let info = try await accounts.provider(for: record).userInfo()
        // The zone as the provider spells it (Graph: a Windows name), as the user sees it there.
        let zone = info.providerTimeZone ?? info.timeZone
        let email = info.email ?? record.user
        switch arguments[Options.format] ?? .table {
        case .json:
            var object: [String: Any] = ["account": record.name, "provider": record.provider, "email": email]
            if let name = info.displayName { object["name"] = name }
            if let zone { object["timeZone"] = zone }
            if let iana = info.timeZone { object["ianaTimeZone"] = iana }
            context.print(try JSONText.render(object))
        case .tsv:
            let table = Table(
                columns: [.init("account", "ACCOUNT"), .init("provider", "PROVIDER"), .init("name", "NAME"),
                    .init("email", "E-MAIL"), .init("time_zone", "TIME ZONE")],
                rows: [[record.name, record.provider, info.displayName ?? "", email, zone ?? ""]])
            context.printTable(table, format: .tsv, header: !arguments[Options.noHeader])
        case .table:
            context.print("Account:   \(record.name) (\(displayName))")
            context.print("Name:      \(info.displayName ?? "(none)")")
            context.print("E-mail:    \(email)")
            if let zone { context.print("Time zone: \(zone) (\(registration.userTimeZoneSource))") }
        }
        return .success
    }
}
