import CalendarBridge
import Foundation
import HTTP
import HTTPCurl
import MicrosoftGraph
import Sandbox
import Testing

/// Issue 12 at the provider level, against the sandbox: the copy engine's proof reads are batched and
/// answer like the services (a deleted event reads back gone, a cancelled occurrence cancelled), a copy
/// deleted by the user can be created again on both services, and Graph's all-day occurrence dates are
/// taken in the series' zone.
@Suite("Proof reads and re-creates against the sandbox", .serialized)
struct ProofReadSandboxTests {
    typealias Side = BatchSandboxTests.Side
    static let window = BatchSandboxTests.window

    @Test("probeEvents: existing events exist, deleted and unknown ids are gone, all in one batch request", arguments: Side.allCases)
    func probeEvents(side: Side) async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let provider = side.provider(sandbox)
        let calendar = try await sandbox.calendarID(provider)
        let made = await provider.applyWrites(
            (0..<3).map { .create(BatchSamples.event("Probe \($0)", hour: 9 + $0), idempotencyKey: BatchSamples.key("probe-\(side)-\($0)")) },
            in: calendar, maxConcurrent: 4
        ).compactMap(BatchSandboxTests.created)
        #expect(made.count == 3)
        guard made.count == 3 else { return }
        try await provider.deleteEvent(id: made[1].id, calendarID: calendar)
        let unknown = side == .google ? "nosuchevent00001" : "AAMkAGnosuchevent="

        let mark = sandbox.server.log.count
        let probes = await provider.probeEvents(ids: [made[0].id, made[1].id, unknown, made[2].id], calendarID: calendar)
        let requests = sandbox.requests(since: mark).map(\.path)
        #expect(Set(requests) == [side.batchPath])
        // Google's batch answers every call at once; a Graph batch is one serial chain (4 requests per
        // mailbox), in which each not-found answer makes the rest answer 424, sent again: 1 + 2 rounds here.
        #expect(requests.count == (side == .google ? 1 : 3))
        guard probes.count == 4 else { Issue.record("\(probes)"); return }
        if case .exists(let e) = probes[0] { #expect(e.title == "Probe 0") } else { Issue.record("\(probes[0])") }
        if case .gone = probes[1] {} else { Issue.record("deleted: \(probes[1])") }
        if case .gone = probes[2] {} else { Issue.record("unknown id: \(probes[2])") }
        if case .exists(let e) = probes[3] { #expect(e.title == "Probe 2") } else { Issue.record("\(probes[3])") }
    }

    /// Each deleted event is a failed read in Graph's serial chain, which answers the rest of the chain 424; a
    /// chain advances past one failure a round. Sixty deleted events in chains of 20 took more rounds than the
    /// reads were allowed (the copy model, seed 392225: copies of a deleted series kept, "Graph did not answer
    /// this read"); spread over four chains after the first round, every one is proven gone.
    @Test("probeEvents of 60 deleted Outlook events proves every one gone, four chains a round after the first")
    func probeManyDeleted() async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let provider = sandbox.graph
        let calendar = try await sandbox.calendarID(provider)
        let made = await provider.applyWrites(
            (0..<60).map { .create(BatchSamples.event("Gone \($0)", hour: 8 + $0 % 10), idempotencyKey: BatchSamples.key("gone-\($0)")) },
            in: calendar, maxConcurrent: 4
        ).compactMap(BatchSandboxTests.created)
        try #require(made.count == 60)
        let deleted = await provider.applyWrites(made.map { .delete(id: $0.id) }, in: calendar, maxConcurrent: 4)
        try #require(deleted.allSatisfy { if case .success = $0 { true } else { false } })
        let mark = sandbox.server.log.count
        let probes = await provider.probeEvents(ids: made.map(\.id), calendarID: calendar)
        let unproven = probes.enumerated().filter { if case .gone = $0.element { false } else { true } }
        #expect(unproven.isEmpty, "\(unproven.count) not proven gone: \(unproven.first.map { "\($0.element)" } ?? "")")
        // Round 1: three chains of 20 (three answers); then four chains a round, each batch proving one.
        #expect(sandbox.requests(since: mark).count == 3 + 57)
    }

