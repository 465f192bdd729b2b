import Accounts
import Foundation
import Sync

/// `calbridge sync conflicts restore ID`: writes a kept losing version back to the side it lost on.
package enum SyncConflictsRestoreCommand: Command {
    package enum Options {
        package static let id = Argument("ID", "The conflict to restore, as 'calbridge sync conflicts' lists it (ID column).")
        package static let format = OutputFormat.option("table|json", "Output format (default table).", allowed: [.table, .json])
    }

    package static let path = ["sync", "conflicts", "restore"]

    package static let spec = CommandSpec(
        path,
        abstract: "Write a conflict's kept (losing) version back, so the next sync carries it to both sides.",
        discussion: """
            The version that lost is written onto the event of the side it lost on, as an edit of that event: \
            only the fields its side had changed (title, times, location, description, a series' rule); \
            attendees and everything else stay as the service keeps them. A deletion that lost (deleted on one \
            side while changed on the other) is restored by deleting the event again. Nothing is ever created: \
            when that side holds the event no more, nothing is written (exit 2). The next 'calbridge sync' \
            carries the restored version to the other side as it carries any edit. The conflict stays listed, \
            with the other version now the kept one, so a restore can be undone the same way. Outlook meetings \
            with attendees are refused (Outlook would mail them). Exit code 2 for an unknown ID.
            Examples:
              calbridge sync conflicts
              calbridge sync conflicts restore 7
            """,
        options: [Options.format],
        positionals: [Options.id]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let text = arguments[Options.id]
        guard let id = Int64(text.trimmingCharacters(in: .whitespaces)), id > 0 else {
            throw UsageError("ID '\(text)' is not a conflict id; 'calbridge sync conflicts' lists them (ID column)", command: spec.name)
        }
        let pairs = try SyncPairs(context: context)
        guard let conflict = try await pairs.store.read({ try $0.conflict(rowID: id) }) else {
            throw UsageError("sync.db keeps no conflict \(id); 'calbridge sync conflicts' lists them (ID column)", command: spec.name)
        }
        let pair = try await pairs.pair(named: conflict.pair, command: spec.name)
        let resolver = SyncCalendarResolver(accounts: AccountProviders(context: context, verbose: arguments[CommonOptions.verbose]))
        let a = try await resolver.endpoint(pair.record.sideA, side: .a)
        let b = try await resolver.endpoint(pair.record.sideB, side: .b)
        let result = try await pairs.engine().restoreConflict(id, pair: pair.name, a: a, b: b)
        if arguments[Options.format] == .json {
            context.print(try SyncOutput.json(result))
            return .success
        }
        let side = result.side == .a ? "A (\(pair.labelA))" : "B (\(pair.labelB))"
        let other = result.side == .a ? "B" : "A"
        switch result.action {
        case .updated:
            context.print(
                "Restored conflict \(id) of sync pair '\(pair.name)': '\(result.title)' on side \(side) has its kept "
                    + "\(result.fields.joined(separator: ", ")) again; the next 'calbridge sync \(pair.name)' carries it to \(other)")
        case .deleted:
            context.print(
                "Restored conflict \(id) of sync pair '\(pair.name)': '\(result.title)' deleted again on side \(side); "
                    + "the next 'calbridge sync \(pair.name)' deletes it on \(other)")
        case .unchanged:
            context.print(
                "Conflict \(id) of sync pair '\(pair.name)': side \(side) already holds the kept version of '\(result.title)'; nothing written"
            )
        }
        return .success
    }
}
