/// Rows of text cells rendered as an aligned table or as TSV.
package struct Table: Sendable {
    package struct Column: Sendable {
        /// The TSV header (a stable machine name, e.g. `calendar_id`).
        package var key: String
        /// The table header (for people).
        package var title: String
        /// May this column be shortened (with "…") so the table fits the width?
        package var shrinkable: Bool
        /// Shrinkable columns with a lower order are shortened first (0 by default): a column people
        /// copy from (a reference) keeps its width longer than a descriptive one.
        package var shrinkOrder: Int
        package init(_ key: String, _ title: String, shrinkable: Bool = true, shrinkOrder: Int = 0) {
            self.key = key
            self.title = title
            self.shrinkable = shrinkable
            self.shrinkOrder = shrinkOrder
        }
    }

    package var columns: [Column]
    package var rows: [[String]]

    package init(columns: [Column], rows: [[String]] = []) {
        self.columns = columns
        self.rows = rows
    }

    /// TSV: a header row of keys, then one line per row; tabs and newlines in cells become spaces.
    package func tsv() -> String {
        let clean: (String) -> String = { TerminalText.sanitize($0) }
        var lines = [columns.map(\.key).joined(separator: "\t")]
        lines += rows.map { $0.map(clean).joined(separator: "\t") }
        return lines.joined(separator: "\n")
    }

    /// An aligned table no wider than `width`, shrinking the widest shrinkable columns first.
    package func aligned(width: Int = 80) -> String {
        let gap = 2
        let single: (String) -> String = { TerminalText.sanitize($0) }
        let cells = rows.map { $0.map(single) }
        var widths = columns.indices.map { index in
            max(columns[index].title.count, cells.map { index < $0.count ? $0[index].count : 0 }.max() ?? 0)
        }
        let minimum = 6
        while widths.reduce(0, +) + gap * (widths.count - 1) > width {
            let shrinkable = widths.indices.filter { columns[$0].shrinkable && widths[$0] > minimum }
            let first = shrinkable.map { columns[$0].shrinkOrder }.min()
            let candidates = shrinkable.filter { columns[$0].shrinkOrder == first }
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { break }
            widths[widest] -= 1
        }
        func fit(_ text: String, _ width: Int) -> String {
            if text.count <= width { return text.padding(toLength: width, withPad: " ", startingAt: 0) }
            return String(text.prefix(width - 1)) + "…"
        }
        func line(_ values: [String]) -> String {
            let padded = widths.indices.map { fit($0 < values.count ? values[$0] : "", widths[$0]) }
            var text = padded.joined(separator: String(repeating: " ", count: gap))
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        var lines = [line(columns.map(\.title))]
        lines.append(line(widths.map { String(repeating: "-", count: $0) }))
        lines += cells.map(line)
        return lines.joined(separator: "\n")
    }
}
