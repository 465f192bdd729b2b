import Foundation

/// A client application registered with one of the sandbox's authorization servers: its id, its secret
/// (Google's "Desktop app" clients have one; Microsoft's public clients have none) and its redirect URIs.
package struct SandboxClientRegistration: Sendable, Equatable {
    package var clientId: String
    package var clientSecret: String?
    /// Registered redirect URIs. A loopback one (`http://127.0.0.1/...`, `http://localhost/...`,
    /// `http://[::1]/...`) matches a request for the same URI on any port (RFC 8252 §7.3, and Entra's
    /// "localhost exceptions"), but only with the same host: a registered `http://localhost` does not
    /// match `http://127.0.0.1:PORT/` (Entra answers AADSTS50011). Every other one must match exactly.
    package var redirectURIs: [String]

    package init(clientId: String, clientSecret: String?, redirectURIs: [String]) {
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.redirectURIs = redirectURIs
    }

    /// The client the Google descriptor printed by the sandbox carries.
    package static let google = SandboxClientRegistration(
        clientId: "sandbox-google-client.apps.googleusercontent.com",
        clientSecret: "sandbox-google-secret",
        redirectURIs: [
            "http://127.0.0.1/", "http://localhost/", "http://[::1]/",
            "http://127.0.0.1/callback", "http://localhost/callback", "http://[::1]/callback",
        ]
    )

    /// The public client the Microsoft descriptor printed by the sandbox carries.
    package static let microsoft = SandboxClientRegistration(
        clientId: "00000000-0000-4000-8000-00000000c1b0",
        clientSecret: nil,
        // What docs/accounts-and-sign-in.md tells people to register (Mobile and desktop applications:
        // http://localhost), and the platform's default native-client URI; no IP literal, as in a real
        // registration.
        redirectURIs: [
            "http://localhost", "https://login.microsoftonline.com/common/oauth2/nativeclient",
        ]
    )

    /// True when `requested` is one of the registered redirect URIs (any port for a loopback one).
    package func accepts(redirectURI requested: String) -> Bool {
        redirectURIs.contains { Self.matches(requested: requested, registered: $0) }
    }

    /// Exact match of scheme, host, path and query; the port only counts when the host is not loopback.
    static func matches(requested: String, registered: String) -> Bool {
        if requested == registered { return true }
        guard let asked = URLComponents(string: requested), let known = URLComponents(string: registered),
              asked.fragment == nil,
              let askedScheme = asked.scheme?.lowercased(), askedScheme == known.scheme?.lowercased(),
              let askedHost = asked.host?.lowercased(), askedHost == known.host?.lowercased(),
              asked.user == nil, asked.password == nil,
              normalizedPath(asked.percentEncodedPath) == normalizedPath(known.percentEncodedPath),
              asked.percentEncodedQuery == known.percentEncodedQuery else { return false }
        if askedScheme == "http", isLoopback(askedHost) { return true }
        return asked.port == known.port
    }

    private static func normalizedPath(_ path: String) -> String { path.isEmpty ? "/" : path }

    private static func isLoopback(_ host: String) -> Bool {
        host == "127.0.0.1" || host == "localhost" || host == "[::1]" || host == "::1"
    }
}
