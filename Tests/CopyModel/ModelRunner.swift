import CalendarBridge
import Foundation

/// An invariant that did not hold (or a step that could not be carried out).
package struct ModelProblem: Error, Sendable, CustomStringConvertible {
    /// A short kind: `duplicate`, `removed`, `missing`, `wrong-time`, `stale-cancelled`, `not-pruned`,
    /// `remove-copies`, `own-touched`, `source-touched`, `source-model`, `run-failed`, `not-converged`, `error`.
    package var code: String
    /// The operation after which it showed (-1: while setting up).
    package var step: Int
    package var detail: String

    package init(code: String, step: Int, detail: String) {
        self.code = code
        self.step = step
        self.detail = detail
    }

    package var description: String { "[\(code)] after step \(step): \(detail)" }
}

/// A copy of something on the target, as the oracle sees it.
struct TargetCopy: Sendable {
    var id: String
    /// The source occurrence it copies (`ModelOccurrence.key`), or `orphan:<source id>`.
    var key: String
    var start: EventTime
    var end: EventTime
    /// An occurrence of a copied series (its master is `seriesID`).
    var seriesID: String?
}

struct TargetSnapshot: Sendable {
    var copies: [String: [TargetCopy]] = [:]
    /// The target's own (non-copy) events, described.
    var own: [String] = []
    var all: [TargetCopy] { copies.keys.sorted().flatMap { copies[$0] ?? [] } }
}

