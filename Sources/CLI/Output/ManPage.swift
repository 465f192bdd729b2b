/// `calbridge help --man`: one manual page (roff, section 1) with every command, from the declarations
/// `--help` reads, so the manual cannot drift from the program. Install it with
/// `calbridge help --man > ~/.local/share/man/man1/calbridge.1`.
package enum ManPage {
    /// The environment variables calbridge reads, as the manual lists them.
    static let environment: [(name: String, meaning: String)] = [
        (
            "CALBRIDGE_HOME",
            "Where accounts, tokens and sync state are kept (default $XDG_CONFIG_HOME/calbridge, else ~/.config/calbridge)."
        ),
        ("CALBRIDGE_CLIENT_SECRET", "An OAuth client secret for accounts add, kept out of the process list."),
        ("TZ", "The zone times are shown and read in when --tz is not given (else the system zone)."),
        ("COLUMNS", "The width tables and help fit when the output is a terminal whose size cannot be read."),
        ("NO_COLOR", "When set, no colour, whatever the terminal."),
    ]

    package static func render(_ suite: CommandSuite, version: String) -> String {
        let program = suite.program
        var out: [String] = [
            ".TH \(escape(program.uppercased())) 1 \"\" \(quoted("\(program) \(version)")) \"User Commands\"",
            ".SH NAME",
            "\(escape(program)) \\- \(escape(suite.summary))",
            ".SH SYNOPSIS",
            ".B \(escape(program))",
            ".I COMMAND",
            "[\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]",
            ".br",
            ".B \(escape(program))",
            "help",
            ".I COMMAND",
            ".SH DESCRIPTION",
            paragraph(
                "Every command takes --help (its options, an example and the exit codes) and --verbose (more detail on errors;"
                    + " secrets are always redacted)."),
            ".SH COMMANDS",
        ]
        for command in suite.commands {
            let spec = command.spec
            out.append(".SS \(quoted(spec.invocation))")
            var synopsis = [".B \(escape(spec.invocation))"]
            for positional in spec.positionals {
                let name = escape(positional.name) + (positional.variadic ? "..." : "")
                synopsis.append(positional.optional || positional.variadic ? "[\\fI\(name)\\fR]" : ".I \(name)")
            }
            if !spec.options.isEmpty { synopsis.append("[\\fIOPTIONS\\fR]") }
            out += synopsis
            out.append(".PP")
            out.append(escapeLines(spec.abstract))
            for block in spec.discussion.components(separatedBy: "\n\n") where !block.allSatisfy(\.isWhitespace) {
                out.append(".PP")
                out += discussionLines(block)
            }
            for positional in spec.positionals {
                out += [".TP", ".I \(escape(positional.name))", escapeLines(positional.help)]
            }
            for option in spec.options {
                var term = ".B \\-\\-\(escape(option.name))"
                if let value = option.valueName { term = ".BI \\-\\-\(escape(option.name)) \" \(escape(value))\"" }
                out += [".TP", term, escapeLines(option.help + (option.repeatable ? " (repeatable)" : ""))]
            }
        }
        out.append(".SH EXIT STATUS")
        for code in ExitCode.allCases {
            out += [".TP", ".B \(code.rawValue)", escapeLines(code.meaning)]
        }
        out.append(".SH ENVIRONMENT")
        for variable in environment {
            out += [".TP", ".B \(variable.name)", escapeLines(variable.meaning)]
        }
        out += [
            ".SH SEE ALSO",
            paragraph(
                "\(program) completions bash|zsh|fish prints a completion script for the shell. The manual in docs/ of the"
                    + " source tree explains each job at length."),
        ]
        return out.joined(separator: "\n") + "\n"
    }

    private static func paragraph(_ text: String) -> String { escapeLines(text) }

    /// A help paragraph: prose lines are filled by the formatter; indented lines (examples) keep their
    /// breaks and indentation.
    static func discussionLines(_ block: String) -> [String] {
        var out: [String] = []
        var inExample = false
        for line in block.split(separator: "\n", omittingEmptySubsequences: true) {
            let indented = line.hasPrefix("  ")
            if indented != inExample {
                out.append(indented ? ".nf" : ".fi")
                inExample = indented
            }
            out.append(escapeLines(String(line)))
        }
        if inExample { out.append(".fi") }
        return out
    }

    /// Text as roff reads it literally: backslashes escaped, hyphens as \- (so they stay ASCII when
    /// copied), and no line starting with a control character.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            // troff reads bytes: anything beyond ASCII is named (\[u21BB]), whatever the page's encoding.
            case _ where !scalar.isASCII: out += "\\[u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func escapeLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line -> String in
                let escaped = escape(String(line))
                return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
            }
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
    }

    private static func quoted(_ text: String) -> String {
        "\"" + escape(text).replacingOccurrences(of: "\"", with: "\\(dq") + "\""
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
