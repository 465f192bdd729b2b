/// `calbridge week [DATE]`: one week of every account's calendars as a grid of seven days.
package enum WeekCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let date = OptionalArgument("DATE", "a day of the week to show (default: today)")
    }

    package static let path = ["week"]

    package static let spec = CommandSpec(
        path,
        abstract: "Show a week of every calendar of every account as a grid of seven days.",
        discussion: """
            The week that contains DATE (YYYY-MM-DD, or a date-time as --from takes it; default today).
            \(CalendarGridCommand.discussion)
            Examples:
              calbridge week
              calbridge week 2026-12-24 --account work --week-start sunday
            """,
        options: CalendarGridCommand.options,
        positionals: [Options.date]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        try await CalendarGridCommand.run(
            .week, dateText: arguments[Options.date], arguments: arguments, command: spec.name, context: context)
    }
}
