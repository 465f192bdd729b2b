import Foundation

/// What output looks like where it goes: a terminal's width and colour, or nothing cut for a pipe or file.
extension CommandContext {
    /// The width tables fit on stdout: the terminal's (`TIOCGWINSZ`, else `COLUMNS`, else 80) when stdout
    /// is a terminal; nil (no limit) for a pipe or a file, whatever `COLUMNS` says.
    package var tableWidth: Int? {
        guard stdoutIsTerminal else { return nil }
        return stdoutColumns ?? columnsVariable ?? 80
    }

    /// The width help text wraps at: the terminal's, else `COLUMNS`, else 80 (help is prose, wrapped
    /// for reading even when piped into a pager).
    package var helpWidth: Int {
        (stdoutIsTerminal ? stdoutColumns : nil) ?? columnsVariable ?? 80
    }

    /// The width the week and month grids fill: the terminal's, else `COLUMNS`, else 80. A grid cannot
    /// be left uncut as a table can, so a pipe gets a fixed width too (`COLUMNS=200` for a wider one).
    package var gridWidth: Int {
        (stdoutIsTerminal ? stdoutColumns : nil) ?? columnsVariable ?? 80
    }

    /// Colour (bold headers) only on a terminal, and never when `NO_COLOR` is set to anything but "".
    package var usesColour: Bool {
        stdoutIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// Prints `table` as `format` says (`table` or `tsv`; a JSON caller prints its own document).
    /// The cells are neutralised by `Table` itself, so the header's colour escapes survive.
    package func printTable(_ table: Table, format: OutputFormat, header: Bool = true) {
        if !header, table.rows.isEmpty { return }
        if format == .tsv {
            stdout.write(table.tsv(header: header) + "\n")
        } else {
            stdout.write(table.aligned(Table.Layout(width: tableWidth, header: header, colour: usesColour)) + "\n")
        }
    }

    /// `COLUMNS` when it is a sensible width.
    private var columnsVariable: Int? {
        guard let text = environment["COLUMNS"], let value = Int(text.trimmingCharacters(in: .whitespaces)),
            (10...10_000).contains(value)
        else { return nil }
        return value
    }
}
