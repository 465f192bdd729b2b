import CalendarBridge
import OAuth
import ProviderSeam

/// Subscribed iCalendar feeds: `calbridge accounts add ics URL --name NAME`.
public enum ICalendarFeedRegistration {
    /// The API feed accounts store (`accounts.json`'s `api`).
    public static let api = ProviderAPI(rawValue: "icalendar-feed")

    public static let registration = ProviderRegistration(
        id: "ics", displayName: "iCalendar feed", api: api, credential: .secretURL, userTimeZoneSource: "feed"
    ) { account, transport in
        ICalendarFeedProvider(account: account.name, url: account.apiBaseURL, transport: transport, state: account.state)
    }
}
