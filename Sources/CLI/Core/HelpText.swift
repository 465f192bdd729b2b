/// Renders help from command specs, so help and parsing never disagree. Every line fits `width`
/// (the terminal's, see `CommandContext.helpWidth`).
package enum HelpText {
    /// The help of an executable, or of one command group in it, listing `commands`.
    package static func general(_ commands: [any Command.Type], in suite: CommandSuite = .calbridge, width: Int = 80) -> String {
        var lines = TextWrap.lines("\(suite.program): \(suite.summary)", width: width, indent: "  ")
        lines += [""]
        lines += TextWrap.columns(
            [
                ("Usage:", "\(suite.program) COMMAND [OPTIONS] [ARGUMENTS]"),
                ("", "\(suite.program) help COMMAND"),
                ("", "\(suite.program) --version"),
            ], width: width, indent: "")
        lines += ["", "Commands:"]
        lines += TextWrap.columns(commands.map { ($0.spec.name, $0.spec.abstract) }, width: width)
        lines += ["", "Options for every command:"]
        lines += TextWrap.columns(
            [("--help", "show the command's help"), ("--verbose", "more detail on errors (secrets redacted)")], width: width)
        lines += [""] + exitCodes(width: width)
        return lines.joined(separator: "\n")
    }

    package static func command(_ spec: CommandSpec, width: Int = 80) -> String {
        var usage = "Usage: \(spec.invocation)"
        for positional in spec.positionals {
            let name = positional.variadic ? "\(positional.name)..." : positional.name
            usage += positional.optional || positional.variadic ? " [\(name)]" : " \(name)"
        }
        if !spec.options.isEmpty { usage += " [OPTIONS]" }
        var lines = TextWrap.lines(usage, width: width, indent: "       ")
        lines += [""] + TextWrap.lines(spec.abstract, width: width)
        if !spec.discussion.isEmpty { lines += [""] + TextWrap.block(spec.discussion, width: width) }
        if !spec.positionals.isEmpty {
            lines += ["", "Arguments:"]
            lines += TextWrap.columns(spec.positionals.map { ($0.name, $0.help) }, width: width)
        }
        lines += ["", "Options:"]
        lines += TextWrap.columns(
            spec.allOptions.map { option in
                ("--\(option.name)" + (option.valueName.map { " \($0)" } ?? ""), option.help + (option.repeatable ? " (repeatable)" : ""))
            }, width: width)
        lines += [""] + exitCodes(width: width)
        return lines.joined(separator: "\n")
    }

    /// The exit-code block, wrapped.
    static func exitCodes(width: Int) -> [String] {
        ["Exit codes:"] + TextWrap.columns(ExitCode.allCases.map { ("\($0.rawValue)", $0.meaning) }, width: width)
    }
}
