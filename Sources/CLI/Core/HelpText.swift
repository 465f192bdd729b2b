/// Renders help from command specs, so help and parsing never disagree.
public enum HelpText {
    /// The help of an executable, or of one command group in it, listing `commands`.
    public static func general(_ commands: [any Command.Type], in suite: CommandSuite = .calbridge) -> String {
        let width = (commands.map { $0.spec.name.count }.max() ?? 0) + 2
        var lines = [
            "\(suite.program): \(suite.summary)",
            "",
            "Usage: \(suite.program) COMMAND [OPTIONS] [ARGUMENTS]",
            "       \(suite.program) help COMMAND",
            "       \(suite.program) --version",
            "",
            "Commands:",
        ]
        for command in commands {
            lines.append("  " + command.spec.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.spec.abstract)
        }
        lines += ["", "Options for every command:", "  --help     show the command's help", "  --verbose  more detail on errors (secrets redacted)", ""]
        lines.append(ExitCode.helpText)
        return lines.joined(separator: "\n")
    }

    public static func command(_ spec: CommandSpec) -> String {
        var usage = "Usage: \(spec.invocation)"
        for positional in spec.positionals {
            let name = positional.variadic ? "\(positional.name)..." : positional.name
            usage += positional.optional || positional.variadic ? " [\(name)]" : " \(name)"
        }
        if !spec.options.isEmpty { usage += " [OPTIONS]" }
        var lines = [usage, "", spec.abstract]
        if !spec.discussion.isEmpty { lines += ["", spec.discussion] }
        if !spec.positionals.isEmpty {
            lines += ["", "Arguments:"]
            let width = (spec.positionals.map { $0.name.count }.max() ?? 0) + 2
            for positional in spec.positionals {
                lines.append("  " + positional.name.padding(toLength: width, withPad: " ", startingAt: 0) + positional.help)
            }
        }
        lines += ["", "Options:"]
        let labels = spec.allOptions.map { option in
            "--\(option.name)" + (option.valueName.map { " \($0)" } ?? "")
        }
        let width = (labels.map(\.count).max() ?? 0) + 2
        for (label, option) in zip(labels, spec.allOptions) {
            let repeatNote = option.repeatable ? " (repeatable)" : ""
            lines.append("  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + option.help + repeatNote)
        }
        lines += ["", ExitCode.helpText]
        return lines.joined(separator: "\n")
    }
}
