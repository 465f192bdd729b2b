import CalendarBridge
import Foundation
import TimeZones

/// The one place that knows which API emulators the sandbox runs.
package enum SandboxServices {
    /// The services every sandbox runs: a provider's emulator joins with one line here (and its folder:
    /// the emulator, its seed in Fixtures/sandbox, its descriptor and demo part in its `SandboxService`).
    package static let list: [SandboxService] = [.googleCalendar, .microsoftGraph, .caldav]

    /// The emulators of `list`, for `SandboxServer.start(_:components:)`.
    package static let standard: SandboxComponentFactory = components(of: list)

    /// Builds the emulators of `services` from the seed, in order.
    package static func components(of services: [SandboxService]) -> SandboxComponentFactory {
        { seed, tokens, now in
            var components: [SandboxNamedComponent] = []
            var users: [SandboxUser] = []
            for service in services {
                let made = try service.make(seed, tokens, now)
                components.append(SandboxNamedComponent(name: service.name, component: made.component))
                users += made.users
            }
            return SandboxAPIComponents(components: components, users: users)
        }
    }

    /// The Google Calendar and Microsoft Graph emulators with test knobs (the services of `list`, routed as
    /// those are).
    /// - Parameters:
    ///   - refuseGraphWrite: a fault knob for tests: Graph writes (also inside `$batch`) whose body it accepts
    ///     get 400, as Graph refuses one request of a batch.
    ///   - ignoreGraphUpdate: a fault knob: Graph PATCHes whose body and target type it accepts are answered as
    ///     done and not applied (`GraphEmulator.ignoreUpdate`).
    ///   - graphExceptionsFollowSeries: Graph exceptions take their series' changed fields where they did not
    ///     change them (`GraphEmulator.exceptionsFollowSeries`; undocumented either way).
    package static func makeAPIComponents(
        seed: SandboxSeed, tokens: any SandboxAccessTokenValidator, now: @escaping @Sendable () -> Date,
        refuseGraphWrite: (@Sendable (_ body: Data) -> Bool)? = nil,
        ignoreGraphUpdate: (@Sendable (_ body: Data, _ type: String) -> Bool)? = nil,
        graphExceptionsFollowSeries: Bool = false
    ) throws -> SandboxAPIComponents {
        let google = try GoogleCalendarEmulator(seed: seed.google, tokens: tokens, now: now, quickAdd: quickAddInterpreter)
        let graph = try GraphEmulator(
            seed: seed.microsoft, tokens: tokens, now: now, timeZoneNames: cldrZoneNames, refuseWrite: refuseGraphWrite,
            ignoreUpdate: ignoreGraphUpdate, exceptionsFollowSeries: graphExceptionsFollowSeries
        )
        // The list's other services as the list builds them.
        let others = try components(of: list.filter { $0.name != "google" && $0.name != "microsoft" })(seed, tokens, now)
        return SandboxAPIComponents(
            components: [
                SandboxNamedComponent(name: "google", component: google),
                SandboxNamedComponent(name: "microsoft", component: graph),
            ] + others.components,
            users: google.users + graph.users + others.users
        )
    }

    /// Windows zone names through the CLDR table (the `001` row, as Exchange does).
    package static let cldrZoneNames = GraphTimeZoneNames(
        windowsToIANA: { WindowsZones.ianaIdentifier(forWindowsName: $0, territory: "001") },
        ianaToWindows: { WindowsZones.windowsName(forIANA: $0) }
    )

    /// Built once: the parser's phrase table is not rebuilt for every quickAdd request.
    static let quickAddParser = QuickAddParser(options: QuickAddOptions(windowsZoneResolver: {
        WindowsZones.ianaIdentifier(forWindowsName: $0)
    }))

    /// Emulates Google's events.quickAdd with calbridge's own parser (English rules, the calendar's zone).
    /// Google's real parser differs in details; what matters for the sandbox is that the summary, time
    /// and location come out of the text the way a Google user would expect. Text the parser rejects
    /// falls back to the emulator's default (the whole text as the summary, at the next full hour).
    package static let quickAddInterpreter: GoogleCalendarEmulator.QuickAddInterpreter = { text, now, zone in
        guard let calendarZone = QuickAddZone(identifier: zone.identifier),
              let result = try? quickAddParser.parse(text, now: now, zone: calendarZone),
              let eventZone = QuickAddZone(identifier: result.timeZone) else { return nil }
        func instant(_ time: QuickAddResult.Time) -> Date {
            switch time {
            case .dateTime: return time.instant!
            // Any instant on the day, in the event's zone; noon stays on that day whatever the offset.
            case .date(let date): return Date(timeIntervalSince1970: TimeInterval(eventZone.instant(date, hour: 12, minute: 0)))
            }
        }
        return QuickAddInterpretation(
            summary: result.title, start: instant(result.start), end: instant(result.end),
            allDay: result.isAllDay, location: result.location
        )
    }
}

