/// One option a command accepts, as `--name VALUE` (or `--name=VALUE`) or a bare `--name` flag.
public struct OptionSpec: Sendable, Equatable {
    public var name: String
    /// The placeholder shown in help for an option that takes a value; nil for a flag.
    public var valueName: String?
    public var help: String
    /// A repeatable option collects every value (`--account a --account b`).
    public var repeatable: Bool

    public static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help, repeatable: false)
    }

    public static func value(_ name: String, _ valueName: String, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, repeatable: repeatable)
    }

    public var takesValue: Bool { valueName != nil }
}

/// One positional argument, for help text and arity checks.
public struct PositionalSpec: Sendable, Equatable {
    public var name: String
    public var help: String
    public var optional: Bool
    /// Takes every remaining positional argument.
    public var variadic: Bool

    public init(_ name: String, _ help: String, optional: Bool = false, variadic: Bool = false) {
        self.name = name
        self.help = help
        self.optional = optional
        self.variadic = variadic
    }
}

/// The static configuration of one command: its name, help text, options and positionals.
/// Help output and parsing both come from this one description.
public struct CommandSpec: Sendable {
    /// The executable the command belongs to (`calbridge`, or `calbridge-bench` for a benchmark).
    public var program: String
    /// The words that select the command, e.g. `["accounts", "add"]`.
    public var path: [String]
    public var abstract: String
    public var discussion: String
    public var options: [OptionSpec]
    public var positionals: [PositionalSpec]

    public init(
        _ path: [String],
        abstract: String,
        discussion: String = "",
        options: [OptionSpec] = [],
        positionals: [PositionalSpec] = [],
        program: String = "calbridge"
    ) {
        self.program = program
        self.path = path
        self.abstract = abstract
        self.discussion = discussion
        self.options = options
        self.positionals = positionals
    }

    public var name: String { path.joined(separator: " ") }

    /// The command as typed, program included: `calbridge events`, `calbridge-bench copy`.
    public var invocation: String { program + " " + name }

    /// Options every command accepts.
    public static let commonOptions: [OptionSpec] = [
        .flag("help", "Show help for this command."),
        .flag("verbose", "Print more detail on errors (secrets are always redacted)."),
    ]

    public var allOptions: [OptionSpec] { options + Self.commonOptions }
}
