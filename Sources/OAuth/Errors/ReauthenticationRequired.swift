/// The stored grant no longer works (revoked, expired, password changed, no refresh token, or the
/// provider now wants MFA or consent): only a new interactive sign-in helps. The CLI maps this to
/// exit code 3.
public struct ReauthenticationRequired: Error, Sendable, Equatable, CustomStringConvertible {
    /// The account's name in calbridge.
    public var account: String
    /// The provider's display name ("Google Calendar").
    public var provider: String
    /// The exact command that signs the account in again.
    public var command: String
    /// What the server said (for example "invalid_grant: Token has been expired or revoked.").
    public var reason: String
    /// What else the user should do before signing in again (publish a Google app in testing), if anything.
    public var advice: String?

    public init(account: String, provider: String, command: String, reason: String, advice: String? = nil) {
        self.account = account
        self.provider = provider
        self.command = command
        self.reason = reason
        self.advice = advice
    }

    /// One line, ending in the command, so that it can be copied from the end of the line.
    public var description: String {
        // One line: Entra's reasons carry "\r\n" before their trace and correlation ids.
        let reason = reason.split(whereSeparator: \.isNewline).joined(separator: " ")
        var text = "the sign-in of account '\(account)' at \(provider) is no longer valid (\(reason)); "
        if let advice { text += advice + "; then " }
        return text + "sign in again with: \(command)"
    }
}

extension ReauthenticationRequired {
    /// Plain words for the Entra (AADSTS) codes a refresh gets when only a new sign-in helps.
    static let entraReasons: [Int: String] = [
        50076: "multi-factor authentication is now required",
        50079: "the account must now enroll in multi-factor authentication",
        50078: "the multi-factor authentication has expired",
        50058: "no one is signed in at Microsoft any more",
        50173: "the grant was revoked, for example because the password was changed",
        65001: "consent to the app is missing or was withdrawn",
        70008: "the refresh token expired after a long time unused",
        700082: "the refresh token expired after a long time unused",
        70000: "the grant is no longer valid (revoked, or replaced by a newer refresh token)",
    ]

    /// The re-authentication error for a refresh refused with `error` (one of `OAuthError.signInAgainCodes`).
    /// - Parameter invalidGrantAdvice: the provider's explanation of its `invalid_grant` (from its registration).
    public init(
        refreshError error: OAuthError, account: String, provider: String, command: String, invalidGrantAdvice: String?
    ) {
        var reason = error.code.rawValue
        if let summary = error.summary { reason += ": " + summary }
        if let plain = error.errorCodes.lazy.compactMap({ Self.entraReasons[$0] }).first { reason = plain + "; " + reason }
        self.init(
            account: account, provider: provider, command: command, reason: reason,
            advice: error.code == .invalidGrant ? invalidGrantAdvice : nil
        )
    }
}
