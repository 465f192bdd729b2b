/// `calbridge completions bash|zsh|fish`: the shell's completion script, from the same declarations as
/// `--help` (commands, options, their choices, account and pair names).
package enum CompletionsCommand: Command {
    package enum Options {
        package static let shell = Argument("SHELL", "bash, zsh or fish").completing(.words(ShellCompletion.Shell.allCases.map(\.rawValue)))
    }

    package static let path = ["completions"]

    package static let spec = CommandSpec(
        path,
        abstract: "Print the completion script for bash, zsh or fish.",
        discussion: """
            Completes commands, options, their fixed values, account names, calendar references (the account \
            part), pair names and zones; names are read from this machine's calbridge home, never from the \
            network. The manual page is 'calbridge help --man'.

            Examples:
              source <(calbridge completions bash)                       # in ~/.bashrc
              calbridge completions zsh > ~/.zfunc/_calbridge            # a directory of $fpath
              calbridge completions fish > ~/.config/fish/completions/calbridge.fish
            """,
        positionals: [Options.shell]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let name = arguments[Options.shell]
        guard let shell = ShellCompletion.Shell(rawValue: name) else {
            throw UsageError("completions takes bash, zsh or fish, not '\(name)'", command: "completions")
        }
        context.print(String(ShellCompletion.script(for: shell, suite: .calbridge).dropLast()))
        return .success
    }
}
