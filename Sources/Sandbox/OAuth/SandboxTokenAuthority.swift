import Foundation

/// Issues, refreshes, revokes and checks the sandbox's OAuth tokens, for both providers.
///
/// Tokens are opaque random strings (as both real services' are, to a client). A *grant* is one sign-in of
/// one user for one client with some scopes; it owns at most one live refresh token and any number of access
/// tokens. Revoking any of its tokens ends the grant (Google's documented behaviour). Microsoft rotates the
/// refresh token on every refresh (the old one stops working); Google keeps it.
///
/// The clock is injected so that tests control expiry without sleeping.
package actor SandboxTokenAuthority: SandboxAccessTokenValidator {
    /// Tokens handed to a client by a token endpoint.
    package struct IssuedTokens: Sendable, Equatable {
        package var accessToken: String
        /// Nil when the grant has no refresh token (Google without `access_type=offline`, Microsoft without
        /// `offline_access`), and for Google refreshes (the client keeps its refresh token).
        package var refreshToken: String?
        /// Seconds until `accessToken` expires.
        package var expiresIn: Int
        package var scopes: [String]
        package var user: String
    }

    /// Why a refresh was refused (each becomes the provider's `invalid_grant` wording).
    package enum RefreshFailure: Error, Sendable, Equatable {
        /// Never issued, revoked, or rotated away.
        case unknown
        /// Issued but past its lifetime.
        case expired
        /// Issued to another client or for the other provider.
        case wrongClient
        /// The refusal switch is on (`setRefreshRefusal`, `--refuse-refresh`).
        case refused(SandboxRefreshRefusal)
    }

    /// One sign-in: a user, a client, scopes, and its current refresh token.
    struct Grant: Codable, Sendable {
        var id: String
        var provider: SandboxProvider
        var user: String
        var clientId: String
        var scopes: [String]
        var refreshToken: String?
        var refreshIssuedAt: Date
        /// Minted at start for the first-line `accounts`, so a restart with `--state` can reuse it.
        var seeded: Bool
        /// The app of an app-only grant (client credentials; Google's service account acting as `user`).
        var application: String? = nil
    }

    struct AccessRecord: Codable, Sendable {
        var grantID: String
        var expiresAt: Date
    }

    private struct State: Codable {
        var grants: [String: Grant] = [:]
        var accessTokens: [String: AccessRecord] = [:]
        var refreshTokens: [String: String] = [:]
    }

    private var state = State()
    /// Successful refresh-token grants since start (benchmarks and tests count refreshes with it).
    package private(set) var refreshCount = 0
    private let now: @Sendable () -> Date
    /// Lifetime of access tokens in seconds (`--token-lifetime`).
    package nonisolated let accessTokenLifetime: TimeInterval
    /// Lifetime of refresh tokens since their issue (nil: until revoked), so tests can expire a grant.
    package nonisolated let refreshTokenLifetime: TimeInterval?
    /// When set, every refresh of a known grant is refused this way (the grant itself stays).
    package private(set) var refreshRefusal: SandboxRefreshRefusal?

    /// - Parameters:
    ///   - accessTokenLifetime: seconds an access token stays valid (Google and Microsoft: 3600).
    ///   - refreshTokenLifetime: seconds a refresh token stays valid, nil for no limit.
    ///   - now: the clock; tests pass a controllable one.
    ///   - refreshRefusal: refuse every refresh this way from the start (nil: refresh normally).
    ///   - appOnly: the app registrations and service accounts allowed app-only grants.
    package init(
        accessTokenLifetime: TimeInterval = 3600,
        refreshTokenLifetime: TimeInterval? = nil,
        refreshRefusal: SandboxRefreshRefusal? = nil,
        appOnly: SandboxAppOnlyDirectory = SandboxAppOnlyDirectory(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.appOnly = appOnly
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.refreshRefusal = refreshRefusal
        self.now = now
    }

    /// Turns the refresh refusal on (a kind) or off (nil): a test hook for "the provider now wants MFA".
    package func setRefreshRefusal(_ refusal: SandboxRefreshRefusal?) { refreshRefusal = refusal }

    // MARK: - Checking (the API emulators' side)

    /// `.valid(user:)` for a live token of `provider`, `.expired` past its lifetime, else `.invalid`.
    package func check(accessToken: String, provider: SandboxProvider) -> AccessCheck {
        guard let record = state.accessTokens[accessToken], let grant = state.grants[record.grantID],
              grant.provider == provider else { return .invalid }
        guard now() < record.expiresAt else { return .expired }
        if provider == .microsoft, let application = grant.application {
            // An app registration removed since: its tokens stop working.
            guard let app = appOnly.applications.first(where: { $0.clientId == application }) else { return .invalid }
            return .application(clientId: application, mailboxScope: app.mailboxScope)
        }
        return .valid(user: grant.user)
    }

    // MARK: - App-only identities

    /// The app registrations and service accounts the token endpoints accept.
    package private(set) var appOnly: SandboxAppOnlyDirectory

    /// Changes app `clientId`'s mailbox scope (a test hook: the admin edits the RBAC scope); nil: every mailbox.
    package func setMailboxScope(clientId: String, _ scope: Set<String>?) {
        guard let index = appOnly.applications.firstIndex(where: { $0.clientId == clientId }) else { return }
        appOnly.applications[index].mailboxScope = scope.map { Set($0.map { $0.lowercased() }) }
    }

    /// Issues an app-only access token, without a refresh token (client credentials and JWT bearer grants
    /// have none): Microsoft's for the app (`user` empty), Google's for the user the service account acts as.
    package func issueApplication(provider: SandboxProvider, application: String, user: String, scopes: [String]) -> IssuedTokens {
        let grant = Grant(
            id: PKCE.randomToken(bytes: 12), provider: provider, user: user, clientId: application, scopes: scopes,
            refreshToken: nil, refreshIssuedAt: now(), seeded: false, application: application
        )
        state.grants[grant.id] = grant
        appOnlyIssueCount += 1
        return IssuedTokens(
            accessToken: mintAccessToken(for: grant), refreshToken: nil, expiresIn: Int(accessTokenLifetime), scopes: scopes, user: user
        )
    }

    /// App-only tokens issued since start (tests check that clients cache them).
    package private(set) var appOnlyIssueCount = 0

    // MARK: - Issuing (the OAuth servers' side)

    /// Starts a grant and issues its first tokens.
    /// - Parameter offline: whether the grant gets a refresh token.
    package func issue(
        provider: SandboxProvider, user: String, clientId: String, scopes: [String], offline: Bool
    ) -> IssuedTokens {
        let grant = Grant(
            id: PKCE.randomToken(bytes: 12), provider: provider, user: user, clientId: clientId, scopes: scopes,
            refreshToken: offline ? Self.newRefreshToken(provider) : nil, refreshIssuedAt: now(), seeded: false
        )
        state.grants[grant.id] = grant
        if let refresh = grant.refreshToken { state.refreshTokens[refresh] = grant.id }
        return IssuedTokens(
            accessToken: mintAccessToken(for: grant), refreshToken: grant.refreshToken,
            expiresIn: Int(accessTokenLifetime), scopes: scopes, user: user
        )
    }

    /// Ready tokens for a seeded user (the first-line `accounts`): reuses the user's seeded grant when one
    /// survived a restart (`--state`), so its refresh token stays the same, and mints a fresh access token.
    package func seededTokens(provider: SandboxProvider, user: String, clientId: String, scopes: [String]) -> IssuedTokens {
        if let grant = state.grants.values.first(where: {
            $0.seeded && $0.provider == provider && $0.user == user && $0.clientId == clientId && $0.refreshToken != nil
        }), !refreshExpired(grant) {
            return IssuedTokens(
                accessToken: mintAccessToken(for: grant), refreshToken: grant.refreshToken,
                expiresIn: Int(accessTokenLifetime), scopes: grant.scopes, user: user
            )
        }
        var tokens = issue(provider: provider, user: user, clientId: clientId, scopes: scopes, offline: true)
        if let id = tokens.refreshToken.flatMap({ state.refreshTokens[$0] }) { state.grants[id]?.seeded = true }
        tokens.user = user
        return tokens
    }

    /// Issues a new access token for a refresh token. Microsoft also rotates the refresh token (the returned
    /// one replaces it); Google returns none and the old one stays valid.
    /// - Parameter scopes: Microsoft may narrow the scopes on refresh; nil keeps the grant's.
    package func refresh(
        refreshToken: String, provider: SandboxProvider, clientId: String, scopes: [String]? = nil
    ) -> Result<IssuedTokens, RefreshFailure> {
        guard let id = state.refreshTokens[refreshToken], var grant = state.grants[id] else { return .failure(.unknown) }
        guard grant.provider == provider, grant.clientId == clientId else { return .failure(.wrongClient) }
        guard !refreshExpired(grant) else { return .failure(.expired) }
        if let refreshRefusal { return .failure(.refused(refreshRefusal)) }
        var issuedRefresh: String?
        if provider == .microsoft {
            state.refreshTokens[refreshToken] = nil
            let rotated = Self.newRefreshToken(provider)
            state.refreshTokens[rotated] = id
            grant.refreshToken = rotated
            grant.refreshIssuedAt = now()
            state.grants[id] = grant
            issuedRefresh = rotated
        }
        let granted = scopes.map { requested in requested.filter { grant.scopes.contains($0) } } ?? grant.scopes
        refreshCount += 1
        return .success(IssuedTokens(
            accessToken: mintAccessToken(for: grant), refreshToken: issuedRefresh,
            expiresIn: Int(accessTokenLifetime), scopes: granted.isEmpty ? grant.scopes : granted, user: grant.user
        ))
    }

    /// Revokes the grant that `token` (an access or a refresh token) belongs to. False when unknown.
    @discardableResult
    package func revoke(token: String) -> Bool {
        guard let id = state.accessTokens[token]?.grantID ?? state.refreshTokens[token] else { return false }
        endGrant(id)
        return true
    }

    /// Revokes every grant of a user (a test hook: "the user removed the app's access").
    package func revokeAll(user: String, provider: SandboxProvider) {
        for grant in state.grants.values where grant.user == user && grant.provider == provider { endGrant(grant.id) }
    }

    /// Ends the lifetime of every access token issued so far, as if it had passed (a test hook: the API
    /// then answers 401, and a client that still thinks its token is fresh must refresh and retry).
    package func expireAllAccessTokens() {
        let past = now().addingTimeInterval(-1)
        for token in state.accessTokens.keys { state.accessTokens[token]?.expiresAt = past }
    }

    /// How many grants are live (tests).
    package var grantCount: Int { state.grants.count }

    // MARK: - State (`--state FILE`)

    /// Every grant and token as JSON.
    package func snapshot() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return try encoder.encode(state)
    }

    /// Replaces every grant and token with a snapshot taken earlier.
    package func restore(_ snapshot: Data) throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        state = try decoder.decode(State.self, from: snapshot)
    }

    // MARK: - Private

    private func endGrant(_ id: String) {
        guard let grant = state.grants.removeValue(forKey: id) else { return }
        if let refresh = grant.refreshToken { state.refreshTokens[refresh] = nil }
        state.accessTokens = state.accessTokens.filter { $0.value.grantID != id }
    }

    private func refreshExpired(_ grant: Grant) -> Bool {
        guard let refreshTokenLifetime else { return false }
        return now().timeIntervalSince(grant.refreshIssuedAt) >= refreshTokenLifetime
    }

    private func mintAccessToken(for grant: Grant) -> String {
        pruneIfLarge()
        let token = Self.newAccessToken(grant.provider)
        state.accessTokens[token] = AccessRecord(grantID: grant.id, expiresAt: now().addingTimeInterval(accessTokenLifetime))
        return token
    }

    /// Expired access tokens are kept (an API must answer "expired", not "invalid") but not forever.
    private func pruneIfLarge() {
        guard state.accessTokens.count > 50_000 else { return }
        let cutoff = now().addingTimeInterval(-86_400)
        state.accessTokens = state.accessTokens.filter { $0.value.expiresAt > cutoff }
    }

    /// Shaped like the real ones at a glance (Google `ya29.`, `1//`; Microsoft `EwB`, `M.C5`), still opaque.
    private static func newAccessToken(_ provider: SandboxProvider) -> String {
        (provider == .google ? "ya29.sandbox-" : "EwBsandbox-") + PKCE.randomToken(bytes: 24)
    }

    private static func newRefreshToken(_ provider: SandboxProvider) -> String {
        (provider == .google ? "1//sandbox-" : "M.C5-sandbox-") + PKCE.randomToken(bytes: 24)
    }
}
