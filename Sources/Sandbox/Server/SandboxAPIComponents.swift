import Foundation

/// An API emulator mounted in the sandbox, with the key its snapshot has in the `--state` file.
package struct SandboxNamedComponent: Sendable {
    package var name: String
    package var component: any SandboxComponent

    package init(name: String, component: any SandboxComponent) {
        self.name = name
        self.component = component
    }
}

/// The API emulators of one sandbox and the users they seed (who can sign in at the OAuth servers).
package struct SandboxAPIComponents: Sendable {
    /// Asked in order for API paths (`/calendar/v3`, `/batch/calendar/v3`, `/v1.0`) and for anything the
    /// OAuth servers do not claim.
    package var components: [SandboxNamedComponent]
    package var users: [SandboxUser]

    package init(components: [SandboxNamedComponent], users: [SandboxUser]) {
        self.components = components
        self.users = users
    }
}

/// Builds the API emulators from the seed; the composition calls it once at start, after the token
/// authority exists and before the OAuth servers (which need the users).
package typealias SandboxComponentFactory = @Sendable (
    _ seed: SandboxSeed, _ tokens: any SandboxAccessTokenValidator, _ now: @escaping @Sendable () -> Date
) throws -> SandboxAPIComponents
