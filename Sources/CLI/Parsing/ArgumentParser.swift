import CalbridgeSupport
/// Parses the arguments that follow a command's name. A pure function: no I/O, unit-tested.
///
/// Accepted forms: `--name VALUE`, `--name=VALUE`, `--flag`, `-h` (help), `--` (everything after is
/// positional), and a lone `-` as a positional (standard input).
public enum ArgumentParser {
    public static func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
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
                result.flags.insert("help")
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
            } else {
                if inlineValue != nil {
                    throw UsageError("option '--\(name)' takes no value", command: spec.name, program: spec.program)
                }
                result.flags.insert(name)
            }
        }
        if result.flag("help") { return result }
        try checkArity(result.positionals, spec)
        return result
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
    public static func nearest(_ word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, word.count / 3) else { return nil }
        return best.0
    }

    /// Levenshtein distance (see `EditDistance`).
    public static func editDistance(_ a: String, _ b: String) -> Int { EditDistance.between(a, b) }
}
