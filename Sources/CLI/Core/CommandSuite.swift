/// One executable's commands: `calbridge` (the user's) or `calbridge-bench` (the benchmarks).
public struct CommandSuite: Sendable {
    /// The executable's name, as help and errors spell it.
    public var program: String
    /// The first line of `--help`.
    public var summary: String
    public var commands: [any Command.Type]

    public init(program: String, summary: String, commands: [any Command.Type]) {
        self.program = program
        self.summary = summary
        self.commands = commands
    }

    /// The user's commands.
    public static let calbridge = CommandSuite(
        program: "calbridge",
        summary: "every Google and Outlook calendar behind one command line.",
        commands: CommandRegistry.all
    )

    /// The benchmarks, against in-process loopback servers only.
    public static let bench = CommandSuite(
        program: "calbridge-bench",
        summary: "calbridge's benchmarks, against loopback servers only (no network).",
        commands: CommandRegistry.benchmarks
    )

    /// The command whose path is the longest prefix of `words`, and how many words it used.
    public func match(_ words: [String]) -> (command: any Command.Type, used: Int)? {
        var best: (command: any Command.Type, used: Int)?
        for command in commands {
            let path = command.spec.path
            guard words.count >= path.count, Array(words.prefix(path.count)) == path else { continue }
            if path.count > (best?.used ?? -1) { best = (command, path.count) }
        }
        return best
    }

    /// Commands under a group word (`accounts` -> `accounts add`, `accounts list`, ...).
    public func group(_ word: String) -> [any Command.Type] {
        commands.filter { $0.spec.path.count > 1 && $0.spec.path[0] == word }
    }
}
