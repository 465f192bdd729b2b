/// The lines of `config.toml` that calbridge reads: a subset of TOML (https://toml.io) that covers what
/// people write by hand: `# comments`, `[section]` headers, and `key = "string"` (basic strings with
/// TOML's escapes, or 'literal strings'). Anything else is refused with its line number, never guessed.
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

    /// Parses `text`; the first line that is not comment, section, `key = string` or blank is an error.
    package init(parsing text: String) throws(SyntaxError) {
        var entries: [Entry] = []
        var section = ""
        var seen: Set<String> = []
        var sections: Set<String> = [""]
        var number = 0
        // "\r\n" is one Character in Swift: both line ends are separators.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            let line = Self.trimmed(rawLine)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard let close = line.firstIndex(of: "]") else {
                    throw SyntaxError(line: number, message: "a section header needs its closing ']'")
                }
                let name = Self.trimmed(line[line.index(after: line.startIndex)..<close])
                guard Self.isBareKey(name) else {
                    throw SyntaxError(line: number, message: "a section name is letters, digits, '-' and '_', not '\(name)'")
                }
                try Self.expectEnd(line[line.index(after: close)...], line: number)
                guard sections.insert(String(name)).inserted else {
                    throw SyntaxError(line: number, message: "section [\(name)] appears twice")
                }
                section = String(name)
                continue
            }
            let (key, rest) = try Self.key(line, line: number)
            var afterKey = Self.trimmed(rest)
            guard afterKey.hasPrefix("=") else {
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

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }

    private static func isBareKey(_ text: Substring) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
                    || scalar == "_"
            }
    }

    /// A bare key (`week-start`) or a quoted one (`"carol@contoso.com"`), and what follows it.
    private static func key(_ line: Substring, line number: Int) throws(SyntaxError) -> (String, Substring) {
        if line.hasPrefix("\"") || line.hasPrefix("'") {
            let (key, rest) = try string(line, line: number)
            guard !key.isEmpty else { throw SyntaxError(line: number, message: "a key cannot be empty") }
            return (key, rest)
        }
        let end = line.firstIndex { $0 == "=" || $0 == " " || $0 == "\t" } ?? line.endIndex
        let key = line[..<end]
        guard isBareKey(key) else {
            throw SyntaxError(
                line: number, message: "a key is letters, digits, '-' and '_' (or quoted), not '\(key.prefix(40))'")
        }
        return (String(key), line[end...])
    }

    /// Only blanks or a comment may follow a value or a header.
    private static func expectEnd(_ rest: Substring, line number: Int) throws(SyntaxError) {
        let rest = trimmed(rest)
        guard rest.isEmpty || rest.hasPrefix("#") else {
            throw SyntaxError(line: number, message: "unexpected '\(rest.prefix(40))' at the end of the line")
        }
    }

    /// A basic ("...", with escapes) or literal ('...') string at the start of `text`, and what follows.
    private static func string(_ text: Substring, line number: Int) throws(SyntaxError) -> (String, Substring) {
        guard let quote = text.first, quote == "\"" || quote == "'" else {
            throw SyntaxError(
                line: number, message: "a value is a quoted string (\"Europe/Berlin\"), not '\(text.prefix(40))'")
        }
        var value = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if character == quote { return (value, text[text.index(after: index)...]) }
            if character == "\\", quote == "\"" {
                index = text.index(after: index)
                guard index < text.endIndex else { break }
                switch text[index] {
                case "\"": value.append("\"")
                case "\\": value.append("\\")
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "u", "U":
                    let length = text[index] == "u" ? 4 : 8
                    let digits = text[text.index(after: index)...].prefix(length)
                    guard digits.count == length, let code = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(code) else {
                        throw SyntaxError(line: number, message: "'\\\(text[index])' needs \(length) hex digits of a character")
                    }
                    value.unicodeScalars.append(scalar)
                    index = text.index(index, offsetBy: length)
                default:
                    throw SyntaxError(line: number, message: "unknown escape '\\\(text[index])' in a string")
                }
            } else if character.isASCII, let ascii = character.asciiValue, ascii < 0x20 && ascii != 0x09 || ascii == 0x7F {
                throw SyntaxError(line: number, message: "a control character in a string (write it as an escape)")
            } else {
                value.append(character)
            }
            index = text.index(after: index)
        }
        throw SyntaxError(line: number, message: "a string is missing its closing \(quote)")
    }
}
