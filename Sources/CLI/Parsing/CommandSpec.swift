/// What the parser and `--help` know of one option: `--name VALUE` (or `--name=VALUE`) or a bare `--name`
/// flag. Commands do not write these; they declare a `Flag`, `Option` or `RepeatedOption`.
package struct OptionSpec: Sendable, Equatable {
    package var name: String
    /// The placeholder shown in help for an option that takes a value; nil for a flag.
    package var valueName: String?
    package var help: String
    /// A repeatable option collects every value (`--account a --account b`).
    package var repeatable: Bool
    /// What a shell offers for the value (`calbridge completions`).
    package var completion: ValueCompletion
    /// Turns a given value into the declared type, or says why it is not one; nil keeps the text.
    let convert: (@Sendable (String) throws(UsageError) -> any Sendable)?

    init(
        name: String, valueName: String?, help: String, repeatable: Bool, completion: ValueCompletion? = nil,
        convert: (@Sendable (String) throws(UsageError) -> any Sendable)? = nil
    ) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.repeatable = repeatable
        self.completion = completion ?? ValueCompletion.implied(byPlaceholder: valueName, optionName: name)
        self.convert = convert
    }

    package var takesValue: Bool { valueName != nil }

    package static func == (a: OptionSpec, b: OptionSpec) -> Bool {
        a.name == b.name && a.valueName == b.valueName && a.help == b.help && a.repeatable == b.repeatable
            && a.completion == b.completion
    }
}

/// One positional argument, for help text and arity checks.
package struct PositionalSpec: Sendable, Equatable {
    package var name: String
    package var help: String
    package var optional: Bool
    /// Takes every remaining positional argument.
    package var variadic: Bool
    /// What a shell offers for it (`calbridge completions`).
    package var completion: ValueCompletion

    package init(_ name: String, _ help: String, optional: Bool = false, variadic: Bool = false) {
        self.name = name
        self.help = help
        self.optional = optional
        self.variadic = variadic
        self.completion = ValueCompletion.implied(byPlaceholder: name)
    }
}

/// The static configuration of one command: its name, help text, options and positionals.
/// Help output and parsing both come from this one description.
package struct CommandSpec: Sendable {
    /// The executable the command belongs to (`calbridge`, or `calbridge-bench` for a benchmark).
    package var program: String
    /// The words that select the command, e.g. `["accounts", "add"]`.
    package var path: [String]
    package var abstract: String
    package var discussion: String
    package var options: [OptionSpec]
    package var positionals: [PositionalSpec]

    /// - Parameters:
    ///   - options: the command's declared options, in the order help lists them.
    ///   - positionals: its positional arguments in order (optional ones, then at most one variadic, last).
    package init(
        _ path: [String],
        abstract: String,
        discussion: String = "",
        options: [any OptionDeclaration] = [],
        positionals: [any ArgumentDeclaration] = [],
        program: String = "calbridge"
    ) {
        self.program = program
        self.path = path
        self.abstract = abstract
        self.discussion = discussion
        self.options = options.map(\.spec)
        self.positionals = positionals.map(\.spec)
    }

    package var name: String { path.joined(separator: " ") }

    /// The command as typed, program included: `calbridge events`, `calbridge-bench copy`.
    package var invocation: String { program + " " + name }

    /// Options every command accepts.
    package static let commonOptions: [OptionSpec] = [CommonOptions.help.spec, CommonOptions.verbose.spec]

    package var allOptions: [OptionSpec] { options + Self.commonOptions }
}
