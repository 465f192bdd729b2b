import CalendarBridge
import Foundation

/// `calbridge copy SOURCE_REF TARGET_REF`: copies events between any two calendars, idempotently.
public enum CopyCommand: Command {
    public static let spec = CommandSpec(
        ["copy"],
        abstract: "Copy events from one calendar to another (Outlook <-> Google), without duplicates.",
        discussion: """
            Copies the source events in the window (default: today to 30 days ahead). Every copy carries an \
            origin marker, so running the same copy again writes only what changed, and a rerun after an \
            interruption finishes the job. Attendees are never invited: their names go into the body. \
            Nothing is deleted unless --prune is given. Exit code 4 when some events failed (the rest is applied).
            """,
        options: [
            .value("from", "DATE", "Start of the window: YYYY-MM-DD (local midnight) or an RFC 3339 time (default today)."),
            .value("to", "DATE", "End of the window: YYYY-MM-DD (through that day) or an RFC 3339 time (default from + 30 days)."),
            .flag("dry-run", "Print the plan (what would be created, updated, deleted, skipped and why); write nothing."),
            .flag("prune", "Delete copies whose source event is gone from the window, and surplus duplicates."),
            .value("fields", "all|basic|busy", "What to copy (default basic; busy = only the time, titled Busy)."),
            .value("recurrence", "series|instances", "Copy series as series (default) or every occurrence singly."),
            .value("format", "table|json", "Output format (default table)."),
        ],
        positionals: [
            PositionalSpec("SOURCE_REF", "The calendar to copy from: ACCOUNT:CALENDAR (id, name, primary or default)."),
            PositionalSpec("TARGET_REF", "The calendar to copy to: ACCOUNT:CALENDAR."),
        ]
    )

    public static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        guard let sourceText = arguments.positional(0), let targetText = arguments.positional(1) else {
            throw UsageError("copy needs SOURCE_REF and TARGET_REF (ACCOUNT:CALENDAR each)", command: "copy")
        }
        guard arguments.positionals.count == 2 else {
            throw UsageError("copy takes two calendar references, not \(arguments.positionals.count)", command: "copy")
        }
        let format = try OutputFormat.from(arguments, allowed: [.table, .json])
        let options = try options(arguments, context: context)
        let sourceRef = try parseRef(sourceText)
        let targetRef = try parseRef(targetText)

        let accounts = AccountProviders(context: context, verbose: arguments.flag("verbose"))
        let sourceProvider = try accounts.provider(for: sourceRef)
        let targetProvider = try accounts.provider(for: targetRef)
        async let sourceCalendars = sourceProvider.listCalendars()
        async let targetCalendars = targetProvider.listCalendars()
        let sourceCalendar = try sourceRef.resolve(in: try await sourceCalendars)
        let targetCalendar = try targetRef.resolve(in: try await targetCalendars)

