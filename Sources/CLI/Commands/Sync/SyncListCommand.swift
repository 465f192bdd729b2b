import Foundation
import Sync

/// `calbridge sync list`: the stored pairs and their options (no network).
package enum SyncListCommand: Command {
    package enum Options {
        package static let format = OutputFormat.option("table|json|tsv", "Output format (default table).")
    }

    package static let path = ["sync", "list"]

    package static let spec = CommandSpec(
        path,
        abstract: "List the sync pairs: both calendars, direction, fields, window and conflict rule.",
        options: [Options.format]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let pairs = try await SyncPairs(context: context).all()
        switch arguments[Options.format] ?? .table {
        case .json:
            let objects: [[String: Any]] = pairs.map { pair in
                [
                    "name": pair.name, "a": pair.record.sideA, "b": pair.record.sideB,
                    "direction": pair.options.direction.rawValue, "fields": pair.options.fields.rawValue,
                    "pastDays": pair.options.pastDays, "futureDays": pair.options.futureDays,
                    "conflict": pair.options.conflict.rawValue,
                    "created": SyncOutput.timestamp(pair.record.created),
                ]
            }
            context.print(try JSONText.render(objects))
        case .tsv:
            context.print(table(pairs).tsv())
        case .table:
            guard !pairs.isEmpty else {
                context.print("No sync pairs yet; add one with 'calbridge sync add NAME --a ACCOUNT:CALENDAR --b ACCOUNT:CALENDAR'.")
                return .success
            }
            context.print(table(pairs).aligned())
        }
        return .success
    }

    static func table(_ pairs: [SyncPairs.Pair]) -> Table {
        Table(
            columns: [
                .init("name", "NAME", shrinkable: false), .init("a", "A", shrinkOrder: 1), .init("direction", "WAY", shrinkable: false),
                .init("b", "B", shrinkOrder: 1), .init("fields", "FIELDS", shrinkable: false),
                .init("window", "WINDOW", shrinkable: false), .init("conflict", "CONFLICT", shrinkable: false),
            ],
            rows: pairs.map { pair in
                [
                    pair.name, pair.record.sideA, pair.options.direction.arrow, pair.record.sideB, pair.options.fields.rawValue,
                    "-\(pair.options.pastDays)d..+\(pair.options.futureDays)d", pair.options.conflict.rawValue,
                ]
            })
    }
}
