import Foundation
import Sync

/// `calbridge sync remove NAME [--remove-copies]`: forgets a pair (its state), optionally deleting the
/// copies it wrote first.
package enum SyncRemoveCommand: Command {
    package enum Options {
        package static let name = Argument("NAME", "The pair to remove.").completing(.pairs)
        package static let removeCopies = Flag(
            "remove-copies", "First delete every copy the pair wrote, on both sides (found by marker, any date); nothing else is deleted.")
        package static let dryRun = Flag("dry-run", "With --remove-copies: say how many copies would be deleted; change nothing.")
    }

    package static let path = ["sync", "remove"]

    package static let spec = CommandSpec(
        path,
        abstract: "Remove a sync pair (its state); with --remove-copies also the copies it made.",
        discussion: """
            Without --remove-copies, the calendars are not touched: every event stays where it is, copies \
            included, and the pair's state in sync.db is deleted. With --remove-copies, every copy the pair \
            wrote is deleted first, the way 'calbridge copy --remove-copies' does (no mail is sent); the pair is \
            removed only when all of them are gone (exit code 4 otherwise: run it again).
            """,
        options: [Options.removeCopies, Options.dryRun],
        positionals: [Options.name]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let name = arguments[Options.name]
        let dryRun = arguments[Options.dryRun]
        if dryRun, !arguments[Options.removeCopies] {
            throw UsageError("--dry-run goes with --remove-copies (removing a pair alone changes no calendar)", command: spec.name)
        }
        let pairs = try SyncPairs(context: context)
        let pair = try await pairs.pair(named: name, command: spec.name)
        if arguments[Options.removeCopies] {
            let resolver = SyncCalendarResolver(accounts: AccountProviders(context: context, verbose: arguments[CommonOptions.verbose]))
            let a = try await resolver.endpoint(pair.record.sideA, side: .a)
            let b = try await resolver.endpoint(pair.record.sideB, side: .b)
            let engine = try pairs.engine()
            let removal = try await engine.removeCopies(pair: name, a: a, b: b, dryRun: dryRun)
            for error in removal.errors {
                context.printError("error: side \(error.side.rawValue.uppercased()): " + (error.title.map { "'\($0)': " } ?? "") + error.message)
            }
            let deleted = removal.aToB.deleted + removal.bToA.deleted
            let failed = max(removal.aToB.failed + removal.bToA.failed, removal.errors.count)
            let verb = dryRun ? "Would remove" : "Removed"
            context.print("\(verb) \(deleted) copies made by sync pair '\(name)' (A \(pair.labelA), B \(pair.labelB)), \(failed) failed")
            if dryRun { return .success }
            guard failed == 0 else {
                context.printError("sync pair '\(name)' kept, so that running 'calbridge sync remove \(name) --remove-copies' again finishes the job")
                return .partial
            }
        }
        try await pairs.remove(named: name)
        context.print("Removed sync pair '\(name)'" + (arguments[Options.removeCopies] ? "" : "; the calendars were not changed (copies stay; --remove-copies deletes them)"))
        return .success
    }
}
