/// How a listing is printed: `table` (aligned, fits a terminal), `json` (one document), `tsv` (header row).
package enum OutputFormat: String, Sendable, CaseIterable {
    case table, json, tsv

    /// The `--format` option of a command that prints in the `allowed` formats (table when absent).
    package static func option(_ valueName: String, _ help: String, allowed: [OutputFormat] = allCases) -> Option<OutputFormat> {
        let names = allowed.map(\.rawValue)
        return Option("format", valueName, help, expected: "one of \(names.joined(separator: "|"))", choices: names) { text in
            OutputFormat(rawValue: text).flatMap { allowed.contains($0) ? $0 : nil }
        }
    }

    /// `--format table|json|tsv`, the option every command that prints data declares.
    package static let standardOption = option("table|json|tsv", "Output format (default table).")

    /// `--no-header`: tables and TSV without their header row (for scripts that read rows only).
    package static let noHeader = Flag("no-header", "Print no header row (table and tsv).")
}