extension SandboxService {
    /// Google Calendar v3 (and its batch endpoint), built from the seed's `google` part; on the second port.
    static let googleCalendar = SandboxService(
        name: "google", apiPaths: ["/calendar/v3", "/batch/calendar/v3"], imitates: .google,
        builtInSeed: Data(PackageResources.google_json), descriptor: { .google(base: $0.google) },
        demo: SandboxDemoAccount(
            name: "ann", signIn: .browser, calendar: "primary", serviceName: "Google",
            signInNote: "(browser flow with PKCE; a stand-in browser opens the printed URL and is redirected back)",
            quickAddNote: "Google parses the text itself (quickAdd):", order: 1),
        make: { seed, tokens, now in
            let google = try GoogleCalendarEmulator(
                seed: seed.google, tokens: tokens, now: now, quickAdd: SandboxServices.quickAddInterpreter)
            return (google, google.users)
        })

    /// Microsoft Graph v1.0, built from the seed's `microsoft` part. Graph converts Windows zone names with
    /// the CLDR table (the `001` row, as Exchange does).
    static let microsoftGraph = SandboxService(
        name: "microsoft", apiPaths: ["/v1.0"], imitates: .microsoft, builtInSeed: Data(PackageResources.microsoft_json),
        descriptor: { .microsoft(base: $0.main) },
        demo: SandboxDemoAccount(
            name: "carol", signIn: .device, calendar: "Calendar", serviceName: "Outlook",
            signInNote: "(device flow; the sandbox approves the code)",
            quickAddNote: "Outlook has no quick add of its own: calbridge parses the text (in the mailbox's zone) and creates the event.",
            order: 0),
        make: { seed, tokens, now in
            let graph = try GraphEmulator(seed: seed.microsoft, tokens: tokens, now: now, timeZoneNames: SandboxServices.cldrZoneNames)
            return (graph, graph.users)
        })

    /// A CalDAV service shaped like iCloud's (`CalDAVEmulator`), built from the seed's `caldav` part; users sign
    /// in with an app password.
    static let caldav = caldav(quirks: CalDAVQuirks())

    /// The CalDAV service with `quirks` (tests: no sync-collection, dropped X- properties, Xandikos's refusals).
    package static func caldav(quirks: CalDAVQuirks) -> SandboxService {
        SandboxService(
            name: "caldav", apiPaths: ["/.well-known/caldav", "/caldav"], builtInSeed: Data(PackageResources.caldav_json),
            descriptor: { .password(id: "caldav", api: "caldav", displayName: "iCloud-like CalDAV (sandbox)", server: $0.main + "/") },
            demo: SandboxDemoAccount(
                name: "dana", signIn: .password(userName: "dana@icloud.sandbox", password: "sbxa-dana-app-pass"), calendar: "home",
                serviceName: "iCloud (CalDAV)",
                signInNote: "(user name and app-specific password, the password in $CALBRIDGE_PASSWORD; checked with one request)",
                quickAddNote: "CalDAV has no quick add either: calbridge parses the text and PUTs an iCalendar resource.", order: 2),
            make: { seed, _, now in
                let emulator = try CalDAVEmulator(seed: seed.parts["caldav"] ?? Data(#"{"users": []}"#.utf8), quirks: quirks, now: now())
                return (emulator, [])
            })
    }
}
