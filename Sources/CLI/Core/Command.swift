/// One calbridge command: a static description and a run function.
///
/// Add a command by writing a type that conforms and listing it in `CommandRegistry.all`.
public protocol Command: Sendable {
    static var spec: CommandSpec { get }
    /// Runs the command with already-parsed arguments. Throw typed errors; the CLI maps them to exit codes.
    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode
}
