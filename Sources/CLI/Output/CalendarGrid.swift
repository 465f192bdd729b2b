/// Days laid out as weeks of seven columns, as gcalcli's `calw` and `calm` draw them: each cell a day's
/// label and its events, one line each, cut with "…" so that the grid fits a width.
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
            let height = max(1, week.map { $0.isShown ? $0.lines.count : 0 }.max() ?? 0)
            for index in 0..<height {
                lines.append(
                    row(
                        week.map { day in
                            Self.fit(day.isShown && index < day.lines.count ? TerminalText.sanitize(day.lines[index]) : "", cell)
                        }))
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

    /// `text` in exactly `width` characters: padded, or cut with "…".
    static func fit(_ text: String, _ width: Int, pad: Bool = true) -> String {
        if text.count <= width { return pad ? text.padding(toLength: width, withPad: " ", startingAt: 0) : text }
        return String(text.prefix(max(0, width - 1))) + "…"
    }
}
