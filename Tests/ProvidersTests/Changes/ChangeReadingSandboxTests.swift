import CalendarBridge
import Foundation
import GoogleCalendar
import HTTP
import MicrosoftGraph
import Sandbox
import Testing

/// Incremental reads of both providers against the sandbox: a full read, quiet rounds, creates, updates and
/// deletes between rounds, expired cursors, and (Graph) series occurrences.
@Suite("Incremental reads against the sandbox", .serialized)
struct ChangeReadingSandboxTests {
    /// The seeded weeks lie around today: a window from a week back to two weeks ahead holds them.
    static let window = TimeRange(start: Date().addingTimeInterval(-7 * 86_400), end: Date().addingTimeInterval(14 * 86_400))

    enum Side: String, CaseIterable, CustomTestStringConvertible {
        case google, graph
        var testDescription: String { rawValue }
        func provider(_ sandbox: BatchSandbox) -> any ChangeReadingProvider {
            self == .google ? sandbox.google : sandbox.graph
        }
    }

    static func changes(_ read: ChangeRead, _ comment: Comment? = nil) throws -> ChangeSet {
        guard case .changes(let set) = read else {
            Issue.record("expected changes, got \(read) \(comment.map { "\($0)" } ?? "")")
            throw CalendarError(.invalidResponse, "no change set")
        }
        return set
    }

    static func expiry(_ read: ChangeRead) -> CursorExpiry? {
        if case .cursorExpired(let expiry) = read { return expiry }
        return nil
    }

    static func event(_ title: String, daysAhead: Double) -> Event {
        let start = Date().addingTimeInterval(daysAhead * 86_400).rounded(toMinutes: 60)
        return Event(title: title, start: .timed(instant: start, zone: "Europe/Berlin"),
                     end: .timed(instant: start.addingTimeInterval(3600), zone: "Europe/Berlin"))
    }

    @Test("a full read, a quiet round of one request, then exactly the creates, updates and deletes made between", arguments: Side.allCases)
    func roundTrips(side: Side) async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let provider = side.provider(sandbox)
        let calendar = try await sandbox.calendarID(provider)

