import Foundation

/// Wrapping prose to a width: help text, discussions, the options' descriptions.
package enum TextWrap {
    /// `text` in lines of at most `width` characters, the first starting with `firstIndent` and the rest
    /// with `indent`. Words break at spaces; a word longer than a line (a URL, a long example) is cut
    /// into pieces, so no line is ever wider than `width`.
    package static func lines(_ text: String, width: Int, firstIndent: String = "", indent: String = "") -> [String] {
        var lines: [String] = []
        var current = firstIndent
        var currentHasWord = false
        func room(_ prefix: String) -> Int { max(1, width - prefix.count) }
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            let separator = currentHasWord ? 1 : 0
            if current.count + separator + word.count <= width {
                current += (currentHasWord ? " " : "") + word
                currentHasWord = true
                continue
            }
            if currentHasWord {
                lines.append(current)
                current = indent
                currentHasWord = false
            }
            var rest = Substring(word)
            while current.count + rest.count > width {
                let take = room(current)
                lines.append(current + rest.prefix(take))
                rest = rest.dropFirst(take)
                current = indent
            }
            if !rest.isEmpty {
                current += rest
                currentHasWord = true
            }
        }
        if currentHasWord || lines.isEmpty { lines.append(currentHasWord ? current : "") }
        return lines
    }

    /// A block of prose as written in a command's discussion, wrapped: lines that start at the margin
    /// join into paragraphs (a line ending in ':' before an indented or empty line, `Examples:`, is a
    /// line of its own), indented lines (examples, lists) keep their indent and wrap with a deeper one,
    /// and empty lines stay.
    package static func block(_ text: String, width: Int) -> [String] {
        var out: [String] = []
        var paragraph: [String] = []
        func flush() {
            guard !paragraph.isEmpty else { return }
            out += lines(paragraph.joined(separator: " "), width: width)
            paragraph = []
        }
        let all = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in all.enumerated() {
            let next = index + 1 < all.count ? all[index + 1] : ""
            let trimmed = line.drop { $0 == " " }
            if trimmed.isEmpty {
                flush()
                out.append("")
            } else if trimmed.count < line.count {
                flush()
                let indent = String(repeating: " ", count: line.count - trimmed.count)
                out += lines(String(trimmed), width: width, firstIndent: indent, indent: indent + "    ")
            } else if line.hasSuffix(":"), next.isEmpty || next.hasPrefix(" ") {
                // A heading of what follows (`Examples:`): a line of its own.
                flush()
                out += lines(line, width: width)
            } else {
                paragraph.append(line)
            }
        }
        flush()
        return out
    }

    /// Two columns: each label, then its text wrapped beside it, starting in one column for all rows;
    /// a label too long for that column (a long list of choices) gets a line of its own and its text
    /// starts below it, in the column.
    package static func columns(_ rows: [(label: String, text: String)], width: Int, indent: String = "  ") -> [String] {
        let widest = rows.map(\.label.count).max() ?? 0
        // The text column: right of the longest label that fits, at most a third of the width.
        let cap = max(8, min(30, width / 3))
        let labelWidth = min(widest, cap)
        let column = indent.count + labelWidth + 2
        let narrow = width - column < 24
        let textIndent = String(repeating: " ", count: narrow ? indent.count + 4 : column)
        var out: [String] = []
        for row in rows {
            if narrow || row.label.count > labelWidth {
                out += lines(row.label, width: width, firstIndent: indent, indent: indent + "  ")
                if !row.text.isEmpty { out += lines(row.text, width: width, firstIndent: textIndent, indent: textIndent) }
            } else {
                let first = indent + row.label.padding(toLength: labelWidth + 2, withPad: " ", startingAt: 0)
                out += lines(row.text, width: width, firstIndent: first, indent: textIndent)
            }
        }
        return out
    }
}
