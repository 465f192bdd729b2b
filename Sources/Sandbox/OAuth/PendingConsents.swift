import Foundation
import LoopbackServer

/// Sign-in requests waiting at a consent page (both authorization servers), by a random id that the
/// page's form posts back, each for ten minutes.
struct PendingConsents: Sendable {
    struct Entry: Sendable {
        var request: AuthorizationGrantRequest
        var expiresAt: Date
    }

    private var entries: [String: Entry] = [:]

    /// Keeps `request` and returns the id the consent form carries.
    mutating func add(_ request: AuthorizationGrantRequest, now: Date) -> String {
        if entries.count > 1000 { entries = entries.filter { $0.value.expiresAt > now } }
        let id = PKCE.randomToken(bytes: 16)
        entries[id] = Entry(request: request, expiresAt: now.addingTimeInterval(600))
        return id
    }

    /// Removes and returns the entry of `id`; nil when unknown or expired.
    mutating func take(_ id: String?, now: Date) -> Entry? {
        guard let id, let entry = entries.removeValue(forKey: id), entry.expiresAt > now else { return nil }
        return entry
    }

    /// Puts a taken entry back (the form came without a choice, the page is shown again).
    mutating func putBack(_ entry: Entry, id: String) { entries[id] = entry }

    /// Why `begin` refuses a checked sign-in request (each server words the refusal its own way).
    enum Refusal {
        /// No user of this service can sign in.
        case noUsers
        /// The `login_hint` names no seeded user (auto-approval signs in no one else).
        case unknownHint
    }

    /// A checked sign-in request at the authorization endpoint, the same path on both servers: `refused` when
    /// no user can sign in; `approved` at once (the `login_hint` user, else the first) when the sandbox
    /// approves by itself and the client did not ask to pick an account (`prompt=select_account`); otherwise
    /// the request is kept and the consent page titled `pageTitle`, whose form posts to `action`, is shown.
    mutating func begin(
        _ request: AuthorizationGrantRequest, prompt: String?, users: [SandboxUser], autoApprove: Bool, now: Date,
        pageTitle: String, action: String,
        refused: (Refusal) -> ServerResponse,
        approved: (AuthorizationGrantRequest, String) -> ServerResponse
    ) -> ServerResponse {
        guard !users.isEmpty else { return refused(.noUsers) }
        if autoApprove, prompt != "select_account" {
            guard let user = users.autoApproved(hint: request.loginHint) else { return refused(.unknownHint) }
            return approved(request, user.email)
        }
        let id = add(request, now: now)
        return OAuthPages.consent(
            title: pageTitle, clientId: request.clientId, scopes: request.scopes, users: users, action: action,
            hidden: [("consent_id", id)], preselected: request.loginHint
        )
    }

    /// The consent form's answer, the same path on both servers: an unknown or expired request is an error
    /// page titled `pageTitle`; "deny" is `denied`; a form without one of `users` shows the page again;
    /// otherwise `approved` with the chosen user's address.
    mutating func answer(
        _ parameters: OAuthParameters, users: [SandboxUser], now: Date, pageTitle: String,
        denied: (AuthorizationGrantRequest) -> ServerResponse,
        approved: (AuthorizationGrantRequest, String) -> ServerResponse
    ) -> ServerResponse {
        guard let id = parameters["consent_id"], let entry = take(id, now: now) else {
            return OAuthPages.error(
                status: 400, title: pageTitle, code: "invalid_request",
                detail: "This sign-in request is unknown or has expired; start again from the application."
            )
        }
        if parameters["action"] == "deny" { return denied(entry.request) }
        guard let email = parameters["user"], let user = users.first(where: { $0.email == email }) else {
            putBack(entry, id: id)
            return OAuthPages.error(status: 400, title: pageTitle, code: "invalid_request", detail: "Choose one of the listed accounts.")
        }
        return approved(entry.request, user.email)
    }
}

extension [SandboxUser] {
    /// Whom auto-approval signs in: the `login_hint` user, or the first seeded one without a hint.
    /// Nil for a hint naming no seeded user: refusing is clearer than signing in someone else.
    func autoApproved(hint: String?) -> SandboxUser? {
        guard let hint else { return first }
        return first { $0.email.caseInsensitiveCompare(hint) == .orderedSame }
    }
}
