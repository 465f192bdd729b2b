import Accounts
import Foundation
import Sync

/// `calbridge sync [NAME...]`: runs the named pairs (default all) once; with `--watch`, every pair each
/// interval until SIGINT or SIGTERM.
package enum SyncCommand: Command {
    package enum Options {
        package static let names = VariadicArgument("NAME", "The pairs to run (default: every pair).")
        package static let dryRun = Flag("dry-run", "Read both sides and say what would be written; write nothing (state included).")
        package static let format = OutputFormat.option(
            "table|json", "Output format (default table); with --watch, json makes the log NDJSON.", allowed: [.table, .json])
        package static let watch = Flag("watch", "Keep running: every pair each --interval, until SIGINT or SIGTERM.")
        package static let interval = Option.duration(
            "interval", "DURATION", "With --watch: how often each pair runs, e.g. 30s, 5m, 1h (default 5m).",
            in: .seconds(1)...(.seconds(86_400)))
    }

    package static let path = ["sync"]

    package static let spec = CommandSpec(
        path,
        abstract: "Run sync pairs: bring both calendars of each pair up to date (once, or --watch).",
        discussion: """
            Pairs are managed with 'calbridge sync add', 'sync list', 'sync remove' and 'sync status'. A run \
            reads only what changed on each side since the last one (Google syncToken, Graph calendarView/delta) \
            and applies it to the other side as the pair's direction allows; an event changed on both sides is a \
            conflict, settled by the pair's --conflict rule, with the losing version kept in sync.db and reported. \
            Exit codes: 0 when every pair ran; 4 when some pair failed or was partly applied (the others still \
            ran); 3 when an account must sign in again (named on stderr); 2 for bad options or an unknown pair; \
            when every pair failed, that failure's code. With --watch, a failing pair is retried later and later \
            (jittered, at most an hour apart) without holding up the others; one log line per pair per cycle goes \
            to stderr (NDJSON with --format json); SIGINT or SIGTERM lets the runs in flight finish and exits 0. \
            Only one watcher runs per calbridge home: a second one refuses to start and names the first one's pid.
            """,
        options: [Options.dryRun, Options.format, Options.watch, Options.interval],
        positionals: [Options.names]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let names = arguments[Options.names]
        let format = arguments[Options.format] ?? .table
        let dryRun = arguments[Options.dryRun]
        if arguments[Options.watch] {
            if dryRun { throw UsageError("--watch writes every cycle; drop --dry-run (run 'calbridge sync --dry-run' once instead)", command: spec.name) }
            let watcher = SyncWatcher(
                names: names, interval: arguments[Options.interval] ?? .seconds(300), json: format == .json,
                verbose: arguments[CommonOptions.verbose], context: context)
            return try await watcher.run()
        }
        if arguments[Options.interval] != nil { throw UsageError("--interval goes with --watch", command: spec.name) }

        let pairs = try SyncPairs(context: context)
        let selected = try await pairs.select(names, command: spec.name)
        let accounts = AccountProviders(context: context, verbose: arguments[CommonOptions.verbose])
        let run = SyncPairRunner(pairs: pairs, accounts: accounts, context: context, dryRun: dryRun)
        let results = await run.run(selected)
        if format == .json {
            context.print(try SyncOutput.json(SyncOutput.Document(dryRun: dryRun, pairs: results.map(SyncOutput.Entry.init))))
        } else {
            for result in results { SyncOutput.describe(result, context: context) }
        }
        for result in results {
            if let error = result.error { context.printError("error: sync pair '\(result.pair.name)': \(error)") }
            for item in result.report?.errors ?? [] {
                context.printError("error: sync pair '\(result.pair.name)', side \(item.side.rawValue.uppercased()): "
                    + (item.title.map { "'\($0)': " } ?? "") + item.message)
            }
        }
        return SyncPairRunner.exitCode(results)
    }
}
