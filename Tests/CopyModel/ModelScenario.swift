import CalendarBridge
import Foundation

/// One `copy` run of a scenario: the window as `--from`/`--to` dates in `--tz`, and how the run goes.
package struct ModelCopyRun: Sendable, Hashable, CustomStringConvertible {
    package var from: LocalDate
    /// Inclusive, as `--to YYYY-MM-DD` is.
    package var to: LocalDate
    package var zone: String
    package var prune: Bool
    /// Through the second account name of the same source mailbox.
    package var alias: Bool
    /// Made by the version before stable identities: markers with the local account name.
    package var legacy: Bool = false
    /// Killed after this many writes reach the target (nil: the run completes).
    package var killAfter: Int?
    /// The first write after the kill point is applied but its answer lost (a crash after the server acted).
    package var loseResponse: Bool

    /// `[from 00:00, to + 1 00:00)` in the window's zone.
    package var range: TimeRange {
        TimeRange(
            start: ModelZones.instant(from, minute: 0, in: zone), end: ModelZones.instant(to.adding(days: 1), minute: 0, in: zone))
    }

    package var description: String {
        var text = "copy --from \(from) --to \(to) --tz \(zone)"
        if prune { text += " --prune" }
        if alias { text += " (second account name)" }
        if legacy { text += " (by the previous version: local-name markers)" }
        if let killAfter { text += " killed after \(killAfter) writes" + (loseResponse ? " (answer of the next lost)" : "") }
        return text
    }
}

/// One step of a scenario.
package enum ModelOperation: Sendable, Hashable, CustomStringConvertible {
    case copy(ModelCopyRun)
    case retitle(event: Int)
    /// Singles move by `minutes` (all-day ones by whole days); a series' start time of day moves.
    case shift(event: Int, minutes: Int)
    case toggleAllDay(event: Int)
    case changeRule(event: Int, rule: ModelRule)
    /// `pick` chooses among the series' live occurrences (modulo their count).
    case cancelOccurrence(event: Int, pick: Int)
    case moveOccurrence(event: Int, pick: Int, minutes: Int)
    case deleteEvent(event: Int)
    /// The user deletes a copy on the target (`pick` among the copies; a series copy goes whole).
    case userDeletesCopy(pick: Int)
    /// `copy --remove-copies`.
    case removeCopies(alias: Bool)

    package var description: String {
        switch self {
        case .copy(let run): return run.description
        case .retitle(let e): return "source: retitle E\(e)"
        case .shift(let e, let m): return "source: shift E\(e) by \(m) min"
        case .toggleAllDay(let e): return "source: toggle all-day on E\(e)"
        case .changeRule(let e, let r): return "source: E\(e) rule becomes \(r)"
        case .cancelOccurrence(let e, let p): return "source: cancel occurrence #\(p) of E\(e)"
        case .moveOccurrence(let e, let p, let m): return "source: move occurrence #\(p) of E\(e) by \(m) min"
        case .deleteEvent(let e): return "source: delete E\(e)"
        case .userDeletesCopy(let p): return "target: user deletes copy #\(p)"
        case .removeCopies(let alias): return "copy --remove-copies" + (alias ? " (second account name)" : "")
        }
    }

    /// The event an operation is about, if any.
    var event: Int? {
        switch self {
        case .retitle(let e), .shift(let e, _), .toggleAllDay(let e), .changeRule(let e, _), .cancelOccurrence(let e, _),
            .moveOccurrence(let e, _, _), .deleteEvent(let e):
            return e
        case .copy, .userDeletesCopy, .removeCopies: return nil
        }
    }
}

