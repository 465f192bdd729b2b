import Accounts
import CalendarBridge
import Foundation
import OAuth
import Testing
import TestSupport
@testable import CLI

/// A provider calbridge was not built with ("memcal", in memory), added through the registration point
/// alone: one `ProviderRegistration` value in the list handed to the CLI. Nothing else knows it.
@Suite("A third provider, registered once, works with calendars, events, add and copy")
struct ThirdProviderEndToEndTests {
    static let kind = ProviderKind(rawValue: "memcal")
    static let api = ProviderAPI(rawValue: "memcal-v1")

    /// The in-memory calendars of each account, kept across commands (each command opens its accounts anew).
    final class Calendars: @unchecked Sendable {
        private let lock = NSLock()
        private var providers: [String: InMemoryCalendarProvider] = [:]

        func provider(for account: String) -> InMemoryCalendarProvider {
            lock.withLock {
                if let existing = providers[account] { return existing }
                let created = InMemoryCalendarProvider(
                    provider: ThirdProviderEndToEndTests.kind, account: account,
                    calendars: [CalendarInfo(id: "cal-\(account)", name: "Diary", account: account, provider: ThirdProviderEndToEndTests.kind,
                                             isPrimary: true, accessRole: .owner, timeZone: "Europe/Berlin")])
                providers[account] = created
                return created
            }
        }
    }

    /// The registration: a descriptor (OAuth, never refreshed here: the stored token is valid) and a factory.
    static func registration(_ calendars: Calendars) -> ProviderRegistration {
        let descriptor: [String: Any] = [
            "id": "memcal", "api": api.rawValue, "displayName": "Memory Calendar",
            "authorizationEndpoint": "http://127.0.0.1:9/authorize", "tokenEndpoint": "http://127.0.0.1:9/token",
            "apiBaseURL": "http://127.0.0.1:9", "scopes": ["calendar"],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: descriptor)) ?? Data()
        return ProviderRegistration(
            id: "memcal", displayName: "Memory Calendar", api: api, authentication: .oauth(builtInDescriptor: data),
            makeProvider: { account, _ in calendars.provider(for: account.name) }
        )
    }

    struct Run {
        var code: ExitCode
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], home: URL, providers: ProviderRegistry) async -> Run {
        let out = BufferSink(), err = BufferSink()
        let context = CommandContext(
            stdout: out, stderr: err, environment: ["CALBRIDGE_HOME": home.path, "TZ": "Europe/Berlin"],
            now: { Date(timeIntervalSince1970: 1_796_112_000) },  // 2026-12-01 08:00 UTC
            providers: providers)
        let code = await CalbridgeCLI.run(arguments, context: context)
        return Run(code: code, stdout: out.text, stderr: err.text)
    }

    @Test("calendars, events, add and copy through a provider registered in a test-only list")
    func endToEnd() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let home = CalbridgeHome(directory: temp.url.appendingPathComponent("home"))
        let calendars = Calendars()
        let providers = ProviderRegistry(ProviderRegistry.builtIn.registrations + [Self.registration(calendars)])
        for name in ["alpha", "beta"] {
            try FileTokenStore(home: home).save(
                TokenSet(accessToken: "at-\(name)", refreshToken: "rt-\(name)", expiresAt: Date().addingTimeInterval(3600)),
                account: name)
            try AccountRegistry(home: home).save(AccountRecord(
                name: name, provider: "memcal", api: Self.api, user: "\(name)@memcal.example", clientId: "memcal-client",
                scopes: ["calendar"]))
        }

        let listed = await Self.run(["calendars", "--format", "tsv"], home: home.directory, providers: providers)
        #expect(listed.code == .success, "\(listed.stderr)")
        #expect(listed.stdout.contains("alpha:Diary"))
        #expect(listed.stdout.contains("beta:Diary"))

        let added = await Self.run(
            ["add", "alpha:Diary", "--title", "Planning", "--start", "2026-12-02T10:00", "--end", "2026-12-02T11:00"],
            home: home.directory, providers: providers)
        #expect(added.code == .success, "\(added.stderr)")
        let stored = await calendars.provider(for: "alpha").storedEvents(in: "cal-alpha")
        #expect(stored.map(\.title) == ["Planning"])

        let events = await Self.run(
            ["events", "alpha:Diary", "--from", "2026-12-01", "--to", "2026-12-08", "--format", "json"],
            home: home.directory, providers: providers)
        #expect(events.code == .success, "\(events.stderr)")
        #expect(events.stdout.contains("Planning"))

        let copied = await Self.run(
            ["copy", "alpha:Diary", "beta:Diary", "--from", "2026-12-01", "--to", "2026-12-08"],
            home: home.directory, providers: providers)
        #expect(copied.code == .success, "\(copied.stderr)")
        let copies = await calendars.provider(for: "beta").storedEvents(in: "cal-beta")
        #expect(copies.map(\.title) == ["Planning"])
        #expect(copies.first?.start == stored.first?.start)

        // The copy carries its origin marker, so a second run creates nothing.
        let again = await Self.run(
            ["copy", "alpha:Diary", "beta:Diary", "--from", "2026-12-01", "--to", "2026-12-08"],
            home: home.directory, providers: providers)
        #expect(again.code == .success, "\(again.stderr)")
        #expect(await calendars.provider(for: "beta").storedEvents(in: "cal-beta").count == 1)

        // Without the registration, the same accounts are an API this calbridge cannot talk to.
        let unregistered = await Self.run(["events", "alpha:Diary"], home: home.directory, providers: .builtIn)
        #expect(unregistered.code == .failure)
        #expect(unregistered.stderr.contains("uses API 'memcal-v1', which this calbridge cannot talk to"))
    }
}
