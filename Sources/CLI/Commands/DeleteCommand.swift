import CalendarBridge
import Foundation

/// `calbridge delete`: deletes one event, one occurrence of a series, or a whole series.
package enum DeleteCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let dryRun = Flag("dry-run", "Print what would be deleted; delete nothing.")
        package static let calendarRef = Argument("CALENDAR_REF", "account:calendar holding the event")
    }

    package static let path = ["delete"]

    package static let spec = CommandSpec(
        path,
        abstract: "Delete one event, occurrence or series.",
        discussion: """
            An occurrence id deletes (cancels) that occurrence only; --series, or a series id, deletes the whole
            series with all its occurrences.
            Attendees: deleting a meeting you organise can mail its attendees a cancellation, so calbridge refuses
            unless told: --notify mails them as the service does; --no-notify mails nobody (Google:
            sendUpdates=none), and is refused on Outlook, which always mails a cancellation and cannot be told not to.
            A copy made by calbridge is refused (delete its original, or copy with --prune); --detach deletes the
            copy itself (the next copy makes it again; a sync pair takes the deletion to the original).
            EVENT is an event id or --query TEXT [--on DATE], as for `calbridge show`.
            SIGINT or SIGTERM (Ctrl-C) during --all: the deletion in flight finishes, the summary so far is printed,
            exit 4; run it again to delete the rest.
            Examples:
              calbridge delete me@gmail.com:primary --query "dentist" --on 2026-12-03 --dry-run
            """,
        options: [
            EventSelection.occurrenceFlag, EventSelection.seriesFlag, Options.dryRun, EventWriteGuard.Options.notify,
            EventWriteGuard.Options.noNotify, EventWriteGuard.Options.detach,
        ] + EventSelection.declarations,
        positionals: [Options.calendarRef, EventSelection.Options.event]
    )

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        try EventSelection.checkScope(arguments, command: spec.name)
        let zone = try ZoneOptions.displayZone(nil, environment: context.environment, command: spec.name)
        let accounts = AccountProviders(context: context, verbose: arguments[CommonOptions.verbose])
        let target = try await CalendarTarget.open(arguments[Options.calendarRef], accounts: accounts)
        try target.requireWritable()
        let found = try await EventSelection.resolve(arguments, target: target, zone: zone, now: context.now(), command: spec.name)
        guard let events = EventSelection.pick(found, context: context) else { return .usage }
        let addresses = await EventWriteGuard.userAddresses(target)
        let formatting = EventFormatting(zone: zone)
        // Every check of every event first: nothing is deleted when one of them is refused.
        var deletions: [(event: Event, mail: AttendeeMail, notice: String?, recipients: [String])] = []
        var seen: Set<String> = []
        for named in events {
            let base = try await EventSelection.scope(
                named, occurrence: arguments[EventSelection.occurrenceFlag], series: arguments[EventSelection.seriesFlag], target: target,
                command: spec.name)
            guard seen.insert(base.id).inserted else { continue }
            let notice = try EventWriteGuard.checkCopy(
                await EventSelection.origin(of: base, target: target), title: base.title, deleting: true,
                detach: arguments[EventWriteGuard.Options.detach], command: spec.name)
            let mail = try EventWriteGuard.mail(
                for: base, verb: "deleting", user: addresses, capabilities: target.provider.capabilities,
                notify: arguments[EventWriteGuard.Options.notify], noNotify: arguments[EventWriteGuard.Options.noNotify], command: spec.name
            )
            deletions.append((base, mail, notice, EventWriteGuard.recipients(of: base, user: addresses)))
        }
        let dryRun = arguments[Options.dryRun]
        // What each deletion prints, worked out before the first one is sent.
        let planned: [(id: String, mail: AttendeeMail, lines: [String])] = deletions.map { deletion in
            let event = deletion.event
            let kind = event.isSeriesMaster ? "the series" : (event.isOccurrence ? "the occurrence" : "")
            let when = "\(formatting.dateCell(event)) \(formatting.timeCell(event))"
            let what = "\(kind.isEmpty ? "" : kind + " ")'\(event.title)' (\(when), \(event.id)) from \(target.label)"
            let lines =
                [(dryRun ? "Would delete " : "Deleted ") + what] + [deletion.notice].compactMap { $0 }
                + [EventWriteGuard.mailLine(deletion.recipients, mail: deletion.mail, dryRun: dryRun)].compactMap { $0 }
            return (id: event.id, mail: deletion.mail, lines: lines)
        }
        // SIGINT or SIGTERM during `--all`: the deletion in flight finishes, no other starts, the summary so far
        // is printed, exit 4 (as `copy` stops).
        let provider = target.provider, calendarID = target.calendar.id
        let outcome = try await InterruptibleWrites.run(spec.name, verb: "deleted", context: context, bar: nil) { progress, shouldStop in
            for (index, deletion) in planned.enumerated() {
                if shouldStop() { break }
                if !dryRun { try await provider.deleteEvent(id: deletion.id, calendarID: calendarID, mail: deletion.mail) }
                for line in deletion.lines { context.print(line) }
                progress(WriteProgress(completed: index + 1, total: planned.count, failed: 0))
            }
        }
        guard case .finished = outcome else { return .partial }
        return .success
    }
}
