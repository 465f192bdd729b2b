import CalendarBridge
import Foundation
import Sync

/// `calbridge sync conflicts [NAME...]`: the conflicts kept in sync.db (both versions, which one won and why),
/// oldest first (no network).
package enum SyncConflictsCommand: Command {
    package enum Options {
        package static let names = VariadicArgument("NAME", "The pairs whose conflicts to show (default: every pair).").completing(.pairs)
        package static let format = OutputFormat.standardOption
        package static let noHeader = OutputFormat.noHeader
    }

    package static let path = ["sync", "conflicts"]

    package static let spec = CommandSpec(
        path,
        abstract: "List the conflicts sync kept: events changed on both sides, which version won and the one kept.",
        discussion: """
            An event (or one occurrence of a series) changed on both sides between two runs is a conflict: the \
            pair's --conflict rule picks the version both sides get, and the other one is kept in sync.db. This \
            lists them, oldest first: ID (for scripts), PAIR, when it was found, the title, the side whose \
            version won, and the kept version's start ("(deleted)" for a deletion that lost). --format json prints \
            both versions in full. 'calbridge sync conflicts restore ID' writes a kept version back. Read from \
            sync.db only; nothing is created or changed. Exit code 2 for an unknown pair.
            """,
        options: [Options.format, Options.noHeader],
        positionals: [Options.names]
    )

    /// One conflict as printed.
    struct Entry: Encodable {
        var id: Int64
        var pair: String
        var detected: String
        var title: String
        var winner: String
        var reason: String
        /// Both versions as read when the conflict was found (nil: a version the state cannot read back).
        var a: Event?
        var b: Event?

        var kept: Event? { winner == "a" ? b : a }
    }

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let names = arguments[Options.names]
        var entries: [Entry] = []
        if let found = try await SyncPairs.readingSelected(names, context: context, command: spec.name) {
            let records = try await found.pairs.conflicts(of: found.selected.map(\.name))
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            entries = records.map { record in
                let a = try? decoder.decode(Event.self, from: Data(record.versionA.utf8))
                let b = try? decoder.decode(Event.self, from: Data(record.versionB.utf8))
                let winning = record.winner == .a ? a : b
                return Entry(
                    id: record.rowID ?? 0, pair: record.pair, detected: SyncOutput.timestamp(record.detected),
                    title: winning?.title ?? (a ?? b)?.title ?? "", winner: record.winner.rawValue, reason: record.reason, a: a, b: b)
            }
        }
        try SyncOutput.printListing(
            entries, key: "conflicts", format: arguments[Options.format], header: !arguments[Options.noHeader], tsv: table(entries),
            context: context
        ) {
            guard !entries.isEmpty else {
                let which = names.isEmpty ? "" : " for " + names.joined(separator: ", ")
                return context.print("No conflicts kept\(which).")
            }
            context.printTable(table(entries), format: .table, header: !arguments[Options.noHeader])
        }
        return .success
    }

    /// `2026-12-01` for an all-day start, `2026-12-01T09:00:00Z (Europe/Berlin)` for a timed one.
    static func startText(_ time: EventTime) -> String {
        switch time {
        case .allDay(let date): date.description
        case .timed(let instant, let zone): SyncOutput.timestamp(instant) + " (\(zone))"
        }
    }

    static func table(_ entries: [Entry]) -> Table {
        Table(
            columns: [
                .init("id", "ID", shrinkable: false), .init("pair", "PAIR", shrinkable: false),
                .init("detected", "FOUND", shrinkable: false), .init("winner", "WON", shrinkable: false),
                .init("kept_start", "KEPT VERSION'S START", shrinkable: false), .init("title", "TITLE"), .init("reason", "WHY"),
            ],
            rows: entries.map { entry in
                [
                    String(entry.id), entry.pair, entry.detected, entry.winner.uppercased(),
                    entry.kept.map { $0.status == .cancelled ? "(deleted)" : startText($0.start) } ?? "", entry.title, entry.reason,
                ]
            })
    }
}
