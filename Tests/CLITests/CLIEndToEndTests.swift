import Foundation
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
        for name in ["http", "timezones", "sandbox", "calendars", "agenda", "copy", "quick-add"] {
            #expect(bench.stdout.contains("\n  \(name) "), "calbridge-bench --help lists no '\(name)'")
        }
        let typo = try await CalbridgeBinary.run(["copy", "--evnets", "5"], executable: "calbridge-bench")
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("'calbridge-bench copy'"))
        #expect(typo.stderr.contains("see 'calbridge-bench help copy'"))
    }

    /// `--compare-with` pairs each no-change copy with one by another build (here the same one, as a
    /// second path), and refuses what it cannot time.
    @Test("bench copy --compare-with: one pair per rerun (and per --first-runs), both builds' CPU, and usage errors with exit 2")
    func benchCompare() async throws {
        let other = CalbridgeBinary.url.path
        let run = try await CalbridgeBinary.run(
            ["copy", "--events", "5", "--latency-ms", "0", "--client-process", "--reruns", "3", "--compare-with", other,
             "--first-runs", "2", "--format", "json"], executable: "calbridge-bench")
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let comparison = try #require(object["comparison"] as? [String: Any])
        #expect(comparison["baseline"] as? String == other)
        let here = try #require(comparison["cpuSeconds"] as? [Double]), there = try #require(comparison["baselineCPUSeconds"] as? [Double])
        #expect(here.count == 3 && there.count == 3)
        #expect(here.allSatisfy { $0 > 0 } && there.allSatisfy { $0 > 0 })
        let lower = try #require(comparison["lowerInPairs"] as? Int)
        #expect((0...3).contains(lower))
        // Paired first copies: each began from the seeded calendars (the bench refuses one that created fewer).
        let first = try #require(object["firstRunComparison"] as? [String: Any])
        let firstHere = try #require(first["cpuSeconds"] as? [Double]), firstThere = try #require(first["baselineCPUSeconds"] as? [Double])
        #expect(firstHere.count == 2 && firstThere.count == 2)
        #expect(firstHere.allSatisfy { $0 > 0 } && firstThere.allSatisfy { $0 > 0 })
        let unpaired = try await CalbridgeBinary.run(
            ["copy", "--events", "5", "--client-process", "--first-runs", "2"], executable: "calbridge-bench")
        #expect(unpaired.status == 2)
        #expect(unpaired.stderr.contains("add --compare-with PATH"))

        let noChild = try await CalbridgeBinary.run(["copy", "--events", "5", "--compare-with", other], executable: "calbridge-bench")
        #expect(noChild.status == 2)
        #expect(noChild.stderr.contains("add --client-process"))
        let missing = try await CalbridgeBinary.run(
            ["copy", "--events", "5", "--client-process", "--compare-with", "/nonexistent/calbridge"], executable: "calbridge-bench")
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no executable file at /nonexistent/calbridge"))
    }
}
