/// Something a command declares once and reads back by the same value: a flag, an option or a
/// positional argument. The parser and `--help` read the declaration's spec; the command reads
/// `arguments[declaration]`, so a misspelt name is a compile error, not a silent nil.
package protocol OptionDeclaration: Sendable {
    var spec: OptionSpec { get }
}

/// A bare `--name` switch.
package struct Flag: OptionDeclaration {
    package let spec: OptionSpec

    package init(_ name: String, _ help: String) {
        spec = OptionSpec(name: name, valueName: nil, help: help, repeatable: false)
    }
}

/// `--name VALUE` given at most once, converted to `Value` by the parser (a bad value is a usage error
/// before the command runs).
package struct Option<Value: Sendable>: OptionDeclaration {
    package let spec: OptionSpec

    /// - Parameter convert: the value, or nil when the text is not one; `expected` then says what is.
    /// - Parameter choices: the values a shell offers, when they are a fixed set.
    package init(
        _ name: String, _ valueName: String, _ help: String, expected: String, choices: [String]? = nil,
        convert: @escaping @Sendable (String) -> Value?
    ) {
        let check: @Sendable (String) throws(UsageError) -> any Sendable = { text throws(UsageError) in
            guard let value = convert(text) else { throw UsageError("--\(name) takes \(expected), not '\(text)'") }
            return value
        }
        spec = OptionSpec(
            name: name, valueName: valueName, help: help, repeatable: false, completion: choices.map { .words($0) }, convert: check)
    }
}

extension Option where Value == String {
    /// A text value, read as given (the command interprets it).
    package init(_ name: String, _ valueName: String, _ help: String) {
        spec = OptionSpec(name: name, valueName: valueName, help: help, repeatable: false)
    }

    /// One of a fixed set of words.
    package static func choice(_ name: String, _ valueName: String, _ help: String, among choices: [String]) -> Option<String> {
        Option(name, valueName, help, expected: "one of \(choices.joined(separator: "|"))", choices: choices) {
            choices.contains($0) ? $0 : nil
        }
    }
}

extension Option where Value == Int {
    /// A whole number within `range`.
    package static func int(_ name: String, _ valueName: String, _ help: String, in range: ClosedRange<Int> = Int.min...Int.max)
        -> Option<Int>
    {
        let expected = range == Int.min...Int.max ? "a whole number" : "a whole number from \(range.lowerBound) to \(range.upperBound)"
        return Option(name, valueName, help, expected: expected) { text in Int(text).flatMap { range.contains($0) ? $0 : nil } }
    }
}

extension Option where Value == Double {
    /// A finite decimal number within `range`.
    package static func number(_ name: String, _ valueName: String, _ help: String, in range: ClosedRange<Double>) -> Option<Double> {
        Option(name, valueName, help, expected: "a number from \(range.lowerBound) to \(range.upperBound)") { text in
            Double(text).flatMap { $0.isFinite && range.contains($0) ? $0 : nil }
        }
    }
}

/// `--name VALUE` that may be given several times; every value is kept, in order.
package struct RepeatedOption: OptionDeclaration {
    package let spec: OptionSpec

    package init(_ name: String, _ valueName: String, _ help: String) {
        spec = OptionSpec(name: name, valueName: valueName, help: help, repeatable: true)
    }
}

/// A positional argument; its kind decides how many values the parser accepts, so commands never count.
package protocol ArgumentDeclaration: Sendable {
    var spec: PositionalSpec { get set }
}

extension ArgumentDeclaration {
    /// The same argument, completed by the shell as `completion` says (when its name does not imply it).
    package func completing(_ completion: ValueCompletion) -> Self {
        var argument = self
        argument.spec.completion = completion
        return argument
    }
}

/// A positional argument that must be given.
package struct Argument: ArgumentDeclaration {
    package var spec: PositionalSpec
    package init(_ name: String, _ help: String) { spec = PositionalSpec(name, help) }
}

/// A positional argument that may be left out. When fewer arguments are given than declared, the
/// leftmost optional ones stay empty (`quick-add [CALENDAR_REF] TEXT` given one argument reads TEXT).
package struct OptionalArgument: ArgumentDeclaration {
    package var spec: PositionalSpec
    package init(_ name: String, _ help: String) { spec = PositionalSpec(name, help, optional: true) }
}

/// The last positional argument, taking every remaining one (zero or more).
package struct VariadicArgument: ArgumentDeclaration {
    package var spec: PositionalSpec
    package init(_ name: String, _ help: String) { spec = PositionalSpec(name, help, variadic: true) }
}

/// The options every command accepts.
package enum CommonOptions {
    package static let help = Flag("help", "Show help for this command.")
    package static let verbose = Flag("verbose", "Print more detail on errors (secrets are always redacted).")
}
