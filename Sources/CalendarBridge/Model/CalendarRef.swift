import Foundation

/// A user's way of naming a calendar: `account:calendar`, where calendar is an id, a name (any case),
/// or `primary` / `default` (the account's main calendar). `account` alone means its main calendar.
public struct CalendarRef: Sendable, Hashable, CustomStringConvertible {
    /// How the calendar part picks a calendar.
    public enum Selector: Sendable, Hashable {
        /// `primary` or `default`: Google's primary, Outlook's default calendar.
        case primary
        /// An id or a name: an exact id wins, otherwise a case-insensitive name.
        case idOrName(String)
    }

    public var account: String
    public var selector: Selector

    public init(account: String, selector: Selector) {
        self.account = account
        self.selector = selector
    }

    /// Parses `account:calendar` (split at the first `:`; ids may contain more).
    /// - Throws: `CalendarError.invalidReference` for an empty account or calendar.
    public init(parsing text: String) throws(CalendarError) {
        let trimmed = text.trimmingWhitespaces
        let account: Substring
        let calendar: Substring?
        if let colon = trimmed.firstIndex(of: ":") {
            account = trimmed[..<colon]
            calendar = trimmed[trimmed.index(after: colon)...]
        } else {
            account = Substring(trimmed)
            calendar = nil
        }
        guard !account.isEmpty else {
            throw CalendarError(.invalidReference, "calendar reference '\(text)' has no account")
        }
        self.account = String(account)
        guard let calendar else {
            selector = .primary
            return
        }
        guard !calendar.isEmpty else {
            throw CalendarError(.invalidReference, "calendar reference '\(text)' has no calendar after ':'")
        }
        let lowered = calendar.lowercased()
        selector = lowered == "primary" || lowered == "default" ? .primary : .idOrName(String(calendar))
    }

    public var description: String {
        switch selector {
        case .primary: "\(account):primary"
        case .idOrName(let value): "\(account):\(value)"
        }
    }

    /// Picks the calendar this reference names from a listing (of any accounts; only `account`'s count).
    ///
    /// An exact id wins over names; otherwise names are compared ignoring case and diacritics' case.
    /// A calendar literally named "primary" is reachable through its id.
    /// - Throws: `CalendarError` `.notFound` (listing the account's calendars as candidates) or
    ///   `.ambiguous` (listing the matching calendars with their ids).
    public func resolve(in calendars: [CalendarInfo]) throws(CalendarError) -> CalendarInfo {
        let own = calendars.filter { $0.account == account }
        guard !own.isEmpty else {
            let accounts = Array(Set(calendars.map(\.account))).sorted()
            throw CalendarError(
                .notFound, "no account '\(account)' (or it has no calendars)", account: account, candidates: accounts)
        }
        let provider = own[0].provider
        switch selector {
        case .primary:
            if let primary = own.first(where: \.isPrimary) { return primary }
            throw CalendarError(
                .notFound, "the account has no primary calendar", provider: provider, account: account,
                calendar: "primary", candidates: own.map(\.name))
        case .idOrName(let value):
            if let byID = own.first(where: { $0.id == value }) { return byID }
            let matches = own.filter { $0.name.compare(value, options: [.caseInsensitive]) == .orderedSame }
            if matches.count == 1 { return matches[0] }
            if matches.isEmpty {
                throw CalendarError(
                    .notFound, "no calendar with that id or name", provider: provider, account: account,
                    calendar: value, candidates: own.map(\.name))
            }
            throw CalendarError(
                .ambiguous, "\(matches.count) calendars have that name", provider: provider, account: account,
                calendar: value, candidates: matches.map { "'\($0.name)' (id \($0.id))" })
        }
    }
}
