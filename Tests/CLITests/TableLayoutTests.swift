import CLI
import Foundation
import Testing
import TestSupport

@Suite("tables: the terminal's width, references never cut, nothing cut when piped")
struct TableLayoutTests {
    static let table = Table(
        columns: [
            .init("ref", "CALENDAR", shrinkable: false), .init("title", "TITLE"),
            .init("zone", "TIME ZONE", shrinkable: false),
        ],
        rows: [
            ["carol.diaz@contoso.sandbox:Calendar with a long name", "A title that goes on and on and on", "America/Argentina/Buenos_Aires"],
            ["ann:Family", "Short", "Europe/Berlin"],
        ])

    @Test("narrow: the title gives way with an ellipsis; references and zones stay whole", arguments: [40, 60, 80, 100])
    func narrow(width: Int) {
        let text = Self.table.aligned(width: width)
        for row in Self.table.rows {
            #expect(text.contains(row[0]), "\(text)")
            #expect(text.contains(row[2]), "\(text)")
        }
        // 52 + 30 for the whole columns, 4 for the gaps: the title is cut to fit when it can, to 6 when not.
        let lines = text.split(separator: "\n")
        if width >= 52 + 30 + 4 + 6 { #expect(lines.allSatisfy { $0.count <= width }, "\(text)") }
        #expect(text.contains("…"), "the table is 120 wide: the title gives way")
    }

    @Test("a droppable column is left out only when the table is still too wide with the others cut down")
    func droppable() {
        let table = Table(
            columns: [
                .init("ref", "CALENDAR", shrinkable: false), .init("name", "NAME", droppable: true),
                .init("provider", "PROVIDER", shrinkable: false), .init("zone", "TIME ZONE", shrinkable: false),
            ],
            rows: [["carol.diaz@contoso.sandbox:Contoso Holidays", "Contoso Holidays", "microsoft", "Europe/Berlin"]])
        // Whole: 43 + 16 + 9 + 13 and three gaps of 2 = 87. In 70 the name cut to 6 still makes 77; without
        // it, 69.
        let narrow = table.aligned(width: 70)
        #expect(!narrow.contains("NAME"), "\(narrow)")
        #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 70 }, "\(narrow)")
        #expect(narrow.contains("carol.diaz@contoso.sandbox:Contoso Holidays") && narrow.contains("Europe/Berlin"))
        // In 80 the name fits cut to 9: it stays, with an ellipsis.
        let wider = table.aligned(width: 80)
        #expect(wider.contains("NAME") && wider.contains("Contoso …"), "\(wider)")
        #expect(wider.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(wider)")
        // Nothing to fit: everything whole.
        #expect(table.aligned(width: nil).contains("Contoso Holidays  microsoft"))
    }

    @Test("a column empty in every row is left out last, only when the table is still too wide")
    func emptyColumn() {
        // Outlook calendars have no zone of their own: the TIME ZONE column is empty (82 wide with it).
        let table = Table(
            columns: [
                .init("ref", "CALENDAR", shrinkable: false), .init("provider", "PROVIDER", shrinkable: false),
                .init("access", "ACCESS", shrinkable: false), .init("primary", "PRIMARY", shrinkable: false),
                .init("zone", "TIME ZONE", shrinkable: false),
            ],
            rows: [
                ["carol.diaz@contoso.sandbox:Contoso Holidays", "microsoft", "reader", "", ""],
                ["carol.diaz@contoso.sandbox:Calendar", "microsoft", "owner", "*", ""],
            ])
        let narrow = table.aligned(width: 80)
        #expect(!narrow.contains("TIME ZONE") && narrow.contains("PRIMARY"), "\(narrow)")
        #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(narrow)")
        #expect(table.aligned(width: 82).contains("TIME ZONE"))
        #expect(table.aligned(width: nil).contains("TIME ZONE"))
    }

    @Test("no width (a pipe or a file): nothing is cut")
    func unlimited() {
        let text = Self.table.aligned(width: nil)
        #expect(!text.contains("…"))
        #expect(text.contains("A title that goes on and on and on"))
    }

    @Test("--no-header drops the header and its rule; tsv too")
    func noHeader() {
        let text = Self.table.aligned(Table.Layout(width: nil, header: false))
        #expect(text.split(separator: "\n").count == 2)
        #expect(!text.contains("CALENDAR"))
        #expect(Self.table.tsv(header: false).split(separator: "\n").first?.hasPrefix("carol.diaz") == true)
        #expect(Self.table.tsv().split(separator: "\n").first == "ref\ttitle\tzone")
    }

    @Test("colour: a bold header on a terminal only, never under NO_COLOR")
    func colour() {
        func context(terminal: Bool, environment: [String: String]) -> (CommandContext, BufferSink) {
            let out = BufferSink()
            return (CommandContext(stdout: out, stderr: BufferSink(), environment: environment, stdoutIsTerminal: terminal), out)
        }
        for (terminal, environment, bold) in [
            (true, [String: String](), true), (true, ["NO_COLOR": "1"], false), (false, [:], false), (true, ["NO_COLOR": ""], true),
        ] {
            let (ctx, out) = context(terminal: terminal, environment: environment)
            ctx.printTable(Self.table, format: .table)
            #expect(out.text.contains("\u{1B}[1m") == bold, "\(terminal) \(environment)")
        }
    }

    @Test("the width: the terminal's, else COLUMNS, else 80 on a terminal; none for a pipe whatever COLUMNS says")
    func width() {
        func width(terminal: Bool, columns: Int?, environment: [String: String]) -> Int? {
            CommandContext(
                stdout: BufferSink(), stderr: BufferSink(), environment: environment, stdoutIsTerminal: terminal,
                stdoutColumns: columns
            ).tableWidth
        }
        #expect(width(terminal: true, columns: 200, environment: ["COLUMNS": "40"]) == 200)
        #expect(width(terminal: true, columns: nil, environment: ["COLUMNS": "132"]) == 132)
        #expect(width(terminal: true, columns: nil, environment: [:]) == 80)
        #expect(width(terminal: false, columns: nil, environment: ["COLUMNS": "40"]) == nil)
    }
}

@Suite("listings through the binary: a 200-column terminal, a narrow one, a pipe")
struct ListingWidthEndToEndTests {
    static let refs = CalendarsCommandTests.expectedRefs

