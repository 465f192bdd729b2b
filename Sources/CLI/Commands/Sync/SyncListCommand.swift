import Foundation
import Sync

/// `calbridge sync list`: the stored pairs and their options (no network).
package enum SyncListCommand: Command {
    package enum Options {
        package static let format = OutputFormat.standardOption
        package static let noHeader = OutputFormat.noHeader
    }

    package static let path = ["sync", "list"]

    package static let spec = CommandSpec(
        path,
        abstract: "List the sync pairs: both calendars, direction, fields, window and conflict rule.",
        options: [Options.format, Options.noHeader]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let pairs = try await SyncPairs.reading(context: context)?.all() ?? []
        switch arguments[Options.format] ?? .table {
        case .json:
            let objects: [[String: Any]] = pairs.map { pair in
                [
                    "name": pair.name, "a": pair.record.sideA, "b": pair.record.sideB, "aName": pair.labelA, "bName": pair.labelB,
                    "direction": pair.options.direction.rawValue, "fields": pair.options.fields.rawValue,
                    "pastDays": pair.options.pastDays, "futureDays": pair.options.futureDays,
                    "conflict": pair.options.conflict.rawValue,
                    "created": SyncOutput.timestamp(pair.record.created),
                ]
            }
            context.print(try JSONText.render(objects))
        case .tsv:
            context.printTable(table(pairs), format: .tsv, header: !arguments[Options.noHeader])
        case .table:
            guard !pairs.isEmpty else {
                context.print("No sync pairs yet; add one with 'calbridge sync add NAME --a ACCOUNT:CALENDAR --b ACCOUNT:CALENDAR'.")
                return .success
            }
            context.printTable(table(pairs), format: .table, header: !arguments[Options.noHeader])
        }
        return .success
    }

    static func table(_ pairs: [SyncPair]) -> Table {
        Table(
            columns: [
                .init("name", "NAME", shrinkable: false), .init("a", "A", shrinkable: false), .init("direction", "WAY", shrinkable: false),
                .init("b", "B", shrinkable: false), .init("fields", "FIELDS", shrinkable: false),
                .init("window", "WINDOW", shrinkable: false), .init("conflict", "CONFLICT", shrinkable: false),
            ],
            rows: pairs.map { pair in
                [
                    pair.name, pair.labelA, pair.options.direction.arrow, pair.labelB, pair.options.fields.rawValue,
                    "-\(pair.options.pastDays)d..+\(pair.options.futureDays)d", pair.options.conflict.rawValue,
                ]
            })
    }
}
