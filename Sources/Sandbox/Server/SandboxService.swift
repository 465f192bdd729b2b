import Foundation

/// One service the sandbox runs: its emulator, built from its part of the seed, the paths of its API, the
/// descriptor file a client signs in with and its part of `calbridge demo`. The sandbox runs a list of them
/// (`SandboxServices.list`; a test adds its own provider's emulator to the list): the descriptors, the seed
/// file's keys, the seeded accounts and the demo all come from the list, so a service joins with one line
/// there and its folder. A request under a service's API paths goes to the emulators with latency, fault
/// injection and the request log around it, as API traffic.
package struct SandboxService: Sendable {
    /// The builder of the emulator: the seed, the token authority (for services that take OAuth tokens)
    /// and the sandbox's clock in; the component and the users who may sign in at the OAuth servers out.
    package typealias Make =
        @Sendable (
            _ seed: SandboxSeed, _ tokens: any SandboxAccessTokenValidator, _ now: @escaping @Sendable () -> Date
        ) throws -> (component: any SandboxComponent, users: [SandboxUser])

    /// The key of its snapshot in the `--state` file, of its part of a `--seed` file and of its descriptor
    /// (`DIR/<name>.json`).
    package var name: String
    /// Path prefixes of its API (`/calendar/v3`): whole segments, matched on the request's path.
    package var apiPaths: [String]
    /// Whose faults and compression rules its API traffic gets (`--fault-rate`, gzip as the real service
    /// encodes), nil for none.
    package var imitates: SandboxProvider?
    /// Its compiled-in seed part (the default of the `name` key of a `--seed` file), nil when it takes none.
    package var builtInSeed: Data?
    /// The descriptor a client signs in with, pointing at the running sandbox; nil for none.
    package var descriptor: (@Sendable (SandboxBaseURLs) -> SandboxDescriptor)?
    /// Its account in `calbridge demo`; nil: the demo leaves it out.
    package var demo: SandboxDemoAccount?
    package var make: Make

    package init(
        name: String, apiPaths: [String], imitates: SandboxProvider? = nil, builtInSeed: Data? = nil,
        descriptor: (@Sendable (SandboxBaseURLs) -> SandboxDescriptor)? = nil, demo: SandboxDemoAccount? = nil, make: @escaping Make
    ) {
        self.name = name
        self.apiPaths = apiPaths
        self.imitates = imitates
        self.builtInSeed = builtInSeed
        self.descriptor = descriptor
        self.demo = demo
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

/// The base URLs of a running sandbox (no trailing slash): the real services are separate hosts, and a
/// client's connections are counted per host, so Google's API has a port of its own.
package struct SandboxBaseURLs: Sendable, Equatable {
    /// The first port: Microsoft's, and every service's that has no port of its own.
    package var main: String
    /// The second port, Google's.
    package var google: String

    package init(main: String, google: String) {
        self.main = main
        self.google = google
    }
}

/// A service's part of `calbridge demo`: which account it signs in, how, and the calendar it shows and
/// quick-adds to.
package struct SandboxDemoAccount: Sendable, Equatable {
    /// How the demo signs the account in (each the real `accounts add`).
    package enum SignIn: Sendable, Equatable {
        /// The OAuth browser flow, a stand-in browser following the printed URL.
        case browser
        /// The OAuth device flow, approved by the sandbox.
        case device
        /// A user name and app password (`$CALBRIDGE_PASSWORD`), checked by the service.
        case password(userName: String, password: String)
    }

    /// The account name given with `--name`.
    package var name: String
    package var signIn: SignIn
    /// The calendar the demo quick-adds to and shows (`NAME:CALENDAR`'s calendar part).
    package var calendar: String
    /// How the service is called in the demo's text ("Outlook").
    package var serviceName: String
    /// One line under the sign-in command: what happens.
    package var signInNote: String
    /// One line before its quick add: who reads the text.
    package var quickAddNote: String
    /// The order of the quick adds and week views (lower first; the list's order breaks ties).
    package var order: Int

    package init(
        name: String, signIn: SignIn, calendar: String, serviceName: String, signInNote: String, quickAddNote: String, order: Int = 0
    ) {
        self.name = name
        self.signIn = signIn
        self.calendar = calendar
        self.serviceName = serviceName
        self.signInNote = signInNote
        self.quickAddNote = quickAddNote
        self.order = order
    }
}
