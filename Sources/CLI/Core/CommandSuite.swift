/// One executable's commands: `calbridge` (the user's) or `calbridge-bench` (the benchmarks, module Bench).
package struct CommandSuite: Sendable {
    /// The executable's name, as help and errors spell it.
    package var program: String
    /// The first line of `--help`.
    package var summary: String
    package var commands: [any Command.Type]

    package init(program: String, summary: String, commands: [any Command.Type]) {
        self.program = program
        self.summary = summary
        self.commands = commands
    }

    /// The user's commands.
    package static let calbridge = CommandSuite(
        program: "calbridge",
        summary: "every Google and Outlook calendar behind one command line.",
        commands: CommandRegistry.all
    )

    /// The command whose path is the longest prefix of `words`, and how many words it used.
    package func match(_ words: [String]) -> (command: any Command.Type, used: Int)? {
        var best: (command: any Command.Type, used: Int)?
        for command in commands {
            let path = command.path
            guard words.count >= path.count, Array(words.prefix(path.count)) == path else { continue }
            if path.count > (best?.used ?? -1) { best = (command, path.count) }
        }
        return best
    }

    /// Commands under a group word (`accounts` -> `accounts add`, `accounts list`, ...).
    package func group(_ word: String) -> [any Command.Type] {
        commands.filter { $0.path.count > 1 && $0.path[0] == word }
    }
}
