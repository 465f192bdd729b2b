import CalDAV
import CalendarBridge
import Foundation
import HTTP
import HTTPCurl
import Sandbox
import TestSupport
import Testing

/// The requests a copy sends to a CalDAV target, pinned: the calendar is read once per run (the copies'
/// lookups and the occurrences of copied series share one `calendar-query`), and an update starts from
/// that read instead of a GET of its resource.
@Suite("A copy to CalDAV reads the target calendar once")
struct CalDAVCopyRequestTests {
    static let password = "copy-password"

    @Test("first copy, rerun and a rerun with one change: one REPORT each; no GET before a PUT")
    func requestsOfCopyRuns() async throws {
        let server = try await CalDAVTestServer(.sandbox, password: Self.password)
        defer { server.stop() }
        try await server.makeCalendar("work", name: "Work", password: Self.password)
        let transport = MiddlewareTransport(
            base: CurlTransport(), middlewares: [BasicAuthentication(userName: server.user, password: Self.password)])
        let target = CalDAVProvider(provider: .caldav, account: "dav", transport: transport, server: server.url)

        let calendar = CalendarInfo(id: "src", name: "Source", account: "mem", provider: .google, accessRole: .owner)
        let source = InMemoryCalendarProvider(provider: .google, account: "mem", calendars: [calendar])
        var singles: [Event] = []
        for day in 11...14 { singles.append(await source.seed(Self.event("Single \(day)", day: day), in: "src")) }
        let series = await source.seed(Self.event("Weekly", day: 4, rule: "RRULE:FREQ=WEEKLY;COUNT=4"), in: "src")
        let occurrences = try await source.listEvents(calendarID: "src", range: Self.january, expand: true)
            .filter { $0.seriesID == series.id }.sorted { $0.start.instant(allDayZone: .gmt) < $1.start.instant(allDayZone: .gmt) }
        try #require(occurrences.count == 4)
        var moved = occurrences[1]
        moved.start = .timed(instant: Self.instant("2027-01-12T15:00:00Z"), zone: "Europe/Berlin")
        moved.end = .timed(instant: Self.instant("2027-01-12T16:00:00Z"), zone: "Europe/Berlin")
        _ = try await source.updateEvent(moved, fields: .times)
        try await source.deleteEvent(id: occurrences[2].id, calendarID: "src")

        let engine = CopyEngine(
            source: .init(provider: source, calendar: calendar), target: .init(provider: target, calendarID: "work"),
            options: CopyOptions(window: Self.january))

        // First copy: discovery, the calendars, ONE read of the (empty) calendar, then only writes: the
        // occurrences of the copied series come from what the run wrote, and the moved and cancelled
        // occurrence's changes start from the series as written. The two change one resource at once, so one
        // may be refused (412) and read again: a GET only for such a refusal.
        var mark = server.requestLog.count
        let first = try await engine.run()
        #expect(first.created == 5, "created \(first.created): \(first.items.map { "\($0.status) \($0.error ?? "")" })")
        #expect(first.failed == 0)
        var methods = server.requestLog.dropFirst(mark).map(\.method)
        let refused = server.requestLog.dropFirst(mark).filter { $0.method == "PUT" && $0.status == 412 }.count
        #expect(methods.filter { $0 == "REPORT" }.count == 1, "\(methods)")
        #expect(methods.filter { $0 == "GET" }.count == refused, "\(methods)")
        #expect(methods.filter { $0 == "PUT" }.count == 7 + refused, "5 creates, the moved and the cancelled occurrence: \(methods)")

        // The occurrences as the server holds them: the moved one moved, the cancelled one gone.
        let stored = try await CalDAVProvider(provider: .caldav, account: "dav", transport: transport, server: server.url)
            .listEvents(calendarID: "work", range: Self.january, expand: true)
        #expect(stored.count == 4 + 3)
        #expect(stored.contains { $0.title == "Weekly" && $0.start == moved.start })

        // Rerun, nothing changed: the calendars and one REPORT, nothing else.
        mark = server.requestLog.count
        let rerun = try await engine.run()
        #expect(rerun.created == 0 && rerun.updated == 0 && rerun.failed == 0)
        methods = server.requestLog.dropFirst(mark).map(\.method)
        #expect(methods == ["PROPFIND", "REPORT"], "\(methods)")

        // One source event changed: the calendars, one REPORT, one PUT (If-Match the ETag the REPORT gave).
        var changed = singles[0]
        changed.title = "Single 11, moved to the afternoon"
        _ = try await source.updateEvent(changed, fields: .title)
        mark = server.requestLog.count
        let third = try await engine.run()
        #expect(third.updated == 1 && third.failed == 0)
        methods = server.requestLog.dropFirst(mark).map(\.method)
        #expect(methods == ["PROPFIND", "REPORT", "PUT"], "\(methods)")
        #expect(
            try await target.listEvents(calendarID: "work", range: Self.january, expand: false).contains { $0.title == changed.title })
    }

    @Test("another client's change between the run's read and its write: the PUT is refused (412), read again and applied")
    func changedMeanwhile() async throws {
        let server = try await CalDAVTestServer(.sandbox, password: Self.password)
        defer { server.stop() }
        try await server.makeCalendar("work", name: "Work", password: Self.password)
        let transport = MiddlewareTransport(
            base: CurlTransport(), middlewares: [BasicAuthentication(userName: server.user, password: Self.password)])
        let plain = CalDAVProvider(provider: .caldav, account: "dav", transport: transport, server: server.url)
        let created = try await plain.createEvent(Self.event("Team", day: 12), in: "work", idempotencyKey: nil)

        let run = try #require(plain.sharingReads() as? CalDAVProvider)
        _ = try await run.findEvents(origin: .calendar(provider: .google, account: "x", calendarID: "y"), in: "work")
        // Another client edits the event after the run's read.
        var other = try await plain.getEvent(id: created.id, calendarID: "work")
        other.location = "Room 2"
        _ = try await plain.updateEvent(other, fields: .location)

        var mine = created
        mine.title = "Team meeting"
        let mark = server.requestLog.count
        _ = try await run.updateEvent(mine, fields: .title)
        #expect(server.requestLog.dropFirst(mark).map(\.method) == ["PUT", "GET", "PUT"])
        let now = try await plain.getEvent(id: created.id, calendarID: "work")
        #expect(now.title == "Team meeting" && now.location == "Room 2")
    }

    static let january = TimeRange(start: instant("2027-01-01T00:00:00Z"), end: instant("2027-02-01T00:00:00Z"))

    static func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    static func event(_ title: String, day: Int, rule: String? = nil) -> Event {
        let start = instant(String(format: "2027-01-%02dT10:00:00Z", day))
        return Event(
            title: title, start: .timed(instant: start, zone: "Europe/Berlin"),
            end: .timed(instant: start.addingTimeInterval(3600), zone: "Europe/Berlin"), recurrence: rule.map { Recurrence(lines: [$0]) })
    }
}

extension CalDAVTestServer {
    /// The API requests the sandbox answered so far (the sandbox kind only).
    var requestLog: [SandboxRequestLogEntry] { sandbox?.requestLog ?? [] }
}
