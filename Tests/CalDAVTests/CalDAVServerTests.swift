import CalDAV
import CalendarBridge
import Foundation
import HTTP
import HTTPCurl
import TestSupport
import Testing

/// The CalDAV provider against real servers: every test runs on Radicale and on Xandikos, each started on
/// 127.0.0.1 with throwaway storage (`CalDAVTestServer`), and on the sandbox's CalDAV service, which is so
/// held to what the real servers do. What one server does differently is a named test (`quirk…`); the
/// sandbox answers as Radicale does by default (`CalDAVQuirks.refusals`).
@Suite(.enabled(if: CalDAVTestServer.unavailableReason == nil, "\(CalDAVTestServer.unavailableReason ?? "")"))
struct CalDAVServerTests {
    static let utc = TimeZone(secondsFromGMT: 0)!
    static let password = "test-password"

    /// A started server, a calendar `work` made on it, and the provider signed in to it.
    struct Fixture {
        let server: CalDAVTestServer
        let provider: CalDAVProvider
        let raw: any HTTPTransport

        init(_ kind: CalDAVTestServer.Kind) async throws {
            server = try await CalDAVTestServer(kind)
            raw = MiddlewareTransport(
                base: CurlTransport(), middlewares: [BasicAuthentication(userName: server.user, password: CalDAVServerTests.password)])
            provider = CalDAVProvider(provider: .caldav, account: "test", transport: raw, server: server.url)
            try await makeCalendar("work", name: "Work", colour: "#3366CCFF")
        }

        func makeCalendar(_ segment: String, name: String, colour: String) async throws {
            try await server.makeCalendar(segment, name: name, colour: colour, password: CalDAVServerTests.password)
        }

        /// GET of one resource's text.
        func resourceText(_ name: String, calendar: String = "work") async throws -> (status: Int, text: String, etag: String?) {
            let response = try await raw.send(
                HTTPRequest(url: server.home.appendingPathComponent(calendar, isDirectory: true).appendingPathComponent(name)))
            return (response.status, response.bodyText, response.headers["ETag"])
        }

        func put(_ name: String, _ text: String, headers: HTTPHeaders = [:]) async throws -> HTTPResponse {
            var all = headers
            all["Content-Type"] = "text/calendar; charset=utf-8"
            return try await raw.send(
                HTTPRequest(
                    method: .put, url: server.home.appendingPathComponent("work", isDirectory: true).appendingPathComponent(name),
                    headers: all,
                    body: Data(text.utf8)))
        }

        func stop() { server.stop() }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    static let january = TimeRange(start: instant("2027-01-01T00:00:00Z"), end: instant("2027-02-01T00:00:00Z"))

    static func timed(_ start: String, _ end: String, zone: String) -> (EventTime, EventTime) {
        (.timed(instant: instant(start), zone: zone), .timed(instant: instant(end), zone: zone))
    }

    // MARK: - Calendars

    @Test(
        "discovery from the server's root, and the calendars of the home with name, colour and access",
        arguments: CalDAVTestServer.Kind.allCases)
    func listCalendars(kind: CalDAVTestServer.Kind) async throws {
        let fixture = try await Fixture(kind)
        defer { fixture.stop() }
        try await fixture.makeCalendar("home", name: "Home", colour: "#FF0000")
        let calendars = try await fixture.provider.listCalendars()
        let work = try #require(calendars.first { $0.id == "work" }, "calendars: \(calendars.map(\.id))")
        #expect(work.name == "Work")
        #expect(work.colour == "#3366cc")
        #expect(work.accessRole == .owner)
        #expect(work.provider == .caldav)
        let home = try #require(calendars.first { $0.id == "home" })
        #expect(home.name == "Home")
        #expect(home.colour == "#ff0000")
        // The first calendar by name stands for `primary`.
        #expect(calendars.filter(\.isPrimary).count == 1 && calendars.first?.isPrimary == true)
        let user = try await fixture.provider.userInfo()
        #expect(user.accountIdentity?.hasPrefix(fixture.server.url.absoluteString) == true)
    }

    // MARK: - Create, read, update, delete

