import Foundation

/// `calbridge config show`: the defaults in force and where each comes from (`config.toml`, `$TZ`, the
/// system, or calbridge itself).
package enum ConfigShowCommand: Command {
    package enum Options {
        package static let format = OutputFormat.standardOption
        package static let noHeader = OutputFormat.noHeader
    }

    package static let path = ["config", "show"]

    package static let spec = CommandSpec(
        path,
        abstract: "Show the defaults in force (zone, format, week start, calendar, aliases) and where each comes from.",
        discussion: """
            The defaults live in config.toml in the calbridge home ($CALBRIDGE_HOME, else ~/.config/calbridge), a \
            file you write by hand. zone: where $TZ is not set, the zone times are shown and read in (IANA or \
            Windows name). format: the --format of every command that offers it. week-start: the --week-start of \
            every command that offers it. calendar: the calendar of add and quick-add when none is given. \
            [aliases]: short names for accounts, wherever an account is named. The command line always wins, and \
            $TZ wins over the file's zone. For example:

              zone = "Europe/Berlin"
              format = "json"
              week-start = "sunday"
              calendar = "work:Calendar"
              [aliases]
              w = "carol.diaz@contoso.com"

            Example:
              calbridge config show
            """,
        options: [Options.format, Options.noHeader]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let config = context.configuration
        let exists = FileManager.default.fileExists(atPath: config.path)
        let file = URL(fileURLWithPath: config.path).lastPathComponent
        func fromFile(_ setting: CalbridgeConfig.Setting) -> String { "\(file) line \(setting.line)" }
        var rows: [[String]] = []
        let zone = ZoneOptions.localZone(context.environment).identifier
        if context.zoneFromConfiguration, let setting = config.zone {
            rows.append(["zone", zone, fromFile(setting)])
        } else if !(context.environment["TZ"]?.isEmpty ?? true) {
            rows.append(["zone", zone, "$TZ" + (config.zone.map { " (over \(fromFile($0)))" } ?? "")])
        } else {
            rows.append(["zone", zone, "the system's zone"])
        }
        rows.append(["format", config.format?.value ?? "table", config.format.map(fromFile) ?? "built in"])
        rows.append(["week-start", config.weekStart?.value ?? "monday", config.weekStart.map(fromFile) ?? "built in"])
        rows.append(["calendar", config.calendar?.value ?? "", config.calendar.map(fromFile) ?? "not set"])
        for (alias, setting) in config.aliases.sorted(by: { $0.key < $1.key }) {
            rows.append(["alias \(alias)", setting.value, fromFile(setting)])
        }
        switch arguments[Options.format] ?? .table {
        case .json:
            let object: [String: Any] = [
                "file": config.path, "fileExists": exists,
                "settings": rows.map { ["setting": $0[0], "value": $0[1], "source": $0[2]] },
            ]
            context.print(try JSONText.render(object))
        case .tsv:
            context.printTable(table(rows), format: .tsv, header: !arguments[Options.noHeader])
        case .table:
            context.print(
                exists ? "Configuration: \(config.path)" : "Configuration: \(config.path) (no such file; the built-in defaults apply)")
            context.printTable(table(rows), format: .table, header: !arguments[Options.noHeader])
        }
        return .success
    }

    private static func table(_ rows: [[String]]) -> Table {
        Table(
            columns: [
                .init("setting", "SETTING", shrinkable: false), .init("value", "VALUE", shrinkable: false),
                .init("source", "SOURCE"),
            ],
            rows: rows)
    }
}
