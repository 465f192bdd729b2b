import CalDAV
import CalendarBridge
import CopyModel
import Foundation
import GoogleCalendar
import HTTP
import HTTPCurl
import Sandbox
import Sync
import SyncModel
import TestSupport
import Testing

/// The CalDAV provider signed in to a fresh Radicale (127.0.0.1, throwaway storage) with a calendar `work`.
struct RadicaleCalendar: Sendable {
    static let password = "model-Pw-7c1"
    let server: CalDAVTestServer
    let provider: CalDAVProvider
    let info: CalendarInfo

    static func start(account: String) async throws -> RadicaleCalendar {
        let server = try await CalDAVTestServer(.radicale, password: password)
        do {
            try await server.makeCalendar("work", name: "Work", password: password)
            let transport = MiddlewareTransport(
                base: CurlTransport(), middlewares: [BasicAuthentication(userName: server.user, password: password)])
            let provider = CalDAVProvider(provider: .caldav, account: account, transport: transport, server: server.url)
            guard let info = try await provider.listCalendars().first(where: { $0.id == "work" }) else {
                throw ModelProblem(code: "error", step: -1, detail: "Radicale lists no calendar work")
            }
            return RadicaleCalendar(server: server, provider: provider, info: info)
        } catch {
            server.stop()
            throw error
        }
    }
}

/// The copy model's world with Radicale as the target: the source is the sandbox's (as `SandboxModelBackend`
/// makes it for a Google target), the target the CalDAV provider on a fresh Radicale.
struct RadicaleModelBackend: ModelBackend {
    var name: String { "sandbox -> Radicale" }

    func world(for scenario: ModelScenario) async throws -> ModelWorld {
        var sandboxScenario = scenario
        sandboxScenario.targetKind = scenario.sourceKind == .google ? .microsoft : .google
        var world = try await SandboxModelBackend().world(for: sandboxScenario)
        let radicale: RadicaleCalendar
        do {
            radicale = try await RadicaleCalendar.start(account: "dst")
        } catch {
            await world.close()
            throw error
        }
        let closeSandbox = world.close
        world.target = radicale.provider
        world.targetCalendar = radicale.info
        world.close = {
            await closeSandbox()
            radicale.server.stop()
        }
        return world
    }
}

/// Side A the sandbox's Google calendar, side B a CalDAV calendar on Radicale. A CalDAV cursor expires by
/// being replaced with one the server never gave (Radicale refuses it with 403 `valid-sync-token`).
struct RadicaleSyncCalendars: SyncModelCalendars {
    let server: SandboxServer
    let google: GoogleCalendarProvider
    let googleCalendar: String
    let radicale: RadicaleCalendar
    let dav: ExpiringCursors
    let now = Date()

    static func start() async throws -> RadicaleSyncCalendars {
        var options = SandboxOptions()
        options.seed = SandboxModelBackend.emptySeed
        let server = try await SandboxServer.start(options)
        do {
            let googleUser = try #require(server.info.accounts.first { $0.provider == .google })
            let google = GoogleCalendarProvider(
                account: "g", transport: SandboxBearerTransport(base: CurlTransport(), token: googleUser.accessToken),
                baseURL: server.baseURL)
            let a = try #require(try await google.listCalendars().first(where: \.isPrimary)?.id)
            let radicale = try await RadicaleCalendar.start(account: "d")
            return RadicaleSyncCalendars(
                server: server, google: google, googleCalendar: a, radicale: radicale, dav: ExpiringCursors(radicale.provider))
        } catch {
            try? await server.stop()
            throw error
        }
    }

    func provider(_ side: SyncSide) -> any ChangeReadingProvider { side == .a ? google : dav }
    func calendar(_ side: SyncSide) -> String { side == .a ? googleCalendar : "work" }
    func expireCursors(_ side: SyncSide) async {
        if side == .a { await server.expireChangeCursors() } else { dav.expire() }
    }

    func stop() async {
        try? await server.stop()
        radicale.server.stop()
    }
}

/// A CalDAV provider whose next change read, once `expire()` is called, sends a sync token the server never
/// gave: the server's own refusal then reaches the engine as an expired cursor.
final class ExpiringCursors: ForwardingProvider, ChangeReadingProvider, @unchecked Sendable {
    let dav: CalDAVProvider
    var base: any CalendarProvider { dav }
    private let lock = NSLock()
    private var expired = false

    init(_ dav: CalDAVProvider) { self.dav = dav }

