/// Every command calbridge has, in the order `calbridge --help` lists them.
package enum CommandRegistry {
    package static let all: [any Command.Type] = [
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
        ExportCommand.self,
        ImportCommand.self,
        SyncCommand.self,
        SyncAddCommand.self,
        SyncListCommand.self,
        SyncRemoveCommand.self,
        SyncStatusCommand.self,
        DemoCommand.self,
        SandboxCommand.self,
        TimeZonesCommand.self,
        CompletionsCommand.self,
        ConfigShowCommand.self,
    ]
}
