import CalendarBridge
import Foundation
import HTTP
import OAuth
import ProviderSeam

/// The XML calendar as calbridge registers it: id `xmlcal`, a user name and app password, a request
/// budget of its own and the standard throttling retries.
public enum XMLCalendarRegistration {
    public static let kind = ProviderKind(rawValue: "xmlcal")
    public static let api = ProviderAPI(rawValue: "xmlcal-v1")

    public static let registration = ProviderRegistration(
        id: "xmlcal", displayName: "XML Calendar", api: api,
        credential: .password(
            PasswordSignIn(userNameLabel: "user name", passwordHelp: "Use an app password made in the XML Calendar's settings.")),
        middlewares: [RetryMiddleware()],
        // The service's own budget, declared here like every provider's (not in HTTP).
        requestQuota: RequestQuota.Limit(requests: 100, per: .seconds(10)),
        makeProvider: { account, transport in
            XMLCalendarProvider(account: account.name, transport: transport, baseURL: account.apiBaseURL)
        }
    )
}