    @Test("probeOccurrences: a deleted occurrence is cancelled, the others exist, a deleted series is gone", arguments: Side.allCases)
    func probeOccurrences(side: Side) async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let provider = side.provider(sandbox)
        let calendar = try await sandbox.calendarID(provider)
        var series = BatchSamples.event("Daily probe", hour: 8)
        series.recurrence = Recurrence(lines: ["RRULE:FREQ=DAILY;COUNT=3"])
        let master = try await provider.createEvent(series, in: calendar)
        let week = TimeRange(start: Self.window.start, end: Self.window.start.addingTimeInterval(7 * 86_400))
        let occurrences = try await provider.listEvents(calendarID: calendar, range: week, expand: true)
            .filter { $0.seriesID == master.id }
        #expect(occurrences.count == 3)
        guard occurrences.count == 3 else { return }
        try await provider.deleteEvent(id: occurrences[1].id, calendarID: calendar)
        func query(_ e: Event) -> OccurrenceQuery {
            let start = e.start.instant(allDayZone: .gmt)
            return OccurrenceQuery(
                seriesID: master.id, originalStart: e.originalStart ?? e.start,
                range: TimeRange(start: start.addingTimeInterval(-86_400), end: start.addingTimeInterval(86_400)))
        }
        let mark = sandbox.server.log.count
        let probes = await provider.probeOccurrences(occurrences.map(query), calendarID: calendar)
        #expect(sandbox.requests(since: mark).map(\.path) == [side.batchPath])  // 6 reads, one request
        guard probes.count == 3 else { Issue.record("\(probes)"); return }
        if case .exists = probes[0] {} else { Issue.record("first: \(probes[0])") }
        if case .cancelled = probes[1] {} else { Issue.record("deleted: \(probes[1])") }
        if case .exists = probes[2] {} else { Issue.record("third: \(probes[2])") }

