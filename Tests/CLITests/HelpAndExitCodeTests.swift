import CLI
import Foundation
import Testing
import TestSupport

@Suite("help: wrapped to the width; the bare program, help help and a leading --verbose")
struct HelpWidthTests {
    /// Every command's words, and the overview.
    static let pages: [[String]] = [[]] + CommandRegistry.all.map { $0.path } + [["accounts"], ["sync"], ["help"]]

    @Test("every command's --help at 40, 80 and 200 columns: no line wider than the width", arguments: [40, 80, 200])
    func widths(width: Int) async throws {
        for page in Self.pages {
            let arguments = page == ["help"] ? ["help", "help"] : page + ["--help"]
            let result = try await CalbridgeBinary.run(arguments, environment: ["COLUMNS": "\(width)"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(!result.stdout.isEmpty)
            for line in result.stdout.split(separator: "\n") {
                #expect(line.count <= width, "\(arguments) at \(width): '\(line)' is \(line.count) wide")
            }
        }
    }

    @Test("on a terminal help follows the terminal's width, and options line up in one column")
    func terminal() async throws {
        let result = try await CalbridgeBinary.run(["sandbox", "--help"], stdoutTerminalColumns: 100)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 100 }, "\(result.stdout)")
        // The descriptions of --port and --seed start in the same column, well left of 90.
        let starts = lines.filter { $0.hasPrefix("  --port") || $0.hasPrefix("  --seed") }.compactMap { line in
            line.range(of: #"  [A-Z][a-z]"#, options: .regularExpression).map { line.distance(from: line.startIndex, to: $0.lowerBound) }
        }
        #expect(starts.count == 2 && Set(starts).count == 1 && starts[0] < 40, "\(starts)")
        // The long list of choices is on a line of its own.
        let refuse = try #require(lines.first { $0.hasPrefix("  --refuse-refresh") })
        #expect(!refuse.contains("Refuse every"), "\(refuse)")
    }

    @Test("'calbridge' alone prints the overview and exits 2; help help and --verbose COMMAND work")
    func entryPoints() async throws {
        let bare = try await CalbridgeBinary.run([])
        #expect(bare.status == 2)
        #expect(bare.stderr.contains("Commands:"), "\(bare.stderr)")
        let helpHelp = try await CalbridgeBinary.run(["help", "help"])
        #expect(helpHelp.status == 0, "\(helpHelp.stderr)")
        #expect(helpHelp.stdout.contains("help [COMMAND...]"))
        let verbose = try await CalbridgeBinary.run(["--verbose", "version"])
        #expect(verbose.status == 0, "\(verbose.stderr)")
        #expect(verbose.stdout.contains("calbridge"))
    }
}

@Suite("the exit-code table: each command's error paths end with the code documented for them")
struct ExitCodeTableTests {
    /// One error path: the command line, the code calbridge documents for it, and words its message must have.
    struct Case: Sendable, CustomStringConvertible {
        var arguments: [String]
        var code: Int32
        var says: String
        var description: String { arguments.joined(separator: " ") }
    }

    /// Error paths that need no account.
    static let withoutAccounts: [Case] = [
        Case(arguments: [], code: 2, says: "Commands:"),
        Case(arguments: ["nonsense"], code: 2, says: "unknown command"),
        Case(arguments: ["--bogus"], code: 2, says: "unknown option"),
        Case(arguments: ["help", "nonsense"], code: 2, says: "no help"),
        Case(arguments: ["events"], code: 2, says: "missing argument CALENDAR_REF"),
        Case(arguments: ["events", "x:y", "--format", "xml"], code: 2, says: "--format takes one of"),
        Case(arguments: ["events", "x:y", "--tz", "Mars/Olympus"], code: 2, says: "--tz takes"),
        Case(arguments: ["calendars", "--format", "xml"], code: 2, says: "--format"),
        Case(arguments: ["whoami", "--format", "yaml"], code: 2, says: "--format"),
        Case(arguments: ["copy", "a:b"], code: 2, says: "missing argument"),
        Case(arguments: ["accounts", "add", "nowhere"], code: 2, says: "unknown provider"),
        Case(arguments: ["accounts", "add", "google", "--name", "a:b"], code: 2, says: "':'"),
        Case(arguments: ["accounts", "add", "google", "--name", "a\u{1B}b"], code: 2, says: "control characters"),
        Case(arguments: ["accounts", "remove", "nobody"], code: 2, says: "nobody"),
        Case(arguments: ["accounts"], code: 2, says: "needs a subcommand"),
        Case(arguments: ["org", "quota", "show"], code: 2, says: "unknown command 'calbridge org quota show'; choose one of: set, remove"),
        Case(arguments: ["org", "quota"], code: 2, says: "'calbridge org quota' needs a subcommand; choose one of: set, remove"),
        Case(arguments: ["sync", "status", "nope"], code: 2, says: "no sync pair named 'nope'"),
        Case(arguments: ["sync", "--interval", "5m"], code: 2, says: "--interval goes with --watch"),
        Case(arguments: ["sync", "conflicts", "restore", "abc"], code: 2, says: "is not a conflict id"),
        Case(arguments: ["timezones", "Nowhere Standard Time"], code: 2, says: "Nowhere"),
        Case(arguments: ["sandbox", "--fault-rate", "2"], code: 2, says: "--fault-rate takes"),
    ]

