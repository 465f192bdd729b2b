/// A fault switch for the token endpoints: every refresh-token grant is refused the way the real service
/// refuses a grant that only a new interactive sign-in can repair. Each OAuth server answers in its own
/// shapes (as collected from real answers):
///
/// | kind               | Microsoft identity platform                                   | Google                                   |
/// |--------------------|---------------------------------------------------------------|------------------------------------------|
/// | `expired`          | `invalid_grant`, AADSTS70008 (expired after inactivity)       | `invalid_grant` "Token has been expired or revoked." |
/// | `mfa-required`     | `invalid_grant`, AADSTS50076, suberror `basic_action`         | `invalid_grant` "reauth related error (invalid_rapt)" |
/// | `mfa-enrollment`   | `interaction_required`, AADSTS50079                           | as `expired`                             |
/// | `consent-required` | `invalid_grant`, AADSTS65001, suberror `consent_required`     | as `expired`                             |
/// | `login-required`   | `login_required`, AADSTS50058                                 | as `expired`                             |
public enum SandboxRefreshRefusal: String, Sendable, Codable, CaseIterable {
    case expired
    case mfaRequired = "mfa-required"
    case mfaEnrollment = "mfa-enrollment"
    case consentRequired = "consent-required"
    case loginRequired = "login-required"
}
