/// Every command calbridge has, in the order `calbridge --help` lists them.
public enum CommandRegistry {
    public static let all: [any Command.Type] = [
        VersionCommand.self,
        AccountsAddCommand.self,
        AccountsListCommand.self,
        AccountsRemoveCommand.self,
        WhoamiCommand.self,
        CalendarsCommand.self,
        EventsCommand.self,
        AddCommand.self,
        QuickAddCommand.self,
        CopyCommand.self,
        DemoCommand.self,
        SandboxCommand.self,
        TimeZonesCommand.self,
        HTTPBenchCommand.self,
        TimeZonesBenchCommand.self,
        BenchSandboxCommand.self,
        BenchCalendarsCommand.self,
        BenchCopyCommand.self,
        QuickAddBenchCommand.self,
    ]

    /// The command whose path is the longest prefix of `words`, and how many words it used.
    public static func match(_ words: [String]) -> (command: any Command.Type, used: Int)? {
        var best: (any Command.Type, Int)?
        for command in all {
            let path = command.spec.path
            guard words.count >= path.count, Array(words.prefix(path.count)) == path else { continue }
            if best == nil || path.count > best!.1 { best = (command, path.count) }
        }
        return best
    }

    /// Commands under a group word (`accounts` -> `accounts add`, `accounts list`, ...).
    public static func group(_ word: String) -> [any Command.Type] {
        all.filter { $0.spec.path.count > 1 && $0.spec.path[0] == word }
    }
}