    @Test("a timed event in a zone: created, listed, read, updated (one field), deleted", arguments: CalDAVTestServer.Kind.allCases)
    func singleEvent(kind: CalDAVTestServer.Kind) async throws {
        let fixture = try await Fixture(kind)
        defer { fixture.stop() }
        let provider = fixture.provider
        let (start, end) = Self.timed("2027-01-12T08:30:00Z", "2027-01-12T09:15:00Z", zone: "Europe/Berlin")
        var event = Event(title: "Planning", body: .text("Agenda: budget"), location: "Room 4", start: start, end: end)
        event.reminders = [Reminder(minutesBefore: 15)]
        let created = try await provider.createEvent(event, in: "work", idempotencyKey: nil)
        #expect(created.id.hasSuffix(".ics"))

        let listed = try await provider.listEvents(calendarID: "work", range: Self.january, expand: true)
        let found = try #require(listed.first { $0.id == created.id }, "listed: \(listed.map(\.id))")
        #expect(found.title == "Planning")
        #expect(found.location == "Room 4")
        #expect(found.body?.content == "Agenda: budget")
        #expect(found.start == start)
        #expect(found.end == end)
        #expect(found.start.zone == "Europe/Berlin")
        #expect(found.reminders == [Reminder(minutesBefore: 15)])
        #expect(found.calendarID == "work")

        // The zone's VTIMEZONE is in the stored resource.
        let stored = try await fixture.resourceText(created.id)
        #expect(stored.text.contains("BEGIN:VTIMEZONE"))
        #expect(stored.text.contains("TZID:Europe/Berlin"))

        var renamed = found
        renamed.title = "Planning (moved)"
        renamed.location = "ignored: not among the fields"
        _ = try await provider.updateEvent(renamed, fields: .title)
        let read = try await provider.getEvent(id: created.id, calendarID: "work")
        #expect(read.title == "Planning (moved)")
        #expect(read.location == "Room 4")

        // Outside the window: not listed.
        let february = TimeRange(start: Self.instant("2027-02-01T00:00:00Z"), end: Self.instant("2027-03-01T00:00:00Z"))
        #expect(try await provider.listEvents(calendarID: "work", range: february, expand: true).isEmpty)

        try await provider.deleteEvent(id: created.id, calendarID: "work")
        await #expect(throws: CalendarError.self) { _ = try await provider.getEvent(id: created.id, calendarID: "work") }
        // Deleting what is gone succeeds.
        try await provider.deleteEvent(id: created.id, calendarID: "work")
        #expect(try await provider.listEvents(calendarID: "work", range: Self.january, expand: true).isEmpty)
    }

    @Test("an all-day event keeps its dates", arguments: CalDAVTestServer.Kind.allCases)
    func allDay(kind: CalDAVTestServer.Kind) async throws {
        let fixture = try await Fixture(kind)
        defer { fixture.stop() }
        let first = LocalDate(year: 2027, month: 1, day: 20)!
        let created = try await fixture.provider.createEvent(
            Event(title: "Offsite", start: .allDay(date: first), end: .allDay(date: first.adding(days: 2))), in: "work", idempotencyKey: nil
        )
        let listed = try await fixture.provider.listEvents(calendarID: "work", range: Self.january, expand: true)
        let found = try #require(listed.first { $0.id == created.id })
        #expect(found.start == .allDay(date: first))
        #expect(found.end == .allDay(date: first.adding(days: 2)))
        let stored = try await fixture.resourceText(created.id)
        #expect(stored.text.contains("DTSTART;VALUE=DATE:20270120"))
    }

    // MARK: - Series

