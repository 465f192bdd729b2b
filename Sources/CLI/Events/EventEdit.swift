import CalendarBridge
import Foundation

/// What `calbridge edit` was asked to change: only the named fields, each nil when not given.
struct EventEdit: Sendable {
    enum Kind: Sendable { case allDay, timed }
    enum RepeatChange: Sendable {
        case set(String)
        case remove
    }

    var title: String?
    var location: String?
    var description: String?
    var reminderMinutes: Int?
    var showAs: ShowAs?
    var start: String?
    var end: String?
    /// `--tz`: the zone `--start`/`--end` are read in, and the event's zone from then on.
    var zone: (id: String, zone: TimeZone)?
    var kind: Kind?
    var repeatChange: RepeatChange?

    var changesTimes: Bool { start != nil || end != nil || zone != nil || kind != nil }
    var isEmpty: Bool {
        title == nil && location == nil && description == nil && reminderMinutes == nil && showAs == nil && !changesTimes
            && repeatChange == nil
    }

    /// One field's change, as `--dry-run` prints it.
    struct Change: Sendable, Equatable {
        var field: String
        var before: String
        var after: String
    }

    /// The event to write, the fields the write carries, and what changes.
    struct Plan: Sendable {
        var event: Event
        var fields: EventFields
        var changes: [Change]
    }

    /// Applies the edit to `base` (the event written: a single event, an occurrence, or a series master).
    /// `anchor` is the event the user named: for a series edit through one of its occurrences, new times are
    /// read for that occurrence and the series moves by as much.
    /// - Parameters:
    ///   - fallbackZone: the zone of times when neither `--tz` nor the event names one.
    ///   - now: the command's reference time, for relative dates (`tomorrow 9am`).
    ///   - recurrence: turns `--repeat RULE` into the rule for a series starting at the given time.
    func plan(
        on base: Event, anchor: Event, fallbackZone: (id: String, zone: TimeZone), now: Date, command: String,
        recurrence: (String, EventTime) throws -> Recurrence
    ) throws -> Plan {
        var event = base
        var fields: EventFields = []
        var changes: [Change] = []
        let ownZone = base.start.zone.flatMap { name in TimeZone(identifier: name).map { (name, $0) } } ?? fallbackZone
        func show(_ time: EventTime) -> String {
            switch time {
            case .allDay(let date): date.description
            case .timed(let instant, let name): RFC3339.format(instant, in: TimeZone(identifier: name) ?? ownZone.1) + " (\(name))"
            }
        }
        func quoted(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "(none)" }

        if let title {
            let trimmed = title.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { throw UsageError("--title is empty; give the new title", command: command) }
            event.title = trimmed
            fields.insert(.title)
            changes.append(Change(field: "title", before: quoted(base.title), after: quoted(trimmed)))
        }
        if let location {
            event.location = location.isEmpty ? nil : location
            fields.insert(.location)
            changes.append(Change(field: "location", before: quoted(base.location), after: quoted(event.location)))
        }
        if let description {
            event.body = description.isEmpty ? nil : .text(description)
            fields.insert(.body)
            let before = base.body.map { $0.isHTML ? HTMLText.plainText(fromHTML: $0.content) : $0.content }
            changes.append(Change(field: "description", before: quoted(before), after: quoted(event.body?.content)))
        }
        if let reminderMinutes {
            event.reminders = [Reminder(minutesBefore: reminderMinutes)]
            fields.insert(.reminders)
            changes.append(
                Change(
                    field: "reminders", before: EventDetails.remindersText(base.reminders),
                    after: EventDetails.remindersText(event.reminders)))
        }
        if let showAs {
            event.showAs = showAs
            fields.insert(.showAs)
            changes.append(Change(field: "show as", before: base.showAs.rawValue, after: showAs.rawValue))
        }
        if changesTimes {
            let (start, end) = try times(of: base, anchor: anchor, ownZone: ownZone, now: now, command: command)
            event.start = start
            event.end = end
            fields.insert(.times)
            changes.append(Change(field: "start", before: show(base.start), after: show(start)))
            changes.append(Change(field: "end", before: show(base.end), after: show(end)))
        }
        switch repeatChange {
        case .set(let rule)?:
            let new = try recurrence(rule, event.start)
            event.recurrence = Recurrence(lines: new.lines, allDayZone: base.recurrence?.allDayZone)
            fields.insert(.recurrence)
            changes.append(
                Change(
                    field: "repeat", before: base.recurrence?.lines.joined(separator: " ") ?? "(does not repeat)",
                    after: new.lines.joined(separator: " ")))
        case .remove?:
            guard let rule = base.recurrence else { throw UsageError("--no-repeat: the event does not repeat", command: command) }
            event.recurrence = nil
            fields.insert(.recurrence)
            changes.append(Change(field: "repeat", before: rule.lines.joined(separator: " "), after: "(does not repeat)"))
        case nil: break
        }
        return Plan(event: event, fields: fields, changes: changes)
    }

