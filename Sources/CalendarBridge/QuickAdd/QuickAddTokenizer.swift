/// One token of quick-add text: a word, a run of digits, or one punctuation character.
struct QuickAddToken: Sendable {
    enum Kind: UInt8, Sendable { case word, number, symbol }

    var kind: Kind
    /// Lower-cased text; dashes of every kind are `-`.
    var text: String
    /// Where the token is in the original text (unicode-scalar offsets).
    var start: Int
    var end: Int
    /// Whitespace right before the token (or the token is first).
    var spaceBefore: Bool
    /// The value of a number token, -1 when it has more than 9 digits or is not a number.
    var value: Int
    var digits: Int
}

/// Splits text into tokens by hand (no regular expressions: the parser must handle 50,000 lines a second).
///
/// Letters and any other non-ASCII, non-space characters form words (with inner apostrophes and
/// underscores: "o'clock", "Buenos_Aires"); ASCII digits form numbers; every ASCII punctuation character
/// is its own token; a digit next to a letter ends the token ("3pm" is `3` `pm`).
enum QuickAddTokenizer {
    static func tokenize(_ scalars: [Unicode.Scalar]) -> [QuickAddToken] {
        var tokens: [QuickAddToken] = []
        tokens.reserveCapacity(scalars.count / 3 + 1)
        var index = 0
        var space = true
        let count = scalars.count
        while index < count {
            let scalar = scalars[index]
            let value = scalar.value
            if isSpace(scalar) {
                space = true
                index += 1
                continue
            }
            if value >= 0x30 && value <= 0x39 {
                let start = index
                var number = 0
                while index < count, scalars[index].value >= 0x30, scalars[index].value <= 0x39 {
                    if index - start < 9 { number = number * 10 + Int(scalars[index].value - 0x30) }
                    index += 1
                }
                let digits = index - start
                let text = asciiText(scalars, start, index)
                tokens.append(
                    QuickAddToken(
                        kind: .number, text: text, start: start, end: index, spaceBefore: space,
                        value: digits <= 9 ? number : -1, digits: digits))
                space = false
                continue
            }
            if let symbol = symbolText(scalar) {
                tokens.append(
                    QuickAddToken(
                        kind: .symbol, text: symbol, start: index, end: index + 1, spaceBefore: space, value: -1, digits: 0))
                index += 1
                space = false
                continue
            }
            // A word.
            let start = index
            var ascii = true
            while index < count {
                let c = scalars[index]
                if isWordScalar(c) {
                    if c.value >= 0x80 { ascii = false }
                    index += 1
                } else if c == "'" || c == "\u{2019}", index + 1 < count, index > start,
                    isWordScalar(scalars[index + 1])
                {
                    ascii = ascii && c == "'"
                    index += 1
                } else {
                    break
                }
            }
            if index == start {
                // Cannot happen with the classes above; never loop without consuming input.
                index += 1
                continue
            }
            let text: String
            if ascii {
                text = asciiText(scalars, start, index)
            } else {
                var original = ""
                original.unicodeScalars.append(contentsOf: scalars[start..<index])
                text = original.lowercased()
            }
            tokens.append(
                QuickAddToken(
                    kind: .word, text: text, start: start, end: index, spaceBefore: space, value: -1, digits: 0))
            space = false
        }
        return tokens
    }

    /// The lower-cased text of ASCII scalars `start..<end`, written straight into the string's storage: the
    /// generic `unicodeScalars.append(contentsOf:)` of a lazy map cost more than the rest of the parse.
    @inline(__always)
    static func asciiText(_ scalars: [Unicode.Scalar], _ start: Int, _ end: Int) -> String {
        String(unsafeUninitializedCapacity: end - start) { buffer in
            for k in start..<end {
                let v = scalars[k].value
                buffer[k - start] = UInt8(truncatingIfNeeded: v >= 0x41 && v <= 0x5A ? v + 32 : v)
            }
            return end - start
        }
    }

    @inline(__always)
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        // ASCII control characters count as spaces, so that every scalar belongs to some class.
        if v < 0x80 { return v <= 0x20 || v == 0x7F }
        return scalar.properties.isWhitespace || (v >= 0x80 && v <= 0x9F)
    }

    /// Letters, `_`, and any non-ASCII scalar that is neither a space nor a dash.
    @inline(__always)
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x80 {
            return (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x5F
        }
        return symbolText(scalar) == nil && !isSpace(scalar)
    }

    /// The token text for a punctuation scalar; nil when the scalar is not punctuation.
    @inline(__always)
    static func symbolText(_ scalar: Unicode.Scalar) -> String? {
        let v = scalar.value
        if v < 0x80 {
            if (v >= 0x21 && v <= 0x2F) || (v >= 0x3A && v <= 0x40) || (v >= 0x5B && v <= 0x60 && v != 0x5F)
                || (v >= 0x7B && v <= 0x7E)
            {
                return String(scalar)
            }
            return nil
        }
        switch v {
        case 0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2212: return "-"
        case 0x2018, 0x2019, 0x201C, 0x201D, 0x00AB, 0x00BB, 0x2026: return String(scalar)
        default: return nil
        }
    }
}
