import CalendarBridge
import Foundation
import HTTP
import OAuth
import ProviderSeam

/// Microsoft Graph as calbridge registers it: id `microsoft`, OAuth with the built-in
/// `microsoft.json` (compiled into this module; its URLs contain `{tenant}`), and the standard
/// throttling retries (429, 503, 504 with `Retry-After`).
public enum MicrosoftGraphRegistration {
    /// The API a descriptor names to be served by this provider.
    public static let api = ProviderAPI(rawValue: "microsoft-graph-v1")

    /// The built-in descriptor document, for `ProviderDescriptor.parse`.
    public static var builtInJSON: Data { Data(PackageResources.microsoft_json) }

    /// Graph's Outlook limit per app and mailbox: 10,000 requests in 10 minutes ("Microsoft Graph service
    /// limits", Outlook service limits).
    public static let requestQuota = RequestQuota.Limit(requests: 10_000, per: .seconds(600))

    /// The registration (see `ProviderRegistration`).
    public static let registration = ProviderRegistration(
        id: "microsoft", displayName: "Microsoft Outlook (Graph)", api: api,
        credential: .oauth(builtInDescriptor: builtInJSON),
        middlewares: [RetryMiddleware()],
        requestQuota: requestQuota,
        userTimeZoneSource: "mailbox",
        // Entra matches the registered http://localhost by host (any port), never 127.0.0.1.
        redirectHost: .localhost,
        makeProvider: { account, transport in
            GraphCalendarProvider(account: account.name, transport: transport, baseURL: account.apiBaseURL)
        }
    )
}

extension ProviderKind {
    /// Microsoft Graph v1.0 (Outlook, Microsoft 365).
    public static let microsoft = ProviderKind(rawValue: "microsoft")
}