        let engine = CopyEngine(
            source: .init(provider: sourceProvider, calendar: sourceCalendar),
            target: .init(provider: targetProvider, calendar: targetCalendar), options: options)
        let bar = context.stderrIsTerminal && !options.dryRun ? ProgressBar(sink: context.stderr, now: context.now) : nil
        var report: (@Sendable (CopyEngine.Progress) -> Void)?
        if let bar { report = { bar.update($0) } }
        let result = try await engine.run(progress: report)
        bar?.finish()

        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            context.print(String(decoding: try encoder.encode(result), as: UTF8.self))
        case .table, .tsv:
            printTable(result, context: context)
        }
        for error in result.errors {
            context.printError("error: " + (error.title.map { "'\($0)': " } ?? "") + error.message)
        }
        return result.isPartial ? .partial : .success
    }

    static func parseRef(_ text: String) throws -> CalendarRef {
        do { return try CalendarRef(parsing: text) } catch { throw InputError(error.description) }
    }

    /// The copy options from the command line; the window defaults to today + 30 days.
    static func options(_ arguments: ParsedArguments, context: CommandContext) throws -> CopyOptions {
        let zone = context.environment["TZ"].flatMap(TimeZone.init(identifier:)) ?? TimeZone.current
        let today = LocalDate(instant: context.now(), in: zone)
        let start = try arguments.value("from").map { try parseDate($0, option: "from", zone: zone, endOfDay: false) }
            ?? today.startInstant(in: zone)
        let end = try arguments.value("to").map { try parseDate($0, option: "to", zone: zone, endOfDay: true) }
            ?? LocalDate(instant: start, in: zone).adding(days: 30).startInstant(in: zone)
        guard let window = TimeRange(validating: start, end: end), end > start else {
            throw UsageError("--to must be after --from", command: "copy")
        }
        let fields = try arguments.choice("fields", CopyFields.allCases.map(\.rawValue)).flatMap(CopyFields.init(rawValue:)) ?? .basic
        let recurrence =
            try arguments.choice("recurrence", CopyRecurrence.allCases.map(\.rawValue)).flatMap(CopyRecurrence.init(rawValue:))
            ?? .series
        return CopyOptions(
            window: window, fields: fields, recurrence: recurrence, prune: arguments.flag("prune"),
            dryRun: arguments.flag("dry-run"))
    }

    /// `YYYY-MM-DD` (midnight in `zone`, or the next midnight for an inclusive end) or RFC 3339.
    static func parseDate(_ text: String, option: String, zone: TimeZone, endOfDay: Bool) throws -> Date {
        try DateOptions.instant(text, option: option, zone: zone, command: "copy", endOfDay: endOfDay)
    }

    static func printTable(_ result: CopyResult, context: CommandContext) {
        let shown = result.items.filter { $0.action != .unchanged }
        if !shown.isEmpty {
            let rows = shown.map { item -> [String] in
                let action = item.status == .failed ? "failed" : (result.dryRun ? "would " : "") + item.action.rawValue
                return [action, item.title, item.start ?? "", item.reason ?? item.error ?? ""]
            }
            let table = Table(
                columns: [
                    .init("action", "ACTION", shrinkable: false), .init("title", "TITLE"), .init("start", "START"),
                    .init("reason", "WHY"),
                ],
                rows: rows)
            context.print(table.aligned())
        }
        for fallback in result.fallbacks {
            context.print("'\(fallback.title)' copied as \(fallback.occurrences) single events: \(fallback.reason)")
        }
        let verb = result.dryRun ? "Would copy" : "Copied"
        var summary = "\(verb) \(result.source) -> \(result.target): \(result.created) created, \(result.updated) updated, "
        summary += "\(result.unchanged) unchanged, \(result.deleted) deleted, \(result.skipped) skipped, \(result.failed) failed"
        if result.duplicates > 0 { summary += ", \(result.duplicates) duplicate copies" + (result.deleted > 0 ? "" : " (--prune removes them)") }
        context.print(summary)
    }
}

/// A one-line progress bar on stderr: counts, rate, ETA. Only used when stderr is a terminal.
final class ProgressBar: @unchecked Sendable {
    private let sink: any TextSink
    private let now: @Sendable () -> Date
    private let started: Date
    private let lock = NSLock()
    private var drawn = false

    init(sink: any TextSink, now: @escaping @Sendable () -> Date) {
        self.sink = sink
        self.now = now
        started = now()
    }

    func update(_ progress: CopyEngine.Progress) {
        lock.withLock {
            sink.write("\r" + Self.line(progress, elapsed: now().timeIntervalSince(started)) + "\u{1B}[K")
            drawn = true
        }
    }

    func finish() {
        lock.withLock { if drawn { sink.write("\n") } }
    }

    /// `[#########-----------] 120/500  35.2/s  ETA 11s` (and failures when there are some).
    static func line(_ p: CopyEngine.Progress, elapsed: TimeInterval, width: Int = 24) -> String {
        let fraction = p.total > 0 ? Double(p.completed) / Double(p.total) : 1
        let filled = min(width, Int((fraction * Double(width)).rounded(.down)))
        var text = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
        text += " \(p.completed)/\(p.total)"
        let rate = elapsed > 0 ? Double(p.completed) / elapsed : 0
        text += String(format: "  %.1f/s", rate)
        if rate > 0, p.completed < p.total {
            text += "  ETA \(Int((Double(p.total - p.completed) / rate).rounded(.up)))s"
        }
        if p.failed > 0 { text += "  \(p.failed) failed" }
        return text
    }
}
