import Foundation
import Org

/// `calbridge org init`: creates or migrates the organisation database's schema.
package enum OrgInitCommand: Command {
    package static let path = ["org", "init"]

    package static let spec = CommandSpec(
        path,
        abstract: "Create or migrate the organisation database (PostgreSQL) to this calbridge's schema.",
        discussion: """
            Safe to run again and from several machines at once: each migration step is applied once, in a \
            transaction. See docs/organisation.md.
            """,
        // No --database-timeout: a migration waits for another machine's (an advisory lock) and may take long.
        options: [OrgDatabase.option]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let connection = try await OrgDatabase.connect(arguments, context: context, command: spec.name, bounded: false)
        let (from, to) = try await OrgSchema.migrate(connection)
        context.print(
            from == to
                ? "The database's schema is current (version \(to))." : "Migrated the database's schema from version \(from) to \(to).")
        return .success
    }
}
