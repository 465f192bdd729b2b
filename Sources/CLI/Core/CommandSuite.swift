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
    package func group(_ word: String) -> [any Command.Type] { group([word]) }

    /// Commands under a group of one or more words (`org quota` -> `org quota set`, `org quota remove`).
    package func group(_ words: [String]) -> [any Command.Type] {
        commands.filter { $0.path.count > words.count && Array($0.path.prefix(words.count)) == words }
    }

    /// The longest run of `words`' first words that names a group (`org quota show` -> `org quota`), or nil.
    package func deepestGroup(_ words: [String]) -> [String]? {
        var found: [String]?
        for count in 1...max(1, words.count) where count <= words.count && !group(Array(words.prefix(count))).isEmpty {
            found = Array(words.prefix(count))
        }
        return found
    }
}
