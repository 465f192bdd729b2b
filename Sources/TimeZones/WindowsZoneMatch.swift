/// How a name was recognised and what it maps to: the detailed answer behind `WindowsZones.resolve`
/// and `WindowsZones.windowsName(forIANA:)` (the `calbridge timezones NAME` command prints it).
public struct WindowsZoneMatch: Sendable, Hashable {
    /// What kind of name the input was.
    public enum Kind: String, Sendable, Hashable {
        /// A CLDR Windows name (any case).
        case windowsName = "windows-name"
        /// A retired Windows name or Graph alias ("Alberta Standard Time", `tzone://Microsoft/Utc`).
        case legacyName = "legacy-name"
        /// A Windows display name ("(UTC+01:00) Amsterdam, Berlin, …").
        case displayName = "display-name"
        /// `tzone://Microsoft/Custom`.
        case custom
        /// An IANA id spelled as in the table.
        case ianaIdentifier = "iana-id"
        /// An IANA id the table spells differently (a tz database link, or another spelling of UTC).
        case ianaAlias = "iana-alias"

        /// True when the input named an IANA zone and the answer is a Windows name.
        public var isIANA: Bool { self == .ianaIdentifier || self == .ianaAlias }
    }

    /// The name as given.
    public var input: String
    public var kind: Kind
    /// The CLDR Windows name; nil for a custom zone.
    public var windows: String?
    /// The territory of the row used (`001` by default); nil for a custom zone.
    public var territory: String?
    /// For Windows input: every IANA id of the row used (the first is the answer). For IANA input: the
    /// table's spelling of the id (e.g. `Asia/Calcutta` for `Asia/Kolkata`).
    public var iana: [String]
    /// For IANA input: the id as asked, in its proper case.
    public var ianaSpelling: String?

    public init(
        input: String, kind: Kind, windows: String?, territory: String?, iana: [String], ianaSpelling: String? = nil
    ) {
        self.input = input
        self.kind = kind
        self.windows = windows
        self.territory = territory
        self.iana = iana
        self.ianaSpelling = ianaSpelling
    }

    /// The IANA id to use: the row's first id for Windows input, the asked id for IANA input, nil if custom.
    public var ianaIdentifier: String? { kind.isIANA ? ianaSpelling ?? iana.first : iana.first }

    /// The resolution: an IANA id, or the custom-zone case.
    public var resolution: WindowsZoneResolution {
        ianaIdentifier.map(WindowsZoneResolution.iana) ?? .custom
    }
}
