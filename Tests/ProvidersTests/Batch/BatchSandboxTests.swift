import CalendarBridge
import Foundation
import GoogleCalendar
import HTTP
import MicrosoftGraph
import Sandbox
import Testing
import HTTPCurl

/// Sends through libcurl with a fixed bearer token (the sandbox's ready token for one user).
struct SandboxBearerTransport: HTTPTransport {
    let base: CurlTransport
    let token: String

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        request.headers["Authorization"] = "Bearer \(token)"
        return try await base.send(request)
    }
}

/// A running sandbox with one provider per seeded provider kind, stopped by `stop()`.
struct BatchSandbox {
    let server: SandboxServer
    let google: GoogleCalendarProvider
    let graph: GraphCalendarProvider

    static func start(components: @escaping SandboxComponentFactory = SandboxServices.standard) async throws -> BatchSandbox {
        let server = try await SandboxServer.start(SandboxOptions(), components: components)
        let curl = CurlTransport()
        let googleAccount = try #require(server.info.accounts.first { $0.provider == .google })
        let graphAccount = try #require(server.info.accounts.first { $0.provider == .microsoft })
        return BatchSandbox(
            server: server,
            google: GoogleCalendarProvider(
                account: "g", transport: SandboxBearerTransport(base: curl, token: googleAccount.accessToken),
                baseURL: server.baseURL),
            graph: GraphCalendarProvider(
                account: "m", transport: SandboxBearerTransport(base: curl, token: graphAccount.accessToken),
                baseURL: server.baseURL))
    }

    func calendarID(_ provider: any CalendarProvider) async throws -> String {
        let calendars = try await provider.listCalendars()
        return try #require(calendars.first { $0.isPrimary }?.id)
    }

    /// The API requests logged since `mark` (a value of `server.log.count`).
    func requests(since mark: Int) -> [SandboxRequestLogEntry] {
        Array(server.requestLog.suffix(server.log.count - mark))
    }
}

/// The same checks on both providers: what applyWrites writes lands, repeats do not duplicate, and
/// failures are reported per write.
@Suite("Batch writes against the sandbox", .serialized)
struct BatchSandboxTests {
    static let window = TimeRange(
        start: LocalDateTime(date: LocalDate(year: 2026, month: 3, day: 1)!).instant(in: TimeZone(identifier: "UTC")!),
        end: LocalDateTime(date: LocalDate(year: 2026, month: 3, day: 4)!).instant(in: TimeZone(identifier: "UTC")!))

    enum Side: String, CaseIterable, CustomTestStringConvertible {
        case google, graph
        var testDescription: String { rawValue }
        func provider(_ sandbox: BatchSandbox) -> any CalendarProvider {
            self == .google ? sandbox.google : sandbox.graph
        }
        var batchPath: String { self == .google ? "/batch/calendar/v3" : "/v1.0/$batch" }
    }

    static func created(_ result: EventWriteResult) -> Event? {
        if case .success(.created(let event)) = result { return event }
        return nil
    }

    @Test("creates, an update and a delete in one applyWrites land, through one batch request", arguments: Side.allCases)
    func createUpdateDelete(side: Side) async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let provider = side.provider(sandbox)
        let calendar = try await sandbox.calendarID(provider)

        let first = await provider.applyWrites(
            (0..<3).map { .create(BatchSamples.event("Batch \($0)", hour: 9 + $0), idempotencyKey: BatchSamples.key("\(side)-\($0)")) },
            in: calendar, maxConcurrent: 4)
        let events = first.compactMap(Self.created)
        #expect(events.count == 3, "\(first)")
        guard events.count == 3 else { return }

        let mark = sandbox.server.log.count
        var moved = events[1]
        moved.title = "Batch 1 moved"
        moved.location = "Room 4"
        let second = await provider.applyWrites([.update(moved), .delete(id: events[2].id)], in: calendar, maxConcurrent: 4)
        #expect(sandbox.requests(since: mark).map(\.path) == [side.batchPath])
        guard case .success(.updated(let updated)) = second[0] else { Issue.record("\(second[0])"); return }
        #expect(updated.title == "Batch 1 moved" && updated.location == "Room 4")
        guard case .success(.deleted) = second[1] else { Issue.record("\(second[1])"); return }

