import Foundation

/// Where a worker finds a secret (a private key, a client secret): a file, or an environment variable, as a
/// Kubernetes Secret is mounted. This is what a database stores; the secret itself never is.
public enum SecretLocation: Sendable, Equatable, Codable, CustomStringConvertible {
    case file(String)
    case environment(String)

    /// Stored form: `file:PATH` or `env:NAME`.
    public var stored: String {
        switch self {
        case .file(let path): "file:" + path
        case .environment(let name): "env:" + name
        }
    }

    /// Reads the stored form back; nil for anything else.
    public init?(stored: String) {
        if stored.hasPrefix("file:"), stored.count > 5 {
            self = .file(String(stored.dropFirst(5)))
        } else if stored.hasPrefix("env:"), stored.count > 4 {
            self = .environment(String(stored.dropFirst(4)))
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .file(let path): "the file \(path)"
        case .environment(let name): "the environment variable \(name)"
        }
    }

    /// The secret's bytes.
    /// - Throws: `AppCredentialError` naming the location (never its content) when it is missing or empty.
    public func read(environment: [String: String] = ProcessInfo.processInfo.environment) throws(AppCredentialError) -> Data {
        let data: Data
        switch self {
        case .file(let path):
            guard let read = FileManager.default.contents(atPath: path) else {
                throw AppCredentialError("\(self) cannot be read; check the path and that this worker may read it")
            }
            data = read
        case .environment(let name):
            guard let value = environment[name] else { throw AppCredentialError("\(self) is not set in this worker's environment") }
            data = Data(value.utf8)
        }
        guard !data.isEmpty else { throw AppCredentialError("\(self) is empty") }
        return data
    }
}

/// An app-only credential that cannot be used: a missing or unreadable key, a token endpoint's refusal. The
/// text names the credential and the fix, never key material.
public struct AppCredentialError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    /// The token endpoint's answer, when one refused.
    public var oauth: OAuthError?
    public init(_ description: String, oauth: OAuthError? = nil) {
        self.description = description
        self.oauth = oauth
    }
}
