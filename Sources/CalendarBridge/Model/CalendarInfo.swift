/// One calendar of one account, as a provider lists it.
public struct CalendarInfo: Sendable, Hashable, Codable, Identifiable {
    /// The provider's id (Google: often an e-mail address or `...@group.calendar.google.com`; Graph: opaque).
    public var id: String
    /// The name shown to the user (Google `summaryOverride` or `summary`; Graph `name`).
    public var name: String
    /// The calbridge account name this calendar was listed through.
    public var account: String
    public var provider: ProviderKind
    /// Google's `primary` calendar, or Outlook's default calendar (`isDefaultCalendar`).
    public var isPrimary: Bool
    public var accessRole: AccessRole
    /// The calendar's IANA zone when the provider states one (Google does; Graph calendars have none).
    public var timeZone: String?
    /// Display colour as `#rrggbb`, when known.
    public var colour: String?

    public init(
        id: String, name: String, account: String, provider: ProviderKind, isPrimary: Bool = false,
        accessRole: AccessRole, timeZone: String? = nil, colour: String? = nil
    ) {
        self.id = id
        self.name = name
        self.account = account
        self.provider = provider
        self.isPrimary = isPrimary
        self.accessRole = accessRole
        self.timeZone = timeZone
        self.colour = colour
    }
}
