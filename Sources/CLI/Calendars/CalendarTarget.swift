import Accounts
import CalendarBridge
import Foundation

/// One calendar named on the command line (`account:calendar`), opened: its account's provider and
/// the calendar as the provider lists it.
struct CalendarTarget: Sendable {
    let reference: CalendarRef
    let provider: any CalendarProvider
    let calendar: CalendarInfo

    /// Parses and resolves a `CALENDAR_REF` argument.
    /// - Throws: `CalendarError` (`.invalidReference`, `.notFound`, `.ambiguous`), `StorageError` for an
    ///   unknown account, and whatever listing the account's calendars throws.
    static func open(_ text: String, accounts: AccountProviders) async throws -> CalendarTarget {
        let reference = try CalendarRef(parsing: text)
        let provider = try accounts.provider(for: reference)
        let (_, calendar) = try await CalendarDirectory(providers: [provider]).resolve(reference)
        return CalendarTarget(reference: reference, provider: provider, calendar: calendar)
    }

    /// How `calbridge calendars` spells this calendar.
    var label: String { "\(calendar.account):\(calendar.name)" }

    /// The calendar owner's zone: the Graph mailbox zone or the Google primary calendar's zone; the
    /// calendar's own zone when the owner states none.
    func ownerZone() async throws -> TimeZone? {
        let info = try await provider.userInfo()
        for name in [info.timeZone, calendar.timeZone].compactMap({ $0 }) {
            if let zone = TimeZone(identifier: name) { return zone }
        }
        return nil
    }

    /// The zone times typed for this calendar are read in when the user names none, and where it came from: a
    /// Google calendar's own zone, else the owner's (Outlook: the mailbox's), else the calendar's own (a CalDAV
    /// calendar's `calendar-timezone`). Nil when the calendar and its owner state none. `quick-add` and `add`
    /// read their text and `--start`/`--end` in it, preview and real run alike.
    func readingZone() async throws -> (name: String, zone: TimeZone, source: String)? {
        let isGoogle = provider.capabilities.serverQuickAdd
        let calendarZone = calendar.timeZone.flatMap { name in TimeZone(identifier: name).map { (name: name, zone: $0) } }
        if isGoogle, let calendarZone {
            return (calendarZone.name, calendarZone.zone, "the calendar's zone")
        }
        if let name = try await provider.userInfo().timeZone, let owner = TimeZone(identifier: name) {
            return (ZoneOptions.name(of: owner), owner, isGoogle ? "the owner's zone" : "the mailbox's zone")
        }
        return calendarZone.map { ($0.name, $0.zone, "the calendar's zone") }
    }

    /// Refuses a calendar this account may not write to, before anything is sent.
    func requireWritable() throws(CalendarError) {
        guard calendar.accessRole.canWrite else {
            throw CalendarError(
                .readOnly, "the calendar is read-only for this account (access: \(calendar.accessRole.rawValue))",
                provider: calendar.provider, account: calendar.account, calendar: calendar.name)
        }
    }
}

extension CalendarInfo {
    /// The shortest `account:calendar` text that resolves to this calendar among `siblings` (the same
    /// account's calendars): the name when it is unique and cannot be mistaken for an id or a keyword,
    /// otherwise the id.
    func reference(among siblings: [CalendarInfo]) -> String {
        let lowered = name.lowercased()
        let sameName = siblings.filter { $0.account == account && $0.name.lowercased() == lowered }
        let nameIsOtherID = siblings.contains { $0.account == account && $0.id == name && $0.id != id }
        if sameName.count == 1, !nameIsOtherID, lowered != "primary", lowered != "default", !name.isEmpty {
            return "\(account):\(name)"
        }
        return "\(account):\(id)"
    }
}
