import CalDAV
import CalendarBridge
import Foundation
import HTTP
import HTTPCurl
import Sandbox
import TestSupport
import Testing

/// The CalDAV provider against the sandbox's CalDAV service with the switches real servers differ by: no
/// `sync-collection` (the ctag and ETag fallback), X- properties dropped, Xandikos's refusals, a server that
/// pages its sync answers, tokens that expire.
@Suite("CalDAV provider against the sandbox's quirk switches")
struct CalDAVSandboxQuirkTests {
    static let password = "quirk-password"

    struct Fixture {
        let server: CalDAVTestServer
        let provider: CalDAVProvider
        let raw: any HTTPTransport

        init(_ quirks: CalDAVQuirks) async throws {
            server = try await CalDAVTestServer(.sandbox, password: CalDAVSandboxQuirkTests.password, quirks: quirks)
            raw = MiddlewareTransport(
                base: CurlTransport(), middlewares: [BasicAuthentication(userName: server.user, password: CalDAVSandboxQuirkTests.password)]
            )
            provider = CalDAVProvider(provider: .caldav, account: "test", transport: raw, server: server.url)
            try await server.makeCalendar("work", name: "Work", password: CalDAVSandboxQuirkTests.password)
            try await server.makeCalendar("home", name: "Home", password: CalDAVSandboxQuirkTests.password)
        }

        var emulator: CalDAVEmulator {
            get throws { try #require(server.sandbox?.apiComponents.first { $0.name == "caldav" }?.component as? CalDAVEmulator) }
        }

        /// The API requests the sandbox answered so far.
        var requests: [SandboxRequestLogEntry] { server.sandbox?.requestLog ?? [] }

        func event(_ title: String, day: Int, rule: String? = nil) -> Event {
            let start = CalDAVServerTests.instant(String(format: "2027-01-%02dT10:00:00Z", day))
            return Event(
                title: title, start: .timed(instant: start, zone: "Europe/Berlin"),
                end: .timed(instant: start.addingTimeInterval(3600), zone: "Europe/Berlin"),
                recurrence: rule.map { Recurrence(lines: [$0]) })
        }
    }

    @Test(
        "no sync-collection: a full read by ctag and ETags; idle costs one PROPFIND of the home; then only what changed, removals from the whole listing"
    )
    func ctagFallback() async throws {
        let fixture = try await Fixture(CalDAVQuirks(syncCollection: false))
        defer { fixture.server.stop() }
        let provider = fixture.provider
        let keep = try await provider.createEvent(fixture.event("Keep", day: 12), in: "work", idempotencyKey: nil)
        let edit = try await provider.createEvent(fixture.event("Edit", day: 13), in: "work", idempotencyKey: nil)
        let gone = try await provider.createEvent(fixture.event("Gone", day: 14), in: "work", idempotencyKey: nil)
        let series = try await provider.createEvent(
            fixture.event("Weekly", day: 4, rule: "RRULE:FREQ=WEEKLY;COUNT=3"), in: "work", idempotencyKey: nil)
        // Outside the window: not among the changes, but in the cursor's listing.
        let later = try await provider.createEvent(fixture.event("Later", day: 28), in: "work", idempotencyKey: nil)
        let window = TimeRange(
            start: CalDAVServerTests.instant("2027-01-01T00:00:00Z"), end: CalDAVServerTests.instant("2027-01-20T00:00:00Z"))

        guard case .changes(let full) = try await provider.changes(calendarID: "work", window: window, cursor: nil) else {
            Issue.record("a full read expired")
            return
        }
        #expect(full.isFullRead)
        #expect(full.cursor.hasPrefix("caldavctag1:"))
        #expect(Set(full.changed.map(\.id)) == [keep.id, edit.id, gone.id, series.id])
        #expect(full.requests == 3)

        // Idle: one PROPFIND of the home, nothing else.
        let before = fixture.requests.count
        guard case .changes(let idle) = try await provider.changes(calendarID: "work", window: window, cursor: full.cursor) else {
            Issue.record("the ctag cursor expired")
            return
        }
        #expect(idle.changed.isEmpty && idle.removed.isEmpty)
        #expect(idle.requests == 1)
        let idleRequests = fixture.requests.dropFirst(before)
        #expect(idleRequests.map(\.method) == ["PROPFIND"])
        #expect(idleRequests.first?.path == "/caldav/1001/calendars/")

        // A write in another calendar changes only that calendar's ctag.
        _ = try await provider.createEvent(fixture.event("Elsewhere", day: 15), in: "home", idempotencyKey: nil)
        guard case .changes(let stillIdle) = try await provider.changes(calendarID: "work", window: window, cursor: full.cursor) else {
            Issue.record("the ctag cursor expired")
            return
        }
        #expect(stillIdle.changed.isEmpty && stillIdle.removed.isEmpty && stillIdle.requests == 1)

        var edited = try await provider.getEvent(id: edit.id, calendarID: "work")
        edited.title = "Edited"
        _ = try await provider.updateEvent(edited, fields: .title)
        try await provider.deleteEvent(id: gone.id, calendarID: "work")
        let occurrences = try await provider.listEvents(calendarID: "work", range: window, expand: true).filter { $0.seriesID == series.id }
        let cancelled = try #require(occurrences.sorted { $0.id < $1.id }.last)
        try await provider.deleteEvent(id: cancelled.id, calendarID: "work")

        let beforeDelta = fixture.requests.count
        guard case .changes(let delta) = try await provider.changes(calendarID: "work", window: window, cursor: full.cursor) else {
            Issue.record("the ctag cursor expired")
            return
        }
        #expect(!delta.isFullRead)
        // Only the changed members were fetched: the kept one and the one outside the window are not reported.
        #expect(Set(delta.changed.map(\.id)) == [edit.id, series.id], "changed: \(delta.changed.map(\.id))")
        #expect(delta.changed.first { $0.id == edit.id }?.title == "Edited")
        #expect(Set(delta.removed.map(\.id)) == [gone.id, cancelled.id], "removed: \(delta.removed.map(\.id))")
        #expect(!delta.removed.contains { $0.id == later.id })
        // The home, the calendar's listing, one multiget.
        #expect(delta.requests == 3)
        #expect(fixture.requests.dropFirst(beforeDelta).map(\.method) == ["PROPFIND", "PROPFIND", "REPORT"])

        guard case .changes(let after) = try await provider.changes(calendarID: "work", window: window, cursor: delta.cursor) else {
            Issue.record("the ctag cursor expired")
            return
        }
        #expect(after.changed.isEmpty && after.removed.isEmpty && after.requests == 1)
    }

