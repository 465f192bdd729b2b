import Foundation

/// One service the sandbox runs: its emulator, built from the seed, and the paths of its API. The sandbox
/// runs a list of them (`SandboxServices.list`; a test adds its own provider's emulator to the list), and
/// routes a request under a service's API paths to the emulators with latency, fault injection and the
/// request log around it, as API traffic.
package struct SandboxService: Sendable {
    /// The builder of the emulator: the seed, the token authority (for services that take OAuth tokens)
    /// and the sandbox's clock in; the component and the users who may sign in at the OAuth servers out.
    package typealias Make =
        @Sendable (
            _ seed: SandboxSeed, _ tokens: any SandboxAccessTokenValidator, _ now: @escaping @Sendable () -> Date
        ) throws -> (component: any SandboxComponent, users: [SandboxUser])

    /// The key of its snapshot in the `--state` file.
    package var name: String
    /// Path prefixes of its API (`/calendar/v3`): whole segments, matched on the request's path.
    package var apiPaths: [String]
    /// Whose faults and compression rules its API traffic gets (`--fault-rate`, gzip as the real service
    /// encodes), nil for none.
    package var imitates: SandboxProvider?
    package var make: Make

    package init(name: String, apiPaths: [String], imitates: SandboxProvider? = nil, make: @escaping Make) {
        self.name = name
        self.apiPaths = apiPaths
        self.imitates = imitates
        self.make = make
    }

    /// Whether `path` is under one of `apiPaths`.
    func serves(_ path: String) -> Bool {
        apiPaths.contains { prefix in
            guard path.hasPrefix(prefix) else { return false }
            let rest = path.dropFirst(prefix.count)
            return rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?")
        }
    }
}
