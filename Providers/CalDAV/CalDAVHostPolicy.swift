import Foundation

/// Which hosts an account's password may be sent to besides the one it was added with: what a redirect may
/// follow, and where discovery may find the principal and the calendar home.
///
/// Most services keep an account on one host, and a redirect or a calendar home elsewhere is refused. iCloud
/// sends each account from `caldav.icloud.com` to a host of its own (`calendar-home-set` is
/// `https://p37-caldav.icloud.com:443/<id>/calendars/`): its registration allows the service's other hosts.
public struct CalDAVHostPolicy: Sendable, Equatable {
    /// Whether another host of the same domain (the last two labels of the name) is the service's own.
    let followsServiceHosts: Bool

    /// The host the account was added with (another port of it too: a server behind a proxy), never elsewhere.
    public static let sameHost = CalDAVHostPolicy(followsServiceHosts: false)
    /// Also the service's other hosts: a host name with the same last two labels (`p37-caldav.icloud.com` for
    /// `caldav.icloud.com`), over HTTPS, or on the loopback (`*.localhost` names, the sandbox's).
    public static let serviceHosts = CalDAVHostPolicy(followsServiceHosts: true)

    /// Whether a request may go from `from` (a URL the account uses) to `to` with the password. Never from
    /// HTTPS to HTTP.
    public func allows(from: URL, to: URL) -> Bool {
        guard let fromHost = from.host?.lowercased(), let toHost = to.host?.lowercased() else { return false }
        let fromScheme = from.scheme?.lowercased(), toScheme = to.scheme?.lowercased()
        if fromScheme == "https", toScheme != "https" { return false }
        guard toScheme == "https" || toScheme == "http" else { return false }
        if fromHost == toHost { return true }
        guard followsServiceHosts, toScheme == "https" || (Self.isLoopbackName(fromHost) && Self.isLoopbackName(toHost)) else {
            return false
        }
        let fromLabels = fromHost.split(separator: "."), toLabels = toHost.split(separator: ".")
        guard fromLabels.count >= 2, toLabels.count >= 2, fromHost.first?.isLetter == true, toHost.first?.isLetter == true else {
            return false
        }
        return fromLabels.suffix(2) == toLabels.suffix(2)
    }

    /// `localhost` and the names under it, which resolve to the loopback (RFC 6761 §6.3; libcurl answers them
    /// itself, without asking DNS).
    static func isLoopbackName(_ host: String) -> Bool {
        host == "localhost" || host.hasSuffix(".localhost")
    }
}