        let full = try Self.changes(try await provider.changes(calendarID: calendar, window: Self.window, cursor: nil))
        #expect(full.isFullRead)
        #expect(!full.changed.isEmpty)
        let listed = try await provider.listEvents(calendarID: calendar, range: Self.window, expand: side == .graph)
        #expect(Set(full.changed.map(\.id)) == Set(listed.filter { $0.status != .cancelled }.map(\.id)),
                "the full read is the window's listing")
        // Google lists a series' cancelled occurrences with it: positive evidence, reported as removals.
        #expect(Set(full.removed.map(\.id)) == Set(listed.filter { $0.status == .cancelled }.map(\.id)))
        #expect(full.removed.allSatisfy { $0.seriesID != nil })

        let quiet = try Self.changes(try await provider.changes(calendarID: calendar, window: Self.window, cursor: full.cursor))
        #expect(!quiet.isFullRead)
        #expect(quiet.changed.isEmpty && quiet.removed.isEmpty)
        #expect(quiet.requests == 1, "nothing changed: one request")

        let created = try await provider.createEvent(Self.event("Sync probe", daysAhead: 2), in: calendar)
        let victim = try await provider.createEvent(Self.event("Short-lived", daysAhead: 3), in: calendar)
        let afterCreate = try Self.changes(try await provider.changes(calendarID: calendar, window: Self.window, cursor: quiet.cursor))
        #expect(Set(afterCreate.changed.map(\.id)) == [created.id, victim.id])
        #expect(afterCreate.changed.first { $0.id == created.id }?.title == "Sync probe")

        var renamed = created
        renamed.title = "Sync probe, renamed"
        _ = try await provider.updateEvent(renamed)
        try await provider.deleteEvent(id: victim.id, calendarID: calendar)
        let afterEdit = try Self.changes(try await provider.changes(calendarID: calendar, window: Self.window, cursor: afterCreate.cursor))
        #expect(afterEdit.changed.map(\.id) == [created.id])
        #expect(afterEdit.changed.first?.title == "Sync probe, renamed")
        #expect(afterEdit.removed.map(\.id) == [victim.id])

        let settled = try Self.changes(try await provider.changes(calendarID: calendar, window: Self.window, cursor: afterEdit.cursor))
        #expect(settled.changed.isEmpty && settled.removed.isEmpty)
        // An older cursor repeats its changes: storing the cursor after applying them loses nothing.
        let again = try Self.changes(try await provider.changes(calendarID: calendar, window: Self.window, cursor: afterCreate.cursor))
        #expect(again.removed.map(\.id) == [victim.id])
    }

    @Test("expired cursors (Google 410 fullSyncRequired, Graph 410 SyncStateNotFound) are .cursorExpired, then a full read works", arguments: Side.allCases)
    func expired(side: Side) async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let provider = side.provider(sandbox)
        let calendar = try await sandbox.calendarID(provider)
        let full = try Self.changes(try await provider.changes(calendarID: calendar, window: Self.window, cursor: nil))
        await sandbox.server.expireChangeCursors()
        let read = try await provider.changes(calendarID: calendar, window: Self.window, cursor: full.cursor)
        let expiry = try #require(Self.expiry(read))
        #expect(expiry.reason == .expired)
        #expect(expiry.providerCode == (side == .google ? "fullSyncRequired" : "SyncStateNotFound"))
        let fresh = try Self.changes(try await provider.changes(calendarID: calendar, window: Self.window, cursor: nil))
        #expect(Set(fresh.changed.map(\.id)) == Set(full.changed.map(\.id)))
    }

    @Test("a cursor of the other provider, or garbage, is .unreadable without a request", arguments: Side.allCases)
    func unreadable(side: Side) async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let provider = side.provider(sandbox)
        let calendar = try await sandbox.calendarID(provider)
        let other = try await (side == .google ? sandbox.graph as any ChangeReadingProvider : sandbox.google)
            .changes(calendarID: try await sandbox.calendarID(side == .google ? sandbox.graph : sandbox.google),
                     window: Self.window, cursor: nil)
        let otherCursor = try Self.changes(other).cursor
        let mark = sandbox.server.log.count
        for cursor in [otherCursor, "", "garbage|||"] {
            let read = try await provider.changes(calendarID: calendar, window: Self.window, cursor: cursor)
            #expect(Self.expiry(read)?.reason == .unreadable, "cursor \(cursor.prefix(20))")
        }
        #expect(sandbox.requests(since: mark).isEmpty)
    }

    @Test("Graph: a series whose week starts on Sunday, retitled, keeps its moved and its cancelled occurrence")
    func graphSeriesWeekStart() async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let graph = sandbox.graph
        let calendar = try await sandbox.calendarID(graph)
        // The seeded "Team sync": Monday, Wednesday, Friday, its week starting on Sunday (firstDayOfWeek), this
        // week's Monday moved to 11:00 and this week's Wednesday cancelled.
        func occurrences() async throws -> [Event] {
            try await graph.listEvents(calendarID: calendar, range: Self.window, expand: true)
                .filter { $0.seriesID != nil && $0.title.hasPrefix("Team sync") }
        }
        let before = try await occurrences()
        let moved = try #require(before.first { $0.location == "SEA-18 Room 2310" })
        let masterID = try #require(moved.seriesID)
        var master = try await graph.getEvent(id: masterID, calendarID: calendar)
        #expect(master.recurrence?.lines.first?.hasSuffix(";WKST=SU") == true)
        master.title = "Team sync (new name)"
        _ = try await graph.updateEvent(master)
        // Written back with Monday as its week start, the pattern was a new one, and Exchange drops a series'
        // exceptions and cancellations with its pattern: the cancelled Wednesday came back, the moved Monday went.
        let after = try await occurrences()
        #expect(after.count == before.count)
        #expect(Set(after.map(\.originalStart)) == Set(before.map(\.originalStart)))
        #expect(after.contains { $0.id == moved.id && $0.start == moved.start && $0.location == moved.location })
        #expect(after.filter { $0.id != moved.id }.allSatisfy { $0.title == "Team sync (new name)" })
    }

    @Test("Graph: a rolled window is .windowChanged; a series edit reports occurrences, never the master")
    func graphSeries() async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let graph = sandbox.graph
        let calendar = try await sandbox.calendarID(graph)
        let full = try Self.changes(try await graph.changes(calendarID: calendar, window: Self.window, cursor: nil))
        #expect(full.changed.allSatisfy { $0.recurrence == nil }, "no series masters in a delta")
        let occurrence = try #require(full.changed.first { $0.seriesID != nil && $0.title == "Team sync" })
        let masterID = try #require(occurrence.seriesID)
        let seriesCount = full.changed.filter { $0.seriesID == masterID }.count

        let rolled = TimeRange(start: Self.window.start.addingTimeInterval(86_400), end: Self.window.end.addingTimeInterval(86_400))
        #expect(Self.expiry(try await graph.changes(calendarID: calendar, window: rolled, cursor: full.cursor))?.reason == .windowChanged)

        var master = try await graph.getEvent(id: masterID, calendarID: calendar)
        master.title = "Team sync (new name)"
        _ = try await graph.updateEvent(master)
        let afterSeries = try Self.changes(try await graph.changes(calendarID: calendar, window: Self.window, cursor: full.cursor))
        #expect(!afterSeries.changed.contains { $0.id == masterID })
        let renamed = afterSeries.changed.filter { $0.seriesID == masterID && $0.title == "Team sync (new name)" }
        #expect(!renamed.isEmpty && renamed.count <= seriesCount)

        let cancelled = try #require(renamed.first)
        try await graph.deleteEvent(id: cancelled.id, calendarID: calendar)
        let afterCancel = try Self.changes(try await graph.changes(calendarID: calendar, window: Self.window, cursor: afterSeries.cursor))
        #expect(afterCancel.removed.map(\.id) == [cancelled.id])
        #expect(afterCancel.changed.isEmpty)
    }

    @Test("Graph: a full read establishes every single event's marker with one listing page; a later round carries none")
    func graphFullReadMarkers() async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let graph = sandbox.graph
        let calendar = try await sandbox.calendarID(graph)
        var copy = Self.event("A copy", daysAhead: 2)
        copy.origin = OriginMarker(provider: .google, account: "me@example.com", calendarID: "primary", eventID: "g1", contentHash: "h1")
        let created = try await graph.createEvent(copy, in: calendar)
        let plain = try await graph.createEvent(Self.event("Not a copy", daysAhead: 3), in: calendar)
        let before = sandbox.server.log.count

        let full = try Self.changes(try await graph.changes(calendarID: calendar, window: Self.window, cursor: nil))
        let singles = Set(full.changed.filter { $0.seriesID == nil }.map(\.id))
        #expect(singles.isSuperset(of: [created.id, plain.id]))
        #expect(full.markersRead == singles, "every single event's marker is known, present or not")
        #expect(full.changed.first { $0.id == created.id }?.origin?.eventID == "g1")
        #expect(full.changed.first { $0.id == plain.id }?.origin == nil)
        let paths = sandbox.server.requestLog.dropFirst(before).map(\.path)
        #expect(paths.filter { $0.hasSuffix("/calendarView") }.count == 1, "one listing page for the markers: \(paths)")
        #expect(full.requests == paths.count)

        var renamed = created
        renamed.title = "A copy, renamed"
        _ = try await graph.updateEvent(renamed)
        let next = try Self.changes(try await graph.changes(calendarID: calendar, window: Self.window, cursor: full.cursor))
        #expect(next.changed.map(\.id) == [created.id])
        #expect(next.markersRead.isEmpty && next.changed.first?.origin == nil, "a delta round carries no markers")
    }

    @Test("Google: a cancelled occurrence names its series; changes outside the window are dropped, removals kept")
    func googleSeriesAndWindow() async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let google = sandbox.google
        let calendar = try await sandbox.calendarID(google)
        let full = try Self.changes(try await google.changes(calendarID: calendar, window: Self.window, cursor: nil))
        let series = try #require(full.changed.first { $0.recurrence != nil }, "Google reads series masters")
        let occurrences = try await google.listEvents(calendarID: calendar, range: Self.window, expand: true)
        let occurrence = try #require(occurrences.first { $0.seriesID == series.id })
        try await google.deleteEvent(id: occurrence.id, calendarID: calendar)
        let far = try await google.createEvent(Self.event("Far in the future", daysAhead: 200), in: calendar)
        try await google.deleteEvent(id: far.id, calendarID: calendar)
        let near = try await google.createEvent(Self.event("Near", daysAhead: 1), in: calendar)
        let outside = try await google.createEvent(Self.event("Outside the window", daysAhead: 100), in: calendar)

        let set = try Self.changes(try await google.changes(calendarID: calendar, window: Self.window, cursor: full.cursor))
        #expect(set.changed.map(\.id) == [near.id], "not \(outside.id): it is outside the window")
        let cancelled = try #require(set.removed.first { $0.id == occurrence.id })
        #expect(cancelled.seriesID == series.id)
        #expect(cancelled.originalStart != nil)
        #expect(set.removed.contains { $0.id == far.id }, "removals are reported wherever they were")
    }
}

extension Date {
    /// This instant rounded down to a multiple of `minutes`.
    func rounded(toMinutes minutes: Int) -> Date {
        let step = Double(minutes * 60)
        return Date(timeIntervalSince1970: (timeIntervalSince1970 / step).rounded(.down) * step)
    }
}
