import CalendarBridge
import Foundation
import Accounts
import OAuth

/// `calbridge copy SOURCE_REF TARGET_REF`: copies events between any two calendars, idempotently.
package enum CopyCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let from = Option<String>(
            "from", "DATE", "Start of the window: 2026-12-10, today, next monday, +3d, or a date-time (default today).")
        package static let to = Option<String>(
            "to", "DATE", "End of the window: a date includes that day; a date-time is the exclusive end (default from + 30 days).")
        package static let tz = ZoneOptions.option("The zone the window's dates are read in (default $TZ, else the system zone).")
        package static let dryRun = Flag("dry-run", "Print the plan (what would be created, updated, deleted, skipped and why); write nothing.")
        package static let prune = Flag("prune", "Delete copies in the window whose source event is provably gone (read by id), and surplus duplicates.")
        package static let removeCopies = Flag("remove-copies", "Delete every copy of the source calendar on the target (any date), nothing else; no mail is sent.")
        package static let fields = Option.choice("fields", "all|basic|busy", "What to copy (default basic; busy = only the time, titled Busy).", among: CopyFields.allCases.map(\.rawValue))
        package static let recurrence = Option.choice("recurrence", "series|instances", "Copy series as series (default) or every occurrence singly.", among: CopyRecurrence.allCases.map(\.rawValue))
        package static let acceptShrink = Flag(
            "accept-shrink", "A feed source that came empty or lost over half its events: take it as it is, this once.")
        package static let format = OutputFormat.option(
            "table|json|tsv", "Output format (default table; tsv: one row per event, unchanged ones too, for scripts).")
        package static let sourceRef = Argument("SOURCE_REF", "The calendar to copy from: ACCOUNT:CALENDAR (id, name, primary or default).")
        package static let targetRef = Argument("TARGET_REF", "The calendar to copy to: ACCOUNT:CALENDAR.")
    }

    package static let path = ["copy"]

    package static let spec = CommandSpec(
        path,
        abstract: "Copy events from one calendar to another (Outlook <-> Google), without duplicates.",
        discussion: """
            Copies the source events in the window (default: today to 30 days ahead). The window is one range \
            in one zone: --from/--to dates are midnights in --tz (else $TZ, else the system zone); both calendars \
            are read over the same instants; a timed event belongs when its times overlap the window, an all-day \
            event when its dates overlap the window's dates. Every copy carries an origin marker with the source \
            account's own identity, so running the same copy again writes only what changed, a rerun after an \
            interruption finishes the job, and one mailbox added under two names is one source. Attendees are \
            never invited: their names go into the body. Nothing is deleted or cancelled on the target without \
            proof from the source (a read by id answering not found or cancelled): missing from a listing is \
            never proof. Copies are deleted only with --prune (or all of them with --remove-copies). Exit code 4 \
            when some events failed (the rest is applied).
            """,
        options: [
            Options.from, Options.to, Options.tz, Options.dryRun, Options.prune, Options.removeCopies, Options.fields,
            Options.recurrence, Options.acceptShrink, Options.format,
        ],
        positionals: [Options.sourceRef, Options.targetRef]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let sourceText = arguments[Options.sourceRef]
        let targetText = arguments[Options.targetRef]
        let format = (arguments[Options.format] ?? .table)
        var options = try options(arguments, context: context)
        let sourceRef = try parseRef(sourceText)
        let targetRef = try parseRef(targetText)

        let accounts = AccountProviders(context: context, verbose: arguments[CommonOptions.verbose])
        // accounts.json read and decoded once for both references (the second decode was 0.5 million instructions).
        let records = try accounts.registry.accounts()
        let sourceRecord = try accounts.registry.require(sourceRef.account, in: records)
        let sourceProvider = try accounts.provider(for: sourceRecord)
        if arguments[Options.acceptShrink] { try await FeedSource.acceptShrink(of: sourceProvider, command: spec.name) }
        options.matchByContent = FeedSource.matchesByContent(sourceProvider)
        let targetProvider = try accounts.provider(for: accounts.registry.require(targetRef.account, in: records))
        let registry = accounts.registry
        let ((sourceCalendars, targetCalendars), identity) = try await concurrently(
            { try await concurrently({ try await sourceProvider.listCalendars() }, { try await targetProvider.listCalendars() }) },
            { try await Self.accountIdentity(sourceRecord, provider: sourceProvider, registry: registry) })
        let sourceCalendar = try sourceRef.resolve(in: sourceCalendars)
        let targetCalendar = try targetRef.resolve(in: targetCalendars)
        if sourceRecord.name == targetRef.account, sourceCalendar.id == targetCalendar.id {
            throw UsageError(
                "SOURCE_REF and TARGET_REF name the same calendar (\(sourceText)); copy needs two different calendars",
                command: spec.name)
        }

        let engine = CopyEngine(
            source: .init(provider: sourceProvider, calendar: sourceCalendar, accountIdentity: identity),
            target: .init(provider: targetProvider, calendar: targetCalendar), options: options)
        let bar = context.stderrIsTerminal && !options.dryRun ? ProgressBar(sink: context.stderr, now: context.now) : nil
        // SIGINT or SIGTERM: the writes in flight finish, the summary so far is printed, exit 4. A rerun
        // finishes the copy without duplicates (markers).
        let keeper = context.exitKeeper
        let outcome = try await InterruptibleWrites.run(spec.name, context: context, bar: bar) { progress, _ in
            try await engine.run(progress: { progress(WriteProgress($0)) }, keeping: keeper)
        }
        guard case .finished(let result) = outcome else { return .partial }
        // The report's items are freed at exit, not one by one after printing (0.4 million instructions).
        context.exitKeeper?.keep(result)
        bar?.finish()

        switch format {
        case .json:
            context.printJSON(result.jsonText)
        case .tsv:
            context.printTable(tsvTable(result), format: .tsv, header: true)
        case .table:
            printTable(result, context: context, removing: options.removeCopies)
        }
        for error in result.errors {
            context.printError("error: " + (error.title.map { "'\($0)': " } ?? "") + error.message)
        }
        return result.isPartial ? .partial : .success
    }

    /// The source account's stable identity: as stored at sign-in, else read from the provider once and
    /// stored (accounts signed in before identities were kept).
    static func accountIdentity(
        _ record: AccountRecord, provider: any CalendarProvider, registry: AccountRegistry
    ) async throws -> String {
        if let stored = record.accountIdentity, !stored.isEmpty { return stored }
        guard let fetched = try await provider.userInfo().accountIdentity, !fetched.isEmpty else { return record.name }
        var updated = record
        updated.accountIdentity = fetched
        try registry.save(updated)
        return fetched
    }

    static func parseRef(_ text: String) throws -> CalendarRef {
        do { return try CalendarRef(parsing: text) } catch { throw InputError(error.description) }
    }

    /// The copy options from the command line; the window defaults to today + 30 days.
    static func options(_ arguments: ParsedArguments, context: CommandContext) throws -> CopyOptions {
        let zone = try ZoneOptions.displayZone(arguments[Options.tz], environment: context.environment, command: "copy")
        let removeCopies = arguments[Options.removeCopies]
        if removeCopies {
            let windowed = [
                ("from", arguments[Options.from] != nil), ("to", arguments[Options.to] != nil),
                ("fields", arguments[Options.fields] != nil), ("recurrence", arguments[Options.recurrence] != nil),
            ]
            for (option, given) in windowed where given {
                throw UsageError("--remove-copies deletes every copy whatever its date; drop --\(option)", command: "copy")
            }
            if arguments[Options.prune] { throw UsageError("--remove-copies and --prune do not go together", command: "copy") }
        }
        let today = LocalDate(instant: context.now(), in: zone)
        let now = context.now()
        let start =
            try arguments[Options.from].map { try parseDate($0, option: "from", zone: zone, endOfDay: false, now: now) }
            ?? today.startInstant(in: zone)
        let end =
            try arguments[Options.to].map { try parseDate($0, option: "to", zone: zone, endOfDay: true, now: now) }
            ?? LocalDate(instant: start, in: zone).adding(days: 30).startInstant(in: zone)
        guard let window = TimeRange(validating: start, end: end), end > start else {
            throw UsageError("--to must be after --from", command: "copy")
        }
        let fields = arguments[Options.fields].flatMap(CopyFields.init(rawValue:)) ?? .basic
        let recurrence =
            arguments[Options.recurrence].flatMap(CopyRecurrence.init(rawValue:))
            ?? .series
        return CopyOptions(
            window: window, zone: zone, fields: fields, recurrence: recurrence, prune: arguments[Options.prune],
            removeCopies: removeCopies, dryRun: arguments[Options.dryRun])
    }

    /// A date in `DateOptions`' grammar: midnight in `zone`, or the next midnight for the inclusive end.
    static func parseDate(_ text: String, option: String, zone: TimeZone, endOfDay: Bool, now: Date) throws -> Date {
        try DateOptions.instant(text, option: option, zone: zone, command: "copy", endOfDay: endOfDay, now: now)
    }

    /// Every item, unchanged ones too, with both ids: what a script needs to follow each event.
    static func tsvTable(_ result: CopyResult) -> Table {
        Table(
            columns: ["action", "status", "title", "start", "source_id", "target_id", "duplicate", "reason"].map {
                Table.Column($0, $0)
            },
            rows: result.items.map { item in
                [
                    (result.dryRun && item.status == .planned ? "would " : "") + item.action.rawValue, item.status.rawValue,
                    item.title, item.start ?? "", item.sourceEventID ?? "", item.targetEventID ?? "", String(item.duplicate),
                    item.reason ?? item.error ?? "",
                ]
            })
    }

    static func printTable(_ result: CopyResult, context: CommandContext, removing: Bool = false) {
        let shown = result.items.filter { $0.action != .unchanged }
        if !shown.isEmpty {
            let rows = shown.map { item -> [String] in
                let action = item.status == .failed ? "failed" : (result.dryRun ? "would " : "") + item.action.rawValue
                return [action, item.title, item.start ?? "", item.reason ?? item.error ?? ""]
            }
            let table = Table(
                columns: [
                    .init("action", "ACTION", shrinkable: false), .init("title", "TITLE", shrinkOrder: 1),
                    .init("start", "START", shrinkable: false), .init("reason", "WHY"),
                ],
                rows: rows)
            context.printTable(table, format: .table)
        }
        for fallback in result.fallbacks {
            context.print("'\(fallback.title)' copied as \(fallback.occurrences) single events: \(fallback.reason)")
        }
        if removing {
            let verb = result.dryRun ? "Would remove" : "Removed"
            context.print("\(verb) \(result.deleted) copies of \(result.source) from \(result.target), \(result.failed) failed")
            return
        }
        let verb = result.dryRun ? "Would copy" : "Copied"
        var summary = "\(verb) \(result.source) -> \(result.target): \(result.created) created, \(result.updated) updated, "
        summary += "\(result.unchanged) unchanged, \(result.deleted) deleted, \(result.skipped) skipped, \(result.failed) failed"
        if result.duplicates > 0 { summary += ", \(result.duplicates) duplicate copies" + (result.deleted > 0 ? "" : " (--prune removes them)") }
        if result.matchedByContent > 0 {
            summary += ", \(result.matchedByContent) matched by start, title and location (the source gave them new UIDs)"
        }
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

    func update(_ progress: WriteProgress) {
        lock.withLock {
            sink.write("\r" + Self.line(progress, elapsed: now().timeIntervalSince(started)) + "\u{1B}[K")
            drawn = true
        }
    }

    func finish() {
        lock.withLock { if drawn { sink.write("\n") } }
    }

    /// `[#########-----------] 120/500  35.2/s  ETA 11s` (and failures when there are some).
    static func line(_ p: WriteProgress, elapsed: TimeInterval, width: Int = 24) -> String {
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
