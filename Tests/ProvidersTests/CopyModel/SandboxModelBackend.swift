import CalendarBridge
import CopyModel
import Foundation
import GoogleCalendar
import HTTP
import HTTPCurl
import MicrosoftGraph
import Sandbox

/// The model test against the sandbox: a fresh sandbox per scenario, with no seeded events, and the
/// real Google and Graph providers in this process talking HTTP to it (the engine entry point the CLI
/// uses, without a process per run). Source: carol's Outlook calendar or ann's Google calendar; target:
/// the other one.
struct SandboxModelBackend: ModelBackend {
    var name: String { "sandbox" }

    func world(for scenario: ModelScenario) async throws -> ModelWorld {
        var options = SandboxOptions()
        let customZoned = OutlookCustomZone.chosen(scenario)
        options.seed = try OutlookCustomZone.seed(Self.emptySeed, adding: customZoned)
        let server = try await SandboxServer.start(options)
        do {
            let curl = CurlTransport()
            func provider(_ kind: ProviderKind, account: String) throws -> any CalendarProvider {
                let sandboxKind: SandboxProvider = kind == .google ? .google : .microsoft
                guard let user = server.info.accounts.first(where: { $0.provider == sandboxKind }) else {
                    throw ModelProblem(code: "error", step: -1, detail: "no \(kind) user in the sandbox")
                }
                let transport = SandboxBearerTransport(base: curl, token: user.accessToken)
                return kind == .google
                    ? GoogleCalendarProvider(account: account, transport: transport, baseURL: server.baseURL)
                    : GraphCalendarProvider(account: account, transport: transport, baseURL: server.baseURL)
            }
            let source = try provider(scenario.sourceKind, account: "src")
            let target = try provider(scenario.targetKind, account: "dst")
            guard let sourceCalendar = try await source.listCalendars().first(where: \.isPrimary),
                let targetCalendar = try await target.listCalendars().first(where: \.isPrimary)
            else { throw ModelProblem(code: "error", step: -1, detail: "no primary calendar in the sandbox") }
            var createSource: (@Sendable (ModelEvent) async throws -> String?)?
            var updateSource: (@Sendable (ModelEvent, String) async throws -> Bool)?
            if scenario.sourceKind == .microsoft, let user = server.info.accounts.first(where: { $0.provider == .microsoft }) {
                let transport = SandboxBearerTransport(base: curl, token: user.accessToken)
                let maker = OutlookZonedAllDay(transport: transport, baseURL: server.baseURL)
                let custom = OutlookCustomZone(transport: transport, baseURL: server.baseURL)
                let customTitles = Set(customZoned.values.map(\.title))
                let calendarID = sourceCalendar.id
                createSource = { event in
                    if customTitles.contains(event.title) {
                        guard let id = try await custom.id(of: event, source: source, calendarID: calendarID) else {
                            throw ModelProblem(code: "error", step: -1, detail: "custom-zone event \(event.title) was not seeded")
                        }
                        return id
                    }
                    return try await maker.create(event)
                }
                updateSource = { event, id in
                    if try await custom.update(event, id: id) { return true }
                    return try await maker.update(event, id: id)
                }
            }
            return ModelWorld(
                source: source, sourceCalendar: sourceCalendar,
                sourceAlias: try provider(scenario.sourceKind, account: "src-again"), target: target,
                targetCalendar: targetCalendar, close: { try? await server.stop() },
                createSource: createSource, updateSource: updateSource)
        } catch {
            try? await server.stop()
            throw error
        }
    }

    /// The built-in seed's users and calendars without their events.
    static let emptySeed: SandboxSeed = {
        func strip(_ data: Data) -> Data {
            guard var top = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return data }
            func clean(_ calendars: Any?) -> [[String: Any]]? {
                (calendars as? [[String: Any]])?.map { var c = $0; c["events"] = []; return c }
            }
            if let calendars = clean(top["calendars"]) { top["calendars"] = calendars }
            if let users = top["users"] as? [[String: Any]] {
                top["users"] = users.map { user in
                    var user = user
                    if let calendars = clean(user["calendars"]) { user["calendars"] = calendars }
                    return user
                }
            }
            return (try? JSONSerialization.data(withJSONObject: top)) ?? data
        }
        let builtIn = SandboxSeed.builtIn
        return SandboxSeed(google: strip(builtIn.google), microsoft: strip(builtIn.microsoft))
    }()
}
