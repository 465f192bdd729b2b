import CalendarBridge
import CopyModel
import Foundation
import Sync
import TestSupport

/// The two calendars a model run syncs: in memory (`InMemorySyncCalendars`) or the sandbox through the
/// real providers (ProvidersTests).
package protocol SyncModelCalendars: Sendable {
    /// Where the generated events are dated from (the engine's clock for the run).
    var now: Date { get }
    func provider(_ side: SyncSide) -> any ChangeReadingProvider
    func calendar(_ side: SyncSide) -> String
    /// Makes the side's change cursors expire (Google 410 `fullSyncRequired`, Graph 410).
    func expireCursors(_ side: SyncSide) async
}

/// Side A an in-memory Google calendar, side B an in-memory Outlook one.
package struct InMemorySyncCalendars: SyncModelCalendars {
    package static let now = Date(timeIntervalSince1970: 1_796_126_400)  // 2026-12-01T12:00:00Z
    package let a = InMemoryCalendarProvider(
        provider: .google, account: "home", calendars: [CalendarInfo(id: "home", name: "Home", account: "home", provider: .google, accessRole: .owner)])
    package let b = InMemoryCalendarProvider(
        provider: .microsoft, account: "work", calendars: [CalendarInfo(id: "work", name: "Work", account: "work", provider: .microsoft, accessRole: .owner)])

    package init() {}
    package var now: Date { InMemorySyncCalendars.now }
    package func memory(_ side: SyncSide) -> InMemoryCalendarProvider { side == .a ? a : b }
    package func provider(_ side: SyncSide) -> any ChangeReadingProvider { memory(side) }
    package func calendar(_ side: SyncSide) -> String { side == .a ? "home" : "work" }
    package func expireCursors(_ side: SyncSide) async { await memory(side).expireChangeCursors() }
}