    @Test(
        "a weekly series: one occurrence moved (an override), one cancelled (EXDATE), in one resource",
        arguments: CalDAVTestServer.Kind.allCases)
    func seriesWithOverrideAndExdate(kind: CalDAVTestServer.Kind) async throws {
        let fixture = try await Fixture(kind)
        defer { fixture.stop() }
        let provider = fixture.provider
        let (start, end) = Self.timed("2027-01-04T14:00:00Z", "2027-01-04T15:00:00Z", zone: "America/New_York")
        let series = Event(
            title: "Standup", start: start, end: end, recurrence: Recurrence(lines: ["RRULE:FREQ=WEEKLY;COUNT=4"]))
        let master = try await provider.createEvent(series, in: "work", idempotencyKey: nil)

        let occurrences = try await provider.listEvents(calendarID: "work", range: Self.january, expand: true)
        #expect(occurrences.count == 4)
        #expect(Set(occurrences.compactMap(\.seriesID)) == [master.id])
        let sorted = occurrences.sorted { $0.start.instant(allDayZone: Self.utc) < $1.start.instant(allDayZone: Self.utc) }

        // Move the second an hour later, cancel the third.
        var moved = sorted[1]
        moved.start = .timed(instant: sorted[1].start.instant(allDayZone: Self.utc).addingTimeInterval(3600), zone: "America/New_York")
        moved.end = .timed(instant: sorted[1].end.instant(allDayZone: Self.utc).addingTimeInterval(3600), zone: "America/New_York")
        moved.title = "Standup (late)"
        _ = try await provider.updateEvent(moved, fields: [.times, .title])
        try await provider.deleteEvent(id: sorted[2].id, calendarID: "work")

        let after = try await provider.listEvents(calendarID: "work", range: Self.january, expand: true)
            .sorted { $0.start.instant(allDayZone: Self.utc) < $1.start.instant(allDayZone: Self.utc) }
        #expect(after.count == 3, "occurrences: \(after.map { "\($0.id) \($0.title)" })")
        #expect(after.map(\.title) == ["Standup", "Standup (late)", "Standup"])
        #expect(after[1].start == moved.start)
        #expect(after[1].id == sorted[1].id)
        #expect(!after.contains { $0.id == sorted[2].id })

        // Unexpanded: the master (with its EXDATE) and the override.
        let masters = try await provider.listEvents(calendarID: "work", range: Self.january, expand: false)
        #expect(masters.contains { $0.id == master.id && $0.recurrence?.lines.contains { $0.hasPrefix("EXDATE") } == true })
        #expect(masters.contains { $0.id == sorted[1].id && $0.seriesID == master.id })

        let stored = try await fixture.resourceText(master.id)
        #expect(stored.text.contains("RECURRENCE-ID;TZID=America/New_York:20270111T090000"))
        #expect(stored.text.contains("EXDATE;TZID=America/New_York:20270118T090000"))
        #expect(stored.text.components(separatedBy: "BEGIN:VEVENT").count == 3)
        #expect(stored.text.contains("TZID:America/New_York"))

        // The occurrence by id, and the cancelled one gone.
        #expect(try await provider.getEvent(id: sorted[1].id, calendarID: "work").title == "Standup (late)")
        await #expect(throws: CalendarError.self) { _ = try await provider.getEvent(id: sorted[2].id, calendarID: "work") }
    }

    // MARK: - Safe writes

    @Test(
        "a create repeated with its idempotency key finds the first one's resource (If-None-Match)",
        arguments: CalDAVTestServer.Kind.allCases)
    func retriedCreate(kind: CalDAVTestServer.Kind) async throws {
        let fixture = try await Fixture(kind)
        defer { fixture.stop() }
        let (start, end) = Self.timed("2027-01-15T10:00:00Z", "2027-01-15T11:00:00Z", zone: "UTC")
        let marker = OriginMarker(provider: .google, account: "me", calendarID: "primary", eventID: "abc", contentHash: "h1")
        var event = Event(title: "Copied", start: start, end: end)
        event.origin = marker
        let key = IdempotencyKey.copy(of: marker, toCalendar: "work")
        let first = try await fixture.provider.createEvent(event, in: "work", idempotencyKey: key)
        let second = try await fixture.provider.createEvent(event, in: "work", idempotencyKey: key)
        #expect(first.id == second.id)
        let listed = try await fixture.provider.listEvents(calendarID: "work", range: Self.january, expand: true)
        #expect(listed.count == 1)
        // The marker comes back as X- properties, and the copy is found by it.
        #expect(listed.first?.origin == marker)
        let found = try await fixture.provider.findEvents(origin: .event(marker), in: "work")
        #expect(found.map(\.id) == [first.id])
        let byCalendar = try await fixture.provider.findEvents(
            origin: .calendar(provider: .google, account: "me", calendarID: "primary"), in: "work")
        #expect(byCalendar.map(\.id) == [first.id])
        let stored = try await fixture.resourceText(first.id)
        #expect(stored.text.contains("X-CALBRIDGE-ORIGIN-KEY:"))
    }

