import Testing
@testable import CLI

@Suite("Argument parsing")
struct ArgumentParserTests {
    static let spec = CommandSpec(
        ["events"],
        abstract: "test",
        options: [
            .value("from", "DATE", "start"),
            .value("account", "NAME", "account", repeatable: true),
            .flag("week", "this week"),
        ],
        positionals: [PositionalSpec("CALENDAR", "calendar")]
    )

    @Test("long options with separate and inline values, flags and positionals")
    func values() throws {
        let parsed = try ArgumentParser.parse(["work:primary", "--from", "2026-12-01", "--week", "--account=a", "--account", "b"], for: Self.spec)
        #expect(parsed.positionals == ["work:primary"])
        #expect(parsed.value("from") == "2026-12-01")
        #expect(parsed.flag("week"))
        #expect(parsed.all("account") == ["a", "b"])
    }

    @Test("-- makes everything after it positional")
    func terminator() throws {
        let parsed = try ArgumentParser.parse(["--", "--week"], for: Self.spec)
        #expect(parsed.positionals == ["--week"])
        #expect(!parsed.flag("week"))
    }

    @Test("unknown options name the option and suggest the nearest one")
    func unknownOption() {
        #expect(throws: UsageError("unknown option '--form' for 'calbridge events' (did you mean '--from'?)", command: "events")) {
            try ArgumentParser.parse(["x", "--form", "today"], for: Self.spec)
        }
    }

    @Test("a value option at the end without its value is a usage error")
    func missingValue() {
        #expect(throws: UsageError("option '--from' needs a value (DATE)", command: "events")) {
            try ArgumentParser.parse(["x", "--from"], for: Self.spec)
        }
    }

    @Test("a non-repeatable option given twice is a usage error")
    func repeated() {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["x", "--from", "a", "--from", "b"], for: Self.spec) }
    }

    @Test("arity: missing and extra positionals")
    func arity() {
        #expect(throws: UsageError("missing argument CALENDAR for 'calbridge events'", command: "events")) {
            try ArgumentParser.parse([], for: Self.spec)
        }
        #expect(throws: UsageError("unexpected argument 'y' for 'calbridge events'", command: "events")) {
            try ArgumentParser.parse(["x", "y"], for: Self.spec)
        }
    }

    @Test("--help skips the arity check so help always works")
    func help() throws {
        #expect(try ArgumentParser.parse(["--help"], for: Self.spec).flag("help"))
        #expect(try ArgumentParser.parse(["-h"], for: Self.spec).flag("help"))
    }
}
