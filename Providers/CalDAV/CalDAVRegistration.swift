import CalendarBridge
import Foundation
import HTTP
import OAuth
import ProviderSeam

/// CalDAV as calbridge registers it: `caldav` for any server (`accounts add caldav URL --user USER`), and
/// the shortcuts `icloud` and `fastmail`, which know their service's URL. All three are one provider (one
/// API, one kind in origin markers) signed in with a user name and an app password.
public enum CalDAVRegistration {
    public static let api = ProviderAPI(rawValue: "caldav")

    /// CalDAV servers publish no request budget; this one is polite to a small server and far above what
    /// calbridge's commands send.
    public static let requestQuota = RequestQuota.Limit(requests: 100, per: .seconds(10))

    /// iCloud's CalDAV service: `caldav.icloud.com` names each account's own `pNN-caldav.icloud.com` host.
    public static let iCloudServer = URL(string: "https://caldav.icloud.com/")!

    /// Fastmail's CalDAV service; an account's principal is `/dav/principals/user/ADDRESS/`.
    public static let fastmailServer = URL(string: "https://caldav.fastmail.com/")!

    /// Any CalDAV server, by URL.
    public static let registration = make(
        id: "caldav", displayName: "CalDAV",
        signIn: PasswordSignIn(
            userNameLabel: "user name",
            passwordHelp: "Use the password of your CalDAV account (an app password where the service makes them)."))

    /// iCloud, with an app-specific password (Apple IDs with two-factor authentication refuse the account
    /// password over CalDAV).
    public static let iCloud = make(
        id: "icloud", displayName: "iCloud",
        signIn: PasswordSignIn(
            defaultServer: iCloudServer, userNameLabel: "Apple ID",
            passwordHelp:
                "iCloud takes an app-specific password, not your Apple ID password: make one at https://account.apple.com (Sign-In and Security > App-Specific Passwords)."
        ))

    /// Fastmail, with an app password that may use CalDAV.
    public static let fastmail = make(
        id: "fastmail", displayName: "Fastmail",
        signIn: PasswordSignIn(
            defaultServer: fastmailServer, userNameLabel: "Fastmail address",
            passwordHelp:
                "Fastmail takes an app password: make one in Fastmail's Settings > Privacy & Security > App passwords, with access to calendars (CalDAV).",
            serverForUser: { user in
                var allowed = CharacterSet.urlPathAllowed
                allowed.remove("/")
                guard let escaped = user.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
                return URL(string: "https://caldav.fastmail.com/dav/principals/user/\(escaped)/")
            }))

    /// Every CalDAV registration, for the registry.
    public static let all = [registration, iCloud, fastmail]

    static func make(id: String, displayName: String, signIn: PasswordSignIn) -> ProviderRegistration {
        ProviderRegistration(
            id: id, displayName: displayName, api: api, credential: .password(signIn),
            middlewares: [RetryMiddleware()], requestQuota: requestQuota,
            makeProvider: { account, transport in
                CalDAVProvider(
                    provider: .caldav, account: account.name, transport: transport, server: account.apiBaseURL, state: account.state)
            })
    }
}

extension ProviderKind {
    /// Any CalDAV server (iCloud and Fastmail included).
    public static let caldav = ProviderKind(rawValue: "caldav")
}
