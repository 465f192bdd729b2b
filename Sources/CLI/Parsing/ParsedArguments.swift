/// The result of parsing one command line against a `CommandSpec`. Commands read it through their own
/// declarations: `arguments[Self.dryRun]`, `arguments[Self.events]`, `arguments[Self.source]`.
package struct ParsedArguments: Sendable, Equatable {
    package var positionals: [String] = []
    /// Values per option name, in the order given.
    package var values: [String: [String]] = [:]
    package var flags: Set<String> = []
    /// Positional values by their declared name (a variadic one holds every remaining value).
    var arguments: [String: [String]] = [:]
    /// Converted values of typed options, by option name, in the order given.
    var converted: [String: [any Sendable]] = [:]

    package init(positionals: [String] = [], values: [String: [String]] = [:], flags: Set<String> = []) {
        self.positionals = positionals
        self.values = values
        self.flags = flags
    }

    package static func == (a: ParsedArguments, b: ParsedArguments) -> Bool {
        a.positionals == b.positionals && a.values == b.values && a.flags == b.flags && a.arguments == b.arguments
    }

    /// Whether the flag was given.
    package subscript(flag: Flag) -> Bool { flags.contains(flag.spec.name) }

    /// The option's value, converted by the parser, or nil when it was not given.
    package subscript<Value>(option: Option<Value>) -> Value? {
        if let value = converted[option.spec.name]?.last { return value as? Value }
        return values[option.spec.name]?.last as? Value
    }

    /// Every value of a repeatable option, in the order given.
    package subscript(option: RepeatedOption) -> [String] { values[option.spec.name] ?? [] }

    /// A required positional argument (the parser has checked that it is there).
    package subscript(argument: Argument) -> String { arguments[argument.spec.name]?.first ?? "" }

    /// An optional positional argument, nil when left out.
    package subscript(argument: OptionalArgument) -> String? { arguments[argument.spec.name]?.first }

    /// Every value of the variadic positional argument.
    package subscript(argument: VariadicArgument) -> [String] { arguments[argument.spec.name] ?? [] }
}
