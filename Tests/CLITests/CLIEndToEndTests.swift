import Testing
import TestSupport

@Suite("calbridge binary: version, help, usage errors")
struct CLIEndToEndTests {
    @Test("--version names calbridge, libcurl and the CLDR time-zone table")
    func version() async throws {
        let result = try await CalbridgeBinary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("calbridge "))
        #expect(result.stdout.contains("libcurl 7."))
        #expect(result.stdout.contains("\ntime-zone table: CLDR 2021a (7e11800)\n"))
    }

    @Test("--help lists the commands and every exit code")
    func help() async throws {
        let result = try await CalbridgeBinary.run(["--help"])
        #expect(result.status == 0)
        for code in ["0  success", "1  a runtime", "2  a usage", "3  sign-in needed again", "4  partly done"] {
            #expect(result.stdout.contains(code), "missing exit code line '\(code)'")
        }
    }

    @Test("unknown option: exit 2, one line on stderr naming it")
    func unknownOption() async throws {
        let result = try await CalbridgeBinary.run(["version", "--frobnicate"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(result.stderr.contains("'--frobnicate'"))
    }

    @Test("unknown command: exit 2 with a suggestion")
    func unknownCommand() async throws {
        let result = try await CalbridgeBinary.run(["verison"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("did you mean 'version'"))
    }

    @Test("help COMMAND prints that command's usage")
    func helpCommand() async throws {
        let result = try await CalbridgeBinary.run(["help", "version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Usage: calbridge version"))
    }

    @Test("a command group's --help lists its subcommands; the bare group is a usage error naming them")
    func groupHelp() async throws {
        let help = try await CalbridgeBinary.run(["accounts", "--help"])
        #expect(help.status == 0)
        for name in ["accounts add", "accounts list", "accounts remove"] { #expect(help.stdout.contains(name)) }
        let bare = try await CalbridgeBinary.run(["accounts"])
        #expect(bare.status == 2)
        #expect(bare.stderr.contains("add, list, remove"))
    }

    @Test("the benchmarks are calbridge-bench's commands, not the user's: calbridge --help lists none")
    func benchmarksApart() async throws {
        let user = try await CalbridgeBinary.run(["--help"])
        #expect(user.status == 0)
        #expect(!user.stdout.contains("bench"))
        let moved = try await CalbridgeBinary.run(["bench", "copy"])
        #expect(moved.status == 2)
        let bench = try await CalbridgeBinary.run(["--help"], executable: "calbridge-bench")
        #expect(bench.status == 0)
        #expect(bench.stdout.hasPrefix("calbridge-bench: "))
        for name in ["http", "timezones", "sandbox", "calendars", "copy", "quickadd"] {
            #expect(bench.stdout.contains("\n  \(name) "), "calbridge-bench --help lists no '\(name)'")
        }
        let typo = try await CalbridgeBinary.run(["copy", "--evnets", "5"], executable: "calbridge-bench")
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("'calbridge-bench copy'"))
        #expect(typo.stderr.contains("see 'calbridge-bench help copy'"))
    }
}