        try await provider.deleteEvent(id: master.id, calendarID: calendar)
        let afterSeries = await provider.probeOccurrences([query(occurrences[0])], calendarID: calendar)
        if case .seriesGone? = afterSeries.first {} else { Issue.record("series deleted: \(afterSeries)") }
    }

    @Test("a keyed copy the user deleted is created again once: Google restores its id, Graph uses a derived transactionId", arguments: Side.allCases)
    func recreateDeletedCopy(side: Side) async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let provider = side.provider(sandbox)
        let calendar = try await sandbox.calendarID(provider)
        var event = BatchSamples.event("Deleted by the user", hour: 15)
        event.origin = OriginMarker(provider: .microsoft, account: "uid", calendarID: "cal", eventID: "src-1", contentHash: "h")
        let key = IdempotencyKey.copy(of: event.origin!, toCalendar: calendar)
        for single in [false, true] {
            let first = try await provider.createEvent(event, in: calendar, idempotencyKey: key)
            try await provider.deleteEvent(id: first.id, calendarID: calendar)
            // Again, through the batch path or the single call.
            let again: Event
            if single {
                again = try await provider.createEvent(event, in: calendar, idempotencyKey: key)
            } else {
                let results = await provider.applyWrites([.create(event, idempotencyKey: key)], in: calendar, maxConcurrent: 4)
                again = try #require(BatchSandboxTests.created(results[0]), "\(results[0])")
            }
            #expect(again.status == .confirmed)
            // And a repeat of that create (a lost answer) leaves one copy.
            let repeated = try await provider.createEvent(event, in: calendar, idempotencyKey: key)
            #expect(repeated.id == again.id)
            let live = try await provider.findEvents(originatingFrom: event.origin!, in: calendar).filter { $0.status != .cancelled }
            #expect(live.count == 1, "single: \(single)")
            try await provider.deleteEvent(id: again.id, calendarID: calendar)
        }
    }

    @Test("Graph all-day occurrences of a W. Europe series keep their dates (originalStart is midnight there, in UTC)")
    func graphAllDayOriginalStart() async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let calendar = try await sandbox.calendarID(sandbox.graph)
        let graphAccount = try #require(sandbox.server.info.accounts.first { $0.provider == .microsoft })
        let transport = SandboxBearerTransport(base: CurlTransport(), token: graphAccount.accessToken)
        let body = #"""
            {"subject": "Focus day", "isAllDay": true,
             "start": {"dateTime": "2026-03-02T00:00:00", "timeZone": "W. Europe Standard Time"},
             "end": {"dateTime": "2026-03-03T00:00:00", "timeZone": "W. Europe Standard Time"},
             "recurrence": {"pattern": {"type": "weekly", "interval": 1, "daysOfWeek": ["monday"]},
                            "range": {"type": "noEnd", "startDate": "2026-03-02", "recurrenceTimeZone": "W. Europe Standard Time"}}}
            """#
        let url = sandbox.server.baseURL.appendingPathComponent("v1.0/me/events")
        let created = try await transport.send(
            HTTPRequest(method: .post, url: url, headers: ["Content-Type": "application/json"], body: Data(body.utf8)))
        #expect(created.status == 201)
        let range = TimeRange(start: Self.window.start, end: Self.window.start.addingTimeInterval(30 * 86_400))
        let raw = try await transport.send(HTTPRequest(url: URL(string: sandbox.server.baseURL.absoluteString
            + "/v1.0/me/calendarView?startDateTime=2026-03-01T00:00:00Z&endDateTime=2026-03-10T00:00:00Z")!))
        // As the service does (microsoft-graph-docs #2804, #7163): midnight in Berlin, written in UTC.
        #expect(raw.bodyText.contains("\"originalStart\":\"2026-03-01T23:00:00.0000000Z\""), "\(raw.bodyText.prefix(600))")
        let occurrences = try await sandbox.graph.listEvents(calendarID: calendar, range: range, expand: true)
            .filter { $0.title == "Focus day" }
        #expect(occurrences.count >= 4)
        for occurrence in occurrences {
            #expect(occurrence.originalStart == occurrence.start, "\(occurrence.start)")
        }
    }

    /// Seed 5061 of the copy model: a 4-hour event from 23:30 in Adelaide ends at 02:30 on the night
    /// clocks go back at 03:00, a wall clock that happens twice. Written as a wall clock, the sandbox
    /// (RFC 5545: the first) read it an hour early; calbridge now writes such an end in UTC and reads it
    /// back in the event's zone, whatever the service makes of repeated wall clocks.
    @Test("an end in the hour clocks repeat keeps its instant and its zone through Graph", arguments: Side.allCases)
    func repeatedWallClockEnd(side: Side) async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let provider = side.provider(sandbox)
        let calendar = try await sandbox.calendarID(provider)
        let start = Date(timeIntervalSince1970: 1_806_757_200)  // 2027-04-03T23:30+10:30
        let end = start.addingTimeInterval(4 * 3600)  // 2027-04-04T02:30+09:30, the second 02:30
        let made = try await provider.createEvent(
            Event(title: "Late", start: .timed(instant: start, zone: "Australia/Adelaide"), end: .timed(instant: end, zone: "Australia/Adelaide")),
            in: calendar)
        let read = try await provider.getEvent(id: made.id, calendarID: calendar)
        #expect(read.start == .timed(instant: start, zone: "Australia/Adelaide"))
        #expect(read.end == .timed(instant: end, zone: "Australia/Adelaide"))
        var moved = read
        moved.title = "Later"
        let updated = try await provider.updateEvent(moved)
        #expect(updated.end == .timed(instant: end, zone: "Australia/Adelaide"))
    }

    /// Outlook writes an all-day series in the mailbox's zone and resets a series whose start moves
    /// (exceptions and deletions dropped). A read-edit-write through calbridge keeps the series' zone, so
    /// retitling a Tokyo series keeps its deleted occurrence deleted.
    @Test("an all-day Outlook series keeps its zone, and so its deleted occurrences, through an edit")
    func allDaySeriesZoneKept() async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let provider = sandbox.graph
        let calendar = try await sandbox.calendarID(provider)
        let first = try #require(LocalDate("2027-09-07"))
        let master = try await provider.createEvent(
            Event(
                title: "Tokyo days", start: .allDay(date: first), end: .allDay(date: first.adding(days: 1)),
                recurrence: Recurrence(lines: ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4"], allDayZone: "Asia/Tokyo")),
            in: calendar)
        #expect(master.recurrence?.allDayZone == "Asia/Tokyo")
        let range = TimeRange(start: Date(timeIntervalSince1970: 1_819_756_800), end: Date(timeIntervalSince1970: 1_823_558_400))  // September to mid-October 2027
        func dates() async throws -> [LocalDate] {
            try await provider.listEvents(calendarID: calendar, range: range, expand: true)
                .filter { $0.seriesID == master.id && $0.status != .cancelled }
                .compactMap { if case .allDay(let d) = $0.start { d } else { nil } }.sorted()
        }
        let occurrences = try await provider.listEvents(calendarID: calendar, range: range, expand: true).filter { $0.seriesID == master.id }
        let second = try #require(occurrences.first { $0.start == .allDay(date: first.adding(days: 7)) })
        try await provider.deleteEvent(id: second.id, calendarID: calendar)
        let kept = [first, first.adding(days: 14), first.adding(days: 21)]
        #expect(try await dates() == kept)

        var edited = try await provider.getEvent(id: master.id, calendarID: calendar)
        #expect(edited.recurrence?.allDayZone == "Asia/Tokyo")
        edited.title = "Tokyo days, renamed"
        _ = try await provider.updateEvent(edited)
        #expect(try await dates() == kept, "the deleted occurrence came back: the series was reset")
    }
}

/// `listEventViews` gives what the two listings give, on both providers; Graph from one `calendarView` read.
/// `listOccurrences` gives the expanded listing's occurrences of the series asked for.
@Suite("Both views of one listing against the sandbox", .serialized)
struct EventViewsSandboxTests {
    /// A calendar with an all-day series with a moved occurrence (the path that waits for the master's
    /// zone), a timed series with a cancelled and a retitled occurrence, and a single event.
    struct Seeded {
        var sandbox: BatchSandbox
        var provider: any CalendarProvider
        var calendar: String
        var range: TimeRange
        var allDayID: String
        var timedID: String
        var first: LocalDate
    }

    static func seeded(_ side: BatchSandboxTests.Side) async throws -> Seeded {
        let sandbox = try await BatchSandbox.start()
        let provider = side.provider(sandbox)
        let calendar = try await sandbox.calendarID(provider)
        let first = try #require(LocalDate("2027-09-07"))
        let start = LocalDateTime(date: first, hour: 9, minute: 0).instant(in: TimeZone(identifier: "Europe/Berlin")!)
        let allDay = try await provider.createEvent(
            Event(
                title: "Tokyo days", start: .allDay(date: first), end: .allDay(date: first.adding(days: 1)),
                recurrence: Recurrence(lines: ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4"], allDayZone: "Asia/Tokyo")),
            in: calendar)
        let timed = try await provider.createEvent(
            Event(
                title: "Stand-up", start: .timed(instant: start, zone: "Europe/Berlin"),
                end: .timed(instant: start.addingTimeInterval(900), zone: "Europe/Berlin"),
                recurrence: Recurrence(lines: ["RRULE:FREQ=DAILY;COUNT=5"])),
            in: calendar)
        _ = try await provider.createEvent(
            Event(
                title: "Dentist", start: .timed(instant: start.addingTimeInterval(7200), zone: "Europe/Berlin"),
                end: .timed(instant: start.addingTimeInterval(9000), zone: "Europe/Berlin")),
            in: calendar)
        let range = TimeRange(start: Date(timeIntervalSince1970: 1_819_756_800), end: Date(timeIntervalSince1970: 1_823_558_400))
        let listed = try await provider.listEvents(calendarID: calendar, range: range, expand: true)
        var moved = try #require(listed.first { $0.seriesID == allDay.id && $0.start == .allDay(date: first.adding(days: 7)) })
        moved.start = .allDay(date: first.adding(days: 8))
        moved.end = .allDay(date: first.adding(days: 9))
        _ = try await provider.updateEvent(moved)
        let daily = listed.filter { $0.seriesID == timed.id }
        try #require(daily.count == 5)
        try await provider.deleteEvent(id: daily[1].id, calendarID: calendar)
        var retitled = daily[2]
        retitled.title = "Stand-up (long)"
        _ = try await provider.updateEvent(retitled)
        return Seeded(
            sandbox: sandbox, provider: provider, calendar: calendar, range: range, allDayID: allDay.id,
            timedID: timed.id, first: first)
    }

    @Test("listEventViews equals listEvents(expand: false) and (expand: true); Graph reads calendarView once", arguments: BatchSandboxTests.Side.allCases)
    func bothViews(side: BatchSandboxTests.Side) async throws {
        let s = try await Self.seeded(side)
        defer { Task { try? await s.sandbox.server.stop() } }
        let (provider, calendar, range, sandbox) = (s.provider, s.calendar, s.range, s.sandbox)
        let series = try await provider.listEvents(calendarID: calendar, range: range, expand: false)
        let occurrences = try await provider.listEvents(calendarID: calendar, range: range, expand: true)
        let mark = sandbox.server.log.count
        let views = try await provider.listEventViews(calendarID: calendar, range: range)
        #expect(views.series == series)
        #expect(views.occurrences == occurrences)
        #expect(series.contains { $0.id == s.allDayID && $0.isSeriesMaster } && series.contains { $0.id == s.timedID && $0.isSeriesMaster })
        #expect(occurrences.contains { $0.seriesID == s.allDayID && $0.start == .allDay(date: s.first.adding(days: 8)) })
        let listings = sandbox.requests(since: mark).filter { $0.method == "GET" && $0.path.hasSuffix("/calendarView") }
        if side == .graph { #expect(listings.count == 1, "one calendarView read for both views") }
    }

    /// What the copy engine's bookkeeping reads of a target occurrence (`CalendarProvider.findCopies`).
    static func record(_ e: Event) -> String {
        "\(e.id) \(e.calendarID) \(e.title) \(e.start) \(e.end) \(String(describing: e.recurrence)) \(String(describing: e.seriesID)) "
            + "\(String(describing: e.originalStart)) \(e.status) \(String(describing: e.origin)) \(e.extendedProperties.sorted { $0.key < $1.key })"
    }

    @Test("listOccurrences equals the expanded listing cut to the series asked for (Google: as copy records, read with `fields`), in its order, by the same requests", arguments: BatchSandboxTests.Side.allCases)
    func occurrencesOfSeries(side: BatchSandboxTests.Side) async throws {
        let s = try await Self.seeded(side)
        defer { Task { try? await s.sandbox.server.stop() } }
        let (provider, calendar, range, sandbox) = (s.provider, s.calendar, s.range, s.sandbox)
        var mark = sandbox.server.log.count
        let occurrences = try await provider.listEvents(calendarID: calendar, range: range, expand: true)
        let listingRequests = sandbox.requests(since: mark).map { "\($0.method) \($0.path)" }
        #expect(occurrences.contains { $0.seriesID == nil }, "the listing has single events to leave out")
        for ids in [[s.allDayID], [s.timedID], [s.allDayID, s.timedID], [], ["no-such-series"]] {
            let wanted = Set(ids)
            mark = sandbox.server.log.count
            let read = try await provider.listOccurrences(calendarID: calendar, range: range, ofSeries: wanted)
            let expected = occurrences.filter { $0.seriesID.map(wanted.contains) == true }
            #expect(read.map(Self.record) == expected.map(Self.record), "\(ids)")
            if side == .graph { #expect(read == expected, "\(ids)") }
            #expect(sandbox.requests(since: mark).map { "\($0.method) \($0.path)" } == listingRequests)
        }
        #expect(try await provider.listOccurrences(calendarID: calendar, range: range, ofSeries: [s.timedID]).count == 4)
    }
}