/// Runs one scenario against one world and checks the invariants after every step.
package struct ModelRunner {
    let scenario: ModelScenario
    let world: ModelWorld
    var events: [ModelEvent]
    var sourceIDs: [Int: String] = [:]
    var eventBySourceID: [String: Int] = [:]
    /// Source occurrence ids seen in listings, to their occurrence keys (copies made as instances carry them).
    var keyByOccurrenceID: [String: String] = [:]
    var occurrenceIDByKey: [String: String] = [:]
    var ownBaseline: [String] = []
    var step = -1
    var zoneCache: [String: String] = [:]

    init(scenario: ModelScenario, world: ModelWorld) {
        self.scenario = scenario
        self.world = world
        events = scenario.events
    }

    /// The first problem, or nil when every invariant held after every step.
    package static func run(_ scenario: ModelScenario, on backend: any ModelBackend) async -> ModelProblem? {
        let world: ModelWorld
        do { world = try await backend.world(for: scenario) } catch {
            return ModelProblem(code: "error", step: -1, detail: "no world: \(error)")
        }
        var runner = ModelRunner(scenario: scenario, world: world)
        let problem = await runner.runAll()
        await world.close()
        return problem
    }

    mutating func runAll() async -> ModelProblem? {
        do {
            try await setUp()
            for (index, operation) in scenario.operations.enumerated() {
                step = index
                if let e = operation.event, scenario.droppedEvents.contains(e) { continue }
                try await apply(operation)
                let after = try await snapshot()
                if ProcessInfo.processInfo.environment["CALBRIDGE_MODEL_TRACE"] != nil {
                    print("after \(index). \(operation): target copies")
                    for copy in after.all { print("  \(copy.key) \(ModelKey.text(copy.start)) - \(ModelKey.text(copy.end)) id \(copy.id)") }
                }
                try checkCommon(after)
            }
            return nil
        } catch let problem as ModelProblem {
            return problem
        } catch {
            return ModelProblem(code: "error", step: step, detail: describe(error))
        }
    }

    func describe(_ error: any Error) -> String { (error as? CalendarError)?.description ?? String(describing: error) }

    func fail(_ code: String, _ detail: String) -> ModelProblem { ModelProblem(code: code, step: step, detail: detail) }

    // MARK: setup

    mutating func setUp() async throws {
        for (index, event) in scenario.liveEvents {
            let id: String
            if let made = try await world.createSource?(event) {
                id = made
            } else {
                id = try await world.source.createEvent(event.event, in: world.sourceCalendar.id).id
            }
            sourceIDs[index] = id
            eventBySourceID[id] = index
        }
        let own = [
            Event(
                title: "Own meeting", start: .timed(instant: ModelZones.instant(ModelScenario.year.adding(days: 60), minute: 600, in: "Europe/Berlin"), zone: "Europe/Berlin"),
                end: .timed(instant: ModelZones.instant(ModelScenario.year.adding(days: 60), minute: 660, in: "Europe/Berlin"), zone: "Europe/Berlin")),
            Event(title: "Own holiday", start: .allDay(date: ModelScenario.year.adding(days: 180)), end: .allDay(date: ModelScenario.year.adding(days: 182))),
        ]
        for event in own { _ = try await world.target.createEvent(event, in: world.targetCalendar.id) }
        ownBaseline = try await snapshot().own
        try await checkSource()
    }

    // MARK: operations

    mutating func apply(_ operation: ModelOperation) async throws {
        switch operation {
        case .copy(let run): try await copy(run)
        case .removeCopies(let alias): try await removeCopies(alias: alias)
        case .userDeletesCopy(let pick):
            let copies = try await snapshot().all
            guard !copies.isEmpty else { return }
            let chosen = copies[pick % copies.count]
            try await world.target.deleteEvent(id: chosen.seriesID ?? chosen.id, calendarID: world.targetCalendar.id)
        default:
            guard let index = operation.event, index < events.count, !events[index].deleted, let id = sourceIDs[index] else { return }
            if try await edit(operation, index: index, id: id) { try await checkSource() }
        }
    }

    /// A source edit through the source provider, mirrored in the model. False when it does not apply.
    mutating func edit(_ operation: ModelOperation, index: Int, id: String) async throws -> Bool {
        var e = events[index]
        let calendarID = world.sourceCalendar.id
        switch operation {
        case .retitle:
            e.title += "+"
        case .shift(_, let minutes):
            if e.rule == nil {
                if e.allDay {
                    e.date = e.date.adding(days: max(1, abs(minutes) / 1440) * (minutes < 0 ? -1 : 1))
                } else {
                    guard case .timed(let instant, let zone) = e.start else { return false }
                    let moved = instant.addingTimeInterval(Double(minutes * 60))
                    let local = LocalDateTime(instant: moved, in: ModelZones.zone(zone))
                    let minute = local.hour * 60 + local.minute
                    guard ModelZones.isPlainWallClock(local.date, minute: minute, in: zone) else { return false }
                    e.date = local.date
                    e.minute = minute
                }
            } else {
                guard e.exceptions.isEmpty, !e.allDay else { return false }
                let delta = minutes % 1440 == 0 ? 60 : minutes % 1440
                let minute = e.minute + delta
                guard (6 * 60)...(21 * 60 + 45) ~= minute, ModelZones.isPlainWallClock(e.date, minute: minute, in: e.zone) else {
                    return false
                }
                e.minute = minute
            }
        case .toggleAllDay:
            guard e.exceptions.isEmpty else { return false }
            if e.allDay {
                guard ModelZones.isPlainWallClock(e.date, minute: 540, in: e.zone) else { return false }
                e.allDay = false
                e.minute = 540
                e.duration = 60
            } else {
                e.allDay = true
                e.duration = 1
            }
        case .changeRule(_, let rule):
            guard e.rule != nil, e.exceptions.isEmpty, e.rule != rule else { return false }
            e.rule = rule
        case .deleteEvent:
            try await world.source.deleteEvent(id: id, calendarID: calendarID)
            events[index].deleted = true
            return true
        case .cancelOccurrence(_, let pick), .moveOccurrence(_, let pick, _):
            guard e.rule != nil else { return false }
            let live = ReferenceExpansion.occurrences(of: e, index: index, through: ModelScenario.checkThrough)
                .filter { !$0.cancelled && Self.date($0.start) >= ModelScenario.checkFrom }
            guard !live.isEmpty else { return false }
            let occurrence = live[pick % live.count]
            guard let occurrenceID = occurrenceIDByKey[occurrence.key] else {
                throw fail("source-model", "occurrence \(occurrence.key) of E\(index) was never listed by the source")
            }
            if case .moveOccurrence(_, _, let minutes) = operation {
                let start: EventTime
                let end: EventTime
                switch (occurrence.start, occurrence.end) {
                case (.allDay(let s), .allDay(let f)):
                    start = .allDay(date: s.adding(days: 1))
                    end = .allDay(date: f.adding(days: 1))
                case (.timed(let s, let zone), .timed(let f, let endZone)):
                    let moved = s.addingTimeInterval(Double(minutes * 60))
                    let local = LocalDateTime(instant: moved, in: ModelZones.zone(zone))
                    guard ModelZones.isPlainWallClock(local.date, minute: local.hour * 60 + local.minute, in: zone) else { return false }
                    start = .timed(instant: moved, zone: zone)
                    end = .timed(instant: f.addingTimeInterval(Double(minutes * 60)), zone: endZone)
                default: return false
                }
                var stored = try await world.source.getEvent(id: occurrenceID, calendarID: calendarID)
                stored.start = start
                stored.end = end
                stored.calendarID = calendarID
                _ = try await world.source.updateEvent(stored)
                e.exceptions[occurrence.key] = .moved(start: start, end: end)
            } else {
                try await world.source.deleteEvent(id: occurrenceID, calendarID: calendarID)
                e.exceptions[occurrence.key] = .cancelled
            }
            events[index] = e
            return true
        default:
            return false
        }
        if try await world.updateSource?(e, id) == true {
            events[index] = e
            return true
        }
        var stored = try await world.source.getEvent(id: id, calendarID: calendarID)
        stored.title = e.title
        stored.start = e.start
        stored.end = e.end
        stored.recurrence = e.recurrenceLines.map(Recurrence.init(lines:))
        stored.calendarID = calendarID
        _ = try await world.source.updateEvent(stored)
        events[index] = e
        return true
    }

    /// The source endpoint as the CLI builds it: the account's stable identity (none for the previous
    /// version), under its first or second local name.
    func sourceSide(alias: Bool, legacy: Bool = false) async throws -> CopyEngine.Endpoint {
        let provider = alias ? world.sourceAlias : world.source
        var calendar = world.sourceCalendar
        calendar.account = provider.account
        var identity: String?
        if !legacy {
            if let stored = world.sourceIdentity {
                identity = stored
            } else {
                identity = try await provider.userInfo().accountIdentity
            }
        }
        return .init(provider: provider, calendar: calendar, accountIdentity: identity)
    }

    mutating func copy(_ run: ModelCopyRun) async throws {
        let before = try await snapshot()
        let sourceBefore = try await sourceState()
        let kill = run.killAfter.map { KillSwitch(after: $0, loseResponse: run.loseResponse) }
        let target: any CalendarProvider = kill.map { KilledProvider(world.target, kill: $0) } ?? world.target
        let engine = CopyEngine(
            source: try await sourceSide(alias: run.alias, legacy: run.legacy),
            target: .init(provider: target, calendar: world.targetCalendar),
            options: ModelCopy.options(run, recurrence: scenario.recurrence))
        let result: CopyResult
        do { result = try await engine.run() } catch { throw fail("run-failed", "the run threw: \(describe(error))") }
        if ProcessInfo.processInfo.environment["CALBRIDGE_MODEL_TRACE"] != nil {
            for item in result.items {
                print("  run: \(item.action.rawValue) \(item.status.rawValue) \(item.title) \(item.start ?? "") \(item.reason ?? "") \(item.error ?? "")")
            }
        }
        let after = try await snapshot()
        if try await sourceState() != sourceBefore { throw fail("source-touched", "the copy changed the source calendar") }
        try checkCommon(after)
        try checkRemovals(before: before, after: after)
        guard run.killAfter == nil else { return }
        if result.failed > 0 {
            throw fail("run-failed", "\(result.failed) failed: " + result.errors.prefix(3).map(\.message).joined(separator: "; "))
        }
        try checkComplete(after, run)
        if scenario.recurrence == .series { try checkCancelledMirrored(after, run) }
        if run.prune { try checkPruned(after, run) }
        // Converged: the same copy again has nothing left to write.
        var again = engine
        again.target = .init(provider: world.target, calendar: world.targetCalendar)
        again.options.dryRun = true
        let second = try await again.run()
        let pending = second.items.filter { [.create, .update, .delete].contains($0.action) }
        if !pending.isEmpty {
            throw fail(
                "not-converged",
                "a second identical run would still write: "
                    + pending.prefix(4).map { "\($0.action.rawValue) \($0.title) \($0.start ?? "") (\($0.reason ?? ""))" }.joined(separator: "; "))
        }
    }

    mutating func removeCopies(alias: Bool) async throws {
        let sourceBefore = try await sourceState()
        let removed = try await ModelCopy.removeCopies(
            source: try await sourceSide(alias: alias), target: .init(provider: world.target, calendar: world.targetCalendar))
        let after = try await snapshot()
        if try await sourceState() != sourceBefore { throw fail("source-touched", "--remove-copies changed the source calendar") }
        if !after.copies.isEmpty {
            throw fail("remove-copies", "--remove-copies reported \(removed) removed and left \(after.all.count): \(after.copies.keys.sorted().prefix(5))")
        }
    }

    // MARK: invariants

    /// After every step: no source occurrence has two copies; the target's own events are untouched.
    func checkCommon(_ snapshot: TargetSnapshot) throws {
        for (key, copies) in snapshot.copies.sorted(by: { $0.key < $1.key }) where copies.count > 1 {
            throw fail("duplicate", "\(key) \(describeOccurrence(key)) has \(copies.count) copies: \(copies.map { ModelKey.text($0.start) })")
        }
        if snapshot.own != ownBaseline {
            throw fail("own-touched", "the target's own events changed: \(ownBaseline) -> \(snapshot.own)")
        }
    }

    /// No copy of an occurrence that still exists in the source was removed or cancelled.
    func checkRemovals(before: TargetSnapshot, after: TargetSnapshot) throws {
        let live = oracle()
        for key in before.copies.keys.sorted() where after.copies[key] == nil {
            if let o = live[key], !o.cancelled {
                throw fail("removed", "the copy of \(key) \(describeOccurrence(key)) was removed or cancelled although the source still has it")
            }
        }
    }

    /// After a completed run: every source occurrence inside the window has exactly one copy with the
    /// same instants, zone and all-day dates.
    func checkComplete(_ after: TargetSnapshot, _ run: ModelCopyRun) throws {
        for o in oracle().values.sorted(by: { $0.key < $1.key }) where !o.cancelled {
            guard inside(o.start, o.end, run), inside(o.original, o.originalEnd, run) else { continue }
            let copies = after.copies[o.key] ?? []
            guard let copy = copies.first else {
                throw fail("missing", "\(o.key) \(describeOccurrence(o.key)) is inside the window and has no copy")
            }
            if !sameTime(copy.start, o.start) || !sameTime(copy.end, o.end) {
                throw fail(
                    "wrong-time",
                    "\(o.key) \(describeOccurrence(o.key)): copy is \(ModelKey.text(copy.start)) - \(ModelKey.text(copy.end))")
            }
        }
    }

    /// After a completed series run: an occurrence cancelled in a source series that still exists is
    /// gone from the copied series inside the window.
    func checkCancelledMirrored(_ after: TargetSnapshot, _ run: ModelCopyRun) throws {
        let all = oracle()
        for copy in after.all where copy.seriesID != nil {
            guard let o = all[copy.key], o.cancelled, !events[o.event].deleted, inside(o.original, o.originalEnd, run) else { continue }
            throw fail("stale-cancelled", "\(copy.key) \(describeOccurrence(copy.key)) is cancelled in the source and still on the target")
        }
    }

    /// After a completed run with --prune: no copy inside the window whose source is gone remains.
    func checkPruned(_ after: TargetSnapshot, _ run: ModelCopyRun) throws {
        let all = oracle()
        for copy in after.all where inside(copy.start, copy.end, run) {
            if let o = all[copy.key], !o.cancelled { continue }
            throw fail("not-pruned", "\(copy.key) \(describeOccurrence(copy.key)) is gone from the source; its copy \(ModelKey.text(copy.start)) remains")
        }
    }

    // MARK: the oracle

    /// Every occurrence of every model event, by key.
    func oracle() -> [String: ModelOccurrence] {
        var result: [String: ModelOccurrence] = [:]
        for (index, event) in events.enumerated() where !scenario.droppedEvents.contains(index) {
            for o in ReferenceExpansion.occurrences(of: event, index: index, through: ModelScenario.lastDay) { result[o.key] = o }
        }
        return result
    }

    func describeOccurrence(_ key: String) -> String {
        guard let o = oracle()[key] else { return "(gone from the source)" }
        let e = events[o.event]
        return "(E\(o.event) \"\(e.title)\" \(ModelKey.text(o.start))\(o.cancelled ? ", cancelled" : ""))"
    }

    /// Wholly inside the window: timed, within its instants; all-day, within its dates (`--from` through
    /// `--to` in the window's zone: the window is one range in one zone).
    func inside(_ start: EventTime, _ end: EventTime, _ run: ModelCopyRun) -> Bool {
        switch (start, end) {
        case (.allDay(let s), .allDay(let e)): return s >= run.from && e <= run.to.adding(days: 1)
        case (.timed(let a, _), .timed(let b, _)):
            let range = run.range
            return a >= range.start && b <= range.end
        default: return false
        }
    }

    func sameTime(_ a: EventTime, _ b: EventTime) -> Bool {
        switch (a, b) {
        case (.allDay(let x), .allDay(let y)): return x == y
        case (.timed(let i, let z1), .timed(let j, let z2)):
            return abs(i.timeIntervalSince(j)) < 0.5 && ModelZones.equivalent(z1, z2)
        default: return false
        }
    }

    static func date(_ time: EventTime) -> LocalDate {
        switch time {
        case .allDay(let d): return d
        case .timed(let instant, _): return ModelZones.date(of: instant, in: "UTC")
        }
    }

    // MARK: reading the providers

    /// The target's copies of this source, keyed by the source occurrence they copy.
    func snapshot() async throws -> TargetSnapshot {
        let calendarID = world.targetCalendar.id
        let plain = try await world.target.listEvents(calendarID: calendarID, range: ModelScenario.horizon, expand: false)
        let expanded = try await world.target.listEvents(calendarID: calendarID, range: ModelScenario.horizon, expand: true)
        var masters: [String: OriginMarker] = [:]
        for e in plain where e.recurrence != nil { masters[e.id] = e.origin }
        var snapshot = TargetSnapshot()
        for e in expanded where e.status != .cancelled {
            let origin = e.seriesID.flatMap { masters[$0] } ?? e.origin
            guard let origin, origin.calendarID == world.sourceCalendar.id else {
                snapshot.own.append("\(e.title) \(ModelKey.text(e.start)) - \(ModelKey.text(e.end))")
                continue
            }
            let key: String
            if let index = eventBySourceID[origin.eventID] {
                key = e.seriesID != nil ? ModelKey.occurrence(index, e.originalStart ?? e.start) : ModelKey.single(index)
            } else if let known = keyByOccurrenceID[origin.eventID] {
                key = known
            } else {
                key = "orphan:\(origin.eventID)"
            }
            snapshot.copies[key, default: []].append(TargetCopy(id: e.id, key: key, start: e.start, end: e.end, seriesID: e.seriesID))
        }
        snapshot.own.sort()
        return snapshot
    }

    /// The source as stored (unexpanded), to see that copying never changes it.
    func sourceState() async throws -> [String] {
        try await world.source.listEvents(calendarID: world.sourceCalendar.id, range: ModelScenario.horizon, expand: false)
            .map { "\($0.id) \($0.title) \(ModelKey.text($0.start)) \(ModelKey.text($0.end)) \($0.recurrence?.lines ?? []) \($0.status)" }
            .sorted()
    }

    /// The source provider's expansion must be the model's own (else the oracle would judge the engine
    /// against something the source does not hold). Also learns the source's occurrence ids.
    mutating func checkSource() async throws {
        let listed = try await world.source.listEvents(
            calendarID: world.sourceCalendar.id, range: ModelScenario.horizon, expand: true)
        var provider: Set<String> = []
        for e in listed where e.status != .cancelled {
            let key: String
            if let seriesID = e.seriesID {
                guard let index = eventBySourceID[seriesID] else { throw fail("source-model", "unknown series \(seriesID) in the source") }
                key = ModelKey.occurrence(index, e.originalStart ?? e.start)
                keyByOccurrenceID[e.id] = key
                occurrenceIDByKey[key] = e.id
            } else {
                guard let index = eventBySourceID[e.id] else { throw fail("source-model", "unknown event \(e.id) \(e.title) in the source") }
                key = ModelKey.single(index)
            }
            guard (ModelScenario.checkFrom...ModelScenario.checkThrough).contains(Self.date(e.start)) else { continue }
            provider.insert(line(key, e.start, e.end))
        }
        var model: Set<String> = []
        for o in oracle().values where !o.cancelled {
            guard (ModelScenario.checkFrom...ModelScenario.checkThrough).contains(Self.date(o.start)) else { continue }
            model.insert(line(o.key, o.start, o.end))
        }
        if provider != model && ProcessInfo.processInfo.environment["CALBRIDGE_MODEL_LAX_SOURCE"] == nil {
            throw fail(
                "source-model",
                "the source lists \(provider.subtracting(model).sorted().prefix(4)) that the model lacks, and lacks \(model.subtracting(provider).sorted().prefix(4))")
        }
    }

    func line(_ key: String, _ start: EventTime, _ end: EventTime) -> String {
        func time(_ t: EventTime) -> String {
            switch t {
            case .allDay(let d): return d.description
            case .timed(let instant, let zone):
                let canonical = ModelZones.eventZones.first { ModelZones.equivalent($0, zone) } ?? zone
                return "\(Int64(instant.timeIntervalSince1970))@\(canonical)"
            }
        }
        return "\(key) \(time(start)) \(time(end))"
    }
}
