/// `calbridge month [DATE]`: one month of every account's calendars as a grid of weeks.
package enum MonthCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let date = OptionalArgument("DATE", "a day of the month to show, or YYYY-MM (default: today)")
    }

    package static let path = ["month"]

    package static let spec = CommandSpec(
        path,
        abstract: "Show a month of every calendar of every account as a grid of weeks.",
        discussion: """
            The month that contains DATE (YYYY-MM, YYYY-MM-DD, or a date-time as --from takes it; default
            today); days of the months before and after are left empty.
            \(CalendarGridCommand.discussion)
            Examples:
              calbridge month
              calbridge month 2027-01 --calendar work:Calendar --format json
            """,
        options: CalendarGridCommand.options,
        positionals: [Options.date]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        try await CalendarGridCommand.run(
            .month, dateText: arguments[Options.date], arguments: arguments, command: spec.name, context: context)
    }
}
