/// Where an account's tokens are kept between runs.
///
/// `FileTokenStore` (module Accounts) is the real one; a test double keeps a dictionary:
/// ```swift
/// final class MemoryTokenStore: TokenStore, @unchecked Sendable {
///     var tokens: [String: TokenSet] = [:]   // guard with a lock
///     func load(account: String) throws -> TokenSet? { tokens[account] }
///     func save(_ tokens: TokenSet, account: String) throws { self.tokens[account] = tokens }
///     func delete(account: String) throws { tokens[account] = nil }
/// }
/// ```
public protocol TokenStore: Sendable {
    func load(account: String) throws -> TokenSet?
    /// Persists a new token set; it must be durable (or the old one intact) when this returns or throws.
    func save(_ tokens: TokenSet, account: String) throws
    func delete(account: String) throws
    /// Runs `body` while no other process (or session) of this account refreshes or writes its tokens.
    /// A refresh re-reads the tokens inside, so it never uses a refresh token another process rotated.
    /// Not reentrant. The default runs `body` at once (a store no other process shares).
    func withExclusiveAccess<T: Sendable>(account: String, _ body: @Sendable () async throws -> T) async throws -> T
}

extension TokenStore {
    public func withExclusiveAccess<T: Sendable>(account: String, _ body: @Sendable () async throws -> T) async throws -> T {
        try await body()
    }
}