/// The model-based two-way sync test: random edits on both sides between syncs, killed runs, expired
/// cursors; after the quiet runs that follow, both sides must hold the same events.
///
/// Side A imitates Google (masters in change reads, markers everywhere), side B Outlook (occurrences only,
/// no markers in change reads, removals by id). Every event's title starts with its logical number
/// (`E12:`), which is how the oracle follows it across both sides and through conflicts.
/// Seeds and replay as in the copy model test: `CALBRIDGE_MODEL_SEQUENCES`, `_FIRST_SEED`, `_SEED`.
package struct SyncModel {
    enum Step: CustomStringConvertible {
        case create(SyncSide, n: Int, kind: Int, day: Int, minute: Int)
        case retitle(SyncSide, pick: Int)
        case shift(SyncSide, pick: Int, minutes: Int)
        case toggleAllDay(SyncSide, pick: Int)
        case delete(SyncSide, pick: Int)
        /// Both sides edit the same event (a conflict).
        case bothRetitle(pick: Int)
        case cancelOccurrence(SyncSide, pick: Int, occurrence: Int)
        case moveOccurrence(SyncSide, pick: Int, occurrence: Int, minutes: Int)
        /// Both sides move the same occurrence of a series (a conflict unless both land at the same time).
        case bothMoveOccurrence(pick: Int, occurrence: Int, minutesA: Int, minutesB: Int, first: SyncSide)
        /// One side cancels an occurrence the other side moves.
        case cancelAndMoveOccurrence(cancelOn: SyncSide, pick: Int, occurrence: Int, minutes: Int)
        case sync
        /// A run killed after `writes` writes (the next one applied but its answer lost when `lose`).
        case killedSync(writes: Int, lose: Bool)
        case expireCursor(SyncSide)

        var description: String {
            switch self {
            case .create(let s, let n, let k, let d, let m): return "\(s): create E\(n) kind \(k) day \(d) minute \(m)"
            case .retitle(let s, let p): return "\(s): retitle #\(p)"
            case .shift(let s, let p, let m): return "\(s): shift #\(p) by \(m) min"
            case .toggleAllDay(let s, let p): return "\(s): toggle all-day #\(p)"
            case .delete(let s, let p): return "\(s): delete #\(p)"
            case .bothRetitle(let p): return "both: retitle #\(p)"
            case .cancelOccurrence(let s, let p, let o): return "\(s): cancel occurrence \(o) of #\(p)"
            case .moveOccurrence(let s, let p, let o, let m): return "\(s): move occurrence \(o) of #\(p) by \(m) min"
            case .bothMoveOccurrence(let p, let o, let ma, let mb, let first):
                return "both: move occurrence \(o) of #\(p), A by \(ma) min, B by \(mb) min, \(first) first"
            case .cancelAndMoveOccurrence(let s, let p, let o, let m):
                return "\(s): cancel occurrence \(o) of #\(p), \(s.other): move it by \(m) min"
            case .sync: return "sync"
            case .killedSync(let w, let l): return "sync killed after \(w) writes" + (l ? " (answer of the next lost)" : "")
            case .expireCursor(let s): return "\(s): cursor expires (410)"
            }
        }
    }

    static let options = SyncPairOptions(direction: .both, fields: .basic, pastDays: 7, futureDays: 60, conflict: .newer)

    /// A random sequence of steps for `seed`.
    static func steps(seed: UInt64) -> [Step] {
        var random = ModelRandom(seed: seed)
        // The same occurrence edited on both sides, drawn from a stream of its own so that the main stream
        // (and the sequences of the seeds kept as replays) stays as it was.
        var both = ModelRandom(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        var steps: [Step] = []
        var next = 1
        for _ in 0..<random.int(1...3) {
            steps.append(.create(random.chance(50) ? .a : .b, n: next, kind: random.int(0...2), day: random.int(-4...40), minute: random.int(0...95) * 15))
            next += 1
        }
        steps.append(.sync)
        for _ in 0..<random.int(4...12) {
            let side: SyncSide = random.chance(50) ? .a : .b
            let pick = random.int(0...20)
            switch random.int(0...13) {
            case 0, 1: steps.append(.create(side, n: next, kind: random.int(0...2), day: random.int(-4...40), minute: random.int(0...95) * 15)); next += 1
            case 2: steps.append(.retitle(side, pick: pick))
            case 3: steps.append(.shift(side, pick: pick, minutes: random.pick([-1440, -90, 30, 60, 1440, 2880])))
            case 4: steps.append(.toggleAllDay(side, pick: pick))
            case 5: steps.append(.delete(side, pick: pick))
            case 6: steps.append(.bothRetitle(pick: pick))
            case 7:
                let occurrence = random.int(0...4)
                if both.chance(30) {
                    steps.append(.cancelAndMoveOccurrence(cancelOn: side, pick: pick, occurrence: occurrence, minutes: both.pick([-60, 45, 120])))
                } else {
                    steps.append(.cancelOccurrence(side, pick: pick, occurrence: occurrence))
                }
            case 8:
                let occurrence = random.int(0...4), minutes = random.pick([-60, 45, 120])
                if both.chance(30) {
                    let (ma, mb) = side == .a ? (minutes, both.pick([-60, 45, 120])) : (both.pick([-60, 45, 120]), minutes)
                    steps.append(.bothMoveOccurrence(pick: pick, occurrence: occurrence, minutesA: ma, minutesB: mb, first: both.chance(50) ? .a : .b))
                } else {
                    steps.append(.moveOccurrence(side, pick: pick, occurrence: occurrence, minutes: minutes))
                }
            case 9: steps.append(.killedSync(writes: random.int(0...4), lose: random.chance(50)))
            case 10: steps.append(.expireCursor(side))
            default: steps.append(.sync)
            }
        }
        return steps
    }

    // MARK: the world

    let calendars: any SyncModelCalendars
    let directory: TemporaryDirectory
    let store: SQLiteSyncStateStore
    let engine: SyncEngine
    let now: Date
    /// Set for a killed run: the engine's writes go through it.
    var kill: KillSwitch?
    var trace: [String] = []
    /// Logical events and whether the oracle expects them to exist after the quiet runs.
    var alive: [Int: Bool] = [:]
    /// Logical events edited on each side since the last completed sync.
    var edited: [SyncSide: Set<Int>] = [.a: [], .b: []]
    var deletedOn: [SyncSide: Set<Int>] = [.a: [], .b: []]
    /// Occurrences edited since the last completed sync, by series and original start: each side's last edit.
    var occurrenceEdits: [OccurrenceRef: [SyncSide: OccurrenceEdit]] = [:]
    /// The conflicts rows the oracle has already accounted for.
    var conflictRowsSeen = 0
    /// An occurrence edited on both sides that the completed sync after it did not settle as the rule says.
    var occurrenceProblem: String?
    var conflictsReported = 0
    var counter = 0

    init(_ calendars: any SyncModelCalendars) async throws {
        self.calendars = calendars
        now = calendars.now
        directory = try TemporaryDirectory(prefix: "calbridge-sync-model")
        store = try SQLiteSyncStateStore(url: directory.url.appendingPathComponent("home").appendingPathComponent("sync.db"))
        let clock = now
        engine = SyncEngine(store: store, zone: TimeZone(identifier: "UTC")!, now: { clock })
        try await store.addPair(name: "p", sideA: "a", sideB: "b", options: Self.options, at: now)
    }

    func provider(_ side: SyncSide) -> any ChangeReadingProvider { calendars.provider(side) }
    func calendar(_ side: SyncSide) -> String { calendars.calendar(side) }

    /// What the engine writes through: the side's provider, or in a killed run, the dying one.
    func endpoint(_ side: SyncSide) -> SyncEngine.Endpoint {
        let base = provider(side)
        let writer: any ChangeReadingProvider = kill.map { KilledProvider(base, kill: $0) } ?? base
        return SyncEngine.Endpoint(provider: writer, calendarID: calendar(side), accountIdentity: side == .a ? "a-id" : "b-id")
    }

    /// The logical number in a title (`E12: ...`).
    static func number(_ title: String) -> Int? {
        guard title.hasPrefix("E"), let colon = title.firstIndex(of: ":") else { return nil }
        return Int(title[title.index(after: title.startIndex)..<colon])
    }

    /// The side's single events and masters, in a stable order (what `pick` chooses among).
    func units(_ side: SyncSide) async throws -> [Event] {
        let range = TimeRange(start: now.addingTimeInterval(-400 * 86_400), end: now.addingTimeInterval(400 * 86_400))
        return try await provider(side).listEvents(calendarID: calendar(side), range: range, expand: false)
            .filter { $0.seriesID == nil && $0.status != .cancelled }
            .sorted { $0.title < $1.title || ($0.title == $1.title && $0.id < $1.id) }
    }

    mutating func pick(_ side: SyncSide, _ n: Int, series: Bool? = nil) async throws -> Event? {
        var list = try await units(side)
        if let series { list = list.filter { ($0.recurrence != nil) == series } }
        guard !list.isEmpty else { return nil }
        return list[n % list.count]
    }

    mutating func edit(_ side: SyncSide, _ event: Event) {
        if let n = Self.number(event.title) { edited[side, default: []].insert(n) }
    }

    // MARK: running

    mutating func apply(_ step: Step) async throws -> String? {
        trace.append(step.description)
        counter += 1
        switch step {
        case .create(let side, let n, let kind, let day, let minute):
            let date = LocalDate(instant: now, in: TimeZone(identifier: "UTC")!).adding(days: day)
            let zone = kind == 1 ? "America/New_York" : "Europe/Berlin"
            let tz = TimeZone(identifier: zone)!
            let start = LocalDateTime(date: date, hour: minute / 60 % 24, minute: minute % 60, second: 0).instant(in: tz)
            var event = Event(title: "E\(n): new", start: .timed(instant: start, zone: zone), end: .timed(instant: start.addingTimeInterval(3600), zone: zone))
            if kind == 2 {
                event = Event(title: "E\(n): day", start: .allDay(date: date), end: .allDay(date: date.adding(days: 1)))
            }
            if kind == 1 { event.recurrence = Recurrence(lines: ["RRULE:FREQ=WEEKLY;COUNT=5"]) }
            _ = try await provider(side).createEvent(event, in: calendar(side))
            alive[n] = true
            edited[side, default: []].insert(n)
        case .retitle(let side, let p):
            guard var e = try await pick(side, p) else { return nil }
            e.title = retitled(e.title, side)
            // A person's edit in Outlook or Google writes what they changed, nothing else.
            _ = try await provider(side).updateEvent(e, fields: .title)
            edit(side, e)
        case .bothRetitle(let p):
            guard let e = try await pick(.a, p), let n = Self.number(e.title),
                let other = try await units(.b).first(where: { Self.number($0.title) == n })
            else { return nil }
            var ea = e
            ea.title = retitled(e.title, .a)
            _ = try await provider(.a).updateEvent(ea, fields: .title)
            var eb = other
            eb.title = retitled(other.title, .b)
            _ = try await provider(.b).updateEvent(eb, fields: .title)
            edit(.a, ea)
            edit(.b, eb)
        case .shift(let side, let p, let minutes):
            guard var e = try await pick(side, p) else { return nil }
            e.start = Self.shifted(e.start, minutes)
            e.end = Self.shifted(e.end, minutes)
            e.title = retitled(e.title, side)  // every edit is a change, even one that undoes an earlier one
            _ = try await provider(side).updateEvent(e, fields: [.title, .times])
            edit(side, e)
        case .toggleAllDay(let side, let p):
            guard var e = try await pick(side, p, series: false) else { return nil }
            switch e.start {
            case .allDay(let date):
                let start = LocalDateTime(date: date, hour: 9, minute: 0, second: 0).instant(in: TimeZone(identifier: "Europe/Berlin")!)
                e.start = .timed(instant: start, zone: "Europe/Berlin")
                e.end = .timed(instant: start.addingTimeInterval(1800), zone: "Europe/Berlin")
            case .timed(let instant, let zone):
                let date = LocalDate(instant: instant, in: TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")!)
                e.start = .allDay(date: date)
                e.end = .allDay(date: date.adding(days: 1))
            }
            e.title = retitled(e.title, side)
            _ = try await provider(side).updateEvent(e, fields: [.title, .times])
            edit(side, e)
        case .delete(let side, let p):
            guard let e = try await pick(side, p), let n = Self.number(e.title) else { return nil }
            try await provider(side).deleteEvent(id: e.id, calendarID: calendar(side))
            deletedOn[side, default: []].insert(n)
        case .cancelOccurrence(let side, let p, let o), .moveOccurrence(let side, let p, let o, _):
            guard let master = try await pick(side, p, series: true), let n = Self.number(master.title) else { return nil }
            let occurrences = try await occurrences(side, of: master)
            guard !occurrences.isEmpty else { return nil }
            let occurrence = occurrences[o % occurrences.count]
            if case .moveOccurrence(_, _, _, let minutes) = step {
                try await moveOccurrence(side, occurrence, n: n, minutes: minutes)
            } else {
                try await cancelOccurrence(side, occurrence, n: n)
            }
        case .bothMoveOccurrence(let p, let o, _, _, _), .cancelAndMoveOccurrence(_, let p, let o, _):
            // The occurrence with the same original start in both sides' copies of the series.
            guard let masterA = try await pick(.a, p, series: true), let n = Self.number(masterA.title),
                let masterB = try await units(.b).first(where: { Self.number($0.title) == n && $0.recurrence != nil })
            else { return nil }
            let onA = try await occurrences(.a, of: masterA)
            guard !onA.isEmpty else { return nil }
            let ea = onA[o % onA.count]
            guard let eb = try await occurrences(.b, of: masterB).first(where: { Self.key($0) == Self.key(ea) }) else { return nil }
            if case .bothMoveOccurrence(_, _, let ma, let mb, let first) = step {
                // The later edit is the newer one (the pair's rule); a tick between them, as a person's would be.
                try await moveOccurrence(first, first == .a ? ea : eb, n: n, minutes: first == .a ? ma : mb)
                try await Task.sleep(for: .milliseconds(2))
                try await moveOccurrence(first.other, first == .a ? eb : ea, n: n, minutes: first == .a ? mb : ma)
            } else if case .cancelAndMoveOccurrence(let cancelOn, _, _, let minutes) = step {
                try await cancelOccurrence(cancelOn, cancelOn == .a ? ea : eb, n: n)
                try await moveOccurrence(cancelOn.other, cancelOn == .a ? eb : ea, n: n, minutes: minutes)
            }
        case .sync:
            try await sync()
        case .killedSync(let writes, let lose):
            kill = KillSwitch(after: writes, loseResponse: lose)
            _ = try? await engine.run(pair: "p", a: endpoint(.a), b: endpoint(.b), options: Self.options)
            kill = nil
            // The oracle follows completed syncs only: the next run finishes what the killed one began.
            try await sync(afterKill: true)
        case .expireCursor(let side):
            await calendars.expireCursors(side)
        }
        return nil
    }

    /// An occurrence of logical event `n`'s series, by its original start.
    struct OccurrenceRef: Hashable, Comparable {
        var n: Int
        var key: String
        static func < (x: OccurrenceRef, y: OccurrenceRef) -> Bool { (x.n, x.key) < (y.n, y.key) }
    }

    /// A side's last edit of an occurrence: moved (to `start`, from `from`, where it was at the last completed
    /// sync; the service's last-modified time) or cancelled.
    enum OccurrenceEdit: Equatable {
        case moved(start: Date, updated: Date?, from: Date)
        case cancelled

        /// Moved back to where it was at the last sync: for a sync that compares each side with what it last
        /// synced, no change (a move away and back is no edit, however late it came).
        var isUnchanged: Bool {
            if case .moved(let start, _, let from) = self { return start == from }
            return false
        }
    }

    static func key(_ e: Event) -> String { OccurrenceKey(e.originalStart ?? e.start).description }

    func occurrences(_ side: SyncSide, of master: Event) async throws -> [Event] {
        let window = Self.options.window(now: now, zone: TimeZone(identifier: "UTC")!)
        return try await provider(side).listEvents(calendarID: calendar(side), range: window.range, expand: true)
            .filter { $0.seriesID == master.id && $0.status != .cancelled }
    }

    mutating func moveOccurrence(_ side: SyncSide, _ occurrence: Event, n: Int, minutes: Int) async throws {
        var moved = occurrence
        moved.start = Self.shifted(moved.start, minutes)
        moved.end = Self.shifted(moved.end, minutes)
        let written = try await provider(side).updateEvent(moved, fields: .times)
        let ref = OccurrenceRef(n: n, key: Self.key(occurrence))
        // Where it was at the last sync: before this side's first move of it since.
        var from = Self.instant(occurrence.start)
        if case .moved(_, _, let earlier)? = occurrenceEdits[ref]?[side] { from = earlier }
        occurrenceEdits[ref, default: [:]][side] = .moved(start: Self.instant(written.start), updated: written.updated, from: from)
    }

    mutating func cancelOccurrence(_ side: SyncSide, _ occurrence: Event, n: Int) async throws {
        try await provider(side).deleteEvent(id: occurrence.id, calendarID: calendar(side))
        occurrenceEdits[OccurrenceRef(n: n, key: Self.key(occurrence)), default: [:]][side] = .cancelled
    }

    static func instant(_ time: EventTime) -> Date { time.instant(allDayZone: TimeZone(identifier: "UTC")!) }

    /// What the oracle expects of an occurrence edited on both sides: where it ends up on both (nil:
    /// cancelled), and the conflict (winner, A's and B's start, nil for a cancellation) when there is one.
    /// Moved on both: the pair's rule (`newer`: the later last-modified time, A when equal) unless both moved
    /// it to the same time. Cancelled against a move: the move wins where the cancelled side can restore the
    /// occurrence (A, Google-like), the cancellation wins as a conflict where it cannot (B, Outlook-like).
    /// A side that moved it back to where it was at the last sync did not change it: the other side's edit
    /// stands, no conflict.
    static func expectation(a: OccurrenceEdit, b: OccurrenceEdit) -> (end: Date?, conflict: (winner: SyncSide, a: Date?, b: Date?)?) {
        switch (a, b) {
        case (.cancelled, .cancelled): return (nil, nil)
        case (.cancelled, .moved(let sb, _, _)): return (b.isUnchanged ? nil : sb, nil)
        case (.moved(let sa, _, _), .cancelled): return a.isUnchanged ? (nil, nil) : (nil, (.b, sa, nil))
        case (.moved(let sa, let ua, _), .moved(let sb, let ub, _)):
            if sa == sb { return (sa, nil) }
            if b.isUnchanged { return (sa, nil) }
            if a.isUnchanged { return (sb, nil) }
            let winner: SyncSide = (ub ?? .distantPast) > (ua ?? .distantPast) ? .b : .a
            return (winner == .a ? sa : sb, (winner, sa, sb))
        }
    }

    /// After a completed sync: each occurrence edited on both sides (of a series neither side otherwise
    /// edited, deleted or created meanwhile) is where the rule puts it on both sides, and its conflict is in
    /// the state with both versions. Nil when all hold.
    mutating func checkOccurrences(_ collisions: [(OccurrenceRef, OccurrenceEdit, OccurrenceEdit)], report: SyncReport, afterKill: Bool) async throws -> String? {
        let rows = try await store.read { try $0.conflicts(pair: "p") }
        let fresh = rows.dropFirst(conflictRowsSeen)
        conflictRowsSeen = rows.count
        guard !collisions.isEmpty else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let versions = fresh.compactMap { row -> (SyncSide, Event, Event)? in
            guard let a = try? decoder.decode(Event.self, from: Data(row.versionA.utf8)),
                let b = try? decoder.decode(Event.self, from: Data(row.versionB.utf8)), a.seriesID != nil || b.seriesID != nil
            else { return nil }
            return (row.winner, a, b)
        }
        for (ref, a, b) in collisions {
            let expected = Self.expectation(a: a, b: b)
            if ProcessInfo.processInfo.environment["CALBRIDGE_MODEL_TRACE"] != nil {
                print("  E\(ref.n) occurrence \(ref.key) edited on both sides: A \(a), B \(b); expected \(expected.conflict.map { "a conflict won by \($0.winner)" } ?? "no conflict")")
            }
            for side in SyncSide.allCases {
                guard let master = try await units(side).first(where: { Self.number($0.title) == ref.n && $0.recurrence != nil }) else {
                    return "E\(ref.n): no series on side \(side) after its occurrence \(ref.key) was edited on both sides"
                }
                let found = try await occurrences(side, of: master).first { Self.key($0) == ref.key }.map { Self.instant($0.start) }
                if found != expected.end {
                    return "E\(ref.n): occurrence \(ref.key) edited on both sides (A \(a), B \(b)) is at \(found.map { "\($0)" } ?? "nothing (cancelled)") on side \(side), not \(expected.end.map { "\($0)" } ?? "cancelled")"
                }
            }
            guard let conflict = expected.conflict else { continue }
            func matches(_ winner: SyncSide, _ va: Event, _ vb: Event) -> Bool {
                func start(_ e: Event) -> Date? { e.status == .cancelled ? nil : Self.instant(e.start) }
                return winner == conflict.winner && Self.key(va) == ref.key && start(va) == conflict.a && start(vb) == conflict.b
            }
            if !versions.contains(where: matches) {
                return "E\(ref.n): occurrence \(ref.key) edited on both sides (A \(a), B \(b)): no conflict kept with \(conflict.winner) winning and both versions"
            }
            // A killed run before the sync may have reported it (and kept it) already.
            if !afterKill && !report.conflicts.contains(where: { matches($0.winner, $0.a, $0.b) }) {
                return "E\(ref.n): occurrence \(ref.key) edited on both sides (A \(a), B \(b)): the sync did not report its conflict"
            }
        }
        return nil
    }

    func dump(_ label: String) async {
        print("== after \(label)")
        for side in SyncSide.allCases {
            let all = (try? await provider(side).listEvents(calendarID: calendar(side), range: TimeRange(start: now.addingTimeInterval(-400 * 86_400), end: now.addingTimeInterval(400 * 86_400)), expand: false)) ?? []
            for e in all { print("  \(side) \(e.id.prefix(12)) \(e.title) \(e.status) series=\(e.seriesID?.prefix(8) ?? "-") rec=\(e.recurrence != nil) origin=\(e.origin?.eventID.prefix(8) ?? "-")") }
        }
    }

    func retitled(_ title: String, _ side: SyncSide) -> String {
        let prefix = title.split(separator: ":").first.map(String.init) ?? title
        return "\(prefix): \(side.rawValue)\(counter)"
    }

    static func shifted(_ time: EventTime, _ minutes: Int) -> EventTime {
        switch time {
        case .allDay(let date): return .allDay(date: date.adding(days: minutes >= 0 ? max(1, minutes / 1440) : min(-1, minutes / 1440)))
        case .timed(let instant, let zone): return .timed(instant: instant.addingTimeInterval(Double(minutes) * 60), zone: zone)
        }
    }

    /// A completed sync: the oracle settles deletions (a deletion wins unless the other side edited the event).
    mutating func sync(afterKill: Bool = false) async throws {
        let touched = Set(SyncSide.allCases.flatMap { (edited[$0] ?? []).union(deletedOn[$0] ?? []) })
        let collisions = occurrenceEdits.sorted { $0.key < $1.key }.compactMap { ref, edits -> (OccurrenceRef, OccurrenceEdit, OccurrenceEdit)? in
            guard !touched.contains(ref.n), let a = edits[.a], let b = edits[.b] else { return nil }
            return (ref, a, b)
        }
        var report = try await engine.run(pair: "p", a: endpoint(.a), b: endpoint(.b), options: Self.options)
        conflictsReported += report.conflicts.count
        if ProcessInfo.processInfo.environment["CALBRIDGE_MODEL_TRACE"] != nil { print(Self.summary(report)) }
        // A run whose update the service dropped after answering it (a sandbox variant) writes it again in the
        // next run: that one completes the sync the oracle follows, as a scheduler's next run would soon after.
        // The conflicts of both count: the first run decided them.
        for _ in 0..<3 where report.errors.contains(where: { $0.message.contains("answered the update as done") }) {
            let conflicts = report.conflicts
            report = try await engine.run(pair: "p", a: endpoint(.a), b: endpoint(.b), options: Self.options)
            conflictsReported += report.conflicts.count
            report.conflicts = conflicts + report.conflicts
            if ProcessInfo.processInfo.environment["CALBRIDGE_MODEL_TRACE"] != nil { print(Self.summary(report)) }
        }
        for side in SyncSide.allCases {
            for n in deletedOn[side] ?? [] {
                let deletedBoth = deletedOn[side.other]?.contains(n) == true
                if deletedBoth || !(edited[side.other]?.contains(n) ?? false) { alive[n] = false }
            }
        }
        edited = [.a: [], .b: []]
        deletedOn = [.a: [], .b: []]
        occurrenceEdits = [:]
        if occurrenceProblem == nil, let problem = try await checkOccurrences(collisions, report: report, afterKill: afterKill) {
            occurrenceProblem = problem
        }
    }

    /// Quiet runs until one writes nothing (at most four), then the invariants.
    mutating func settleAndCheck() async throws -> String? {
        var quiet = false
        for _ in 0..<4 {
            try await sync()
            let report = try await engine.run(pair: "p", a: endpoint(.a), b: endpoint(.b), options: Self.options)
            if ProcessInfo.processInfo.environment["CALBRIDGE_MODEL_TRACE"] != nil { print(Self.summary(report)) }
            let writes = report.aToB.writes + report.bToA.writes
            if writes == 0 && report.errors.isEmpty {
                // That run may still have read the echoes of the writes before it; the next one reads nothing new.
                quiet = true
                let next = try await engine.run(pair: "p", a: endpoint(.a), b: endpoint(.b), options: Self.options)
                if next.requests != 2 || next.aToB.writes + next.bToA.writes != 0 {
                    return "a run with nothing changed took \(next.requests) requests and \(next.aToB.writes + next.bToA.writes) writes, not 2 and 0"
                }
                break
            }
        }
        if !quiet { return "the pair did not settle: writes in four runs after the edits" }
        let window = Self.options.window(now: now, zone: TimeZone(identifier: "UTC")!)
        var sides: [SyncSide: [String]] = [:]
        for side in SyncSide.allCases {
            let listed = try await provider(side).listEvents(calendarID: calendar(side), range: window.range, expand: true)
            sides[side] = listed.filter { window.contains($0) }.map { "\($0.title) \(ModelKey.time($0.start))-\(ModelKey.time($0.end))" }.sorted()
            let units = try await units(side)
            var seen = Set<Int>()
            for unit in units {
                guard let n = Self.number(unit.title) else { return "side \(side): an event without a logical number: \(unit.title)" }
                if !seen.insert(n).inserted { return "side \(side): E\(n) is there twice" }
                if alive[n] == false { return "side \(side): E\(n) came back after its deletion" }
            }
            for (n, isAlive) in alive where isAlive && !seen.contains(n) {
                return "side \(side): E\(n) was lost"
            }
        }
        if sides[.a] != sides[.b] {
            let onlyA = Set(sides[.a]!).subtracting(sides[.b]!).sorted()
            let onlyB = Set(sides[.b]!).subtracting(sides[.a]!).sorted()
            return "the sides differ: only on A \(onlyA), only on B \(onlyB)"
        }
        let stored = try await store.read { try $0.conflicts(pair: "p") }.count
        if stored < conflictsReported { return "\(conflictsReported) conflicts reported, \(stored) kept in the state" }
        return nil
    }

    package static func summary(_ r: SyncReport) -> String {
        func c(_ x: SyncCounts) -> String { "+\(x.created) ~\(x.updated) -\(x.deleted) =\(x.unchanged) !\(x.failed)" }
        return "  run: a->b \(c(r.aToB)) b->a \(c(r.bToA)) conflicts \(r.conflicts.count) requests \(r.requests) full \(r.fullReads) "
            + r.notices.joined(separator: "; ") + r.errors.map(\.message).joined(separator: "; ")
    }

    /// Runs one seed: nil when every invariant held, else the failure with the trace.
    package static func run(seed: UInt64, calendars: any SyncModelCalendars) async -> String? {
        do {
            var model = try await SyncModel(calendars)
            defer { model.directory.remove() }
            for step in steps(seed: seed) {
                await Task.yield()  // as between seeds (ModelCheck.run): the suites waiting on a clock get the threads
                if let problem = try await model.apply(step) { return model.failure(seed, problem) }
                if let problem = model.occurrenceProblem { return model.failure(seed, problem) }
                if ProcessInfo.processInfo.environment["CALBRIDGE_MODEL_DUMP"] != nil { await model.dump(step.description) }
            }
            if let problem = try await model.settleAndCheck() { return model.failure(seed, problem) }
            return nil
        } catch {
            return "seed \(seed): threw \(error)"
        }
    }

    func failure(_ seed: UInt64, _ problem: String) -> String {
        "seed \(seed): \(problem)\n  steps:\n    " + trace.joined(separator: "\n    ")
            + "\n  replay: CALBRIDGE_MODEL_SEED=\(seed) swift test --skip-build --filter SyncModelTests"
    }
}
