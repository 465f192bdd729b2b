import Foundation
import TimeZones

/// The one place that knows which API emulators the sandbox runs.
public enum SandboxServices {
    /// The Google Calendar and Microsoft Graph emulators built from `seed`, checking tokens with `tokens`.
    /// Graph converts Windows zone names with the CLDR table (the `001` row, as Exchange does).
    public static func makeAPIComponents(
        seed: SandboxSeed, tokens: any SandboxAccessTokenValidator, now: @escaping @Sendable () -> Date
    ) throws -> SandboxAPIComponents {
        let google = try GoogleCalendarEmulator(seed: seed.google, tokens: tokens, now: now)
        let graph = try GraphEmulator(
            seed: seed.microsoft, tokens: tokens, now: now,
            timeZoneNames: GraphTimeZoneNames(
                windowsToIANA: { WindowsZones.ianaIdentifier(forWindowsName: $0, territory: "001") },
                ianaToWindows: { WindowsZones.windowsName(forIANA: $0) }
            )
        )
        return SandboxAPIComponents(
            components: [
                SandboxNamedComponent(name: "google", component: google),
                SandboxNamedComponent(name: "microsoft", component: graph),
            ],
            users: google.users + graph.users
        )
    }
}
