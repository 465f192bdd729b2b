import Testing
@testable import CLI

@Suite("Argument parsing")
struct ArgumentParserTests {
    static let from = Option<String>("from", "DATE", "start")
    static let account = RepeatedOption("account", "NAME", "account")
    static let week = Flag("week", "this week")
    static let calendar = Argument("CALENDAR", "calendar")
    static let spec = CommandSpec(["events"], abstract: "test", options: [from, account, week], positionals: [calendar])

    @Test("long options with separate and inline values, flags and positionals")
    func values() throws {
        let parsed = try ArgumentParser.parse(["work:primary", "--from", "2026-12-01", "--week", "--account=a", "--account", "b"], for: Self.spec)
        #expect(parsed.positionals == ["work:primary"])
        #expect(parsed[Self.calendar] == "work:primary")
        #expect(parsed[Self.from] == "2026-12-01")
        #expect(parsed[Self.week])
        #expect(parsed[Self.account] == ["a", "b"])
    }

    @Test("-- makes everything after it positional")
    func terminator() throws {
        let parsed = try ArgumentParser.parse(["--", "--week"], for: Self.spec)
        #expect(parsed.positionals == ["--week"])
        #expect(!parsed[Self.week])
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
        #expect(try ArgumentParser.parse(["--help"], for: Self.spec)[CommonOptions.help])
        #expect(try ArgumentParser.parse(["-h"], for: Self.spec)[CommonOptions.help])
    }

    static let count = Option.int("count", "N", "how many", in: 1...10)
    static let rate = Option.number("rate", "R", "a fraction", in: 0...1)
    static let mode = Option.choice("mode", "a|b", "which", among: ["a", "b"])
    static let typed = CommandSpec(["bench-like"], abstract: "test", options: [count, rate, mode])

    @Test("typed options arrive converted; a value of the wrong kind is a usage error from the parser")
    func typedValues() throws {
        let parsed = try ArgumentParser.parse(["--count", "3", "--rate=0.5", "--mode", "b"], for: Self.typed)
        #expect(parsed[Self.count] == 3)
        #expect(parsed[Self.rate] == 0.5)
        #expect(parsed[Self.mode] == "b")
        #expect(try ArgumentParser.parse([], for: Self.typed)[Self.count] == nil)
        #expect(throws: UsageError("--count takes a whole number from 1 to 10, not '11'")) {
            try ArgumentParser.parse(["--count", "11"], for: Self.typed)
        }
        #expect(throws: UsageError("--rate takes a number from 0.0 to 1.0, not 'x'")) {
            try ArgumentParser.parse(["--rate", "x"], for: Self.typed)
        }
        #expect(throws: UsageError("--mode takes one of a|b, not 'c'")) {
            try ArgumentParser.parse(["--mode", "c"], for: Self.typed)
        }
    }

    static let reference = OptionalArgument("CALENDAR_REF", "where")
    static let text = OptionalArgument("TEXT", "what")
    static let words = VariadicArgument("WORD", "more")
    static let leading = CommandSpec(["quick-add"], abstract: "test", positionals: [reference, text])

    @Test("optional positionals: one value fills the rightmost, two fill both, three are too many")
    func optionalPositionals() throws {
        let one = try ArgumentParser.parse(["Lunch at 1"], for: Self.leading)
        #expect(one[Self.reference] == nil)
        #expect(one[Self.text] == "Lunch at 1")
        let two = try ArgumentParser.parse(["work:primary", "Lunch at 1"], for: Self.leading)
        #expect(two[Self.reference] == "work:primary")
        #expect(two[Self.text] == "Lunch at 1")
        let none = try ArgumentParser.parse([], for: Self.leading)
        #expect(none[Self.text] == nil)
        #expect(throws: UsageError("unexpected argument 'c' for 'calbridge quick-add'", command: "quick-add")) {
            try ArgumentParser.parse(["a", "b", "c"], for: Self.leading)
        }
        let variadic = CommandSpec(["x"], abstract: "test", positionals: [Self.calendar, Self.words])
        let many = try ArgumentParser.parse(["c", "w1", "w2"], for: variadic)
        #expect(many[Self.calendar] == "c")
        #expect(many[Self.words] == ["w1", "w2"])
    }

    @Test("help is generated from the same declarations the parser reads")
    func helpFromDeclarations() {
        let help = HelpText.command(Self.spec)
        #expect(help.hasPrefix("Usage: calbridge events CALENDAR [OPTIONS]"))
        #expect(help.contains("--from DATE"))
        #expect(help.contains("--account NAME"))
        #expect(help.contains("(repeatable)"))
        #expect(help.contains("--week"))
    }
}
