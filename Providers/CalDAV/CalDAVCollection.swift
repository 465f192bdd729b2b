import CalendarBridge
import Foundation

/// One calendar collection of a PROPFIND of the home: the calendar as calbridge shows it, and the
/// collection's change markers (RFC 6578's sync token, CalendarServer's ctag).
struct CalDAVCollection: Sendable {
    var info: CalendarInfo
    var url: URL
    var syncToken: String?
    var ctag: String?

    /// The collection, or nil for a response that is not a calendar of events (the home itself, an
    /// address book, a task list, the scheduling inbox).
    init?(_ response: Multistatus.Response, url: URL, home: URL, account: String, provider: ProviderKind) {
        guard let types = response.property(DAVNamespace.dav, "resourcetype"), types.child(DAVNamespace.caldav, "calendar") != nil else {
            return nil
        }
        if let components = response.property(DAVNamespace.caldav, "supported-calendar-component-set") {
            let names = components.children(DAVNamespace.caldav, "comp").compactMap { Self.attribute($0) }
            if !names.isEmpty, !names.contains("VEVENT") { return nil }
        }
        self.url = url
        let id = Self.id(of: url, home: home)
        let displayName = response.property(DAVNamespace.dav, "displayname")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = displayName.flatMap { $0.isEmpty ? nil : $0 } ?? url.lastPathComponent
        info = CalendarInfo(
            id: id, name: name, account: account, provider: provider, accessRole: Self.role(response),
            timeZone: response.property(DAVNamespace.caldav, "calendar-timezone").flatMap { Self.zone(inCalendar: $0.text) },
            colour: response.property(DAVNamespace.apple, "calendar-color").flatMap { Self.colour($0.text) })
        syncToken = response.property(DAVNamespace.dav, "sync-token")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
        ctag = response.property(DAVNamespace.calendarServer, "getctag")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A calendar's id: its name under the home (`work`), or its whole URL when it lives elsewhere.
    static func id(of url: URL, home: URL) -> String {
        let homePath = home.path.hasSuffix("/") ? home.path : home.path + "/"
        let path = url.path
        if url.host == home.host, path.hasPrefix(homePath), !url.lastPathComponent.isEmpty,
            path.dropFirst(homePath.count).trimmingCharacters(in: CharacterSet(charactersIn: "/")) == url.lastPathComponent
        {
            return url.lastPathComponent
        }
        return url.absoluteString
    }

    /// `owner` with every privilege (or `write-acl`), `writer` with `write` or `write-content`, else `reader`
    /// (RFC 3744 §5.4); `owner` when the server does not say (most servers answer for the user's own calendars).
    static func role(_ response: Multistatus.Response) -> AccessRole {
        guard let set = response.property(DAVNamespace.dav, "current-user-privilege-set") else { return .owner }
        let granted = Set(set.children(DAVNamespace.dav, "privilege").flatMap { $0.children.map(\.name) })
        if granted.contains("all") || granted.contains("write-acl") { return .owner }
        if granted.contains("write") || granted.contains("write-content") || granted.contains("bind") { return .writer }
        return .reader
    }

    /// The `TZID` of the `VTIMEZONE` in a `calendar-timezone` property.
    static func zone(inCalendar text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) where line.uppercased().hasPrefix("TZID:") {
            let zone = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
            if !zone.isEmpty { return zone }
        }
        return nil
    }

    /// `#rrggbb` from Apple's `#RRGGBB` or `#RRGGBBAA`.
    static func colour(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("#"), trimmed.count == 7 || trimmed.count == 9,
            trimmed.dropFirst().allSatisfy(\.isHexDigit)
        else { return nil }
        return String(trimmed.prefix(7)).lowercased()
    }

    /// The component a `<c:comp name="VEVENT"/>` names.
    static func attribute(_ element: DAVElement) -> String? {
        element.attributes["name"]?.uppercased()
    }
}
