/// One calbridge command: a static description and a run function.
///
/// Add a command by writing a type that conforms and listing it in `CommandRegistry.all` (or
/// `CommandSuite.bench` in the Bench module). Declare its options once, in a nested `Options` enum (`Flag`,
/// `Option<Value>`, `RepeatedOption`, `Argument`...), list them in `spec`, and read them in `run` as
/// `arguments[Options.name]`: the parser has checked arity and converted the values.
package protocol Command: Sendable {
    /// The words that select the command (its `spec`'s path): matching a command line reads these alone,
    /// building no command's spec (all of them built to match one cost 0.8 million instructions a run).
    static var path: [String] { get }
    static var spec: CommandSpec { get }
    /// Runs the command with already-parsed arguments. Throw typed errors; the CLI maps them to exit codes.
    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode
}
