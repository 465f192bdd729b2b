import Foundation
import HTTP
import LoopbackServer

/// One emulated service behind the sandbox's single port (Google Calendar, Microsoft Graph, an OAuth
/// server). The sandbox asks each component in turn; the first non-nil answer wins.
///
/// Components are written from the public API references, independently of `Providers/`, and share no
/// request/response models with them, so that a provider's misunderstanding is caught, not mirrored.
package protocol SandboxComponent: Sendable {
    /// Answers the request, or returns nil when the path does not belong to this component.
    func handle(_ request: ServerRequest) async -> ServerResponse?
    /// Everything this component needs to resume after a restart (`--state FILE`), as JSON.
    func snapshot() async throws -> Data
    /// Replaces this component's state with a snapshot taken earlier.
    func restore(_ snapshot: Data) async throws
    /// Every mail the emulated service would have sent attendees so far, oldest first (the request log
    /// records each as "mail sent"). Components that mail nobody keep the default: none.
    func sentMails() async -> [SandboxInvitation]
    /// The users who sign in with a user name and app password (a CalDAV service's); OAuth services keep
    /// the default: none (their users are `SandboxUser`s, signed in at the OAuth servers).
    func passwordAccounts() async -> [SandboxPasswordAccount]
}

extension SandboxComponent {
    package func sentMails() async -> [SandboxInvitation] { [] }
    package func passwordAccounts() async -> [SandboxPasswordAccount] { [] }
}

/// Which real service an emulated account belongs to.
package enum SandboxProvider: String, Sendable, Codable, CaseIterable {
    case google
    case microsoft
}

/// The result of checking a bearer token presented to an emulated API.
package enum AccessCheck: Sendable, Equatable {
    /// The token is current; `user` is the signed-in user's e-mail address.
    case valid(user: String)
    /// An app-only token (Microsoft's client-credentials grant) of app `clientId`; `mailboxScope` is the
    /// mailboxes Exchange's RBAC for Applications lets it reach (lowercase addresses), nil for all.
    case application(clientId: String, mailboxScope: Set<String>?)
    /// The token was issued by this sandbox but its lifetime is over.
    case expired
    /// Unknown, revoked, or issued for the other provider.
    case invalid
}

/// Issued by the sandbox's OAuth servers and consulted by the emulated APIs.
package protocol SandboxAccessTokenValidator: Sendable {
    func check(accessToken: String, provider: SandboxProvider) async -> AccessCheck
}

/// A seeded user of one provider, as the OAuth servers and `calbridge sandbox` list them.
package struct SandboxUser: Sendable, Codable, Equatable {
    package var provider: SandboxProvider
    /// E-mail address (Google: also the primary calendar id; Graph: `mail` / `userPrincipalName`).
    package var email: String
    package var displayName: String

    package init(provider: SandboxProvider, email: String, displayName: String) {
        self.provider = provider
        self.email = email
        self.displayName = displayName
    }
}