    @Test(
        "a stale ETag: a delete is refused with 412 (decided again on a new read), an update re-reads and applies",
        arguments: CalDAVTestServer.Kind.allCases)
    func staleETag(kind: CalDAVTestServer.Kind) async throws {
        let fixture = try await Fixture(kind)
        defer { fixture.stop() }
        let (start, end) = Self.timed("2027-01-15T10:00:00Z", "2027-01-15T11:00:00Z", zone: "UTC")
        let created = try await fixture.provider.createEvent(Event(title: "One", start: start, end: end), in: "work", idempotencyKey: nil)
        // calbridge reads (and remembers the ETag); another client then changes the event.
        _ = try await fixture.provider.listEvents(calendarID: "work", range: Self.january, expand: true)
        let other = CalDAVProvider(provider: .caldav, account: "other", transport: fixture.raw, server: fixture.server.url)
        var changed = try await other.getEvent(id: created.id, calendarID: "work")
        changed.location = "Elsewhere"
        _ = try await other.updateEvent(changed, fields: .location)

        let error = await #expect(throws: CalendarError.self) { try await fixture.provider.deleteEvent(id: created.id, calendarID: "work") }
        #expect(error?.httpStatus == 412)
        #expect(error?.code == .conflict)
        #expect(try await fixture.provider.getEvent(id: created.id, calendarID: "work").location == "Elsewhere")

        // An update reads the resource first, so it keeps the other client's change.
        var retitled = changed
        retitled.title = "Two"
        _ = try await fixture.provider.updateEvent(retitled, fields: .title)
        let read = try await fixture.provider.getEvent(id: created.id, calendarID: "work")
        #expect(read.title == "Two")
        #expect(read.location == "Elsewhere")

        // A PUT with an old ETag is refused by the server itself.
        let stale = try await fixture.put(
            created.id, try await fixture.resourceText(created.id).text, headers: ["If-Match": "\"not-the-etag\""])
        #expect(stale.status == 412)
    }

    // MARK: - Changes (RFC 6578)

