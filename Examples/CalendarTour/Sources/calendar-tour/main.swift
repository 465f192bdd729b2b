import Accounts
import CalendarBridge
import Foundation
import GoogleCalendar
import HTTPCurl
import MicrosoftGraph
import ProviderSeam

do {
    // The providers this program speaks, and every account `calbridge accounts add` stored
    // ($CALBRIDGE_HOME, else ~/.config/calbridge): one session (tokens refreshed and saved) per account.
    let providers = ProviderRegistry([GoogleCalendarRegistration.registration, MicrosoftGraphRegistration.registration])
    let home = CalbridgeHome(environment: ProcessInfo.processInfo.environment)
    let sessions = AccountSessions(home: home, providers: providers, transport: CurlTransport())
    let calendars = try sessions.registry.accounts().map { try sessions.provider(for: $0) }

    // Every calendar of every account, Google and Outlook alike.
    for provider in calendars {
        for calendar in try await provider.listCalendars() { print("\(provider.account):\(calendar.name)") }
    }

    // Quick add, read by calbridge's parser, into the first account's primary calendar.
    let zone = QuickAddZone(identifier: TimeZone.current.identifier) ?? QuickAddZone(identifier: "UTC")!
    let parsed = try QuickAddParser().parse("Lunch with Ana tomorrow 12:30", now: Date(), zone: zone)
    if let provider = calendars.first, let primary = try await provider.listCalendars().first(where: \.isPrimary) {
        let created = try await provider.createEvent(parsed.event, in: primary.id)
        print("created '\(created.title)' in \(provider.account):\(primary.name)")
    }
} catch {
    // Errors are typed values with a one-line description (a sign-in to renew, a file to fix, ...).
    print("calendar-tour: \(error)")
    exit(1)
}
