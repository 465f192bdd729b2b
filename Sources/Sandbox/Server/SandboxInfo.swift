import Foundation

/// What a started sandbox tells its user: `calbridge sandbox`'s first stdout line, and `SandboxServer.info`.
package struct SandboxInfo: Sendable, Codable, Equatable {
    /// A seeded user with ready tokens (the refresh token survives restarts with `--state`).
    package struct Account: Sendable, Codable, Equatable {
        package var provider: SandboxProvider
        package var user: String
        package var accessToken: String
        package var refreshToken: String
    }

    /// `http://127.0.0.1:<port>`: Microsoft's port (every path is served on both).
    package var url: String
    /// `http://127.0.0.1:<port + 1>`: Google's port, as the real services are two hosts.
    package var googleURL: String
    package var accounts: [Account]
    /// Seeded users of the services that sign in with a user name and app password (the sandbox's own,
    /// made-up passwords).
    package var passwordAccounts: [SandboxPasswordAccount]
    /// One per service of the list that has one (`google`, `microsoft`, `caldav`), each pointing at this sandbox.
    package var descriptors: [String: SandboxDescriptor]

    /// One line of JSON, sorted keys, no escaped slashes.
    package func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Writes `DIR/<service>.json` for each of `descriptors` (creating DIR).
    package func writeDescriptors(to directory: URL) throws(SandboxError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (name, descriptor) in descriptors {
                try descriptor.fileData().write(to: directory.appendingPathComponent("\(name).json"), options: .atomic)
            }
        } catch {
            throw .cannotWrite(path: directory.path, reason: (error as NSError).localizedDescription)
        }
    }
}

/// A seeded user of a service that signs in with a password (`calbridge accounts add DIR/caldav.json --user
/// USER` with the password in `$CALBRIDGE_PASSWORD`).
package struct SandboxPasswordAccount: Sendable, Codable, Equatable {
    /// The service's name in the list (`caldav`), the key of its descriptor.
    package var service: String
    package var user: String
    /// The app password the service takes (made up by the seed; never a real one).
    package var password: String

    package init(service: String, user: String, password: String) {
        self.service = service
        self.user = user
        self.password = password
    }
}
