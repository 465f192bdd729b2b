/// Rows of text cells rendered as an aligned table or as TSV: the one table renderer every command uses
/// (through `CommandContext.printTable`, which picks the width, header and colour from the terminal).
package struct Table: Sendable {
    package struct Column: Sendable {
        /// The TSV header (a stable machine name, e.g. `calendar_id`).
        package var key: String
        /// The table header (for people).
        package var title: String
        /// May this column be shortened (with "…") so the table fits the width? References, ids and
        /// zones are typed into the next command, so they are never shortened: declare them `false`.
        package var shrinkable: Bool
        /// Shrinkable columns with a lower order are shortened first (0 by default): a descriptive column
        /// that matters more (a title) keeps its width longer than one that matters less.
        package var shrinkOrder: Int
        /// May this column be left out when the table is still too wide with every shrinkable column cut
        /// down? Only for a column whose text another column repeats (a calendar's name is in its reference).
        package var droppable: Bool
        package init(_ key: String, _ title: String, shrinkable: Bool = true, shrinkOrder: Int = 0, droppable: Bool = false) {
            self.key = key
            self.title = title
            self.shrinkable = shrinkable
            self.shrinkOrder = shrinkOrder
            self.droppable = droppable
        }
    }

    /// How an aligned table is laid out.
    package struct Layout: Sendable {
        /// The widest a line may be, or nil for no limit (output to a pipe or a file is never cut).
        package var width: Int?
        /// Print the header row and its rule.
        package var header: Bool
        /// Bold header (a terminal only, never under `NO_COLOR`).
        package var colour: Bool
        package init(width: Int? = nil, header: Bool = true, colour: Bool = false) {
            self.width = width
            self.header = header
            self.colour = colour
        }
    }

    package var columns: [Column]
    package var rows: [[String]]

    package init(columns: [Column], rows: [[String]] = []) {
        self.columns = columns
        self.rows = rows
    }

    /// TSV: a header row of keys (unless `header` is false), then one line per row; tabs and newlines
    /// in cells become spaces.
    package func tsv(header: Bool = true) -> String {
        let clean: (String) -> String = { TerminalText.sanitize($0) }
        var lines = header ? [columns.map(\.key).joined(separator: "\t")] : []
        lines += rows.map { $0.map(clean).joined(separator: "\t") }
        return lines.joined(separator: "\n")
    }

    /// An aligned table no wider than `width` when it can be: shrinkable columns (titles, locations) are
    /// cut with "…", lowest `shrinkOrder` and widest first, down to a few characters; then droppable columns
    /// are left out, then columns empty in every row; the others are never cut, even when the table is then
    /// wider than `width`.
    package func aligned(width: Int? = nil) -> String { aligned(Layout(width: width)) }

    /// The aligned table laid out as `layout` says.
    package func aligned(_ layout: Layout) -> String {
        let gap = 2
        let cells = rows.map { $0.map { TerminalText.sanitize($0) } }
        var widths = columns.indices.map { index in
            max(layout.header ? columns[index].title.count : 0, cells.map { index < $0.count ? $0[index].count : 0 }.max() ?? 0)
        }
        var shown = Array(columns.indices)
        if let width = layout.width {
            let minimum = 6
            func total() -> Int { shown.map { widths[$0] }.reduce(0, +) + gap * (shown.count - 1) }
            while total() > width {
                let shrinkable = shown.filter { columns[$0].shrinkable && widths[$0] > minimum }
                let first = shrinkable.map { columns[$0].shrinkOrder }.min()
                let candidates = shrinkable.filter { columns[$0].shrinkOrder == first }
                guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { break }
                widths[widest] -= 1
            }
            while total() > width, let dropped = shown.firstIndex(where: { columns[$0].droppable }) {
                shown.remove(at: dropped)
            }
            // A column empty in every row says nothing but its title: the last to make room.
            while total() > width, let empty = shown.last(where: { index in cells.allSatisfy { index >= $0.count || $0[index].isEmpty } }) {
                shown.removeAll { $0 == empty }
            }
        }
        func fit(_ text: String, _ width: Int) -> String {
            if text.count <= width { return text.padding(toLength: width, withPad: " ", startingAt: 0) }
            return String(text.prefix(width - 1)) + "…"
        }
        func line(_ values: [String]) -> String {
            let padded = shown.map { fit($0 < values.count ? values[$0] : "", widths[$0]) }
            var text = padded.joined(separator: String(repeating: " ", count: gap))
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        var lines: [String] = []
        if layout.header {
            let titles = line(columns.map(\.title))
            lines.append(layout.colour ? "\u{1B}[1m" + titles + "\u{1B}[0m" : titles)
            lines.append(line(columns.indices.map { String(repeating: "-", count: widths[$0]) }))
        }
        lines += cells.map(line)
        return lines.joined(separator: "\n")
    }
}
