import Foundation
import Org

/// `calbridge org pairs import FILE.csv`: enrols mailboxes and their pairs from a CSV file (idempotent).
package enum OrgPairsImportCommand: Command {
    package enum Options {
        package static let file = Argument("FILE", "A CSV file with the header a,b,direction,fields.").completing(.files)
    }

    package static let path = ["org", "pairs", "import"]

    package static let spec = CommandSpec(
        path,
        abstract: "Enrol mailbox pairs from a CSV file (a,b,direction,fields); running it again changes nothing.",
        discussion: """
            One pair a line after the header: a,b,direction,fields, e.g. \
            alice@contoso.com,alice@fabrikam.com,both,busy (direction a-to-b, b-to-a or both; fields basic, all \
            or busy). Each mailbox's domain must be served by a credential (calbridge org credential add). Rows \
            that cannot be used are listed with their line numbers and the rest are imported (exit code 4).
            """,
        options: OrgDatabase.options,
        positionals: [Options.file]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let path = arguments[Options.file]
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError("cannot read the pairs file \(path)") }
        guard let text = String(data: data, encoding: .utf8) else { throw InputError("\(path) is not UTF-8 text") }
        let file = try PairsCSV(text: text)
        let connection = try await OrgDatabase.open(arguments, context: context, command: spec.name)
        let report = try await OrgDirectory(connection: connection).importPairs(file)
        for problem in report.skipped { context.printError("\(path):\(problem.line): \(problem.message)") }
        context.print(
            "Imported \(report.written + report.unchanged) pairs from \(path): \(report.written) new or changed, \(report.unchanged) unchanged"
                + (report.skipped.isEmpty ? "" : "; \(report.skipped.count) rows skipped")
        )
        return report.skipped.isEmpty ? .success : .partial
    }
}
