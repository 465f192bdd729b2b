/// The stored grant no longer works (revoked, expired, password changed, no refresh token):
/// only a new interactive sign-in helps. The CLI maps this to exit code 3.
public struct ReauthenticationRequired: Error, Sendable, Equatable, CustomStringConvertible {
    /// The account's name in calbridge.
    public var account: String
    /// The provider's display name ("Google Calendar").
    public var provider: String
    /// The exact command that signs the account in again.
    public var command: String
    /// What the server said (for example "invalid_grant (Token has been expired or revoked.)").
    public var reason: String

    public init(account: String, provider: String, command: String, reason: String) {
        self.account = account
        self.provider = provider
        self.command = command
        self.reason = reason
    }

    public var description: String {
        // One line: Entra's reasons carry "\r\n" before their trace and correlation ids.
        let reason = reason.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "the sign-in of account '\(account)' at \(provider) is no longer valid (\(reason)); sign in again with: \(command)"
    }
}
