import Foundation
import TimeZones

/// `calbridge timezones [NAME] [--territory XX] [--format table|json|tsv]`: the Windows <-> IANA table.
package enum TimeZonesCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let territory = Option<String>("territory", "XX", "Use the row of this region (e.g. CA) instead of the default 001 row.")
        package static let format = OutputFormat.option("table|json|tsv", "Output format (default table).", allowed: OutputFormat.allCases)
        package static let name = OptionalArgument("NAME", "A Windows time zone name or an IANA id.").completing(.zones)
    }

    package static let path = ["timezones"]

    package static let spec = CommandSpec(
        path,
        abstract: "Map a Windows time zone name to its IANA id or back, or print the whole CLDR table.",
        discussion: """
            With NAME, prints its mapping; the direction is detected: a Windows name ("Pacific Standard Time", \
            any case, also Graph's tzone:// names, display names and retired Canadian names) gives an IANA id, \
            an IANA id ("Asia/Kolkata", either spelling of a tz database link) gives a Windows name. \
            Without NAME, prints every row of the compiled CLDR windowsZones table.
            """,
        options: [Options.territory, Options.format],
        positionals: [Options.name]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let format = (arguments[Options.format] ?? .table)
        let territory = try territoryOption(arguments)
        guard let name = arguments[Options.name] else {
            if territory != nil { throw UsageError("--territory needs a NAME", command: spec.name) }
            context.print(try renderTable(format))
            return .success
        }
        let match = try WindowsZones.match(name, territory: territory)
        if let territory {
            guard !match.kind.isIANA, match.kind != .custom else {
                throw UsageError("--territory applies to Windows names, not to '\(name)'", command: spec.name)
            }
            if match.territory != territory, let windows = match.windows {
                let known = WindowsZones.territories(forWindowsName: windows).joined(separator: ", ")
                throw InputError("'\(windows)' has no row for territory \(territory); its territories are \(known)")
            }
        }
        context.print(try render(match, format))
        return .success
    }

    /// `--territory`, upper-cased; a usage error unless it is 001, ZZ or a two-letter region.
    static func territoryOption(_ arguments: ParsedArguments) throws -> String? {
        guard let text = arguments[Options.territory] else { return nil }
        let upper = text.uppercased()
        let valid = (upper.count == 2 && upper.allSatisfy { $0.isASCII && $0.isLetter })
            || (upper.count == 3 && upper.allSatisfy { $0.isASCII && $0.isNumber })
        guard valid else {
            throw UsageError("--territory takes a two-letter region code such as CA (or 001), not '\(text)'")
        }
        return upper
    }

    // MARK: One name

    static func render(_ match: WindowsZoneMatch, _ format: OutputFormat) throws -> String {
        switch format {
        case .table:
            return sentence(match)
        case .json:
            let object: [String: Any] = [
                "input": match.input,
                "kind": match.kind.rawValue,
                "windows": match.windows ?? NSNull(),
                "territory": match.territory ?? NSNull(),
                "iana": match.iana,
                "ianaIdentifier": match.ianaIdentifier ?? NSNull(),
            ]
            return try json(object)
        case .tsv:
            let table = Table(
                columns: [
                    .init("input", "Input"), .init("kind", "Kind"), .init("windows", "Windows"),
                    .init("territory", "Territory"), .init("iana_id", "IANA id"), .init("iana", "Row's IANA ids"),
                ],
                rows: [[
                    match.input, match.kind.rawValue, match.windows ?? "", match.territory ?? "",
                    match.ianaIdentifier ?? "", match.iana.joined(separator: " "),
                ]]
            )
            return table.tsv()
        }
    }

    /// One line for people: `Pacific Standard Time -> America/Los_Angeles`.
    static func sentence(_ match: WindowsZoneMatch) -> String {
        let input = match.input.trimmingCharacters(in: .whitespaces)
        guard let windows = match.windows else {
            return "\(input) -> a custom zone with no IANA id: use the event's own UTC offset"
        }
        if match.kind.isIANA {
            var line = "\(input) -> \(windows)"
            if let cldr = match.iana.first, cldr != input { line += " (CLDR spells it \(cldr))" }
            return line
        }
        var from = match.kind == .windowsName && input == windows ? windows : "\(input) = \(windows)"
        if match.territory != "001", let territory = match.territory { from += " (\(territory))" }
        return "\(from) -> \(match.ianaIdentifier ?? "?")"
    }

    // MARK: The whole table

    static func renderTable(_ format: OutputFormat) throws -> String {
        switch format {
        case .json:
            let object: [String: Any] = [
                "cldrVersion": WindowsZones.cldrVersion,
                "cldrOtherVersion": WindowsZones.cldrOtherVersion,
                "mappings": WindowsZones.mappings.map { mapping in
                    ["windows": mapping.windows, "territory": mapping.territory, "iana": mapping.iana] as [String: Any]
                },
            ]
            return try json(object)
        case .tsv, .table:
            let table = Table(
                columns: [
                    .init("windows", "Windows", shrinkable: false), .init("territory", "Territory", shrinkable: false),
                    .init("iana", "IANA", shrinkable: false),
                ],
                rows: WindowsZones.mappings.map { [$0.windows, $0.territory, $0.iana.joined(separator: " ")] }
            )
            if format == .tsv { return table.tsv() }
            return table.aligned() + "\nCLDR \(WindowsZones.cldrVersion) (\(WindowsZones.cldrOtherVersion)), "
                + "\(WindowsZones.mappings.count) rows, \(WindowsZones.windowsNames.count) Windows names"
        }
    }

    static func json(_ object: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}
