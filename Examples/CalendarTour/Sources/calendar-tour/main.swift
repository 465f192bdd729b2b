import CalendarBridge
import Foundation
import GoogleCalendar
import HTTPCurl
import MicrosoftGraph
import OAuth

// Opens every account stored by `calbridge accounts add` ($CALBRIDGE_HOME, else ~/.config/calbridge).
let home = CalbridgeHome(environment: ProcessInfo.processInfo.environment)
let transport = CurlTransport()
var providers: [any CalendarProvider] = []
for record in try AccountRegistry(home: home).accounts() {
    let builtIn = record.provider == "google" ? GoogleCalendarDescriptor.builtInJSON : MicrosoftGraphDescriptor.builtInJSON
    let descriptor = try record.descriptor ?? ProviderDescriptor.parse(builtIn, source: record.provider, tenant: record.tenant)
    let session = try AccountSession.open(record, descriptor: descriptor, store: FileTokenStore(home: home), base: transport)
    providers.append(descriptor.api == .googleCalendarV3
        ? GoogleCalendarProvider(account: record.name, transport: session.transport, baseURL: descriptor.apiBaseURL)
        : GraphCalendarProvider(account: record.name, transport: session.transport, baseURL: descriptor.apiBaseURL))
}
// Every calendar of every account, Google and Outlook alike.
for provider in providers {
    for calendar in try await provider.listCalendars() { print("\(provider.account):\(calendar.name)") }
}
// Quick add, read by calbridge's parser, into the first account's primary calendar.
let zone = QuickAddZone(identifier: TimeZone.current.identifier) ?? QuickAddZone(identifier: "UTC")!
let parsed = try QuickAddParser().parse("Lunch with Ana tomorrow 12:30", now: Date(), zone: zone)
if let provider = providers.first, let primary = try await provider.listCalendars().first(where: \.isPrimary) {
    let created = try await provider.createEvent(parsed.event, in: primary.id)
    print("created '\(created.title)' in \(provider.account):\(primary.name)")
}
