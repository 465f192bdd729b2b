import CalendarBridge
import Foundation
import Sync

/// `calbridge sync edit NAME [--direction ...] [--fields ...] [--past DAYS] [--future DAYS] [--conflict ...]`:
/// changes a pair's options and keeps its state (what is mapped, the change cursors, the conflicts kept).
package enum SyncEditCommand: Command {
    package enum Options {
        package static let name = Argument("NAME", "The pair to change.").completing(.pairs)
    }

    package static let path = ["sync", "edit"]

    package static let spec = CommandSpec(
        path,
        abstract: "Change a sync pair's direction, fields, window or conflict rule, keeping its state.",
        discussion: """
            Only the options given change; the others stay as they are. The pair keeps its state: the events \
            it maps across both sides, the change cursors and the conflicts kept, so the next run carries on \
            from where the last one stopped. A new --fields rewrites the copies on the next run (their content \
            changes); a narrower window leaves the copies outside it alone. The calendars cannot be changed: \
            remove the pair and add a new one. Exit code 2 for an unknown pair or an option out of range.
            """,
        options: [
            SyncAddCommand.Options.direction, SyncAddCommand.Options.fields, SyncAddCommand.Options.past,
            SyncAddCommand.Options.future, SyncAddCommand.Options.conflict,
        ],
        positionals: [Options.name]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let name = arguments[Options.name]
        let pairs = try SyncPairs(context: context)
        let pair = try await pairs.pair(named: name, command: spec.name)
        var options = pair.options
        if let direction = arguments[SyncAddCommand.Options.direction].flatMap(SyncDirection.init(rawValue:)) {
            options.direction = direction
        }
        if let fields = arguments[SyncAddCommand.Options.fields].flatMap(CopyFields.init(rawValue:)) { options.fields = fields }
        if let past = arguments[SyncAddCommand.Options.past] { options.pastDays = past }
        if let future = arguments[SyncAddCommand.Options.future] { options.futureDays = future }
        if let conflict = arguments[SyncAddCommand.Options.conflict].flatMap(SyncConflictRule.init(rawValue:)) {
            options.conflict = conflict
        }
        if let problem = options.validationProblem { throw UsageError(problem, command: spec.name) }
        guard options != pair.options else {
            throw UsageError(
                "nothing to change: give at least one of --direction, --fields, --past, --future, --conflict "
                    + "(sync pair '\(name)': \(SyncAddCommand.describe(pair.options)))", command: spec.name)
        }
        try await pairs.edit(name, options: options)
        context.print(
            "Changed sync pair '\(name)': A \(pair.labelA) \(options.direction.arrow) B \(pair.labelB); \(SyncAddCommand.describe(options))"
        )
        return .success
    }
}
