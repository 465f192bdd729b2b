import Foundation

/// An API emulator mounted in the sandbox, with the key its snapshot has in the `--state` file.
public struct SandboxNamedComponent: Sendable {
    public var name: String
    public var component: any SandboxComponent

    public init(name: String, component: any SandboxComponent) {
        self.name = name
        self.component = component
    }
}

/// The API emulators of one sandbox and the users they seed (who can sign in at the OAuth servers).
public struct SandboxAPIComponents: Sendable {
    /// Asked in order for API paths (`/calendar/v3`, `/batch/calendar/v3`, `/v1.0`) and for anything the
    /// OAuth servers do not claim.
    public var components: [SandboxNamedComponent]
    public var users: [SandboxUser]

    public init(components: [SandboxNamedComponent], users: [SandboxUser]) {
        self.components = components
        self.users = users
    }
}

/// Builds the API emulators from the seed; the composition calls it once at start, after the token
/// authority exists and before the OAuth servers (which need the users).
public typealias SandboxComponentFactory = @Sendable (
    _ seed: SandboxSeed, _ tokens: any SandboxAccessTokenValidator, _ now: @escaping @Sendable () -> Date
) throws -> SandboxAPIComponents