    @Test("calendars: under a pseudo-terminal of 200 and of 50 columns no reference or zone is cut; piped with COLUMNS=40 nothing is")
    func calendars() async throws {
        try await SandboxHome.with { home in
            let wide = try await home.run(["calendars"], environment: ["TERM": "xterm-256color", "NO_COLOR": ""], stdoutTerminalColumns: 200)
            #expect(wide.status == 0, "\(wide.stderr)")
            #expect(!wide.stdout.contains("…"), "\(wide.stdout)")
            for ref in Self.refs { #expect(wide.stdout.contains(ref + " "), "\(ref): \(wide.stdout)") }
            #expect(wide.stdout.split(separator: "\n").allSatisfy { $0.count <= 200 })
            #expect(wide.stdout.contains("\u{1B}[1m"), "a terminal gets a bold header")

            let narrow = try await home.run(["calendars"], environment: ["NO_COLOR": "1"], stdoutTerminalColumns: 50)
            #expect(narrow.status == 0)
            #expect(!narrow.stdout.contains("\u{1B}"), "NO_COLOR: no escapes")
            for ref in Self.refs { #expect(narrow.stdout.contains(ref), "\(ref): \(narrow.stdout)") }
            #expect(narrow.stdout.contains("Europe/Berlin"))

            let piped = try await home.run(["calendars"], environment: ["COLUMNS": "40"])
            #expect(piped.status == 0)
            #expect(!piped.stdout.contains("…") && !piped.stdout.contains("\u{1B}"), "\(piped.stdout)")
            for ref in Self.refs { #expect(piped.stdout.contains(ref)) }

            // The same order every run: account, then calendar name.
            let rows = piped.stdout.split(separator: "\n").dropFirst(2)
            let again = try await home.run(["calendars"], environment: ["COLUMNS": "40"])
            #expect(again.stdout == piped.stdout)
            #expect(rows.count == Self.refs.count)

            let bare = try await home.run(["calendars", "--no-header"])
            #expect(bare.stdout.split(separator: "\n").count == Self.refs.count)
            #expect(!bare.stdout.contains("CALENDAR"))
            let tsv = try await home.run(["calendars", "--format", "tsv", "--no-header"])
            #expect(tsv.stdout.split(separator: "\n").count == Self.refs.count)
        }
    }

    @Test("events on a narrow terminal: titles give way, dates and times stay; piped: whole titles")
    func events() async throws {
        try await SandboxHome.with { home in
            let piped = try await home.run(["events", "carol:Calendar", "--from", "2020-01-01", "--to", "2030-01-01"], environment: ["COLUMNS": "30"])
            #expect(piped.status == 0, "\(piped.stderr)")
            #expect(!piped.stdout.contains("…"), "\(piped.stdout)")
            let narrow = try await home.run(
                ["events", "carol:Calendar", "--from", "2020-01-01", "--to", "2030-01-01"], stdoutTerminalColumns: 40)
            #expect(narrow.status == 0)
            for line in narrow.stdout.split(separator: "\n").dropFirst() where line.contains(":") && !line.hasPrefix("DATE") {
                // `Mon 2026-11-30  09:00-09:30  ...`: the date and time cells are whole.
                #expect(line.range(of: #"^\w{3} \d{4}-\d{2}-\d{2}  (\d{2}:\d{2}-\d{2}:\d{2}|all day)"#, options: .regularExpression) != nil, "\(line)")
            }
        }
    }
}
