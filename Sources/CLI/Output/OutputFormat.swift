/// How a listing is printed: `table` (aligned, fits 80 columns), `json` (one document), `tsv` (header row).
public enum OutputFormat: String, Sendable, CaseIterable {
    case table, json, tsv

    public static let option = OptionSpec.value("format", "table|json|tsv", "Output format (default table).")

    /// The `--format` value of a parsed command line, table when absent.
    public static func from(_ arguments: ParsedArguments, allowed: [OutputFormat] = allCases) throws -> OutputFormat {
        guard let text = arguments.value("format") else { return .table }
        guard let format = OutputFormat(rawValue: text), allowed.contains(format) else {
            throw UsageError("--format takes one of \(allowed.map(\.rawValue).joined(separator: "|")), not '\(text)'")
        }
        return format
    }
}
