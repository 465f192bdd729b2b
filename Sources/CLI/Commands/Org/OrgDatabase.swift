import Foundation
import Org

/// How the organisation commands find their database: `--database URL`, else `CALBRIDGE_DATABASE_URL`.
///
/// A URL may carry a password; it is never printed. On the command line (where `ps` shows it to every user
/// of the machine) a URL with a password is refused: the password goes in `CALBRIDGE_DATABASE_URL`,
/// `PGPASSWORD` or `~/.pgpass`, which libpq reads itself.
enum OrgDatabase {
    static let option = Option<String>(
        "database", "URL",
        "The organisation's PostgreSQL database (postgresql://USER@HOST/DB); default $CALBRIDGE_DATABASE_URL. A password goes in "
            + "that variable, PGPASSWORD or ~/.pgpass, never on the command line."
    )

    static let variable = "CALBRIDGE_DATABASE_URL"

    static let timeoutOption = Option.duration(
        "database-timeout", "DURATION",
        "How long to wait for the database's answer to one statement before giving up, e.g. 30s (default 10s).",
        in: .seconds(1)...(.seconds(3600)))

    /// The options of the commands that use a migrated database (`org init` waits as long as migrations take).
    static let options: [any OptionDeclaration] = [option, timeoutOption]

    /// `--database-timeout`, else the queue's default.
    static func timeout(_ arguments: ParsedArguments) -> Duration { arguments[timeoutOption] ?? WorkQueue.defaultTimeout }

    /// The connection, schema not checked. Its statements give up after `--database-timeout` (a database that stopped
    /// answering is an error, exit 1, not a hang), unless `bounded` is false.
    static func connect(
        _ arguments: ParsedArguments, context: CommandContext, command: String, bounded: Bool = true
    ) async throws -> PostgresConnection {
        let url: String
        if let given = arguments[option] {
            if carriesPassword(given) {
                throw UsageError(
                    "--database must not carry a password (other users see the command line); put the URL in \(variable), or the "
                        + "password in PGPASSWORD or ~/.pgpass", command: command)
            }
            url = given
        } else if let stored = context.environment[variable], !stored.isEmpty {
            url = stored
        } else {
            throw UsageError("name the database with --database URL or \(variable) (postgresql://USER@HOST/DB)", command: command)
        }
        do {
            return try await PostgresConnection(url: url, statementTimeout: bounded ? timeout(arguments) : nil)
        } catch {
            throw OrgError.database(error)
        }
    }

    /// Connects and checks that `org init` has brought the schema to this calbridge's version.
    static func open(_ arguments: ParsedArguments, context: CommandContext, command: String) async throws -> PostgresConnection {
        let connection = try await connect(arguments, context: context, command: command)
        try await OrgSchema.requireCurrent(connection)
        return connection
    }

    /// Whether a libpq connection string (URL or `key=value` form) holds a password.
    static func carriesPassword(_ text: String) -> Bool {
        if text.contains("://") {
            if let components = URLComponents(string: text) {
                if components.password != nil { return true }
                if components.queryItems?.contains(where: { $0.name.lowercased() == "password" }) == true { return true }
                return false
            }
            // Unparsable: judge by the user-info part.
            let afterScheme = text.components(separatedBy: "://").dropFirst().joined(separator: "://")
            return afterScheme.split(separator: "@").first?.contains(":") == true && afterScheme.contains("@")
        }
        return text.split(whereSeparator: \.isWhitespace).contains { $0.lowercased().hasPrefix("password") }
    }
}
