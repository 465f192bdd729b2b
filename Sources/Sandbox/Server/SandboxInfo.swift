import Foundation

/// What a started sandbox tells its user: `calbridge sandbox`'s first stdout line, and `SandboxServer.info`.
public struct SandboxInfo: Sendable, Codable, Equatable {
    /// A seeded user with ready tokens (the refresh token survives restarts with `--state`).
    public struct Account: Sendable, Codable, Equatable {
        public var provider: SandboxProvider
        public var user: String
        public var accessToken: String
        public var refreshToken: String
    }

    /// `http://127.0.0.1:<port>`
    public var url: String
    public var accounts: [Account]
    /// `google` and `microsoft`, each pointing at this sandbox.
    public var descriptors: [String: SandboxDescriptor]

    /// One line of JSON, sorted keys, no escaped slashes.
    public func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Writes `DIR/google.json` and `DIR/microsoft.json` (creating DIR).
    public func writeDescriptors(to directory: URL) throws(SandboxError) {
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
