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

    /// iCloud's budget per account. Apple publishes no CalDAV rate; `caldav.icloud.com` answers load with 503
    /// (calcurse #408; tsdav #95 reads its intermittent failures as a rate limit), and a hosted sync service
    /// that met those 503s meters each iCloud account at 240 requests a minute, borrowing Microsoft's
    /// documented four a second for one mailbox (keeper.sh #890, #932). calbridge does the same.
    public static let iCloudRequestQuota = RequestQuota.Limit(requests: 240, per: .seconds(60))

    /// Fastmail's budget per account. Fastmail documents no CalDAV rate (its account limits cover mail and
    /// bandwidth only) and no client reports its CalDAV throttling; the one hosted client that metered it ran
    /// it at 240 a minute and saw an account sit at that cap without a throttle answer (keeper.sh #932). So a
    /// polite budget above that: 100 requests in any 10 s.
    public static let fastmailRequestQuota = RequestQuota.Limit(requests: 100, per: .seconds(10))

    /// iCloud's CalDAV service: `caldav.icloud.com` names each account's own `pNN-caldav.icloud.com` host.
    public static let iCloudServer = URL(string: "https://caldav.icloud.com/")!

    /// Fastmail's CalDAV service; an account's principal is `/dav/principals/user/ADDRESS/`.
    public static let fastmailServer = URL(string: "https://caldav.fastmail.com/")!

    /// Any CalDAV server, by URL: no client-side budget. A self-hosted server (Radicale, Nextcloud, Xandikos)
    /// publishes none and takes what its owner configured; calbridge's writes are already bounded in flight
    /// (`CalendarProvider.applyWrites`), and a server that wants less says so with 429 or 503 and
    /// `Retry-After`, which `RetryMiddleware` honours.
    public static let registration = make(
        id: "caldav", displayName: "CalDAV", requestQuota: nil,
        signIn: PasswordSignIn(
            userNameLabel: "user name",
            passwordHelp: "Use the password of your CalDAV account (an app password where the service makes them)."))

    /// iCloud, with an app-specific password (Apple IDs with two-factor authentication refuse the account
    /// password over CalDAV).
    public static let iCloud = make(
        id: "icloud", displayName: "iCloud", hosts: .serviceHosts, requestQuota: iCloudRequestQuota,
        signIn: PasswordSignIn(
            defaultServer: iCloudServer, userNameLabel: "Apple ID",
            passwordHelp:
                "iCloud takes an app-specific password, not your Apple ID password: make one at https://account.apple.com (Sign-In and Security > App-Specific Passwords)."
        ))

    /// Fastmail, with an app password that may use CalDAV.
    public static let fastmail = make(
        id: "fastmail", displayName: "Fastmail", requestQuota: fastmailRequestQuota,
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

    /// - Parameters:
    ///   - hosts: where the service sends an account besides the URL it was added with (iCloud: its other
    ///     hosts; every other service: nowhere).
    ///   - requestQuota: the service's budget per account, nil for none (the account's service decides).
    static func make(
        id: String, displayName: String, hosts: CalDAVHostPolicy = .sameHost, requestQuota: RequestQuota.Limit?, signIn: PasswordSignIn
    ) -> ProviderRegistration {
        ProviderRegistration(
            id: id, displayName: displayName, api: api, credential: .password(signIn),
            middlewares: [RetryMiddleware()], requestQuota: requestQuota,
            makeProvider: { account, transport in
                CalDAVProvider(
                    provider: .caldav, account: account.name, transport: transport, server: account.apiBaseURL, state: account.state,
                    hosts: hosts)
            })
    }
}

extension ProviderKind {
    /// Any CalDAV server (iCloud and Fastmail included).
    public static let caldav = ProviderKind(rawValue: "caldav")
}