    /// The new start and end of `base`. Read for `anchor` (the event named); when `base` is its series'
    /// master, the master moves by as much as the anchor does and takes the anchor's new length.
    func times(
        of base: Event, anchor: Event, ownZone: (String, TimeZone), now: Date, command: String
    ) throws -> (EventTime, EventTime) {
        let zoneID = zone?.id ?? ownZone.0
        let zone = self.zone?.zone ?? ownZone.1
        let toAllDay = (kind ?? (anchor.isAllDay ? .allDay : .timed)) == .allDay
        let (newStart, newEnd): (EventTime, EventTime)
        if toAllDay {
            let oldFirst: LocalDate, oldDays: Int
            switch (anchor.start, anchor.end) {
            case (.allDay(let first), .allDay(let end)): (oldFirst, oldDays) = (first, max(1, first.days(to: end)))
            default: (oldFirst, oldDays) = (LocalDate(instant: anchor.start.instant(allDayZone: zone), in: zone), 1)
            }
            let first = try start.map { try DateOptions.date($0, option: "start", command: command, zone: zone, now: now) } ?? oldFirst
            let last =
                try end.map { try DateOptions.date($0, option: "end", command: command, zone: zone, now: now) }
                ?? first.adding(days: oldDays - 1)
            guard last >= first else { throw UsageError("--end (\(last)) is before --start (\(first))", command: command) }
            (newStart, newEnd) = (.allDay(date: first), .allDay(date: last.adding(days: 1)))
        } else {
            if anchor.isAllDay, start == nil {
                throw UsageError("--timed needs --start DATETIME (the all-day event has no time to keep)", command: command)
            }
            let oldStart = anchor.start.instant(allDayZone: zone), oldEnd = anchor.end.instant(allDayZone: zone)
            let startInstant =
                try start.map { try DateOptions.dateTime($0, option: "start", zone: zone, command: command, now: now) } ?? oldStart
            let length = anchor.isAllDay ? 30 * 60 : oldEnd.timeIntervalSince(oldStart)
            let endInstant =
                try end.map { try DateOptions.dateTime($0, option: "end", zone: zone, command: command, now: now) }
                ?? startInstant.addingTimeInterval(length)
            guard endInstant > startInstant else { throw UsageError("--end must be after --start", command: command) }
            (newStart, newEnd) = (.timed(instant: startInstant, zone: zoneID), .timed(instant: endInstant, zone: zoneID))
        }
        guard base.id != anchor.id, base.isSeriesMaster else { return (newStart, newEnd) }
        // A series changed through one of its occurrences: the master moves by the occurrence's shift.
        switch (base.start, newStart, newEnd) {
        case (.timed(let masterStart, _), .timed(let start, _), .timed(let end, _)) where !anchor.isAllDay:
            let shifted = masterStart.addingTimeInterval(start.timeIntervalSince(anchor.start.instant(allDayZone: zone)))
            return (
                .timed(instant: shifted, zone: zoneID),
                .timed(instant: shifted.addingTimeInterval(end.timeIntervalSince(start)), zone: zoneID)
            )
        case (.allDay(let masterFirst), .allDay(let first), .allDay(let end)):
            guard case .allDay(let anchorFirst) = anchor.start else { break }
            let moved = masterFirst.adding(days: anchorFirst.days(to: first))
            return (.allDay(date: moved), .allDay(date: moved.adding(days: first.days(to: end))))
        default: break
        }
        throw UsageError(
            "to turn a series between all-day and timed, give the series' own id (show prints it as 'series') with --all-day or --timed",
            command: command)
    }
}
