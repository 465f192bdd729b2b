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
    /// `google` and `microsoft`, each pointing at this sandbox.
    package var descriptors: [String: SandboxDescriptor]

    /// One line of JSON, sorted keys, no escaped slashes.
    package func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Writes `DIR/google.json` and `DIR/microsoft.json` (creating DIR).
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
