import Foundation
import Sync

/// `calbridge sync status`: per pair, how its last run went and how old each side's change cursor is
/// (from sync.db; no network).
package enum SyncStatusCommand: Command {
    package enum Options {
        package static let names = VariadicArgument("NAME", "The pairs to show (default: every pair).").completing(.pairs)
        package static let format = OutputFormat.standardOption
        package static let noHeader = OutputFormat.noHeader
    }

    package static let path = ["sync", "status"]

    package static let spec = CommandSpec(
        path,
        abstract: "Show each sync pair's last run, its counts, its last error and the age of each side's change cursor.",
        discussion: """
            Read from sync.db only. A cursor's age is the time since that side's changes were last read \
            (a missing cursor means the next run reads that side in full).
            """,
        options: [Options.format, Options.noHeader],
        positionals: [Options.names]
    )

    /// One pair's status, as printed.
    struct Status: Encodable {
        var name: String
        /// The stored references (`ACCOUNT:ID`), and the sides as the user named them.
        var a: String
        var b: String
        var aName: String
        var bName: String
        var direction: String
        var lastRun: LastRun?
        var cursorAgeSeconds: [String: Int?]
        var conflictsKept: Int

        struct LastRun: Encodable {
            var started: String
            var finished: String
            var outcome: String
            var counts: SyncRunCounts?
            var error: String?
        }
    }

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let found = try await SyncPairs.readingSelected(arguments[Options.names], context: context, command: spec.name)
        let now = context.now()
        var statuses: [Status] = []
        for pair in found?.selected ?? [] {
            let name = pair.name
            // No state (only the definitions, say after a damaged state was moved away): never run since.
            let read: (SyncRunRecord?, SyncCursorRecord?, SyncCursorRecord?, Int)? = try await found?.pairs.optionalStore?.read { state in
                (
                    try state.lastRun(pair: name), try state.cursor(pair: name, side: .a), try state.cursor(pair: name, side: .b),
                    try state.conflicts(pair: name).count
                )
            }
            let (run, cursorA, cursorB, conflicts) = read ?? (nil, nil, nil, 0)
            func age(_ cursor: SyncCursorRecord?) -> Int? { cursor.map { max(0, Int(now.timeIntervalSince($0.updated))) } }
            statuses.append(Status(
                name: name, a: pair.record.sideA, b: pair.record.sideB, aName: pair.labelA, bName: pair.labelB, direction: pair.options.direction.rawValue,
                lastRun: run.map {
                    .init(
                        started: SyncOutput.timestamp($0.started), finished: SyncOutput.timestamp($0.finished), outcome: $0.outcome,
                        counts: try? JSONDecoder().decode(SyncRunCounts.self, from: Data($0.counts.utf8)), error: $0.error)
                },
                cursorAgeSeconds: ["a": age(cursorA), "b": age(cursorB)], conflictsKept: conflicts))
        }
        try SyncOutput.printListing(
            statuses, key: "pairs", format: arguments[Options.format], header: !arguments[Options.noHeader], tsv: tsv(statuses),
            context: context
        ) {
            guard !statuses.isEmpty else {
                return context.print("No sync pairs yet; add one with 'calbridge sync add NAME --a ACCOUNT:CALENDAR --b ACCOUNT:CALENDAR'.")
            }
            for status in statuses { print(status, now: now, context: context) }
        }
        return .success
    }

    /// One row per pair for scripts: the sides by name and by stored id, the last run's times, outcome and error.
    static func tsv(_ statuses: [Status]) -> Table {
        Table(
            columns: [
                .init("name", "NAME"), .init("a", "A"), .init("b", "B"), .init("a_id", "A ID"), .init("b_id", "B ID"),
                .init("direction", "WAY"), .init("last_run", "LAST RUN"), .init("outcome", "OUTCOME"), .init("error", "ERROR"),
            ],
            rows: statuses.map { status in
                [
                    status.name, status.aName, status.bName, status.a, status.b, status.direction,
                    status.lastRun?.finished ?? "", status.lastRun?.outcome ?? "never run", status.lastRun?.error ?? "",
                ]
            })
    }

    static func print(_ status: Status, now: Date, context: CommandContext) {
        context.print("\(status.name): \(status.aName) \(SyncDirection(rawValue: status.direction)?.arrow ?? "-") \(status.bName)")
        guard let run = status.lastRun else {
            context.print("  never run; 'calbridge sync \(status.name)' runs it")
            return
        }
        var line = "  last run \(run.finished) (\(run.outcome))"
        if let counts = run.counts {
            line += ": " + SyncOutput.summary(counts)
        }
        context.print(line)
        if let error = run.error { context.print("  last error: \(error)") }
        let ages = ["a", "b"].map { side -> String in
            guard let seconds = status.cursorAgeSeconds[side] ?? nil else { return "\(side.uppercased()) none (next read is full)" }
            return "\(side.uppercased()) \(SyncOutput.age(seconds))"
        }
        context.print("  change cursors: " + ages.joined(separator: ", "))
        if status.conflictsKept > 0 {
            context.print("  \(status.conflictsKept) conflicts kept (the losing versions are in sync.db)")
        }
    }
}