    @Test("X- properties dropped: a retried create still finds its resource, and the copy is found by its derived UID")
    func droppedXProperties() async throws {
        let fixture = try await Fixture(CalDAVQuirks(dropsXProperties: true))
        defer { fixture.server.stop() }
        let marker = OriginMarker(provider: .google, account: "me", calendarID: "primary", eventID: "abc", contentHash: "h1")
        var event = fixture.event("Copied", day: 15)
        event.origin = marker
        let key = IdempotencyKey.copy(of: marker, toCalendar: "work")
        let first = try await fixture.provider.createEvent(event, in: "work", idempotencyKey: key)
        let second = try await fixture.provider.createEvent(event, in: "work", idempotencyKey: key)
        #expect(first.id == second.id)
        let stored = try #require(await fixture.emulator.storedText(user: "alice", calendar: "work", name: first.id))
        #expect(!stored.contains("X-CALBRIDGE"))
        let found = try await fixture.provider.findEvents(origin: .event(marker), in: "work")
        #expect(found.map(\.id) == [first.id])
    }

    @Test("Xandikos's refusals: an unknown token and a UID in use are 412")
    func xandikosRefusals() async throws {
        let fixture = try await Fixture(CalDAVQuirks(refusals: .xandikos))
        defer { fixture.server.stop() }
        let expired = try await fixture.provider.changes(
            calendarID: "work", window: CalDAVServerTests.january, cursor: "caldav1:http://example.com/ns/sync/unknown")
        guard case .cursorExpired(let expiry) = expired else {
            Issue.record("an unknown token was taken")
            return
        }
        #expect(expiry.providerCode == "valid-sync-token")
        #expect(expiry.message.contains("HTTP 412"))
    }

    @Test("tokens expire (a server's token age): the cursor of a full read is refused, a new full read works")
    func expiredTokens() async throws {
        let fixture = try await Fixture(CalDAVQuirks())
        defer { fixture.server.stop() }
        _ = try await fixture.provider.createEvent(fixture.event("One", day: 12), in: "work", idempotencyKey: nil)
        guard
            case .changes(let full) = try await fixture.provider.changes(calendarID: "work", window: CalDAVServerTests.january, cursor: nil)
        else {
            Issue.record("a full read expired")
            return
        }
        try await fixture.emulator.expireSyncTokens()
        guard
            case .cursorExpired(let expiry) = try await fixture.provider.changes(
                calendarID: "work", window: CalDAVServerTests.january, cursor: full.cursor)
        else {
            Issue.record("an expired token was taken")
            return
        }
        #expect(expiry.reason == .expired)
        #expect(expiry.message.contains("HTTP 403"))
        guard
            case .changes(let again) = try await fixture.provider.changes(
                calendarID: "work", window: CalDAVServerTests.january, cursor: nil)
        else {
            Issue.record("a full read expired")
            return
        }
        #expect(again.changed.count == 1)
    }

    @Test("a server that pages its sync answers (507): every change arrives, one request per page")
    func pagedSync() async throws {
        let fixture = try await Fixture(CalDAVQuirks(syncPageSize: 2))
        defer { fixture.server.stop() }
        guard
            case .changes(let full) = try await fixture.provider.changes(calendarID: "work", window: CalDAVServerTests.january, cursor: nil)
        else {
            Issue.record("a full read expired")
            return
        }
        var made: [String] = []
        for day in 10..<15 {
            made.append(try await fixture.provider.createEvent(fixture.event("E\(day)", day: day), in: "work", idempotencyKey: nil).id)
        }
        guard
            case .changes(let delta) = try await fixture.provider.changes(
                calendarID: "work", window: CalDAVServerTests.january, cursor: full.cursor)
        else {
            Issue.record("the cursor expired")
            return
        }
        #expect(Set(delta.changed.map(\.id)) == Set(made))
        #expect(delta.requests == 3)
    }
}