/// A source calendar and a sequence of operations, generated from a seed.
package struct ModelScenario: Sendable, Hashable {
    package var seed: UInt64
    package var sourceKind: ProviderKind
    package var targetKind: ProviderKind
    package var recurrence: CopyRecurrence
    package var events: [ModelEvent]
    package var operations: [ModelOperation]
    /// Indexes into `events` left out by shrinking (operations on them do nothing).
    package var droppedEvents: Set<Int> = []
    /// After shrinking: which of the generated operations `operations` still holds.
    package var operationIndexes: [Int] = []

    /// The listing horizon: every generated date lies well inside it.
    package static let firstDay = LocalDate(year: 2026, month: 12, day: 1)!
    package static let lastDay = LocalDate(year: 2028, month: 2, day: 28)!
    package static var horizon: TimeRange {
        TimeRange(
            start: ModelZones.instant(firstDay, minute: 0, in: "UTC"), end: ModelZones.instant(lastDay, minute: 0, in: "UTC"))
    }
    /// Occurrences compared between the model and a provider's listing: those starting in this range
    /// (well away from the horizon's edges, where listings may differ by a day).
    package static let checkFrom = LocalDate(year: 2026, month: 12, day: 10)!
    package static let checkThrough = LocalDate(year: 2028, month: 2, day: 15)!
    /// The last day a window may end on.
    package static let lastWindowDay = LocalDate(year: 2028, month: 1, day: 31)!

    package var liveEvents: [(Int, ModelEvent)] {
        events.enumerated().filter { !droppedEvents.contains($0.offset) }.map { ($0.offset, $0.element) }
    }

    package var text: String {
        var lines = [
            "seed \(seed): \(sourceKind.rawValue) -> \(targetKind.rawValue), --recurrence \(recurrence.rawValue)"
        ]
        for (i, e) in liveEvents { lines.append("  E\(i) \(e.summary)") }
        for (i, op) in operations.enumerated() { lines.append("  \(i). \(op)") }
        return lines.joined(separator: "\n")
    }

    /// A shrunk replay: only the operations at `operations` and the events at `events` (indexes into
    /// the generated lists, as a failure's replay line names them).
    package func keeping(operations kept: [Int], events keptEvents: [Int]) -> ModelScenario {
        var scenario = self
        scenario.operations = kept.compactMap { operations.indices.contains($0) ? operations[$0] : nil }
        scenario.droppedEvents = Set(events.indices.filter { !keptEvents.contains($0) })
        return scenario
    }

    // MARK: generation

    /// The scenario of a seed. `direction` fixes source and target kinds (sandbox suites); otherwise
    /// they are drawn.
    package static func generate(seed: UInt64, direction: (ProviderKind, ProviderKind)? = nil) -> ModelScenario {
        var r = ModelRandom(seed: seed)
        let kinds: [ProviderKind] = [.google, .microsoft]
        let source = direction?.0 ?? r.pick(kinds)
        let target = direction?.1 ?? r.pick(kinds)
        let recurrence: CopyRecurrence = r.chance(75) ? .series : .instances
        let events = (0..<r.int(2...7)).map { makeEvent(index: $0, &r) }
        var operations: [ModelOperation] = []
        for _ in 0..<r.int(3...9) { operations.append(makeOperation(events, &r)) }
        if !operations.contains(where: { if case .copy = $0 { return true } else { return false } }) {
            operations.insert(.copy(makeRun(&r)), at: 0)
        }
        // Copies made by the previous version (local-name markers) before an upgrade; not mixed with
        // the second account name, which that version could not tell apart anyway.
        let aliased = operations.contains { op in
            switch op {
            case .copy(let run): return run.alias
            case .removeCopies(let alias): return alias
            default: return false
            }
        }
        if !aliased && r.chance(25) {
            var upgraded = false
            operations = operations.map { op in
                guard case .copy(var run) = op, !upgraded else { return op }
                if r.chance(50) { run.legacy = true } else { upgraded = true }
                return .copy(run)
            }
        }
        return ModelScenario(
            seed: seed, sourceKind: source, targetKind: target, recurrence: recurrence, events: events, operations: operations)
    }

    static let year = LocalDate(year: 2027, month: 1, day: 1)!

    static func makeEvent(index: Int, _ r: inout ModelRandom) -> ModelEvent {
        let zone = r.pick(ModelZones.eventZones)
        var date = year.adding(days: r.int(0...330))
        var e = ModelEvent(title: "E\(index)", allDay: false, date: date, minute: 9 * 60, zone: zone, duration: 60)
        switch r.int(0...99) {
        case 0..<22:  // a timed single event, sometimes over several days
            e.minute = plainMinute(date, zone, hours: 0...23, &r)
            e.duration = r.chance(10) ? r.int(25...70) * 60 : r.int(1...40) * 15
        case 22..<30:  // across a DST change of its zone
            let dstZones = ["Europe/Berlin", "America/New_York", "America/Los_Angeles", "Australia/Adelaide", "Australia/Sydney",
                            "Pacific/Auckland", "America/St_Johns", "Europe/London"]
            e.zone = r.pick(dstZones)
            e.date = ModelZones.dstChange(after: date, in: e.zone) ?? date
            e.minute = 30
            e.duration = 240
        case 30..<45:  // all-day, sometimes several days
            e.allDay = true
            e.duration = r.chance(30) ? r.int(2...5) : 1
        default:  // a series
            e.allDay = r.chance(30)
            if !e.allDay {
                e.minute = plainMinute(date, zone, hours: 6...21, &r)
                e.duration = r.int(1...12) * 15
            } else {
                e.duration = r.chance(10) ? 2 : 1
            }
            if date.day > 28 { date = LocalDate(year: date.year, month: date.month, day: 28)! }
            e.date = date
            e.rule = makeRule(first: date, &r)
        }
        return e
    }

    /// A start minute on whole quarter hours that exists exactly once on that date.
    static func plainMinute(_ date: LocalDate, _ zone: String, hours: ClosedRange<Int>, _ r: inout ModelRandom) -> Int {
        for _ in 0..<10 {
            let m = r.int(hours) * 60 + r.pick([0, 15, 30, 45])
            if ModelZones.isPlainWallClock(date, minute: m, in: zone) { return m }
        }
        return 12 * 60
    }

    static func makeRule(first: LocalDate, _ r: inout ModelRandom) -> ModelRule {
        let weekday = ModelZones.weekday(first)
        var rule = ModelRule(pattern: .daily, interval: 1, end: .never)
        switch r.int(0...99) {
        case 0..<20:
            rule.interval = r.int(1...3)
        case 20..<55:
            rule.interval = r.chance(30) && weekday != 6 ? 2 : 1
            var days = Set([weekday])
            for _ in 0..<r.int(0...2) {
                let d = r.int(0...6)
                if rule.interval == 1 || d != 6 { days.insert(d) }
            }
            rule.pattern = .weekly(days: days.sorted())
        case 55..<70:
            rule.pattern = .monthlyDay(first.day)
            rule.interval = r.chance(20) ? 2 : 1
        case 70..<85:
            let length = ModelZones.daysIn(month: first.month, year: first.year)
            let ordinal = first.day + 7 > length && (r.chance(50) || first.day > 28) ? -1 : (first.day - 1) / 7 + 1
            rule.pattern = .monthlyNth(ordinal: ordinal > 4 ? -1 : ordinal, weekday: weekday)
            rule.interval = r.chance(20) ? 2 : 1
        default:
            rule.pattern = .yearly(month: first.month, day: first.day, explicit: r.chance(50))
        }
        switch r.int(0...99) {
        case 0..<40:
            if case .yearly = rule.pattern { rule.end = .count(r.int(1...3)) } else { rule.end = .count(r.int(2...12)) }
        case 40..<70:
            rule.end = .until(first.adding(days: r.int(7...200)))
        default:
            rule.end = .never
        }
        return rule
    }

    static func makeRun(_ r: inout ModelRandom) -> ModelCopyRun {
        let from = year.adding(days: r.int(-20...330))
        let killed = r.chance(20)
        // Windows end well inside the listing horizon (the oracle reads the target over it).
        let to = min(from.adding(days: r.chance(20) ? r.int(0...3) : r.int(4...100)), lastWindowDay)
        return ModelCopyRun(
            from: from, to: to, zone: r.pick(ModelZones.windowZones),
            prune: r.chance(40), alias: r.chance(20), killAfter: killed ? r.int(0...8) : nil, loseResponse: killed && r.chance(50))
    }

    static func makeOperation(_ events: [ModelEvent], _ r: inout ModelRandom) -> ModelOperation {
        let e = r.int(0...(events.count - 1))
        switch r.int(0...99) {
        case 0..<38: return .copy(makeRun(&r))
        case 38..<45: return .retitle(event: e)
        case 45..<52: return .shift(event: e, minutes: r.pick([-1440, -120, -60, 60, 90, 1440, 2 * 1440]))
        case 52..<57: return .toggleAllDay(event: e)
        case 57..<62:
            let first = events[e].date
            return .changeRule(event: e, rule: makeRule(first: first, &r))
        case 62..<73: return .cancelOccurrence(event: e, pick: r.int(0...30))
        case 73..<82: return .moveOccurrence(event: e, pick: r.int(0...30), minutes: r.pick([-120, -60, 30, 60, 180, 1440]))
        case 82..<88: return .deleteEvent(event: e)
        case 88..<96: return .userDeletesCopy(pick: r.int(0...30))
        default: return .removeCopies(alias: r.chance(30))
        }
    }
}
