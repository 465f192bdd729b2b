/// The lines of `config.toml` that calbridge reads: a subset of TOML (https://toml.io) that covers what
/// people write by hand: `# comments`, `[section]` headers, and `key = "string"` (basic strings with
/// TOML's escapes, or 'literal strings'). Anything else is refused with its line number, never guessed.
///
/// Read by Unicode scalars, as TOML is defined: by Characters, a `\` or a `"` followed by a combining mark
/// would be one grapheme and no longer the delimiter it is.
package struct ConfigFile: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        /// "" before the first `[section]`.
        package var section: String
        package var key: String
        package var value: String
        /// From 1.
        package var line: Int
    }

    package struct SyntaxError: Error, Sendable, Equatable {
        package var line: Int
        package var message: String
    }

    package var entries: [Entry]

    private typealias Scalars = ArraySlice<Unicode.Scalar>

    /// Parses `text`; the first line that is not comment, section, `key = string` or blank is an error.
    package init(parsing text: String) throws(SyntaxError) {
        var entries: [Entry] = []
        var section = ""
        var seen: Set<String> = []
        var sections: Set<String> = [""]
        var number = 0
        let scalars = Array(text.unicodeScalars)
        for rawLine in scalars.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var line = Self.trimmed(rawLine)
            if line.last == "\r" { line = Self.trimmed(line.dropLast()) }
            if line.isEmpty || line.first == "#" { continue }
            if line.first == "[" {
                guard let close = line.firstIndex(of: "]") else {
                    throw SyntaxError(line: number, message: "a section header needs its closing ']'")
                }
                let name = Self.trimmed(line[(line.startIndex + 1)..<close])
                guard Self.isBareKey(name) else {
                    throw SyntaxError(
                        line: number, message: "a section name is letters, digits, '-' and '_', not '\(Self.text(name.prefix(40)))'")
                }
                try Self.expectEnd(line[(close + 1)...], line: number)
                guard sections.insert(Self.text(name)).inserted else {
                    throw SyntaxError(line: number, message: "section [\(Self.text(name))] appears twice")
                }
                section = Self.text(name)
                continue
            }
            let (key, rest) = try Self.key(line, line: number)
            var afterKey = Self.trimmed(rest)
            guard afterKey.first == "=" else {
                throw SyntaxError(line: number, message: "expected 'key = \"value\"' after '\(key)'")
            }
            afterKey = Self.trimmed(afterKey.dropFirst())
            let (value, afterValue) = try Self.string(afterKey, line: number)
            try Self.expectEnd(afterValue, line: number)
            let qualified = section.isEmpty ? key : section + "." + key
            guard seen.insert(qualified).inserted else {
                throw SyntaxError(line: number, message: "'\(key)' is set twice\(section.isEmpty ? "" : " in [\(section)]")")
            }
            entries.append(Entry(section: section, key: key, value: value, line: number))
        }
        self.entries = entries
    }

    private static func text(_ scalars: Scalars) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    private static func trimmed(_ text: Scalars) -> Scalars {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }

    private static func isBareKey(_ text: Scalars) -> Bool {
        !text.isEmpty
            && text.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
                    || scalar == "_"
            }
    }

    /// A bare key (`week-start`) or a quoted one (`"carol@contoso.com"`), and what follows it.
    private static func key(_ line: Scalars, line number: Int) throws(SyntaxError) -> (String, Scalars) {
        if line.first == "\"" || line.first == "'" {
            let (key, rest) = try string(line, line: number)
            guard !key.isEmpty else { throw SyntaxError(line: number, message: "a key cannot be empty") }
            return (key, rest)
        }
        let end = line.firstIndex { $0 == "=" || $0 == " " || $0 == "\t" } ?? line.endIndex
        let key = line[..<end]
        guard isBareKey(key) else {
            throw SyntaxError(
                line: number, message: "a key is letters, digits, '-' and '_' (or quoted), not '\(text(key.prefix(40)))'")
        }
        return (text(key), line[end...])
    }

    /// Only blanks or a comment may follow a value or a header.
    private static func expectEnd(_ rest: Scalars, line number: Int) throws(SyntaxError) {
        let rest = trimmed(rest)
        guard rest.isEmpty || rest.first == "#" else {
            throw SyntaxError(line: number, message: "unexpected '\(text(rest.prefix(40)))' at the end of the line")
        }
    }

    /// A basic ("...", with escapes) or literal ('...') string at the start of `line`, and what follows.
    private static func string(_ line: Scalars, line number: Int) throws(SyntaxError) -> (String, Scalars) {
        guard let quote = line.first, quote == "\"" || quote == "'" else {
            throw SyntaxError(
                line: number, message: "a value is a quoted string (\"Europe/Berlin\"), not '\(text(line.prefix(40)))'")
        }
        var value = String.UnicodeScalarView()
        var index = line.startIndex + 1
        while index < line.endIndex {
            let scalar = line[index]
            if scalar == quote { return (String(value), line[(index + 1)...]) }
            if scalar == "\\", quote == "\"" {
                index += 1
                guard index < line.endIndex else { break }
                switch line[index] {
                case "\"": value.append("\"")
                case "\\": value.append("\\")
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "u", "U":
                    let length = line[index] == "u" ? 4 : 8
                    let digits = line[(index + 1)...].prefix(length)
                    guard digits.count == length, let code = UInt32(text(digits), radix: 16), let decoded = Unicode.Scalar(code)
                    else {
                        throw SyntaxError(line: number, message: "'\\\(line[index])' needs \(length) hex digits of a character")
                    }
                    value.append(decoded)
                    index += length
                default:
                    throw SyntaxError(line: number, message: "unknown escape '\\\(line[index])' in a string")
                }
            } else if scalar.value < 0x20 && scalar != "\t" || scalar.value == 0x7F {
                throw SyntaxError(line: number, message: "a control character in a string (write it as an escape)")
            } else {
                value.append(scalar)
            }
            index += 1
        }
        throw SyntaxError(line: number, message: "a string is missing its closing \(quote)")
    }
}
