/// The result of parsing one command line against a `CommandSpec`.
public struct ParsedArguments: Sendable, Equatable {
    public var positionals: [String] = []
    /// Values per option name, in the order given.
    public var values: [String: [String]] = [:]
    public var flags: Set<String> = []

    public init(positionals: [String] = [], values: [String: [String]] = [:], flags: Set<String> = []) {
        self.positionals = positionals
        self.values = values
        self.flags = flags
    }

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value given for an option, or nil.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given for a repeatable option.
    public func all(_ name: String) -> [String] { values[name] ?? [] }

    public func positional(_ index: Int) -> String? { index < positionals.count ? positionals[index] : nil }

    /// An integer option, with a usage error naming the option when the value is not a whole number.
    public func int(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            let bounds = range == Int.min...Int.max ? "a whole number" : "a whole number from \(range.lowerBound) to \(range.upperBound)"
            throw UsageError("--\(name) takes \(bounds), not '\(text)'")
        }
        return number
    }

    /// A decimal option, with a usage error naming the option.
    public func double(_ name: String, in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) throws -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            throw UsageError("--\(name) takes a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }

    /// An option whose value must be one of a fixed set.
    public func choice(_ name: String, _ allowed: [String]) throws -> String? {
        guard let text = value(name) else { return nil }
        guard allowed.contains(text) else {
            throw UsageError("--\(name) takes one of \(allowed.joined(separator: "|")), not '\(text)'")
        }
        return text
    }
}
