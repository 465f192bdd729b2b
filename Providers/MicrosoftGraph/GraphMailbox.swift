import CalendarBridge

/// Whose mailbox a Graph provider reads and writes: the signed-in person's (`/me`, delegated tokens), or a
/// named user's (`/users/{id or UPN}`, app-only tokens, where Graph refuses `/me`).
public enum GraphMailbox: Sendable, Hashable {
    /// The signed-in person (`/me/...`).
    case me
    /// A user named by object id or user principal name (`/users/{id}/...`).
    case user(String)

    /// The mailbox's root under `/v1.0`.
    func root(_ api: APIURL) -> APIURL {
        switch self {
        case .me: api.path("me")
        case .user(let id): api.path("users").segment(id)
        }
    }
}