    func expire() { lock.withLock { expired = true } }

    func changes(calendarID: String, window: TimeRange, cursor: String?) async throws -> ChangeRead {
        let expire = lock.withLock { () -> Bool in
            defer { expired = false }
            return expired && cursor != nil
        }
        return try await dav.changes(calendarID: calendarID, window: window, cursor: expire ? "caldav1:never-given-\(UUID())" : cursor)
    }

    func createEvent(_ event: Event, in calendarID: String, idempotencyKey: IdempotencyKey?) async throws -> Event {
        try await dav.createEvent(event, in: calendarID, idempotencyKey: idempotencyKey)
    }
    func updateEvent(_ event: Event, fields: EventFields) async throws -> Event { try await dav.updateEvent(event, fields: fields) }
    func deleteEvent(id: String, calendarID: String) async throws { try await dav.deleteEvent(id: id, calendarID: calendarID) }
    func applyWrites(_ writes: [EventWrite], in calendarID: String, maxConcurrent: Int) async -> [EventWriteResult] {
        await dav.applyWrites(writes, in: calendarID, maxConcurrent: maxConcurrent)
    }
}

/// The model-based copy and sync tests with a CalDAV side on a real Radicale: the same generators, oracles
/// and invariants as against the sandbox, a fresh Radicale per sequence. A few sequences by default (each
/// starts a server); more with `CALBRIDGE_MODEL_SEQUENCES` (and `_FIRST_SEED`, `_SEED` to replay one).
@Suite(
    "Copy and sync models with a CalDAV side (Radicale)", .serialized,
    .enabled(if: CalDAVTestServer.unavailableReason == nil, "\(CalDAVTestServer.unavailableReason ?? "")"))
struct CalDAVModelTests {
    @Test("copy model, Outlook -> CalDAV: seeded sequences keep every invariant")
    func copyOutlookToCalDAV() async throws {
        let seeds = ModelCheck.seeds(defaultCount: 4, defaultFirst: 1)
        let summary = await ModelCheck.run(
            seeds: seeds, backend: RadicaleModelBackend(), direction: (.microsoft, .caldav), parallel: 2, shrinkLimit: 2,
            filter: "CalDAVModelTests")
        print(
            "copy model (Outlook -> Radicale): \(summary.sequences) sequences, \(summary.operations) operations, "
                + "\(summary.failures.count) failing, \(String(format: "%.1f", summary.seconds)) s")
        print(summary.report)
        for failure in summary.shrunk { Issue.record("\(failure)") }
        if summary.failures.count > summary.shrunk.count {
            Issue.record(
                "\(summary.failures.count - summary.shrunk.count) more failing seeds: \(summary.failures.filter { !$0.isShrunk }.map { "\($0.scenario.seed) [\($0.problem.code)]" })"
            )
        }
        #expect(summary.sequences == seeds.count)
    }

    @Test("sync model, Google <-> CalDAV: random two-way edits converge without loss or duplicates")
    func syncGoogleWithCalDAV() async throws {
        let seeds = ModelCheck.seeds(defaultCount: 3)
        var failures: [String] = []
        let started = ContinuousClock.now
        for seed in seeds {
            let calendars = try await RadicaleSyncCalendars.start()
            let failure = await SyncModel.run(seed: seed, calendars: calendars)
            await calendars.stop()
            if let failure {
                failures.append(failure.replacingOccurrences(of: "--filter SyncModelTests", with: "--filter CalDAVModelTests"))
                if failures.count >= 3 { break }
            }
        }
        print(
            "sync model (Google <-> Radicale): \(seeds.count) sequences from seed \(seeds.first ?? 0), \(failures.count) failing, \(ContinuousClock.now - started)"
        )
        #expect(failures.isEmpty, "\(failures.count) failing sequences of \(seeds.count):\n\(failures.joined(separator: "\n"))")
    }

    /// 7034: a series deleted on Google while an occurrence was cancelled on the CalDAV side (an EXDATE on
    /// its master) came back: the EXDATE counted as an edit of the series that wins over the deletion.
    @Test("sync model, Google <-> CalDAV: replays of failures found by longer runs converge", arguments: [7034])
    func syncReplays(seed: UInt64) async throws {
        let calendars = try await RadicaleSyncCalendars.start()
        let failure = await SyncModel.run(seed: seed, calendars: calendars)
        await calendars.stop()
        #expect(failure == nil, "\(failure ?? "")")
    }
}
