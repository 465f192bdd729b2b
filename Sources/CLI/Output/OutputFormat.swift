/// How a listing is printed: `table` (aligned, fits 80 columns), `json` (one document), `tsv` (header row).
package enum OutputFormat: String, Sendable, CaseIterable {
    case table, json, tsv

    /// The `--format` option of a command that prints in the `allowed` formats (table when absent).
    package static func option(_ valueName: String, _ help: String, allowed: [OutputFormat] = allCases) -> Option<OutputFormat> {
        Option("format", valueName, help, expected: "one of \(allowed.map(\.rawValue).joined(separator: "|"))") { text in
            OutputFormat(rawValue: text).flatMap { allowed.contains($0) ? $0 : nil }
        }
    }
}
