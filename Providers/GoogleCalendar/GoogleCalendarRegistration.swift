import CalendarBridge
import Foundation
import HTTP
import OAuth
import ProviderSeam

/// Google Calendar as calbridge registers it: id `google`, OAuth with the built-in `google.json`
/// (compiled into this module), and retries for Google's rate-limit answers.
public enum GoogleCalendarRegistration {
    /// The API a descriptor names to be served by this provider.
    public static let api = ProviderAPI(rawValue: "google-calendar-v3")

    /// The built-in descriptor document, for `ProviderDescriptor.parse`.
    public static var builtInJSON: Data { Data(PackageResources.google_json) }

    /// Why Google's refresh tokens stop working after a week: apps whose consent screen is in "Testing"
    /// get 7-day refresh tokens (developers.google.com/identity/protocols/oauth2#expiration).
    public static let invalidGrantAdvice =
        "if your Google Cloud app's OAuth consent screen is in \"Testing\" status, Google expires its refresh tokens "
        + "after 7 days: publish it (Google Cloud console > Google Auth Platform > Audience > Publish app, status "
        + "\"In production\")"

    /// Google Calendar's default quota per user: 600 requests a minute (Calendar API, "Manage quotas").
    public static let requestQuota = RequestQuota.Limit(requests: 600, per: .seconds(60))

    /// The registration (see `ProviderRegistration`).
    public static let registration = ProviderRegistration(
        id: "google", displayName: "Google Calendar", api: api,
        credential: .oauth(builtInDescriptor: builtInJSON),
        // Google says "slow down" with 403 and a reason as well as with 429.
        middlewares: [RetryMiddleware(isRetryable: GoogleErrorMapping.isRateLimited)],
        requestQuota: requestQuota,
        userTimeZoneSource: "primary calendar",
        invalidGrantAdvice: invalidGrantAdvice,
        makeProvider: { account, transport in
            GoogleCalendarProvider(account: account.name, transport: transport, baseURL: account.apiBaseURL)
        }
    )
}

extension ProviderKind {
    /// Google Calendar API v3.
    public static let google = ProviderKind(rawValue: "google")
}
