/// Days laid out as weeks of seven columns, as gcalcli's `calw` and `calm` draw them: each cell a day's
/// label and its events, each wrapped at spaces onto up to `linesPerEvent` lines (the last cut with "…")
/// so that the grid fits a width.
struct CalendarGrid: Sendable {
    /// One cell.
    struct Day: Sendable {
        /// The day's label, longest first: the first that fits the cell is shown (`Mon 30 Nov`, `Mon 30`, `30`).
        var labels: [String]
        /// One line each (text from servers: sanitised here).
        var lines: [String]
        var isToday: Bool
        /// False for a day of another month in a month's grid: an empty cell.
        var isShown: Bool = true
    }

    /// The line above the grid.
    var title: String
    /// Weekday names as a row of their own above the weeks (the month grid); nil when each day's label
    /// says its weekday (the week grid).
    var weekdayRow: [String]?
    /// Rows of seven days.
    var weeks: [[Day]]
    /// The most lines one event takes in a cell: a narrow terminal shows "09:00" and " Design review"
    /// instead of "09:00 Des…" (continuations are indented one space, so the next event's start stands out).
    var linesPerEvent = 1

    /// The narrowest a cell gets: a day number and the today marker.
    static let minimumCellWidth = 3
    /// Put before today's label (and shown in reverse video on a colour terminal).
    static let todayMarker = "*"

    /// The cell width that fills `width` with seven cells and their eight borders.
    static func cellWidth(for width: Int) -> Int { max(minimumCellWidth, (width - 8) / 7) }

    /// The grid's lines, none wider than `width` (unless even the narrowest cells do not fit).
    /// - Parameter colour: today's label in reverse video (escape sequences, not counted in the width).
    func lines(width: Int, colour: Bool = false) -> [String] {
        let cell = Self.cellWidth(for: width)
        let rule = "+" + Array(repeating: String(repeating: "-", count: cell) + "+", count: 7).joined()
        var lines = [Self.fit(TerminalText.sanitize(title), rule.count, pad: false), rule]
        if let weekdayRow {
            lines.append(row(weekdayRow.map { Self.fit($0, cell) }))
            lines.append(rule)
        }
        for week in weeks {
            lines.append(row(week.map { label($0, width: cell, colour: colour) }))
            if weekdayRow == nil { lines.append(rule) }
            let wrapped = week.map { day in
                day.isShown ? day.lines.flatMap { Self.wrap(TerminalText.sanitize($0), cell, lines: linesPerEvent) } : []
            }
            for index in 0..<max(1, wrapped.map(\.count).max() ?? 0) {
                lines.append(row(wrapped.map { Self.fit(index < $0.count ? $0[index] : "", cell) }))
            }
            lines.append(rule)
        }
        return lines
    }

    private func row(_ cells: [String]) -> String { "|" + cells.joined(separator: "|") + "|" }

    /// The longest label that fits, today's after the marker; reverse video around today's on a colour terminal.
    private func label(_ day: Day, width: Int, colour: Bool) -> String {
        guard day.isShown else { return Self.fit("", width) }
        let marker = day.isToday ? Self.todayMarker : ""
        let text = day.labels.map { marker + $0 }.first { $0.count <= width } ?? marker + (day.labels.last ?? "")
        let fitted = Self.fit(text, width)
        return colour && day.isToday ? "\u{1B}[7m" + fitted + "\u{1B}[0m" : fitted
    }

    /// `text` on at most `lines` lines of `width`: broken at the last space that fits (inside a word too long
    /// for a line), continuations indented one space; what the last line cannot hold is left for `fit` to cut.
    static func wrap(_ text: String, _ width: Int, lines limit: Int) -> [String] {
        // Below 8 columns a continuation would hold a word's first letters only.
        guard limit > 1, width >= 8 else { return [text] }
        var lines: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            let indent = lines.isEmpty ? "" : " "
            let room = width - indent.count
            if rest.count <= room || lines.count == limit - 1 {
                lines.append(indent + rest)
                break
            }
            let window = rest.prefix(room + 1)
            // The line ends before the run of spaces that holds the last break.
            var end = window.lastIndex(of: " ") ?? rest.startIndex
            while end > rest.startIndex, rest[rest.index(before: end)] == " " { end = rest.index(before: end) }
            if end > rest.startIndex {
                lines.append(indent + rest[..<end])
                rest = rest[end...].drop { $0 == " " }
            } else {
                lines.append(indent + rest.prefix(room))
                rest = rest.dropFirst(room)
            }
        }
        // An empty title still takes its line.
        return lines.isEmpty ? [text] : lines
    }

    /// `text` in exactly `width` characters: padded, or cut with "…".
    static func fit(_ text: String, _ width: Int, pad: Bool = true) -> String {
        if text.count <= width { return pad ? text.padding(toLength: width, withPad: " ", startingAt: 0) : text }
        return String(text.prefix(max(0, width - 1))) + "…"
    }
}
