import CalendarBridge
import GoogleCalendar
import MicrosoftGraph
import Foundation

/// A `CalendarProvider` that keeps its calendars in memory: the double for copy-engine tests.
///
/// Behaves like the services where it matters for copying: series masters are expanded into
/// occurrences (daily, weekly with days, monthly and yearly on a day number or the nth/last weekday,
/// BYMONTH; interval, count, until, EXDATE dates);
/// occurrences are addressed by `<master id>_<original start>` and can be patched (an exception) or
/// deleted (cancelled); creates with an idempotency key are repeat-safe the way the chosen `provider`
/// does it (Google: the key's event id, a repeat returns the existing event; Microsoft: the key's
/// transaction id). Read-only calendars refuse writes.
///
/// Faults for tests: `failWritesAfter(_:loseFirstResponse:)` lets a number of writes through and fails
/// the rest (optionally applying the first failing one and losing its response, as a crash or a
/// dropped connection after the server acted would); `failWrites(where:)` fails chosen writes;
/// `failReads(with:)` fails every read (an expired grant).
///
/// Change reads (`ChangeReadingProvider`): every write appends the event's id to a change log, and a
/// cursor is a position in it. Answers like the service it stands for: Google kind lists masters, single
/// events and exceptions, reports cancelled occurrences with their series; Microsoft kind lists single
/// events and occurrences (no masters, no markers), reports removals by id only, and binds a cursor to its
/// window. `expireChangeCursors()` makes every cursor handed out so far answer `.cursorExpired`.
package actor InMemoryCalendarProvider: ChangeReadingProvider {
    package nonisolated let provider: ProviderKind
    package nonisolated let account: String
    package nonisolated let capabilities: ProviderCapabilities

    private var calendars: [CalendarInfo]
    /// Single events and series masters per calendar, in creation order.
    private var stored: [String: [Event]] = [:]
    /// Exceptions per series master id, by occurrence key (cancelled ones have status `.cancelled`).
    private var exceptions: [String: [String: Event]] = [:]
    private var transactions: [String: String] = [:]
    private var nextNumber = 1

    /// Every call, in order: `list`, `find`, `get`, `calendars`, `create <id>`, `update <id>`, `delete <id>`.
    package private(set) var log: [String] = []
    /// Writes that reached the store (including ones whose response was lost).
    package private(set) var writesApplied = 0

    private var writeBudget: Int?
    private var loseFirstResponse = false
    private var lostOne = false
    private var writeFailure: (@Sendable (EventWrite) -> CalendarError?)?
    private var readFailure: CalendarError?
    /// (calendar id, event or occurrence id) of every write, in order: the change log cursors point into.
    private var changeLog: [(calendarID: String, id: String)] = []
    /// Cursors handed out before the last `expireChangeCursors()` (an older epoch) answer `.cursorExpired`.
    private var cursorEpoch = 0

    /// - Parameters:
    ///   - provider: whose behaviour to imitate (ids, idempotency, default capabilities).
    ///   - capabilities: defaults to what the real provider of that kind can do.
    package init(
        provider: ProviderKind = .google, account: String = "mem", calendars: [CalendarInfo] = [],
        capabilities: ProviderCapabilities? = nil
    ) {
        self.provider = provider
        self.account = account
        self.calendars = calendars
        self.capabilities = capabilities ?? Self.defaultCapabilities(provider)
    }

    package static func defaultCapabilities(_ kind: ProviderKind) -> ProviderCapabilities {
        kind == .microsoft
            ? ProviderCapabilities(
                serverQuickAdd: false, recurrence: .patterned, personalSensitivity: true, richShowAs: true, categories: true,
                htmlBody: true)
            : ProviderCapabilities(
                serverQuickAdd: true, recurrence: .rfc5545, personalSensitivity: false, richShowAs: false, categories: false,
                htmlBody: false)
    }

    // MARK: test setup and inspection

    /// Adds a calendar.
    package func addCalendar(_ calendar: CalendarInfo) { calendars.append(calendar) }

    /// Stores an event as if it had always been there (no write is logged). Returns it with its id.
    @discardableResult
    package func seed(_ event: Event, in calendarID: String) -> Event {
        var e = event
        if e.id.isEmpty { e.id = newID() }
        e.calendarID = calendarID
        if e.created == nil { e.created = Date(timeIntervalSince1970: 1_700_000_000 + Double(nextNumber)) }
        if let seriesID = e.seriesID {
            exceptions[seriesID, default: [:]][Self.key(e.originalStart ?? e.start)] = e
        } else {
            stored[calendarID, default: []].append(e)
        }
        changeLog.append((calendarID, e.id))
        return e
    }

    /// The single events and series masters of a calendar (no occurrences), as stored.
    package func storedEvents(in calendarID: String) -> [Event] { stored[calendarID] ?? [] }

    /// The writes logged so far.
    package var writeLog: [String] {
        log.filter { $0.hasPrefix("create") || $0.hasPrefix("update") || $0.hasPrefix("delete") }
    }

    package func clearLog() { log = [] }

    /// Lets `count` more writes through, then fails every write (nil: no limit). With
    /// `loseFirstResponse`, the first write over the limit is applied but reported as failed.
    package func failWritesAfter(_ count: Int?, loseFirstResponse: Bool = false) {
        writeBudget = count
        self.loseFirstResponse = loseFirstResponse
        lostOne = false
    }

    /// Fails (without applying) each write for which `rule` returns an error.
    package func failWrites(where rule: (@Sendable (EventWrite) -> CalendarError?)?) { writeFailure = rule }

    /// Fails every read with `error` (nil: reads work again).
    package func failReads(with error: CalendarError?) { readFailure = error }

    // MARK: CalendarProvider

    package func userInfo() async throws -> UserInfo { UserInfo(displayName: account) }

    package func listCalendars() async throws -> [CalendarInfo] {
        log.append("calendars")
        try checkRead()
        return calendars
    }

    package func listEvents(calendarID: String, range: TimeRange, expand: Bool) async throws -> [Event] {
        log.append("list")
        try checkRead()
        try checkCalendar(calendarID)
        var result: [Event] = []
        for event in stored[calendarID] ?? [] {
            guard event.recurrence != nil else {
                if Self.overlaps(event, range) { result.append(event) }
                continue
            }
            let occurrences = self.occurrences(of: event, through: range.end)
            if expand {
                result += occurrences.filter { $0.status != .cancelled && Self.overlaps($0, range) }
            } else {
                if Self.expand(event, through: range.end).contains(where: { Self.overlaps($0, range) }) { result.append(event) }
                // Exceptions as Google lists them with singleEvents=false: changed and cancelled ones.
                // Graph's calendarView never lists a cancelled occurrence: its proof is a read by id.
                for exception in (exceptions[event.id] ?? [:]).values.sorted(by: { $0.id < $1.id })
                where provider == .google || exception.status != .cancelled {
                    let probe = exception.status == .cancelled
                        ? Event(title: "", start: exception.originalStart ?? exception.start, end: exception.originalStart ?? exception.start)
                        : exception
                    if Self.overlaps(probe, range) { result.append(exception) }
                }
            }
        }
        return result.sorted { Self.sortKey($0) < Self.sortKey($1) }
    }

    package func getEvent(id: String, calendarID: String) async throws -> Event {
        log.append("get")
        try checkRead()
        if let event = find(id: id, calendarID: calendarID) { return event }
        throw CalendarError(.notFound, "no event \(id)", provider: provider, account: account, calendar: calendarID)
    }

    package func createEvent(_ event: Event, in calendarID: String, idempotencyKey: IdempotencyKey?) async throws -> Event {
        try checkCalendar(calendarID, writing: true)
        let fate = try admitWrite(.create(event, idempotencyKey: idempotencyKey))
        var created = event
        created.calendarID = calendarID
        created.seriesID = nil
        created.originalStart = nil
        if provider == .google, let key = idempotencyKey {
            created.id = key.googleEventID
            if let existing = stored[calendarID]?.first(where: { $0.id == created.id }) {
                // Google answers 409; the provider adopts the existing event.
                log.append("create \(created.id) (exists)")
                return try deliver(existing, fate)
            }
        } else if let key = idempotencyKey, let existingID = transactions[key.transactionID],
            let existing = stored[calendarID]?.first(where: { $0.id == existingID })
        {
            log.append("create \(existingID) (same transaction)")
            return try deliver(existing, fate)
        } else {
            created.id = newID()
        }
        if let key = idempotencyKey { transactions[key.transactionID] = created.id }
        created.created = Date()
        created.updated = created.created
        stored[calendarID, default: []].append(created)
        changeLog.append((calendarID, created.id))
        writesApplied += 1
        log.append("create \(created.id)")
        return try deliver(created, fate)
    }

    package func updateEvent(_ event: Event, fields: EventFields) async throws -> Event {
        try checkCalendar(event.calendarID, writing: true)
        let fate = try admitWrite(.update(event, fields: fields))
        let calendarID = event.calendarID
        if let index = stored[calendarID]?.firstIndex(where: { $0.id == event.id }) {
            let old = stored[calendarID]![index]
            var updated = Self.patched(old, with: event, fields: fields)
            updated.created = old.created
            updated.updated = Date()
            updated.seriesID = nil
            updated.originalStart = nil
            if old.recurrence != nil && (old.recurrence != updated.recurrence || old.start != updated.start) {
                // Changing a series' rule or start drops its exceptions (as Graph does).
                exceptions[old.id] = nil
            }
            stored[calendarID]![index] = updated
            changeLog.append((calendarID, updated.id))
            writesApplied += 1
            log.append("update \(event.id)")
            return try deliver(updated, fate)
        }
        guard var occurrence = occurrence(id: event.id, calendarID: calendarID) else {
            throw CalendarError(.notFound, "no event \(event.id)", provider: provider, account: account, calendar: calendarID)
        }
        let originalStart = occurrence.originalStart!
        let seriesID = occurrence.seriesID!
        occurrence = Self.patched(occurrence, with: event, fields: fields)
        occurrence.seriesID = seriesID
        occurrence.originalStart = originalStart
        occurrence.recurrence = nil
        occurrence.updated = Date()
        exceptions[seriesID, default: [:]][Self.key(originalStart)] = occurrence
        changeLog.append((calendarID, event.id))
        writesApplied += 1
        log.append("update \(event.id)")
        return try deliver(occurrence, fate)
    }

    /// `stored` with `fields` taken from `event`, as a PATCH naming only those fields leaves it.
    static func patched(_ stored: Event, with event: Event, fields: EventFields) -> Event {
        guard fields != .all else { return event }
        var patched = stored
        if fields.contains(.title) { patched.title = event.title }
        if fields.contains(.times) {
            patched.start = event.start
            patched.end = event.end
        }
        if fields.contains(.location) { patched.location = event.location }
        if fields.contains(.recurrence) { patched.recurrence = event.recurrence }
        return patched
    }

    package func deleteEvent(id: String, calendarID: String) async throws {
        try checkCalendar(calendarID, writing: true)
        let fate = try admitWrite(.delete(id: id))
        log.append("delete \(id)")
        if let index = stored[calendarID]?.firstIndex(where: { $0.id == id }) {
            stored[calendarID]!.remove(at: index)
            exceptions[id] = nil
            changeLog.append((calendarID, id))
            writesApplied += 1
        } else if var occurrence = occurrence(id: id, calendarID: calendarID) {
            occurrence.status = .cancelled
            exceptions[occurrence.seriesID!, default: [:]][Self.key(occurrence.originalStart!)] = occurrence
            changeLog.append((calendarID, id))
            writesApplied += 1
        }
        _ = try deliver((), fate)
    }

    package func quickAdd(text: String, in calendarID: String) async throws -> Event {
        throw CalendarError(.unsupported, "the in-memory provider has no quick add", provider: provider, account: account)
    }

    package func findEvents(origin: OriginLookup, in calendarID: String) async throws -> [Event] {
        log.append("find")
        try checkRead()
        try checkCalendar(calendarID)
        var found = (stored[calendarID] ?? []).filter { $0.propertiesToWrite[origin.property] == origin.value }
        if provider == .google {
            // Google's property search also returns exceptions that carry the property.
            for master in stored[calendarID] ?? [] {
                found += (exceptions[master.id] ?? [:]).values.filter {
                    $0.status != .cancelled && $0.propertiesToWrite[origin.property] == origin.value
                }
            }
        }
        return found
    }

    // MARK: ChangeReadingProvider

    /// Makes every cursor handed out so far answer `.cursorExpired(.expired)` (Google 410, Graph 410).
    package func expireChangeCursors() { cursorEpoch += 1 }

    /// Like Graph's delta, the Microsoft kind's change reads carry no markers.
    package nonisolated var changeReadsCarryMarkers: Bool { provider != .microsoft }

    package func changes(calendarID: String, window: TimeRange, cursor: String?) async throws -> ChangeRead {
        log.append("changes")
        try checkRead()
        try checkCalendar(calendarID)
        let windowText = "\(window.start.timeIntervalSince1970)|\(window.end.timeIntervalSince1970)"
        let next = "mem|\(calendarID)|\(windowText)|\(changeLog.count)|\(cursorEpoch)"
        guard let cursor else {
            var changed: [Event] = []
            var removed: [RemovedEvent] = []
            if provider == .microsoft {
                changed = try await listEvents(calendarID: calendarID, range: window, expand: true).map(Self.asDeltaItem)
            } else {
                for event in try await listEvents(calendarID: calendarID, range: window, expand: false) {
                    if event.status == .cancelled {
                        removed.append(RemovedEvent(id: event.id, seriesID: event.seriesID, originalStart: event.originalStart))
                    } else {
                        changed.append(event)
                    }
                }
            }
            log.removeLast()  // the listing above is part of this read, not a request of its own
            return .changes(ChangeSet(isFullRead: true, changed: changed, removed: removed, cursor: next, requests: 1))
        }
        let parts = cursor.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 6, parts[0] == "mem", parts[1] == calendarID, let position = Int(parts[4]), position >= 0,
            position <= changeLog.count, let epoch = Int(parts[5])
        else { return .cursorExpired(CursorExpiry(.unreadable, message: "not a cursor of this calendar")) }
        if provider == .microsoft && parts[2] + "|" + parts[3] != windowText {
            return .cursorExpired(CursorExpiry(.windowChanged, message: "the delta round covers another window"))
        }
        if epoch != cursorEpoch {
            return .cursorExpired(
                CursorExpiry(.expired, message: "the sync token is no longer valid", providerCode: provider == .google ? "fullSyncRequired" : "SyncStateNotFound"))
        }
        var ids: [String] = []
        var seen = Set<String>()
        for entry in changeLog[position...].reversed() where entry.calendarID == calendarID && seen.insert(entry.id).inserted {
            ids.append(entry.id)
        }
        var changed: [Event] = []
        var removed: [RemovedEvent] = []
        for id in ids.reversed() {
            if let event = stored[calendarID]?.first(where: { $0.id == id }) {
                if provider == .microsoft {
                    if event.recurrence != nil {
                        changed += occurrences(of: event, through: window.end)
                            .filter { $0.status != .cancelled && Self.overlaps($0, window) }.map(Self.asDeltaItem)
                    } else if Self.overlaps(event, window) {
                        changed.append(Self.asDeltaItem(event))
                    } else {
                        removed.append(RemovedEvent(id: id))  // left the delta's window
                    }
                } else if event.recurrence != nil ? event.start.instant(allDayZone: TimeZone(secondsFromGMT: 0)!) < window.end : Self.overlaps(event, window) {
                    changed.append(event)
                }
            } else if let occurrence = occurrence(id: id, calendarID: calendarID) {
                if occurrence.status == .cancelled {
                    removed.append(
                        provider == .microsoft
                            ? RemovedEvent(id: id)
                            : RemovedEvent(id: id, seriesID: occurrence.seriesID, originalStart: occurrence.originalStart))
                } else if provider == .microsoft {
                    if Self.overlaps(occurrence, window) {
                        changed.append(Self.asDeltaItem(occurrence))
                    } else {
                        removed.append(RemovedEvent(id: id))  // moved out of the delta's window
                    }
                } else {
                    changed.append(occurrence)
                }
            } else {
                removed.append(RemovedEvent(id: id))
            }
        }
        return .changes(ChangeSet(isFullRead: false, changed: changed, removed: removed, cursor: next, requests: 1))
    }

    /// What a Graph delta item carries: no extension properties, so no origin marker.
    private static func asDeltaItem(_ event: Event) -> Event {
        var item = event
        item.origin = nil
        item.extendedProperties = [:]
        return item
    }

    // MARK: internals

    private enum Fate { case normal, loseResponse }

    private func admitWrite(_ write: EventWrite) throws -> Fate {
        if let error = writeFailure?(write) { throw error }
        guard let budget = writeBudget else { return .normal }
        if budget > 0 {
            writeBudget = budget - 1
            return .normal
        }
        if loseFirstResponse && !lostOne {
            lostOne = true
            return .loseResponse
        }
        throw CalendarError(.transport, "connection dropped (injected fault)", provider: provider, account: account)
    }

    private func deliver<T>(_ value: T, _ fate: Fate) throws -> T {
        if fate == .loseResponse {
            throw CalendarError(.transport, "response lost after the write (injected fault)", provider: provider, account: account)
        }
        return value
    }

    private func checkRead() throws {
        if let readFailure { throw readFailure }
    }

    private func checkCalendar(_ id: String, writing: Bool = false) throws {
        guard let calendar = calendars.first(where: { $0.id == id }) else {
            throw CalendarError(.notFound, "no calendar \(id)", provider: provider, account: account, calendar: id)
        }
        if writing && !calendar.accessRole.canWrite {
            throw CalendarError(.readOnly, "calendar is read-only", provider: provider, account: account, calendar: id)
        }
    }

    private func newID() -> String {
        defer { nextNumber += 1 }
        return provider == .microsoft ? "AAMk\(nextNumber)" : "evt\(nextNumber)"
    }

    private func find(id: String, calendarID: String) -> Event? {
        stored[calendarID]?.first(where: { $0.id == id }) ?? occurrence(id: id, calendarID: calendarID)
    }

    /// The occurrence with this id (`<master>_<key>`), exceptions applied.
    private func occurrence(id: String, calendarID: String) -> Event? {
        guard let underscore = id.lastIndex(of: "_") else { return nil }
        let masterID = String(id[..<underscore])
        guard let master = stored[calendarID]?.first(where: { $0.id == masterID && $0.recurrence != nil }) else { return nil }
        // The id ends in the original start (`20270315` or `20270315T090000Z`): expand just past it
        // (a model test reads thousands of occurrences by id); else far enough ahead for any test.
        let key = id[id.index(after: underscore)...]
        var horizon = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01
        if key.count >= 8, let y = Int(key.prefix(4)), let m = Int(key.dropFirst(4).prefix(2)), let d = Int(key.dropFirst(6).prefix(2)),
            let date = LocalDate(year: y, month: m, day: d)
        {
            horizon = date.adding(days: 2).startInstant(in: TimeZone(secondsFromGMT: 0)!)
        }
        return occurrences(of: master, through: horizon).first { $0.id == id }
    }

    /// A master's occurrences through `end`, with its exceptions in place of the generated ones.
    private func occurrences(of master: Event, through end: Date) -> [Event] {
        let overrides = exceptions[master.id] ?? [:]
        return Self.expand(master, through: end).map { generated in
            guard var exception = overrides[Self.key(generated.originalStart!)] else { return generated }
            exception.id = generated.id
            return exception
        }
    }

    /// The generated occurrences of a master (no exceptions), starting before `end`.
    package static func expand(_ master: Event, through end: Date) -> [Event] {
        guard let recurrence = master.recurrence, let rule = recurrence.rules.first else { return [] }
        let excluded = Set(recurrence.otherLines.filter { $0.uppercased().hasPrefix("EXDATE") }.flatMap { line in
            (line.split(separator: ":").last ?? "").split(separator: ",").map { String($0.prefix(8)) }
        })
        let zone: TimeZone
        let wallClock: LocalDateTime?
        let firstDate: LocalDate
        switch master.start {
        case .allDay(let date):
            zone = TimeZone(secondsFromGMT: 0)!
            wallClock = nil
            firstDate = date
        case .timed(let instant, let name):
            zone = TimeZone(identifier: name) ?? TimeZone(secondsFromGMT: 0)!
            let local = LocalDateTime(instant: instant, in: zone)
            wallClock = local
            firstDate = local.date
        }
        let utc = TimeZone(secondsFromGMT: 0)!
        var result: [Event] = []
        var produced = 0
        // Candidates stop a day past `end` in any zone (later dates could only start after it).
        let lastDate = LocalDate(instant: end, in: utc).adding(days: 2)
        for date in candidateDates(rule, from: firstDate, through: lastDate) {
            if let count = rule.count, produced >= count { break }
            let start: EventTime
            let finish: EventTime
            if let wallClock {
                let instant = LocalDateTime(
                    date: date, hour: wallClock.hour, minute: wallClock.minute, second: wallClock.second
                ).instant(in: zone)
                let duration = master.end.instant(allDayZone: utc).timeIntervalSince(master.start.instant(allDayZone: utc))
                start = .timed(instant: instant, zone: master.start.zone!)
                finish = .timed(instant: instant.addingTimeInterval(duration), zone: master.end.zone ?? master.start.zone!)
            } else {
                guard case .allDay(let first) = master.start, case .allDay(let last) = master.end else { break }
                start = .allDay(date: date)
                finish = .allDay(date: date.adding(days: first.days(to: last)))
            }
            let instant = start.instant(allDayZone: utc)
            switch rule.until {
            case .instant(let until)? where instant > until: return result
            case .date(let until)? where date > until: return result
            default: break
            }
            if instant >= end { break }
            produced += 1
            let compact = date.description.replacingOccurrences(of: "-", with: "")
            if excluded.contains(compact) { continue }
            var occurrence = master
            occurrence.id = "\(master.id)_\(key(start).replacingOccurrences(of: ":", with: ""))"
            occurrence.recurrence = nil
            occurrence.seriesID = master.id
            occurrence.originalStart = start
            occurrence.start = start
            occurrence.end = finish
            result.append(occurrence)
            if result.count > 5000 { break }
        }
        return result
    }

    /// Dates a rule can fall on, in order, from the series' first date (bounded).
    private static func candidateDates(_ rule: RecurrenceRule, from first: LocalDate, through last: LocalDate) -> [LocalDate] {
        var dates: [LocalDate] = []
        let limit = 3000
        switch rule.frequency {
        case .weekly:
            let monday = LocalDate(year: 2000, month: 1, day: 3)!
            let weekday = { (d: LocalDate) in ((monday.days(to: d) % 7) + 7) % 7 }
            let order: [RecurrenceRule.Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]
            let days = rule.byDay.isEmpty ? [weekday(first)] : rule.byDay.map { order.firstIndex(of: $0.weekday)! }.sorted()
            let weekStart = first.adding(days: -weekday(first))
            var week = 0
            while dates.count < limit && weekStart.adding(days: week * 7) <= last {
                for day in days {
                    let date = weekStart.adding(days: week * 7 + day)
                    if date >= first { dates.append(date) }
                }
                week += rule.interval
            }
        case .monthly, .yearly:
            var step = 0
            while dates.count < limit && step < limit * 12 {
                let months = step * (rule.frequency == .monthly ? 1 : 12)
                let total = first.month - 1 + months
                let year = first.year + total / 12
                let month = rule.frequency == .yearly ? (rule.byMonth.first ?? first.month) : total % 12 + 1
                if let monthStart = LocalDate(year: year, month: month, day: 1), monthStart > last { break }
                if let date = dayInMonth(rule, year: year, month: month, default: first.day), date >= first {
                    dates.append(date)
                }
                step += rule.interval
            }
        default:
            for n in 0..<limit {
                let date = first.adding(days: n * rule.interval)
                if date > last { break }
                dates.append(date)
            }
        }
        return dates
    }

    /// The day a monthly or yearly rule falls on in one month: `BYMONTHDAY`, one `BYDAY` with an ordinal
    /// (`2TU`, `-1FR`), else the series' own day number.
    private static func dayInMonth(_ rule: RecurrenceRule, year: Int, month: Int, default day: Int) -> LocalDate? {
        guard let firstOfMonth = LocalDate(year: year, month: month, day: 1) else { return nil }
        if let byDay = rule.byDay.first, let ordinal = byDay.ordinal ?? rule.bySetPosition.first {
            let order: [RecurrenceRule.Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]
            let monday = LocalDate(year: 2000, month: 1, day: 3)!
            let weekday = { (d: LocalDate) in ((monday.days(to: d) % 7) + 7) % 7 }
            let wanted = order.firstIndex(of: byDay.weekday) ?? 0
            let nextMonth = month == 12 ? LocalDate(year: year + 1, month: 1, day: 1)! : LocalDate(year: year, month: month + 1, day: 1)!
            let length = firstOfMonth.days(to: nextMonth)
            if ordinal > 0 {
                let d = 1 + (wanted - weekday(firstOfMonth) + 7) % 7 + 7 * (ordinal - 1)
                return d <= length ? LocalDate(year: year, month: month, day: d) : nil
            }
            let last = firstOfMonth.adding(days: length - 1)
            let d = length - (weekday(last) - wanted + 7) % 7 + 7 * (ordinal + 1)
            return d >= 1 ? LocalDate(year: year, month: month, day: d) : nil
        }
        return LocalDate(year: year, month: month, day: rule.byMonthDay.first ?? day)
    }

    /// An occurrence's identity: its original start as an instant in UTC, or its date.
    package static func key(_ time: EventTime) -> String {
        switch time {
        case .allDay(let date): return date.description.replacingOccurrences(of: "-", with: "")
        case .timed(let instant, _):
            let local = LocalDateTime(instant: instant, in: TimeZone(secondsFromGMT: 0)!)
            return local.format(fractionDigits: 0).replacingOccurrences(of: "-", with: "") + "Z"
        }
    }

    private static func overlaps(_ event: Event, _ range: TimeRange) -> Bool {
        let utc = TimeZone(secondsFromGMT: 0)!
        return range.overlaps(start: event.start.instant(allDayZone: utc), end: event.end.instant(allDayZone: utc))
    }

    private static func sortKey(_ event: Event) -> Date {
        event.start.instant(allDayZone: TimeZone(secondsFromGMT: 0)!)
    }
}
