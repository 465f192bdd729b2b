import Accounts
import CalDAV
import GoogleCalendar
import ICalendarFeed
import MicrosoftGraph
import ProviderSeam

extension ProviderRegistry {
    /// Every provider this calbridge speaks. A new provider is its `Providers/` folder, one line here
    /// and its target in `Package.swift` (docs/adding-a-provider.md).
    package static let builtIn = ProviderRegistry(
        [
            GoogleCalendarRegistration.registration,
            MicrosoftGraphRegistration.registration,
            ICalendarFeedRegistration.registration,
        ] + CalDAVRegistration.all)
}