    @Test(
        "changes: a full read gives a cursor; then only what changed, a removed resource as removed, a cancelled occurrence as removed",
        arguments: CalDAVTestServer.Kind.allCases)
    func changes(kind: CalDAVTestServer.Kind) async throws {
        let fixture = try await Fixture(kind)
        defer { fixture.stop() }
        let provider = fixture.provider
        let (start, end) = Self.timed("2027-01-15T10:00:00Z", "2027-01-15T11:00:00Z", zone: "UTC")
        let keep = try await provider.createEvent(Event(title: "Keep", start: start, end: end), in: "work", idempotencyKey: nil)
        let edit = try await provider.createEvent(Event(title: "Edit", start: start, end: end), in: "work", idempotencyKey: nil)
        let gone = try await provider.createEvent(Event(title: "Gone", start: start, end: end), in: "work", idempotencyKey: nil)
        let (seriesStart, seriesEnd) = Self.timed("2027-01-04T14:00:00Z", "2027-01-04T15:00:00Z", zone: "Europe/Berlin")
        let series = try await provider.createEvent(
            Event(title: "Weekly", start: seriesStart, end: seriesEnd, recurrence: Recurrence(lines: ["RRULE:FREQ=WEEKLY;COUNT=3"])),
            in: "work",
            idempotencyKey: nil)

        guard case .changes(let full) = try await provider.changes(calendarID: "work", window: Self.january, cursor: nil) else {
            Issue.record("a full read expired")
            return
        }
        #expect(full.isFullRead)
        #expect(Set(full.changed.map(\.id)) == [keep.id, edit.id, gone.id, series.id])
        #expect(full.removed.isEmpty)

        var edited = try await provider.getEvent(id: edit.id, calendarID: "work")
        edited.title = "Edited"
        _ = try await provider.updateEvent(edited, fields: .title)
        try await provider.deleteEvent(id: gone.id, calendarID: "work")
        let occurrences = try await provider.listEvents(calendarID: "work", range: Self.january, expand: true).filter {
            $0.seriesID == series.id
        }
        let cancelled = try #require(occurrences.sorted { $0.id < $1.id }.last)
        try await provider.deleteEvent(id: cancelled.id, calendarID: "work")

        guard case .changes(let delta) = try await provider.changes(calendarID: "work", window: Self.january, cursor: full.cursor) else {
            Issue.record("the cursor of a full read expired at once")
            return
        }
        #expect(!delta.isFullRead)
        #expect(Set(delta.changed.map(\.id)) == [edit.id, series.id], "changed: \(delta.changed.map(\.id))")
        #expect(delta.changed.first { $0.id == edit.id }?.title == "Edited")
        #expect(Set(delta.removed.map(\.id)) == [gone.id, cancelled.id], "removed: \(delta.removed.map(\.id))")
        #expect(delta.removed.first { $0.id == cancelled.id }?.seriesID == series.id)
        #expect(delta.removed.first { $0.id == cancelled.id }?.originalStart == cancelled.originalStart)

        // Nothing changed since: nothing reported, one request.
        guard case .changes(let idle) = try await provider.changes(calendarID: "work", window: Self.january, cursor: delta.cursor) else {
            Issue.record("the cursor expired")
            return
        }
        #expect(idle.changed.isEmpty && idle.removed.isEmpty && idle.requests == 1)
    }

    /// RFC 6578 §3.2: a token the server does not know is refused with `valid-sync-token`, as 403 by Radicale
    /// and as 412 by Xandikos; either way the cursor has expired and a full read follows.
    @Test(
        "quirk: an unknown sync token: Radicale 403, Xandikos 412, both an expired cursor", arguments: CalDAVTestServer.Kind.allCases)
    func quirkInvalidSyncToken(kind: CalDAVTestServer.Kind) async throws {
        let fixture = try await Fixture(kind)
        defer { fixture.stop() }
        let read = try await fixture.provider.changes(
            calendarID: "work", window: Self.january, cursor: "caldav1:http://example.com/ns/sync/unknown")
        guard case .cursorExpired(let expiry) = read else {
            Issue.record("an unknown token was taken")
            return
        }
        #expect(expiry.reason == .expired)
        #expect(expiry.providerCode == "valid-sync-token")
        #expect(expiry.message.contains(kind == .xandikos ? "HTTP 412" : "HTTP 403"), "\(expiry.message)")
        let foreign = try await fixture.provider.changes(calendarID: "work", window: Self.january, cursor: "google-token")
        guard case .cursorExpired(let unreadable) = foreign else {
            Issue.record("another provider's cursor was taken")
            return
        }
        #expect(unreadable.reason == .unreadable)
    }

    // MARK: - Quirks

    /// RFC 4791 §5.3.2.1: a UID already used by another resource of the calendar is refused with the
    /// `no-uid-conflict` precondition; Radicale says 409 where Xandikos says 412.
    @Test("quirk: a second resource with a UID in use: Radicale 409, Xandikos 412", arguments: CalDAVTestServer.Kind.allCases)
    func quirkDuplicateUID(kind: CalDAVTestServer.Kind) async throws {
        let fixture = try await Fixture(kind)
        defer { fixture.stop() }
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:same-uid\r\nDTSTAMP:20270101T000000Z\r\n"
            + "DTSTART:20270110T100000Z\r\nDTEND:20270110T110000Z\r\nSUMMARY:x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        #expect(try await fixture.put("a.ics", text).isSuccess)
        let second = try await fixture.put("b.ics", text)
        switch kind {
        case .radicale, .sandbox: #expect(second.status == 409, "\(second.bodyText)")
        case .xandikos: #expect(second.status == 412, "\(second.bodyText)")
        }
    }
}