        let listed = try await provider.listEvents(calendarID: calendar, range: Self.window, expand: true)
            .filter { $0.title.hasPrefix("Batch ") && $0.status != .cancelled }
        #expect(listed.map(\.title).sorted() == ["Batch 0", "Batch 1 moved"])
        let stored = try #require(listed.first { $0.title == "Batch 0" })
        #expect(stored.start == events[0].start && stored.end == events[0].end)
        #expect(stored.start.zone == BatchSamples.berlin)
    }

    @Test("a retried keyed create inside a batch returns the first copy instead of a duplicate", arguments: Side.allCases)
    func retriedCreate(side: Side) async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let provider = side.provider(sandbox)
        let calendar = try await sandbox.calendarID(provider)
        let key = BatchSamples.key("\(side)-retry")
        let event = BatchSamples.event("Retried", hour: 14)

        let once = await provider.applyWrites(
            [.create(event, idempotencyKey: key), .create(BatchSamples.event("Other", hour: 16), idempotencyKey: nil)],
            in: calendar, maxConcurrent: 4)
        let original = try #require(Self.created(once[0]))
        // The same create again (a lost answer, a rerun after a crash), batched with another write.
        let again = await provider.applyWrites(
            [.create(event, idempotencyKey: key), .create(BatchSamples.event("Third", hour: 17), idempotencyKey: nil)],
            in: calendar, maxConcurrent: 4)
        let repeated = try #require(Self.created(again[0]), "\(again[0])")
        #expect(repeated.id == original.id)
        #expect(Self.created(again[1]) != nil)
        let listed = try await provider.listEvents(calendarID: calendar, range: Self.window, expand: true)
        #expect(listed.filter { $0.title == "Retried" && $0.status != .cancelled }.count == 1)

        if side == .google {
            // Deleted since: Google keeps the id, so the create brings the same event back.
            _ = await provider.applyWrites([.delete(id: original.id), .delete(id: "never-there")], in: calendar, maxConcurrent: 4)
            let revived = await provider.applyWrites(
                [.create(event, idempotencyKey: key), .delete(id: "never-there-either")], in: calendar, maxConcurrent: 4)
            let back = try #require(Self.created(revived[0]), "\(revived[0])")
            #expect(back.id == original.id && back.status == .confirmed)
            let stored = try await provider.getEvent(id: original.id, calendarID: calendar)
            #expect(stored.status == .confirmed && stored.title == "Retried")
        }
    }

    @Test("per-item errors are reported per item; the other writes of the batch still land", arguments: Side.allCases)
    func perItemErrors(side: Side) async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let provider = side.provider(sandbox)
        let calendar = try await sandbox.calendarID(provider)

        // An update of an event that does not exist: 404 inside the batch.
        var broken = BatchSamples.event("Broken", hour: 11)
        broken.id = side == .google ? "unknownid0123" : "AAMkUnknownEventId"
        let results = await provider.applyWrites(
            [
                .create(BatchSamples.event("Before", hour: 8), idempotencyKey: BatchSamples.key("\(side)-before")),
                .update(broken),
                .delete(id: side == .google ? "alsounknown01" : "AAMkAlsoUnknown"),
                .create(BatchSamples.event("After", hour: 18), idempotencyKey: BatchSamples.key("\(side)-after")),
            ], in: calendar, maxConcurrent: 4)
        #expect(results.count == 4)
        #expect(Self.created(results[0])?.title == "Before")
        #expect(CalendarError.Code.of(results[1]) == .notFound, "\(results[1])")
        guard case .success(.deleted) = results[2] else { Issue.record("deleting what is gone is done: \(results[2])"); return }
        #expect(Self.created(results[3])?.title == "After", "\(results[3])")
        let titles = try await provider.listEvents(calendarID: calendar, range: Self.window, expand: true).map(\.title)
        #expect(titles.contains("Before") && titles.contains("After") && !titles.contains("Broken"))
    }

    @Test("Graph: 45 writes become 3 batches of at most 20, and the mailbox is never over its limit")
    func graphChunks() async throws {
        let sandbox = try await BatchSandbox.start()
        defer { Task { try? await sandbox.server.stop() } }
        let calendar = try await sandbox.calendarID(sandbox.graph)
        let mark = sandbox.server.log.count
        let results = await sandbox.graph.applyWrites(
            (0..<45).map { .create(BatchSamples.event("Bulk \($0)", hour: 6 + $0 % 12), idempotencyKey: BatchSamples.key("bulk-\($0)")) },
            in: calendar, maxConcurrent: 4)
        #expect(results.compactMap(Self.created).count == 45)
        let requests = sandbox.requests(since: mark)
        #expect(requests.map(\.path) == Array(repeating: "/v1.0/$batch", count: 3))
        #expect(requests.allSatisfy { $0.status == 200 })
        let listed = try await sandbox.graph.listEvents(calendarID: calendar, range: Self.window, expand: true)
        #expect(Set(listed.map(\.title).filter { $0.hasPrefix("Bulk ") }).count == 45)
    }
}
