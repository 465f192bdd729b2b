import Accounts
import CalendarBridge
import Foundation
import ICalendar

/// `calbridge import FILE|- REF`: an iCalendar file's events onto a calendar: a `copy` from the file.
package enum ImportCommand: Command {
    package enum Options {
        package static let dryRun = Flag("dry-run", "Print what would be created, updated and skipped; write nothing.")
        package static let prune = Flag(
            "prune", "Also delete the events an earlier import of this file put on the calendar that are gone from the file.")
        package static let tz = ZoneOptions.option(
            "The zone of the file's floating times, without a zone (default $TZ, else the system zone).")
        package static let format = OutputFormat.option("table|json", "Output format (default table).", allowed: [.table, .json])
        package static let file = Argument("FILE", "The iCalendar (.ics) file, or - for standard input.")
        package static let calendarRef = Argument("CALENDAR_REF", "The calendar to import into: ACCOUNT:CALENDAR.")
    }

    package static let path = ["import"]

    /// The source identity origin markers record for every imported event: UIDs are unique across files
    /// (RFC 5545 §3.8.4.7), so the same file imported from another place or name finds its copies again.
    static let sourceIdentity = "icalendar"

    package static let spec = CommandSpec(
        path,
        abstract: "Import an iCalendar (.ics) file into a calendar, without duplicates.",
        discussion: """
            Reads the file with libical and copies its events as `copy` does: series as series (or as \
            single events where the calendar cannot hold the rule), changed occurrences as changed, \
            cancelled ones cancelled. Each copy carries an origin marker keyed by the file's UID and \
            RECURRENCE-ID, so importing the same file again writes nothing and a changed file updates what \
            changed. Nobody is invited: attendees go into the description as text. Refused with exit 2 and \
            the line named: files over 50 MB, dates that do not exist, unknown zones, RANGE=THISANDFUTURE. \
            Exit code 4 when some events failed (the rest is applied), or when SIGINT or SIGTERM stopped it (the \
            writes in flight finish and the summary so far is printed; importing again finishes it). With --prune, the events an earlier \
            import of the same file (same path, same calendar) put there and the file no longer has are deleted; \
            events of other files never are. See docs/icalendar.md.
            Examples:
              calbridge import holidays.ics me@gmail.com:primary --dry-run
              curl -s https://example.com/team.ics | calbridge import - work:Calendar
            """,
        options: [Options.dryRun, Options.prune, Options.tz, Options.format],
        positionals: [Options.file, Options.calendarRef]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let zone = try ZoneOptions.displayZone(arguments[Options.tz], environment: context.environment, command: spec.name)
        let path = arguments[Options.file]
        if arguments[Options.prune], path == "-" {
            throw UsageError("--prune needs the file's path (it compares with the last import of that file), not -", command: spec.name)
        }
        let text = try readInput(path)
        let file: ICalendarFile
        do {
            file = try ICalendarReader.read(text, floatingZone: zone)
        } catch {
            throw InputError("\(path == "-" ? "standard input" : path): \(error.message)")
        }
        let name = path == "-" ? "stdin" : URL(fileURLWithPath: path).lastPathComponent
        let source = ICalendarFileProvider(file: file, account: "file", name: name)

        let accounts = AccountProviders(context: context, verbose: arguments[CommonOptions.verbose])
        let target = try await CalendarTarget.open(arguments[Options.calendarRef], accounts: accounts)
        let options = CopyOptions(
            window: window(file, now: context.now()), zone: zone, fields: .all, recurrence: .series, dryRun: arguments[Options.dryRun])
        let engine = CopyEngine(
            source: .init(provider: source, calendar: source.calendar, accountIdentity: sourceIdentity),
            target: .init(provider: target.provider, calendar: target.calendar), options: options)
        let bar = context.stderrIsTerminal && !options.dryRun ? ProgressBar(sink: context.stderr, now: context.now) : nil
        // SIGINT or SIGTERM: as for `copy` (the writes in flight finish, the summary so far, exit 4); nothing is
        // pruned or recorded then, and importing the file again finishes without duplicates.
        let keeper = context.exitKeeper
        let outcome = try await InterruptibleWrites.run(spec.name, context: context, bar: bar) { progress, _ in
            try await engine.run(progress: { progress(WriteProgress($0)) }, keeping: keeper)
        }
        guard case .finished(var result) = outcome else { return .partial }
        bar?.finish()
        if path != "-" {
            let prune = ImportPrune(
                home: CalbridgeHome(environment: context.environment), path: URL(fileURLWithPath: path).standardizedFileURL.path,
                target: "\(target.calendar.account):\(target.calendar.id)")
            if arguments[Options.prune] {
                result = try await pruned(result, prune: prune, file: file, target: target, dryRun: options.dryRun, context: context)
            }
            if !options.dryRun { try prune.record(file) }
        }
        switch arguments[Options.format] ?? .table {
        case .json: context.printJSON(result.jsonText)
        case .table, .tsv: CopyCommand.printTable(result, context: context)
        }
        for error in result.errors {
            context.printError("error: " + (error.title.map { "'\($0)': " } ?? "") + error.message)
        }
        return result.isPartial ? .partial : .success
    }

    /// `result` with the deletions of `--prune`: copies of the earlier import's UIDs the file no longer has.
    static func pruned(
        _ result: CopyResult, prune: ImportPrune, file: ICalendarFile, target: CalendarTarget, dryRun: Bool, context: CommandContext
    ) async throws -> CopyResult {
        guard let previous = try prune.previousUIDs() else {
            context.printError("note: no earlier import of this file into \(result.target) is recorded: nothing to prune this time")
            return result
        }
        let lookup = OriginLookup.calendar(
            provider: ICalendarFileProvider.kind, account: sourceIdentity, calendarID: ICalendarFileProvider.calendarID)
        let copies = try await target.provider.findCopies(origin: lookup, in: target.calendar.id)
        let gone = ImportPrune.gone(copies, previous: previous, file: file)
        var items = gone.map { copy in
            CopyItem(
                action: .delete, targetEventID: copy.id, title: copy.title, start: CopyItem.startText(copy.start),
                reason: "gone from the file since its last import")
        }
        if !dryRun, !items.isEmpty {
            let outcomes = await target.provider.applyWrites(gone.map { .delete(id: $0.id) }, in: target.calendar.id, maxConcurrent: 4)
            for index in items.indices {
                guard index < outcomes.count else {
                    items[index].status = .failed
                    items[index].error = "the calendar returned no outcome for this delete"
                    continue
                }
                switch outcomes[index] {
                case .success: items[index].status = .done
                case .failure(let error):
                    items[index].status = .failed
                    items[index].error = (error as? CalendarError)?.description ?? "\(error)"
                }
            }
        }
        let failedItems = result.items.filter { $0.status == .failed }.count
        return CopyResult(
            source: result.source, target: result.target, dryRun: result.dryRun, items: result.items + items, fallbacks: result.fallbacks,
            extraErrors: Array(result.errors.suffix(max(0, result.errors.count - failedItems))))
    }

    /// The file's text; at most `ICalendarReader.maxBytes` are read (a larger input is refused, not read whole).
    static func readInput(_ path: String) throws -> String {
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                let opened = FileHandle(forReadingAtPath: path)
            else { throw InputError("\(path): no such file (give an .ics file, or - for standard input)") }
            handle = opened
        }
        defer { if path != "-" { try? handle.close() } }
        var data = Data()
        while data.count <= ICalendarReader.maxBytes {
            guard let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty else { break }
            data.append(chunk)
        }
        guard data.count <= ICalendarReader.maxBytes else {
            throw InputError("\(path): larger than \(ICalendarReader.maxBytes / 1_048_576) MB, the most calbridge reads; split the file")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The copy window: from the file's first event to its last, and at least a year ahead for series
    /// without an end (their occurrences are compared that far; the series itself is copied whole).
    static func window(_ file: ICalendarFile, now: Date) -> TimeRange {
        let utc = TimeZone(secondsFromGMT: 0)!
        let starts = file.events.map { ($0.originalStart ?? $0.start).instant(allDayZone: utc) }
        let ends = file.events.map { $0.end.instant(allDayZone: utc) }
        let day: TimeInterval = 86_400
        let first = (starts.min() ?? now) - 2 * day
        var last = max(ends.max() ?? now, first) + 2 * day
        if file.events.contains(where: { $0.recurrence != nil }) { last = max(last, now + 366 * day) }
        return TimeRange(start: first, end: last)
    }
}
