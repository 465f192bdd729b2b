import CLI

extension CommandSuite {
    /// The benchmarks, against in-process loopback servers only, in the order `calbridge-bench --help`
    /// lists them. A module of their own, linked into `calbridge-bench` alone: the user's `calbridge`
    /// neither lists nor contains them.
    package static let bench = CommandSuite(
        program: "calbridge-bench",
        summary: "calbridge's benchmarks, against loopback servers only (no network).",
        commands: [
            HTTPBenchCommand.self,
            TimeZonesBenchCommand.self,
            BenchSandboxCommand.self,
            BenchCalendarsCommand.self,
            BenchAgendaCommand.self,
            BenchCopyCommand.self,
            BenchSyncCommand.self,
            BenchOrgCommand.self,
            BenchCalDAVCommand.self,
            QuickAddBenchCommand.self,
            BenchICSCommand.self,
        ]
    )
}
