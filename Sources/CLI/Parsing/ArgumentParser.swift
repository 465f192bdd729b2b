import CalbridgeSupport
/// Parses the arguments that follow a command's name. A pure function: no I/O, unit-tested.
///
/// Accepted forms: `--name VALUE`, `--name=VALUE`, `--flag`, `-h` (help), `--` (everything after is
/// positional), and a lone `-` as a positional (standard input).
package enum ArgumentParser {
    package static func parse(
        _ arguments: [String], for spec: CommandSpec, defaults: ArgumentDefaults = ArgumentDefaults()
    ) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        let known = spec.allOptions
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "-h" {
                result.flags.insert(CommonOptions.help.spec.name)
                continue
            }
            guard argument.hasPrefix("--") else {
                throw UsageError("unknown option '\(argument)' for '\(spec.invocation)'", command: spec.name, program: spec.program)
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = known.first(where: { $0.name == name }) else {
                let hint = nearest(name, among: known.map(\.name)).map { " (did you mean '--\($0)'?)" } ?? ""
                throw UsageError("unknown option '--\(name)' for '\(spec.invocation)'\(hint)", command: spec.name, program: spec.program)
            }
            if option.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                } else {
                    throw UsageError("option '--\(name)' needs a value (\(option.valueName ?? "VALUE"))", command: spec.name, program: spec.program)
                }
                if !option.repeatable, result.values[name] != nil {
                    throw UsageError("option '--\(name)' was given more than once", command: spec.name, program: spec.program)
                }
                result.values[name, default: []].append(value)
                if let convert = option.convert { result.converted[name, default: []].append(try convert(value)) }
            } else {
                if inlineValue != nil {
                    throw UsageError("option '--\(name)' takes no value", command: spec.name, program: spec.program)
                }
                result.flags.insert(name)
            }
        }
        if result.flags.contains(CommonOptions.help.spec.name) { return result }
        try fill(&result, from: defaults, spec: spec)
        try checkArity(result.positionals, spec)
        result.arguments = assign(result.positionals, to: spec.positionals)
        if let rewrite = defaults.rewrite { Self.rewrite(&result, spec: spec, with: rewrite) }
        return result
    }

    /// What the line left out, from `defaults`: options it does not give (a fixed-choice default only
    /// where this command offers that choice), and a positional argument when exactly one is missing.
    private static func fill(_ result: inout ParsedArguments, from defaults: ArgumentDefaults, spec: CommandSpec) throws(UsageError) {
        for (name, value) in defaults.options.sorted(by: { $0.key < $1.key }) {
            guard let option = spec.options.first(where: { $0.name == name }), option.takesValue, result.values[name] == nil else {
                continue
            }
            if case .words(let words) = option.completion, !words.contains(value) { continue }
            result.values[name] = [value]
            if let convert = option.convert { result.converted[name] = [try convert(value)] }
        }
        if let (name, value) = defaults.positional, !spec.positionals.contains(where: \.variadic),
            let index = spec.positionals.firstIndex(where: { $0.name == name }),
            result.positionals.count == spec.positionals.count - 1
        {
            result.positionals.insert(value, at: index)
        }
    }

    /// Every value that names an account or a calendar, passed through `rewrite` (aliases).
    private static func rewrite(
        _ result: inout ParsedArguments, spec: CommandSpec, with rewrite: @Sendable (ValueCompletion, String) -> String
    ) {
        for option in spec.options where option.completion == .accounts || option.completion == .calendarRefs {
            result.values[option.name] = result.values[option.name]?.map { rewrite(option.completion, $0) }
        }
        for positional in spec.positionals where positional.completion == .accounts || positional.completion == .calendarRefs {
            result.arguments[positional.name] = result.arguments[positional.name]?.map { rewrite(positional.completion, $0) }
        }
    }

    /// Positional values by declared name. Required ones are filled in order; when fewer values are
    /// given than declared, the leftmost optional ones stay empty; a variadic one takes the rest.
    static func assign(_ values: [String], to declared: [PositionalSpec]) -> [String: [String]] {
        let required = declared.filter { !$0.optional && !$0.variadic }.count
        let optional = declared.filter(\.optional).count
        var skip = max(0, optional - max(0, values.count - required))
        var remaining = values[...]
        var assigned: [String: [String]] = [:]
        for positional in declared {
            if positional.variadic {
                assigned[positional.name] = Array(remaining)
                remaining = []
            } else if positional.optional, skip > 0 {
                skip -= 1
            } else if let value = remaining.popFirst() {
                assigned[positional.name] = [value]
            }
        }
        return assigned
    }

    private static func checkArity(_ positionals: [String], _ spec: CommandSpec) throws(UsageError) {
        let required = spec.positionals.filter { !$0.optional && !$0.variadic }.count
        let variadic = spec.positionals.contains { $0.variadic }
        if positionals.count < required {
            let missing = spec.positionals.filter { !$0.optional && !$0.variadic }[positionals.count]
            throw UsageError("missing argument \(missing.name) for '\(spec.invocation)'", command: spec.name, program: spec.program)
        }
        if !variadic, positionals.count > spec.positionals.count {
            let extra = positionals[spec.positionals.count]
            throw UsageError("unexpected argument '\(extra)' for '\(spec.invocation)'", command: spec.name, program: spec.program)
        }
    }

    /// The closest candidate by edit distance, if it is close enough to be a plausible typo.
    package static func nearest(_ word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, word.count / 3) else { return nil }
        return best.0
    }

    /// Levenshtein distance (see `EditDistance`).
    package static func editDistance(_ a: String, _ b: String) -> Int { EditDistance.between(a, b) }
}
