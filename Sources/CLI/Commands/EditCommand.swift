import CalendarBridge
import Foundation

/// `calbridge edit`: changes the named fields of one event, occurrence or series, and nothing else.
package enum EditCommand: Command {
    /// The options and arguments, declared once: the spec, help and parser read these, and so does `run`.
    package enum Options {
        package static let title = Option<String>("title", "TEXT", "New title.")
        package static let start = Option<String>(
            "start", "DATETIME", "New start (a date with --all-day); the length is kept without --end.")
        package static let end = Option<String>("end", "DATETIME", "New end (with --all-day: the last day).")
        package static let tz = ZoneOptions.option("The zone --start/--end are read in, and the event's zone from now on.")
        package static let allDay = Flag("all-day", "Make it an all-day event (on its start day unless --start is given).")
        package static let timed = Flag("timed", "Make an all-day event timed (needs --start).")
        package static let location = Option<String>("location", "TEXT", "New location (\"\" clears it).")
        package static let description = Option<String>("description", "TEXT", "New description (\"\" clears it).")
        package static let reminder = Option<Int>.int("reminder", "MINUTES", "One reminder this many minutes before.", in: 0...40_320)
        package static let showAs = Option<String>.choice(
            "show-as", "free|busy", "Show the time as free or busy.", among: ["free", "busy"])
        package static let noRepeat = Flag("no-repeat", "Make a series a single event (its first occurrence).")
        package static let dryRun = Flag("dry-run", "Print each field's change (before -> after); write nothing.")
        package static let calendarRef = Argument("CALENDAR_REF", "account:calendar holding the event")
    }

    package static let path = ["edit"]

    package static let spec = CommandSpec(
        path,
        abstract: "Change fields of one event, occurrence or series.",
        discussion: """
            Only the fields named are written (a PATCH of those members), so everything else, attendees and
            exceptions included, stays as the service keeps it. An occurrence id changes that occurrence only
            (it becomes an exception); --series, or a series id, changes the whole series: new times given for
            an occurrence move the whole series by as much.
            Times without an offset are read in --tz, else the event's own zone. With --all-day, --start and
            --end are dates (--end is the last day).
            Attendees: changing a meeting you organise can mail its attendees, so calbridge refuses unless told:
            --notify mails them as the service does; --no-notify mails nobody (Google: sendUpdates=none), and is
            refused on Outlook, which mails them about every change and cannot be told not to.
            A copy made by calbridge (copy, sync) is changed at its original: the command says where it is and
            refuses; --detach changes the copy itself (a later copy or sync may undo that, as it says).
            EVENT is an event id or --query TEXT [--on DATE], as for `calbridge show`.
            Examples:
              calbridge edit work:Calendar --query "design review" --on 2026-12-01 --start "2026-12-01 15:00" --dry-run
            """,
        options: [
            Options.title, Options.start, Options.end, Options.tz, Options.allDay, Options.timed, Options.location,
            Options.description, Options.reminder, Options.showAs, RepeatOption.option, Options.noRepeat,
            EventSelection.occurrenceFlag, EventSelection.seriesFlag, Options.dryRun, EventWriteGuard.Options.notify,
            EventWriteGuard.Options.noNotify, EventWriteGuard.Options.detach,
        ] + EventSelection.declarations,
        positionals: [Options.calendarRef, EventSelection.Options.event]
    )

    /// The edit the options ask for, checked before anything is read or sent.
    static func edit(_ arguments: ParsedArguments) throws -> EventEdit {
        var edit = EventEdit()
        edit.title = arguments[Options.title]
        edit.location = arguments[Options.location]
        edit.description = arguments[Options.description]
        edit.reminderMinutes = arguments[Options.reminder]
        edit.showAs = arguments[Options.showAs].flatMap(ShowAs.init(rawValue:))
        edit.start = arguments[Options.start]
        edit.end = arguments[Options.end]
        edit.zone = try arguments[Options.tz].map { try ZoneOptions.eventZone($0, option: "tz", command: spec.name) }
        switch (arguments[Options.allDay], arguments[Options.timed]) {
        case (true, true): throw UsageError("give --all-day or --timed, not both", command: spec.name)
        case (true, false): edit.kind = .allDay
        case (false, true): edit.kind = .timed
        case (false, false): break
        }
        switch (arguments[RepeatOption.option], arguments[Options.noRepeat]) {
        case (_?, true): throw UsageError("give --repeat or --no-repeat, not both", command: spec.name)
        case (let rule?, false): edit.repeatChange = .set(rule)
        case (nil, true): edit.repeatChange = .remove
        case (nil, false): break
        }
        guard !edit.isEmpty else {
            throw UsageError(
                "nothing to change: give --title, --start, --end, --location, --description, --reminder, --show-as, --repeat ...",
                command: spec.name)
        }
        return edit
    }

    package static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let edit = try edit(arguments)
        try EventSelection.checkScope(arguments, command: spec.name)
        let user = try ZoneOptions.userZone(nil, environment: context.environment, command: spec.name)
        let accounts = AccountProviders(context: context, verbose: arguments[CommonOptions.verbose])
        let target = try await CalendarTarget.open(arguments[Options.calendarRef], accounts: accounts)
        try target.requireWritable()
        let selectionZone = edit.zone?.zone ?? user.zone
        let now = context.now()
        let found = try await EventSelection.resolve(arguments, target: target, zone: selectionZone, now: now, command: spec.name)
        guard let events = EventSelection.pick(found, context: context) else { return .usage }
        let addresses = await EventWriteGuard.userAddresses(target)
        let capabilities = target.provider.capabilities
        // Every check of every event first: nothing is written when one of them is refused.
        var writes: [(plan: EventEdit.Plan, mail: AttendeeMail, notice: String?, recipients: [String], series: Bool)] = []
        var seen: Set<String> = []
        for named in events {
            let base = try await EventSelection.scope(
                named, occurrence: arguments[EventSelection.occurrenceFlag], series: arguments[EventSelection.seriesFlag], target: target,
                command: spec.name)
            guard seen.insert(base.id).inserted else { continue }  // --all over occurrences of one series
            if base.isOccurrence, edit.repeatChange != nil {
                throw UsageError("an occurrence has no rule of its own; add --series to change the series' rule", command: spec.name)
            }
            let notice = try EventWriteGuard.checkCopy(
                await EventSelection.origin(of: base, target: target), title: base.title, deleting: false,
                detach: arguments[EventWriteGuard.Options.detach], command: spec.name)
            let mail = try EventWriteGuard.mail(
                for: base, verb: "changing", user: addresses, capabilities: capabilities, notify: arguments[EventWriteGuard.Options.notify],
                noNotify: arguments[EventWriteGuard.Options.noNotify], command: spec.name)
            var plan = try edit.plan(
                on: base, anchor: named, fallbackZone: (id: user.name, zone: user.zone), now: now, command: spec.name
            ) { rule, start in
                try RepeatOption.recurrence(
                    rule, start: start, fallbackZone: user.name, support: capabilities.recurrence, command: spec.name)
            }
            plan.event.calendarID = target.calendar.id
            writes.append((plan, mail, notice, EventWriteGuard.recipients(of: base, user: addresses), base.isSeriesMaster))
        }
        for (index, write) in writes.enumerated() {
            if index > 0 { context.print() }
            let what = "'\(write.plan.event.title)' (\(write.plan.event.id)) in \(target.label)"
            if arguments[Options.dryRun] {
                context.print("Would change \(what):")
            } else {
                _ = try await target.provider.updateEvent(write.plan.event, fields: write.plan.fields, mail: write.mail)
                context.print("Changed \(what):")
            }
            for change in write.plan.changes { context.print("  \(change.field): \(change.before) -> \(change.after)") }
            if let notice = write.notice { context.print(notice) }
            if write.series, capabilities.recurrence == .patterned, !write.plan.fields.isDisjoint(with: [.times, .recurrence]) {
                // Exchange resets a series whose pattern or time changes (see docs/editing.md).
                context.print("Outlook drops the series' moved and deleted occurrences when its time or rule changes.")
            }
            if let line = EventWriteGuard.mailLine(write.recipients, mail: write.mail, dryRun: arguments[Options.dryRun]) {
                context.print(line)
            }
        }
        return .success
    }
}
