import Accounts
import GoogleCalendar
import MicrosoftGraph

extension ProviderRegistry {
    /// Every provider this calbridge speaks. A new provider is its `Providers/` folder, one line here
    /// and its target in `Package.swift` (README: "Adding a provider").
    public static let builtIn = ProviderRegistry([
        GoogleCalendarRegistration.registration,
        MicrosoftGraphRegistration.registration,
    ])
}
