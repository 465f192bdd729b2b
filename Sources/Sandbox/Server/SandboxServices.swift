import Foundation

/// The one place that knows which API emulators the sandbox runs.
public enum SandboxServices {
    /// The Google Calendar and Microsoft Graph emulators built from `seed`, checking tokens with `tokens`.
    ///
    /// The emulators are written on their own branches; until they are merged this returns none, and the
    /// composition serves only the OAuth servers. At merge, construct them here:
    /// `GoogleCalendarEmulator(seed: seed.google, tokens: tokens, now: now)` (name "google") and
    /// `GraphEmulator(seed: seed.microsoft, tokens: tokens, now: now)` (name "microsoft"), users = both
    /// emulators' `users`.
    public static func makeAPIComponents(
        seed: SandboxSeed, tokens: any SandboxAccessTokenValidator, now: @escaping @Sendable () -> Date
    ) throws -> SandboxAPIComponents {
        SandboxAPIComponents(components: [], users: [])
    }
}