    @Test("without accounts", arguments: withoutAccounts)
    func withoutAccount(_ path: Case) async throws {
        let home = try TemporaryDirectory(prefix: "calbridge-exit")
        defer { home.remove() }
        // A home calbridge creates itself (0700), as a first run would.
        let result = try await CalbridgeBinary.run(
            path.arguments, environment: ["CALBRIDGE_HOME": home.url.appendingPathComponent("home").path])
        #expect(result.status == path.code, "\(path): \(result.stderr)")
        #expect(result.stderr.contains(path.says), "\(path): \(result.stderr)")
        try expectDocumented(path)
    }

    /// Error paths against the sandbox's two accounts (ann on Google, carol on Outlook).
    static let withAccounts: [Case] = [
        Case(arguments: ["events", "nobody:Calendar"], code: 2, says: "no account named 'nobody'"),
        Case(arguments: ["events", "carol:No such calendar"], code: 2, says: "No such calendar"),
        Case(arguments: ["copy", "carol:Calendar", "carol:Calendar"], code: 2, says: "the same calendar"),
        Case(arguments: ["add", "carol:Calendar", "--title", ""], code: 2, says: "--title is empty"),
        Case(arguments: ["add", "carol:Calendar"], code: 2, says: "missing --title"),
        Case(arguments: ["add", "carol:Calendar", "--title", "x", "--attendees", "a@b.example, not an address"], code: 2, says: "not an e-mail address"),
        Case(arguments: ["whoami"], code: 2, says: "--account"),
        Case(arguments: ["accounts", "add", "microsoft", "--name", "ann"], code: 2, says: "--replace"),
        Case(arguments: ["sync", "add", "p", "--a", "carol:Calendar"], code: 2, says: "both sides"),
    ]

    @Test("with the sandbox's accounts", arguments: withAccounts)
    func withAccount(_ path: Case) async throws {
        try await SandboxHome.with { home in
            let result = try await home.run(path.arguments)
            #expect(result.status == path.code, "\(path): \(result.stderr)")
            #expect(result.stderr.contains(path.says), "\(path): \(result.stderr)")
            try expectDocumented(path)
        }
    }

    @Test("a revoked grant is 3 in every command that reaches the provider, sync included (outcome needsSignIn)")
    func revoked() async throws {
        try await SandboxHome.with { home in
            let add = try await home.run(["sync", "add", "p", "--a", "carol:Calendar", "--b", "ann:Family"])
            #expect(add.status == 0, "\(add.stderr)")
            await home.sandbox.tokens.revokeAll(user: home.user(.microsoft), provider: .microsoft)
            for arguments in [
                ["events", "carol:Calendar"], ["copy", "carol:Calendar", "ann:Family"], ["whoami", "--account", "carol"],
                ["sync"], ["sync", "p"],
            ] {
                let result = try await home.run(arguments)
                #expect(result.status == 3, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("carol"), "\(arguments): \(result.stderr)")
            }
            let json = try await home.run(["sync", "--format", "json"])
            #expect(json.status == 3)
            let entries = try JSONOutput.object(json.stdout)["pairs"] as? [[String: Any]] ?? []
            #expect(entries.first?["outcome"] as? String == "needsSignIn", "\(json.stdout)")
            #expect(entries.first?["aName"] as? String == "carol:Calendar")
            let status = try await home.run(["sync", "status"])
            #expect(status.stdout.contains("needsSignIn"), "\(status.stdout)")
            #expect(status.stdout.contains("p: carol:Calendar -> ann:Family"), "\(status.stdout)")
        }
    }

    /// The code is one calbridge documents: in the command's own help, with its meaning.
    func expectDocumented(_ path: Case) throws {
        let code = try #require(ExitCode(rawValue: path.code))
        let spec = CommandSuite.calbridge.match(path.arguments).map { $0.command.spec }
        let help = spec.map { HelpText.command($0, width: 200) } ?? HelpText.general(CommandRegistry.all, width: 200)
        #expect(help.contains("\(code.rawValue)  \(code.meaning)"), "\(path): the help does not document exit \(code.rawValue)")
    }
}

@Suite("wrapping help text")
struct TextWrapTests {
    @Test("paragraphs join across a colon that ends a line mid-sentence; 'Examples:' keeps its indented lines")
    func block() {
        let text = """
            Serves everything on two ports, until SIGINT or SIGTERM:
            Microsoft's descriptor points at the first.
            Examples:
              calbridge sandbox --port 8080
            """
        let lines = TextWrap.block(text, width: 200)
        #expect(lines == [
            "Serves everything on two ports, until SIGINT or SIGTERM: Microsoft's descriptor points at the first.",
            "Examples:",
            "  calbridge sandbox --port 8080",
        ])
    }

    @Test("no line is wider than the width, a word longer than a line included", arguments: [10, 40, 80])
    func width(width: Int) {
        let text = "a " + String(repeating: "q", count: 150) + " https://example.com/" + String(repeating: "y", count: 90) + " end"
        let lines = TextWrap.lines(text, width: width, firstIndent: "  ", indent: "    ")
        #expect(lines.allSatisfy { $0.count <= width }, "\(lines)")
        #expect(lines.joined().filter { $0 == "q" }.count == 150)
    }
}
